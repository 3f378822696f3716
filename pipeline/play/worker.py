"""What a worker runs: one seeded game (play), a batch of them, and a batch rebuilt in another process from
a GameSource (run_batch) or from records a client shipped (run_shipped). The run-level driver is
pipeline/play/driver.py (it documents the seeds and the outcome keys); pipeline/play/executors.py sends these batches to
processes or to Dask. Below the games: nothing here imports the game registry."""

from __future__ import annotations

import bisect
import itertools
import math
import operator
import random
from dataclasses import dataclass
from typing import Any, Callable

from pipeline.data.specs import Records
from pipeline.play.contract import CHANCE, Simulation, with_rules

DEFAULT_MAX_STEPS = 100_000      # engine steps (actions and chance outcomes) before a game counts as stuck


# --- one game ---------------------------------------------------------------------------------------------

def play(sim: Simulation, records: Records, players: int, seed: int, bots: tuple[str, ...],
         max_steps: int = DEFAULT_MAX_STEPS) -> dict:
    """Play one game; an exception from the engine or a bot is recorded in the result, never raised."""
    rng = random.Random(seed)
    state, steps, phase, seat = None, 0, "setup", None
    try:
        choose = [sim.bots[name](index).choose for index, name in enumerate(bots)]
        state = sim.new_game(records, players)
        # bound methods looked up once: this loop is the hot path of every simulation
        over, current, chances, apply = (state.is_terminal, state.current_player, state.chance_outcomes,
                                         state.apply_action)
        while not over():
            if steps >= max_steps:
                return _record(state, seed, steps, stuck=True)
            phase, seat = "engine", current()
            if seat == CHANCE:
                phase = "chance"
                action = _sample(chances(), rng)
            elif 0 <= seat < players:
                phase = "bot"
                action = choose[seat](state, rng)
            else:
                raise RuntimeError(f"current_player() is {seat!r} but the game is not over")
            phase = "engine"
            apply(action)
            steps += 1
        phase = "end"
        record = _record(state, seed, steps)
        record["returns"] = [float(r) for r in state.returns()]
        return record
    except Exception as exc:  # noqa: BLE001 - a broken engine or bot is a finding about this game, not a crash
        error = {"type": type(exc).__name__, "message": str(exc), "step": steps, "phase": phase,
                 "seat": seat if isinstance(seat, int) and seat >= 0 else None}
        if phase == "bot" and not _has_actions(state):
            error.update(type="NoLegalAction", message=f"seat {seat + 1} has no legal action before the end")
        return _record(state, seed, steps, error=error)


_PROBABILITY = operator.itemgetter(1)


def _sample(outcomes: list[tuple[Any, float]], rng: random.Random) -> Any:
    if not outcomes:
        raise RuntimeError("a chance node has no outcomes")
    probabilities = list(map(_PROBABILITY, outcomes))        # C-speed: a deal is one node per card
    total = math.fsum(probabilities)
    if abs(total - 1.0) > 1e-6 or min(probabilities) < 0:
        raise ValueError(f"chance probabilities must be ≥ 0 and sum to 1 (they sum to {total:.6g})")
    # the first outcome whose running sum exceeds the draw (running sums added left to right, as a loop would)
    index = bisect.bisect_right(list(itertools.accumulate(probabilities)), rng.random() * total)
    if index < len(outcomes):
        return outcomes[index][0]
    return next(o for o, p in reversed(outcomes) if p > 0)      # float rounding at the very top


def _has_actions(state) -> bool:
    try:
        return bool(state.legal_actions())
    except Exception:  # noqa: BLE001
        return True     # then the bot's own exception is the better message


def _record(state, seed: int, steps: int, stuck: bool = False, error: dict | None = None) -> dict:
    outcome: dict = {}
    if state is not None:
        try:
            outcome = dict(state.outcome())
        except Exception:  # noqa: BLE001 - a state that broke may not describe itself; the error says why
            if error is None:
                raise
    return {**outcome, "seed": seed, "steps": steps, "stuck": stuck, "error": error}


# --- many games, in batches ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameSource:
    """How a worker rebuilds (Simulation, records): a top-level loader called with (game, root), then the
    rules applied on top; pipeline.simulation.run.load_simulation for a registered game (the driver does not
    import the games)."""

    game: str
    root: str
    loader: Callable[..., tuple[Simulation, Records]]
    rules: tuple[tuple[str, str], ...] = ()       # `--rule` overrides (a variant's too), applied in every worker
    engine: Callable[[str], Simulation] | None = None   # game id -> its Simulation, no data read (Dask workers)


@dataclass(frozen=True)
class Shipped:
    """A game's validated records sent to workers that have the package but not the project (Dask): pickled
    once by the client, unpickled once per worker (keyed by their sha256), the Simulation from `engine`."""

    game: str
    digest: str
    records: bytes
    engine: Callable[[str], Simulation]


@dataclass(frozen=True)
class Batch:
    source: GameSource | None
    first: int                  # index of the batch's first game in the run
    seeds: tuple[int, ...]
    players: int
    bots: tuple[str, ...]
    max_steps: int


_LOADED: dict[tuple, tuple[Simulation, Records]] = {}     # per worker process: (game, root, loader) -> loaded
_RULED: dict[tuple, Records] = {}                          # (that key, rules) -> the records with those rules


def run_batch(batch: Batch) -> list[dict]:
    """Play a batch in any process: the game is loaded once per process, each rule variant made once."""
    source = batch.source
    key = (source.game, source.root, source.loader)
    if key not in _LOADED:
        _LOADED[key] = source.loader(source.game, source.root)
    return _play_variant(key, batch)


def run_shipped(batch: Batch, shipped: Shipped) -> list[dict]:
    """run_batch() from records the client shipped instead of the project's files."""
    import pickle

    key = ("shipped", shipped.game, shipped.digest)
    if key not in _LOADED:
        _LOADED[key] = shipped.engine(shipped.game), pickle.loads(shipped.records)
    return _play_variant(key, batch)


def _play_variant(key: tuple, batch: Batch) -> list[dict]:
    source = batch.source
    sim, records = _LOADED[key]
    if source.rules:
        if (key, source.rules) not in _RULED:
            _RULED[(key, source.rules)] = with_rules(records, source.rules)
        records = _RULED[(key, source.rules)]
    return play_batch(sim, records, batch)


def play_batch(sim: Simulation, records: Records, batch: Batch) -> list[dict]:
    return [{"index": batch.first + i, **play(sim, records, batch.players, seed, batch.bots, batch.max_steps)}
            for i, seed in enumerate(batch.seeds)]
