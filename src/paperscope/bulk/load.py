"""`paperscope load DIR`: the shards of a build folder into a library's store, one transaction
per shard. A shard the library already holds with the same fingerprint is skipped, so loading
an updated build adds only what changed; within a changed shard, papers whose columns are all
equal are left untouched. The search indexes are built afterwards by the facade."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..model import InputError
from . import shards
from ..sources.textio import shown_path, special_file
from ..store.protocol import Store


def check_build_folder(folder: Path) -> None:
    """InputError naming `folder` when it is missing or not a folder (a file, a device)."""
    if not folder.exists():
        raise InputError(f"{shown_path(folder)}: no such folder")
    if not folder.is_dir():
        kind = special_file(folder) or "a file"
        raise InputError(f"{shown_path(folder)} is {kind}, not a build folder "
                         "(`paperscope build ... --out FOLDER` makes one)")


def load_shards(store: Store, folder: str | Path, say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Load every shard of `folder` not already loaded; returns counts."""
    folder = Path(folder)
    check_build_folder(folder)
    manifest = shards.read_manifest(folder)
    if manifest is None:
        raise InputError(f"{folder}: no {shards.MANIFEST} (run `paperscope build ... --out {folder}` first)")
    versions = manifest["versions"]
    loaded = store.loaded_shards()
    out = {"shards": 0, "shards_skipped": 0, "added": 0, "updated": 0, "unchanged": 0, "memberships": 0}
    entries = manifest["shards"]
    for i, entry in enumerate(entries):
        name = entry["name"]
        if loaded.get(name) == entry["fingerprint"]:
            out["shards_skipped"] += 1
            continue
        if not shards.shard_complete(folder, entry):
            raise InputError(f"{folder}: shard {name} is incomplete (run the build again to finish it)")
        papers = shards.read_table(folder, "papers", name)
        members = shards.read_table(folder, "members", name)
        keys = [(r["key"], r["paper_id"]) for r in shards.read_table(folder, "keys", name)]
        vectors = [(p["text_hash"], p.pop("vector")) for p in papers]
        for p in papers:
            p.pop("rowid", None)
        counts = store.bulk_load(papers, members, keys, vectors, model=versions["model"], dim=versions["dim"],
                                 shard=name, fingerprint=entry["fingerprint"])
        out["shards"] += 1
        for k in ("added", "updated", "unchanged", "memberships"):
            out[k] += counts[k]
        if say:
            say(f"load shard {i + 1}/{len(entries)}: +{counts['added']} papers, {counts['updated']} updated")
    out["papers"] = store.count_papers()
    return out
