"""Distributed build: any input -> Parquet shards (papers with facts and embeddings,
memberships, identity keys, a manifest) computed locally or on Ray, then bulk-loaded into a
library. `run.build` makes or updates a build folder; `load.load_shards` loads one into a store.
Topics and map of the loaded collections, however large, come from `analysis` (sample-then-assign
above `analysis.sampled.SAMPLE` papers)."""
from __future__ import annotations

from .engines import ENGINES
from .load import load_shards
from .run import SHARD_SIZE, build

__all__ = ["ENGINES", "SHARD_SIZE", "build", "load_shards"]
