"""Independent work spread over this machine's cores: each task runs in a forked process, which inherits all
this process holds (prepared games, laid-out faces, registered fonts), so a task need not pickle, only its
result. Results come back in task order whatever the number of workers, so what is made of them does not
depend on it.

Where the system cannot fork (Windows) or will not start another process, or with one worker or one task,
the tasks run here, in order: the same code path, the same results. A worker ignores Ctrl-C (the terminal sends it to the whole group) and dies
with this process (Linux: PR_SET_PDEATHSIG); when this process is interrupted or a task fails, the workers are
terminated before the exception goes on, so none keeps writing after the build has stopped. What a
terminated worker leaves (a temporary) is the caller's to sweep.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import traceback
from typing import Any, Callable, Sequence

_TASKS: Sequence[Callable[[], Any]] = ()        # what the forked workers inherit
_PARENT: int | None = None


def cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


class TaskFailed(RuntimeError):
    """A task raised an exception that cannot cross processes: its type, message and the worker's traceback."""


def run_all(tasks: Sequence[Callable[[], Any]], workers: int, done: Callable[[int], None] | None = None,
            order: Sequence[int] | None = None) -> list[Any]:
    """Every task's result, in task order. `workers` processes at most (fewer with fewer tasks); `order` is the
    order to start them in (the longest first balances the cores best); `done(i)` is called here as task i
    ends. The first exception of a task is raised here, once every worker is stopped."""
    order = list(order) if order is not None else list(range(len(tasks)))
    workers = min(workers, len(tasks))
    if workers > 1 and can_fork():
        try:
            return _forked(tasks, workers, done, order)
        except _NoWorkers:
            pass                        # no process to be had (a limit on processes): here, one by one
    results: dict[int, Any] = {}
    for index in order:
        results[index] = tasks[index]()
        if done:
            done(index)
    return [results[i] for i in range(len(tasks))]


class _NoWorkers(Exception):
    pass


def _forked(tasks, workers: int, done, order: list[int]) -> list[Any]:
    import multiprocessing

    global _TASKS, _PARENT
    _TASKS, _PARENT = tasks, os.getpid()
    try:
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_worker_started)
    except OSError as exc:
        _TASKS, _PARENT = (), None
        raise _NoWorkers() from exc
    results: dict[int, Any] = {}
    try:
        for index, ok, value in pool.imap_unordered(_run, order, chunksize=1):
            if not ok:
                raise pickle.loads(value)
            results[index] = value
            if done:
                done(index)
        pool.close()
    except BaseException:
        pool.terminate()            # SIGTERM to every worker: nothing keeps drawing once we stop
        raise
    finally:
        pool.join()
        _TASKS, _PARENT = (), None
    return [results[i] for i in range(len(tasks))]


def _worker_started() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)       # terminate() means now
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG: die with the parent
        except (OSError, AttributeError):
            pass
    if os.getppid() != _PARENT:                         # the parent died before prctl took effect
        os._exit(1)


def _run(index: int) -> tuple[int, bool, Any]:
    try:
        return index, True, _TASKS[index]()
    except BaseException as exc:        # noqa: BLE001 — carried to the parent, raised there
        return index, False, _portable(exc)


def _portable(exc: BaseException) -> bytes:
    """The exception pickled, if it survives the trip; else a TaskFailed that says what it was."""
    try:
        data = pickle.dumps(exc)
        pickle.loads(data)
        return data
    except Exception:
        text = "".join(traceback.format_exception(exc)).rstrip()
        return pickle.dumps(TaskFailed(f"{type(exc).__name__}: {exc}\n{text}"))
