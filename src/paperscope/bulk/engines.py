"""Where a build's facts and embeddings are computed: in this process (`local`, the default,
needs nothing) or on a Ray cluster (`ray`: a local instance started here, or an existing
cluster at `--address`). Both take (key, texts) jobs and give back (key, result) as jobs
finish, keeping a bounded number in flight so the driver never holds the whole corpus."""
from __future__ import annotations

import logging
import os
from typing import Any, Iterable, Iterator

from ..model import InputError
from .compute import compute_texts

ENGINES = ("local", "ray")
RETRIES = 5  # a task whose worker died (killed, out of memory, node lost) runs again


class LocalEngine:
    name = "local"

    def __init__(self, embedder: Any = None):
        self.embedder = embedder
        self.workers = 1

    def run(self, jobs: Iterable[tuple[Any, list[dict]]]) -> Iterator[tuple[Any, dict]]:
        for key, texts in jobs:
            yield key, compute_texts(texts, embedder=self.embedder)

    def close(self) -> None:
        pass


class RayEngine:
    """Ray tasks, one per shard, one CPU each; each worker process loads the model once (with
    one thread) and keeps it for later tasks. A task whose worker dies is retried by Ray."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None):
        if not address:
            # A local instance for this build only: token authentication stays on (Ray's
            # default), asked for explicitly (Ray reads it when imported) so that Ray does not
            # print a warning that it chose it.
            os.environ.setdefault("RAY_AUTH_MODE", "token")
        try:
            import ray
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise InputError("--engine ray needs Ray: pip install 'paperscope[cluster]'") from exc
        self.ray = ray
        self.started = False
        if not ray.is_initialized():
            if address:
                try:
                    ray.init(address=address, log_to_driver=False)
                except (ConnectionError, RuntimeError, ValueError) as exc:
                    raise InputError(f"cannot reach a Ray cluster at {address}: {str(exc).strip()[:300]} "
                                     "(start one with `ray start --head`)") from exc
            else:
                # INFO lines (a token saved, an instance started) are Ray's business
                ray.init(num_cpus=workers or 2, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.WARNING)
            self.started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = max(1, min(workers or cpus, cpus))
        self.task = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)(compute_texts)

    def run(self, jobs: Iterable[tuple[Any, list[dict]]]) -> Iterator[tuple[Any, dict]]:
        ray = self.ray
        pending: dict[Any, Any] = {}  # object ref -> job key
        queue = iter(jobs)
        limit = 2 * self.workers  # one running and one waiting per worker
        exhausted = False
        while pending or not exhausted:
            while not exhausted and len(pending) < limit:
                job = next(queue, None)
                if job is None:
                    exhausted = True
                    break
                key, texts = job
                pending[self.task.remote(texts, threads=1)] = key
            if not pending:
                break
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                yield pending.pop(ref), ray.get(ref)

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def make_engine(name: str, *, address: str | None = None, workers: int | None = None,
                embedder: Any = None):
    if name not in ENGINES:
        raise InputError(f"unknown engine {name!r}; choose one of: {', '.join(ENGINES)}")
    if name == "local":
        if address:
            raise InputError("--address needs --engine ray")
        return LocalEngine(embedder)
    return RayEngine(address, workers)
