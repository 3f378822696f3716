"""pipeline/core/pool.py: tasks in forked workers, results in task order, failures raised here."""

from __future__ import annotations

import os

import pytest

from pipeline.core import pool
from pipeline.core.errors import PipelineError, Problem

needs_fork = pytest.mark.skipif(not pool.can_fork(), reason="this system cannot fork")


def _square(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


@needs_fork
def test_results_come_in_task_order_from_other_processes_whatever_the_start_order():
    tasks = [lambda n=n: _square(n) for n in range(12)]      # closures: a forked worker needs no pickling
    seen = []
    results = pool.run_all(tasks, 3, done=seen.append, order=list(reversed(range(12))))
    assert [value for value, _ in results] == [n * n for n in range(12)]
    assert {pid for _, pid in results} - {os.getpid()}              # drawn elsewhere…
    assert os.getpid() not in {pid for _, pid in results}           # …every one of them
    assert sorted(seen) == list(range(12))


def test_one_worker_runs_every_task_here_in_the_order_asked():
    ran = []
    tasks = [lambda n=n: ran.append(n) or n for n in range(5)]
    assert pool.run_all(tasks, 1, order=[4, 2, 0, 1, 3]) == [0, 1, 2, 3, 4]
    assert ran == [4, 2, 0, 1, 3]


@needs_fork
def test_a_workers_pipeline_error_arrives_whole_with_its_located_problems():
    problem = Problem("sheets/nba.xlsx › players › B7", "too long", "layout")

    def fails():
        raise PipelineError(problem)

    with pytest.raises(PipelineError) as caught:
        pool.run_all([lambda: 1, fails, lambda: 3], 2)
    assert caught.value.problems == [problem]


@needs_fork
def test_an_exception_that_cannot_cross_processes_says_what_it_was():
    class Local(Exception):             # defined here: a worker's pickle of it cannot be loaded by name
        pass

    def fails():
        raise Local("the drawing failed")

    with pytest.raises(pool.TaskFailed, match="Local: the drawing failed"):
        pool.run_all([fails, lambda: 2], 2)


def test_cores_is_at_least_one():
    assert pool.cores() >= 1


def test_no_process_to_be_had_runs_the_tasks_here(monkeypatch):
    import multiprocessing

    class Refusing:
        def Pool(self, *args, **kwargs):
            raise BlockingIOError(11, "Resource temporarily unavailable")   # fork() at a process limit

    monkeypatch.setattr(multiprocessing, "get_context", lambda method: Refusing())
    monkeypatch.setattr(pool, "can_fork", lambda: True)
    assert [value for value, pid in pool.run_all([lambda n=n: _square(n) for n in range(4)], 2)] == [0, 1, 4, 9]
    assert {pid for _, pid in pool.run_all([lambda: _square(2)] * 3, 2)} == {os.getpid()}
