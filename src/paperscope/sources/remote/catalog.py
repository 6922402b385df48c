"""The remote sources by name, and the order they are tried in for a venue.

Order (when no `--source` is given): `openreview` first for a venue and year on OpenReview
(ICLR, NeurIPS, ICML, COLM, TMLR, UAI, CoRL; API v1 for ICLR 2018-2023 and NeurIPS 2021-2022),
then `virtual` (ICML, ICLR, NeurIPS, CVPR, ICCV, ECCV, MLSys, AISTATS from 2020), then `pmlr`
(ICML, AISTATS, UAI, COLT, CoRL, ALT, L4DC, CLeaR volumes). A source that does not publish the
venue and year is not asked; one that answers 404, fails, or holds no papers gives way to the next.
`arxiv` (the arXiv API, searched by `resolve`) is not a venue source.
"""
from __future__ import annotations

from .base import RemoteSource
from .openreview import OpenReview
from .pmlr import Pmlr
from .virtual import Virtual

SOURCES: dict[str, RemoteSource] = {s.name: s for s in (OpenReview(), Virtual(), Pmlr())}
ORDER = ("openreview", "virtual", "pmlr")


def order_for(venue: str, year: int) -> list[str]:
    """The sources that publish `venue` `year`, in the order they are tried."""
    return [name for name in ORDER if SOURCES[name].plan(venue, year) is not None]
