"""PMLR: a proceedings volume's `assets/bib/bibliography.bib` (`{base}/v{N}/assets/bib/...`).

Why this file: PMLR publishes, per volume, the BibTeX bibliography, a CSL-YAML file
(`citeproc.yaml`) and the volume's posts on GitHub (`mlresearch/vN/_posts`, one file per
paper). The bibliography is one request per volume, holds every paper with title, authors,
abstract, PDF and page link, and BibTeX's braces keep any abstract intact (the YAML file is
written by plain text substitution, which some abstracts break); the posts add the OpenReview
id and code link but cost one request per paper. It is read by the BibTeX reader; the volume's
own `@Proceedings` entry is left out.

The volume comes from VOLUMES (venue, year) or `--venue-id N`.
"""
from __future__ import annotations

from typing import Iterator

from .base import Page, Plan, RemoteSource, slug
from .transport import BadBody, Transport

VOLUMES = {
    "ICML": {2013: 28, 2014: 32, 2015: 37, 2016: 48, 2017: 70, 2018: 80, 2019: 97, 2020: 119,
             2021: 139, 2022: 162, 2023: 202, 2024: 235, 2025: 267},
    "AISTATS": {2015: 38, 2016: 51, 2017: 54, 2018: 84, 2019: 89, 2020: 108, 2021: 130, 2022: 151,
                2023: 206, 2024: 238, 2025: 258},
    "UAI": {2019: 115, 2020: 124, 2021: 161, 2022: 180, 2023: 216, 2024: 244, 2025: 286},
    "COLT": {2015: 40, 2016: 49, 2017: 65, 2018: 75, 2019: 99, 2020: 125, 2021: 134, 2022: 178,
             2023: 195, 2024: 247, 2025: 291},
    "CoRL": {2017: 78, 2018: 87, 2019: 100, 2020: 155, 2021: 164, 2022: 205, 2023: 229, 2024: 270},
    "ALT": {2018: 83, 2019: 98, 2020: 117, 2021: 132, 2022: 167, 2023: 201, 2024: 237, 2025: 272},
    "L4DC": {2020: 120, 2021: 144, 2022: 168, 2023: 211, 2024: 242},
    "CLeaR": {2022: 177, 2023: 213, 2024: 236},
}


class Pmlr(RemoteSource):
    name = "pmlr"
    label = "PMLR"
    env = "PAPERSCOPE_PMLR_URL"
    default_url = "https://proceedings.mlr.press"

    def plan(self, venue, year, *, base_url=None, venue_id=None, all_submissions=False, token=None):
        volume = str(venue_id).lstrip("vV") if venue_id else VOLUMES.get(venue, {}).get(year)
        if not volume or not str(volume).isdigit():
            return None
        url = f"{self.base_url(base_url)}/v{volume}/assets/bib/bibliography.bib"
        return Plan(self.name, venue, year, url, {}, f"pmlr-v{volume}-{slug(venue)}-{year}-bibliography")

    def pages(self, t: Transport, plan: Plan) -> Iterator[Page]:
        got = t.get(plan.url, save_as=f"{plan.stem}.bib", check=_bibliography)
        yield Page(got.path, got.data, got.data, got.cached, raw=got.data)


def _bibliography(body: bytes) -> int:
    """Entries of a volume's bibliography (BadBody when the answer is not one)."""
    text = body.decode("utf-8", errors="replace")
    entries = text.lower().count("@inproceedings")
    if not entries:
        raise BadBody("not a PMLR bibliography (no @InProceedings entry)")
    if text.rstrip()[-1:] != "}":
        raise BadBody("the bibliography ends in the middle of an entry (cut?)")
    return entries
