"""Running an arena: plan the chunks of every pairing, play them (in worker processes if asked), and put
the results back together in play order.

>>> from bummerl.rules import Rules
>>> result = run_arena(ArenaConfig(("random", "random"), Rules.preset("vu"), seed=1, deals=20))
>>> result.deals, [line.deals for line in result.pairings[0].lines]
(20, [20, 20])
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from itertools import combinations

from bummerl.arena.match import (
    MAX_FAULTS_KEPT,
    ChunkResult,
    Fault,
    Mode,
    Task,
    chunk_size,
    play_chunk,
)
from bummerl.arena.results import ArenaResult, PairingRecord, labels_for, standings, summarize
from bummerl.arena.timing import merge
from bummerl.bots.registry import CMD_PREFIX, UnknownBotError, make_bot
from bummerl.errors import BummerlError
from bummerl.rules import Rules

__all__ = ["ArenaConfig", "ArenaError", "plan", "run_arena"]


class ArenaError(BummerlError):
    """Arena settings that cannot work (the message says which and why)."""


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """An arena run. Every pair of bots plays ``deals`` deals (deal mode) or, when ``bummerls`` is set,
    that many whole Bummerls (Bummerl mode); either way in twins, the same cards with seats swapped."""

    bots: tuple[str, ...]
    rules: Rules
    seed: int = 1
    deals: int = 200
    bummerls: int | None = None
    workers: int = 1
    timeout: float | None = None
    anchor: str | None = None

    @property
    def mode(self) -> Mode:
        """``deals`` or ``bummerls``."""
        return "deals" if self.bummerls is None else "bummerls"

    @property
    def games(self) -> int:
        """Deals (deal mode) or Bummerls (Bummerl mode) per pairing."""
        return self.deals if self.bummerls is None else self.bummerls


def _check(config: ArenaConfig) -> tuple[str, ...]:
    """Validate the settings and the bots; return the display labels."""
    if len(config.bots) < 2:
        raise ArenaError("the arena needs at least two bots (the same name twice plays a bot against itself)")
    what = "--deals" if config.bummerls is None else "--bummerls"
    if config.games < 2 or config.games % 2:
        raise ArenaError(
            f"{what} must be an even number of at least 2 (each deck is played twice, seats swapped)"
        )
    if config.workers < 1:
        raise ArenaError(f"--workers must be at least 1, not {config.workers}")
    if config.timeout is not None and config.timeout <= 0:
        raise ArenaError(f"--timeout must be positive, not {config.timeout}")
    labels = labels_for(config.bots)
    if config.anchor is not None and config.anchor not in labels:
        raise ArenaError(f"anchor {config.anchor!r} is not one of the bots ({', '.join(labels)})")
    for spec in dict.fromkeys(config.bots):
        try:
            bot = make_bot(spec, 0, timeout=config.timeout)
        except UnknownBotError as err:
            raise ArenaError(str(err)) from None
        except Exception as err:
            raise ArenaError(f"cannot make bot {spec!r}: {type(err).__name__}: {err}") from None
        argv = getattr(bot, "argv", None)
        if isinstance(argv, list) and argv and shutil.which(argv[0]) is None and not os.path.isfile(argv[0]):
            raise ArenaError(f"cannot find the program {argv[0]!r} of bot {spec!r}")
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    return labels


def plan(config: ArenaConfig) -> list[Task]:
    """Every chunk of every pairing, pairings in order (A before B as given on the command line).

    >>> from bummerl.rules import Rules
    >>> tasks = plan(ArenaConfig(("a", "b", "c"), Rules.preset("standard"), deals=8))
    >>> [(t.pairing, t.names, t.first, t.count) for t in tasks][:2]
    [(0, ('a', 'b'), 0, 1), (0, ('a', 'b'), 1, 1)]
    >>> len(tasks)
    12
    """
    pairs = config.games // 2
    tasks = []
    for index, (i, j) in enumerate(combinations(range(len(config.bots)), 2)):
        size = chunk_size(pairs, outside=any(_outside(config.bots[k]) for k in (i, j)))
        for chunk, first in enumerate(range(0, pairs, size)):
            tasks.append(Task(index, (config.bots[i], config.bots[j]), config.rules, config.seed, config.mode,
                              first, min(size, pairs - first), chunk, config.timeout))
    return tasks


def _outside(spec: str) -> bool:
    return spec.strip().lower().startswith(CMD_PREFIX)


def _results(tasks: list[Task], workers: int) -> Iterator[tuple[Task, ChunkResult]]:
    """Play the tasks, yielding each as it finishes (in order with one worker)."""
    if workers == 1 or len(tasks) == 1:
        for task in tasks:
            yield task, play_chunk(task)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks)),
                             mp_context=multiprocessing.get_context(method)) as pool:
        pending: dict[Future[ChunkResult], Task] = {pool.submit(play_chunk, t): t for t in tasks}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield pending.pop(future), future.result()
        finally:
            for future in pending:
                future.cancel()


def run_arena(config: ArenaConfig, progress: Callable[[int], None] | None = None) -> ArenaResult:
    """Play the arena; ``progress(n)`` is called as every chunk of n deals (or Bummerls) finishes."""
    labels = _check(config)
    tasks = plan(config)
    started = time.perf_counter()
    chunks: dict[tuple[int, int], ChunkResult] = {}
    for task, result in _results(tasks, config.workers):
        chunks[(task.pairing, task.first)] = result
        if progress is not None:
            progress(2 * task.count)
    seconds = time.perf_counter() - started
    records = []
    for index, (i, j) in enumerate(combinations(range(len(config.bots)), 2)):
        rec = PairingRecord(index, (labels[i], labels[j]), (config.bots[i], config.bots[j]), config.mode)
        for key in sorted(k for k in chunks if k[0] == index):
            _add(rec, chunks[key])
        records.append(rec)
    anchor = config.anchor or ("random" if "random" in labels else labels[0])
    return ArenaResult(
        specs=config.bots, labels=labels, rules=config.rules.describe(), seed=config.seed, mode=config.mode,
        games=config.games, workers=config.workers, anchor=anchor,
        pairings=tuple(summarize(rec) for rec in records),
        standings=standings(labels, config.bots, records, anchor),
        deals=sum(len(rec.points) for rec in records), seconds=seconds,
    )


def _add(rec: PairingRecord, chunk: ChunkResult) -> None:
    """Append a chunk (the next in play order) to a pairing's record."""
    offset = len(rec.points)
    rec.points += chunk.points
    rec.winners += chunk.winners
    rec.lengths += chunk.lengths
    rec.reasons.update(chunk.reasons)
    room = MAX_FAULTS_KEPT - len(rec.faults)
    rec.faults += [Fault(f.bot, f.deal + offset, f.reason) for f in chunk.faults[:max(0, room)]]
    for slot in (0, 1):
        rec.fault_counts[slot] += chunk.fault_counts[slot]
        rec.decisions[slot] += chunk.decisions[slot]
        merge(rec.times[slot], chunk.times[slot])
    rec.seconds += chunk.seconds
