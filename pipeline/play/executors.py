"""Where a simulation's batches are played: `local` (this process, or a pool of spawned processes on this
machine) or `dask` (Dask distributed: an in-process LocalCluster, or a running scheduler at an address).

Every executor returns each batch's games in batch order, and a game's result depends only on its seed and
its rules, so a run gives the same results on any executor and any number of workers: only how the work was
split (a Split: batches, workers, games per second) differs, and that is never part of a result file.

Dask workers need the package, not the project: the client pickles the game's validated records once, the
scheduler broadcasts them (`scatter`), and each worker rebuilds the game's Simulation from its id
(GameSource.engine). Dask is optional (`pip install '.[cluster]'`); nothing imports it until `dask` is asked for.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from pipeline.play.worker import Batch, Shipped, play_batch, run_batch, run_shipped

LOCAL, DASK = "local", "dask"


class ExecutorError(RuntimeError):
    """An executor that cannot run: Dask not installed, a scheduler that does not answer (one line)."""


@dataclass(frozen=True)
class Split:
    """How one call's games were split: the executor, its address (dask), batches, workers, and the time."""

    executor: str
    address: str | None
    batches: int
    workers: int
    games: int
    seconds: float          # playing the batches
    setup: float = 0.0      # starting or reaching the cluster (the first call of a Dask executor)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_plain(self) -> dict:
        return {"executor": self.executor, "address": self.address, "batches": self.batches,
                "workers": self.workers, "games": self.games, "seconds": round(self.seconds, 3),
                "games_per_second": round(self.games_per_second, 1), "setup_seconds": round(self.setup, 3)}


def split_line(split: Split) -> str:
    where = f" at {split.address}" if split.address else ""
    return (f"{split.games} games in {split.batches} batch{'es' if split.batches != 1 else ''} on {split.executor}"
            f"{where} with {split.workers} worker{'s' if split.workers != 1 else ''}: {split.seconds:.1f} s, "
            f"{split.games_per_second:.0f} games/s" + (f" (+{split.setup:.1f} s to start the cluster)"
                                                       if split.setup >= 0.05 else ""))


def total(splits: Sequence[Split]) -> Split | None:
    """Several calls (a run, its readings, its sweeps) as one split; None for none."""
    if not splits:
        return None
    first = splits[0]
    return Split(first.executor, first.address, sum(s.batches for s in splits), max(s.workers for s in splits),
                 sum(s.games for s in splits), sum(s.seconds for s in splits), sum(s.setup for s in splits))


def write_split(path, splits: Sequence[Split]) -> Path:
    """<path> (a .json): every call's split and their total, for a designer comparing executors."""
    import json

    from pipeline.core.output import atomic_write

    path = Path(path)
    data = {"total": total(splits).to_plain(), "calls": [s.to_plain() for s in splits]}
    atomic_write(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))    # refused: one line (issue 33)
    return path


@dataclass(frozen=True)
class Work:
    """What simulate_runs hands an executor: the batches with the index of their rule variant, the game and
    each variant's records (for this process), and the records as loaded (shipped to Dask workers)."""

    batches: tuple[tuple[int, Batch], ...]
    sim: Any
    runs: tuple[Any, ...]
    records: Any

    @property
    def games(self) -> int:
        return sum(len(batch.seeds) for _, batch in self.batches)


@dataclass
class Local:
    """This machine: the batches in this process (one worker, or one batch), else in `workers` spawned
    processes that rebuild the game from the batch's GameSource. The pool is started on the first call that
    needs it and kept until close(), so a run's readings and sweeps reuse processes that loaded the game."""

    workers: int = 1
    splits: list[Split] = field(default_factory=list)
    name = LOCAL
    _pool: Any = None

    def run(self, work: Work, progress) -> list[list[dict]]:
        start = time.perf_counter()
        workers = min(self.workers, len(work.batches))
        if workers > 1:
            if any(batch.source is None for _, batch in work.batches):
                raise ValueError("running games in several processes needs a GameSource to rebuild the game")
            played = self._in_processes([b for _, b in work.batches], progress)
        else:
            played = []
            for n, batch in work.batches:
                played.append(play_batch(work.sim, work.runs[n], batch))
                progress.advance(len(batch.seeds))
        self.splits.append(Split(LOCAL, None, len(work.batches), max(workers, 1), work.games,
                                 time.perf_counter() - start))
        return played

    def _in_processes(self, batches: list[Batch], progress) -> list[list[dict]]:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        if self._pool is None:
            # spawn, not fork: the same behaviour on every OS, and no copy of a parent's threads or open files
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))
        futures = {self._pool.submit(run_batch, batch): n for n, batch in enumerate(batches)}
        try:
            return _gathered(futures, as_completed, progress)
        except BaseException:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _gathered(futures: dict, as_completed, progress) -> list[list[dict]]:
    """The results of futures {future: batch number} in batch order, the progress advanced as each ends
    (`as_completed`: concurrent.futures' or Dask's)."""
    done: dict[int, list[dict]] = {}
    for future in as_completed(futures):
        done[futures[future]] = future.result()
        progress.advance(len(done[futures[future]]))
    return [done[n] for n in range(len(futures))]


@dataclass
class Dask:
    """Dask distributed: a scheduler at `address`, else a LocalCluster of `workers` processes started on the
    first run and kept until close() (a simulation's run, readings and sweeps share it)."""

    address: str | None = None
    workers: int = 2
    timeout: float = 10.0       # seconds to reach a scheduler
    splits: list[Split] = field(default_factory=list)
    name = DASK
    _client: Any = None
    _cluster: Any = None

    def run(self, work: Work, progress) -> list[list[dict]]:
        from distributed import as_completed

        start = time.perf_counter()
        fresh = self._client is None
        client = self._connect()
        setup = time.perf_counter() - start if fresh else 0.0
        start = time.perf_counter()
        sources = {batch.source.engine for _, batch in work.batches}
        if None in sources or any(batch.source.game != work.batches[0][1].source.game for _, batch in work.batches):
            raise ValueError("running games on Dask needs a GameSource that names the game and its engine")
        data = pickle.dumps(work.records, protocol=pickle.HIGHEST_PROTOCOL)
        shipped = Shipped(work.batches[0][1].source.game, hashlib.sha256(data).hexdigest(), data,
                          next(iter(sources)))
        [remote] = client.scatter([shipped], broadcast=True, hash=True)
        futures = {client.submit(run_shipped, batch, remote, pure=False): n for n, (_, batch) in enumerate(work.batches)}
        try:
            played = _gathered(futures, as_completed, progress)
        except BaseException:
            client.cancel(list(futures))
            raise
        workers = len(client.scheduler_info().get("workers", {})) or self.workers
        self.splits.append(Split(DASK, self.address or "LocalCluster", len(work.batches), workers, work.games,
                                 time.perf_counter() - start, setup))
        return played

    def _connect(self):
        if self._client is not None:
            return self._client
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ExecutorError("--executor dask needs Dask distributed: pip install '.[cluster]' "
                                "(`make` installs it)") from None
        import logging

        try:
            if self.address is None:
                self._cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                             dashboard_address=None, silence_logs=logging.ERROR)
                self._client = Client(self._cluster)
            else:
                self._client = Client(self.address, timeout=f"{self.timeout}s")
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ExecutorError(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None
        return self._client

    def close(self) -> None:
        for part in (self._client, self._cluster):
            if part is not None:
                part.close()
        self._client = self._cluster = None


def parse(spec: str, workers: int | None = None) -> Local | Dask:
    """`local`, `dask` (a LocalCluster of `workers` processes, default every core) or `dask=ADDRESS`
    (tcp://host:8786). ValueError, one line, for anything else."""
    name, sep, address = spec.strip().partition("=")
    if name == LOCAL and not sep:
        return Local(workers or 1)
    if name == DASK:
        if sep and not address.strip():
            raise ValueError("--executor dask=ADDRESS needs an address, e.g. dask=tcp://127.0.0.1:8786")
        return Dask(address.strip() or None, workers or os.cpu_count() or 2)
    raise ValueError(f"--executor takes local, dask or dask=ADDRESS, not {spec!r}")
