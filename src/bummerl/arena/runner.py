"""Running an arena: cut every pairing into chunks as they are needed, play them (here, in worker
processes or as Ray tasks), and put the results back together in play order.

Nothing is planned up front: chunks are made lazily and only a few per worker are in flight, so a huge
``--deals`` costs no memory before it is played. Ctrl-C stops the run at once (workers stop their outside
bots and exit; the slowest is killed after a second) and :class:`ArenaInterrupted` carries the results of
what was finished: each pairing's first deals, in play order, exactly as the full run has them.

>>> from bummerl.rules import Rules
>>> result = run_arena(ArenaConfig(("random", "random"), Rules.preset("vu"), seed=1, deals=20))
>>> result.deals, [line.deals for line in result.pairings[0].lines], result.complete
(20, [20, 20], True)
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import shutil
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from types import FrameType

from bummerl.arena.cluster import ClusterError
from bummerl.arena.match import (
    MAX_FAULTS_KEPT,
    ChunkResult,
    Fault,
    Mode,
    Task,
    chunk_size,
    kill_playing_bots,
    play_chunk,
    sees_deal,
)
from bummerl.arena.results import ArenaResult, PairingRecord, labels_for, standings, summarize
from bummerl.arena.seeds import fresh_root
from bummerl.arena.timing import merge
from bummerl.bots.external import MOST_TIMEOUT
from bummerl.bots.registry import UnknownBotError, is_outside, make_bot
from bummerl.errors import BummerlError, install_hint
from bummerl.rules import Rules

__all__ = ["ArenaBroken", "ArenaConfig", "ArenaError", "ArenaInterrupted", "add_chunk", "chunks", "run_arena"]

#: The most worker processes (or local Ray CPUs) a run starts: far more than a machine's cores, and a
#: typo such as 100000 would otherwise fork that many processes at once.
MOST_WORKERS = 256
#: Chunks in flight per worker: enough to keep every worker busy, few enough to keep memory flat.
IN_FLIGHT_PER_WORKER = 2
#: Seconds a worker gets to stop its bots after Ctrl-C before it is killed.
STOP_GRACE = 1.0
#: Seconds between a worker's looks at whether the arena's process is still there.
ORPHAN_CHECK = 0.5


class ArenaError(BummerlError):
    """Arena settings that cannot work (the message says which and why)."""


class ArenaBroken(ArenaError):
    """A run that could not go on (a worker process died, a bot could no longer be made); ``result`` holds
    what was finished (``result.complete`` is False), the message says why it stopped."""

    def __init__(self, why: str, result: ArenaResult) -> None:
        super().__init__(why)
        self.result = result


class ArenaInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run; ``result`` holds what was finished (``result.complete`` is False)."""

    def __init__(self, result: ArenaResult) -> None:
        super().__init__("interrupted")
        self.result = result


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """An arena run. Every pair of bots plays ``deals`` deals (deal mode) or, when ``bummerls`` is set,
    that many whole Bummerls (Bummerl mode); either way in twins, the same cards with seats swapped.

    ``seed`` is the root of every deck and bot seed (None: a fresh secret one, see
    :mod:`bummerl.arena.seeds`). ``ray`` runs the chunks as Ray tasks: ``"local"`` on a Ray started here
    with ``workers`` CPUs, or the address of a running cluster (``"auto"``, ``"ray://host:10001"``).
    ``timeout`` is what one decision may take (seconds): an outside program is stopped at it (None: its
    default, 10 s); a Python bot's decision that took longer forfeits the deal (None: no limit).
    """

    bots: tuple[str, ...]
    rules: Rules
    seed: int | None = None
    deals: int = 200
    bummerls: int | None = None
    workers: int = 1
    timeout: float | None = None
    anchor: str | None = None
    ray: str | None = None

    @property
    def mode(self) -> Mode:
        """``deals`` or ``bummerls``."""
        return "deals" if self.bummerls is None else "bummerls"

    @property
    def games(self) -> int:
        """Deals (deal mode) or Bummerls (Bummerl mode) per pairing."""
        return self.deals if self.bummerls is None else self.bummerls


def _startable(program: str) -> bool:
    """Whether a program can be started as a command's first word: a bare name is looked up on the PATH
    (as the bot's start does, not in this folder), a path must be an executable file.

    >>> _startable("sh"), _startable("/etc/passwd"), _startable("no-such-program-here")
    (True, False, False)
    """
    if os.sep not in program and (os.altsep is None or os.altsep not in program):
        return shutil.which(program) is not None
    return os.path.isfile(program) and os.access(program, os.X_OK)


def _check(config: ArenaConfig) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Validate the settings and the bots; return the display labels, and those of the bots that are
    handed the true deal (:func:`~bummerl.arena.match.sees_deal`)."""
    if len(config.bots) < 2:
        raise ArenaError("the arena needs at least two bots (the same name twice plays a bot against itself)")
    what = "--deals" if config.bummerls is None else "--bummerls"
    if config.games < 2 or config.games % 2:
        raise ArenaError(
            f"{what} must be an even number of at least 2 (each deck is played twice, seats swapped)"
        )
    if not 1 <= config.workers <= MOST_WORKERS:
        raise ArenaError(f"--workers must be at least 1 and at most {MOST_WORKERS}, not {config.workers}")
    timeout = config.timeout
    if timeout is not None and not (math.isfinite(timeout) and 0 < timeout <= MOST_TIMEOUT):
        raise ArenaError(f"--timeout must be a finite positive number of seconds, not {timeout} "
                         f"(at most {MOST_TIMEOUT:g})")
    if config.seed is not None and config.seed < 0:
        raise ArenaError(f"--seed must not be negative, not {config.seed}")
    if config.ray is not None:
        from bummerl.arena.cluster import ray_available

        if not ray_available():
            raise ArenaError(f"--ray needs Ray: {install_hint('cluster')}")
    labels = labels_for(config.bots)
    if config.anchor is not None and config.anchor not in labels + config.bots:
        raise ArenaError(f"anchor {config.anchor!r} is not one of the bots ({', '.join(labels)})")
    seeing: set[str] = set()
    for spec in dict.fromkeys(config.bots):
        try:
            bot = make_bot(spec, 0, timeout=config.timeout)
        except UnknownBotError as err:
            raise ArenaError(str(err)) from None
        except BummerlError as err:  # a bot's own refusal, e.g. an option out of range
            raise ArenaError(f"cannot make bot {spec!r}: {err}") from None
        except (Exception, SystemExit) as err:  # (a factory that parses arguments may sys.exit)
            raise ArenaError(f"cannot make bot {spec!r}: {type(err).__name__}: {err}") from None
        argv = getattr(bot, "argv", None)
        if isinstance(argv, list) and argv and not _startable(argv[0]):
            program = argv[0]
            why = ("" if not os.path.isfile(program)
                   else f" (a program in this folder is written ./{program})" if os.sep not in program
                   else " (it is not executable)")
            raise ArenaError(f"cannot find the program {program!r} of bot {spec!r}{why}")
        if sees_deal(bot):
            seeing.add(spec)
        close = getattr(bot, "close", None)
        if close is not None:
            with contextlib.suppress(Exception):  # a failing goodbye is no reason to stop (as in a chunk)
                close()
    return labels, tuple(label for label, spec in zip(labels, config.bots, strict=True) if spec in seeing)


def _pairings(config: ArenaConfig) -> list[tuple[int, int]]:
    return list(combinations(range(len(config.bots)), 2))


def chunks(config: ArenaConfig, root: int) -> Iterator[Task]:
    """Every chunk of every pairing, made as it is asked for, pairings in order (A before B as given).

    >>> from bummerl.rules import Rules
    >>> tasks = list(chunks(ArenaConfig(("a", "b", "c"), Rules.preset("standard"), deals=8), root=1))
    >>> [(t.pairing, t.names, t.first, t.count) for t in tasks][:2]
    [(0, ('a', 'b'), 0, 1), (0, ('a', 'b'), 1, 1)]
    >>> len(tasks)
    12
    >>> next(chunks(ArenaConfig(("a", "b"), Rules.preset("standard"), deals=10**30), root=1)).count
    50
    """
    pairs = config.games // 2
    for index, (i, j) in enumerate(_pairings(config)):
        size = chunk_size(pairs, outside=any(is_outside(config.bots[k]) for k in (i, j)))
        for chunk, first in enumerate(range(0, pairs, size)):
            yield Task(index, (config.bots[i], config.bots[j]), config.rules, root, config.mode,
                       first, min(size, pairs - first), chunk, config.timeout)


# ------------------------------------------------------------------------------------------- backends

def _inline(tasks: Iterator[Task]) -> Generator[tuple[Task, ChunkResult]]:
    """Play the tasks one after the other in this process."""
    for task in tasks:
        yield task, play_chunk(task)


def _stop_worker(signum: int, frame: FrameType | None) -> None:
    """In a worker told to stop (SIGTERM): kill the chunk's bots and leave at once. Nothing is raised, so
    nothing can swallow the stop (an exception raised while a bot's __del__ ran was lost, printed)."""
    kill_playing_bots()
    _kill_children()  # a program whose start the signal interrupted is known to no bot yet
    os._exit(1)


def _kill_children() -> None:
    """Kill this process's child processes and their process groups (Linux: /proc; elsewhere nothing)."""
    for task in Path("/proc/self/task").glob("*/children"):
        with contextlib.suppress(OSError, ValueError):
            for pid in (int(x) for x in task.read_text().split()):
                with contextlib.suppress(OSError):
                    os.killpg(pid, signal.SIGKILL)  # an outside bot leads a process group of its own
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)  # (if it had not made it yet)


def _orphan_watch(parent: int) -> None:
    """In a worker: once the arena's process is gone (killed with no chance to stop its workers), stop as
    SIGTERM would: the chunk's bots are killed, and nobody plays on for nobody."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK)
    os.kill(os.getpid(), signal.SIGTERM)


def _worker_init() -> None:
    """In a worker: Ctrl-C is the parent's business; SIGTERM stops the chunk (its bots are killed), as does
    the parent's death."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_worker)
    threading.Thread(target=_orphan_watch, args=(os.getppid(),), daemon=True).start()


def _processes(tasks: Iterator[Task], workers: int) -> Generator[tuple[Task, ChunkResult]]:
    """Play the tasks in ``workers`` processes, a few in flight each, yielding each as it finishes."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method),
                               initializer=_worker_init)
    pending: dict[Future[ChunkResult], Task] = {}
    finished = False
    try:
        for task in tasks:
            pending[pool.submit(play_chunk, task)] = task
            while len(pending) >= IN_FLIGHT_PER_WORKER * workers:
                yield from _collect(pending)
        while pending:
            yield from _collect(pending)
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:
            _kill_pool(pool)


def _collect(pending: dict[Future[ChunkResult], Task]) -> Iterator[tuple[Task, ChunkResult]]:
    """Wait (in short steps, so that Ctrl-C is seen at once) for at least one task and yield it."""
    while True:
        done, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
        if done:
            break
    for future in done:
        yield pending.pop(future), future.result()


def _kill_pool(pool: ProcessPoolExecutor) -> None:
    """Stop every worker: SIGTERM (they kill their outside bots and exit), SIGKILL after the grace."""
    procs = list(pool._processes.values())
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    deadline = time.monotonic() + STOP_GRACE
    for proc in procs:
        proc.join(max(0.0, deadline - time.monotonic()))
    for proc in procs:
        if proc.is_alive():
            proc.kill()
            proc.join()
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    if isinstance(manager, threading.Thread):
        # let the pool's manager thread close its wake-up pipe now: at exit Python 3.11 wakes every manager
        # thread still running and prints a traceback when one is closing that pipe at the same moment
        manager.join(STOP_GRACE)


def _results(config: ArenaConfig, tasks: Iterator[Task]) -> Generator[tuple[Task, ChunkResult]]:
    if config.ray is not None:
        from bummerl.arena.cluster import ray_results

        return ray_results(tasks, config.ray or "local", config.workers)
    if config.workers == 1:
        return _inline(tasks)
    return _processes(tasks, config.workers)


# ------------------------------------------------------------------------------------------- the run

def run_arena(config: ArenaConfig, progress: Callable[[int], None] | None = None) -> ArenaResult:
    """Play the arena; ``progress(n)`` is called as every chunk of n deals (or Bummerls) finishes.

    Raises :class:`ArenaInterrupted` (a KeyboardInterrupt) with the results so far on Ctrl-C.
    """
    labels, seeing = _check(config)
    root = fresh_root() if config.seed is None else config.seed
    records = [
        PairingRecord(index, (labels[i], labels[j]), (config.bots[i], config.bots[j]), config.mode)
        for index, (i, j) in enumerate(_pairings(config))
    ]
    waiting: dict[tuple[int, int], ChunkResult] = {}  # finished out of order, until their turn
    next_chunk = [0] * len(records)
    started = time.perf_counter()

    def _so_far() -> ArenaResult:
        """The deals finished when the run stopped early."""
        return _result(config, labels, seeing, root, records, time.perf_counter() - started, complete=False)

    results = _results(config, chunks(config, root))
    try:
        for task, result in results:
            waiting[(task.pairing, task.chunk)] = result
            p = task.pairing
            while (p, next_chunk[p]) in waiting:
                add_chunk(records[p], waiting.pop((p, next_chunk[p])))
                next_chunk[p] += 1
            if progress is not None:
                progress(2 * task.count)
    except ClusterError as err:
        raise ArenaError(str(err)) from None
    except KeyboardInterrupt:
        raise ArenaInterrupted(_so_far()) from None
    except Exception as err:  # what a chunk could not survive: the results so far are kept, and why
        raise ArenaBroken(_broken(err), _so_far()) from None
    finally:
        # Stop the workers now, also when Ctrl-C came while this frame (not the backend) was running, e.g.
        # drawing the progress bar: left to the garbage collector, idle workers kept the pool's manager
        # thread, and so the interpreter's exit, waiting forever.
        results.close()
    return _result(config, labels, seeing, root, records, time.perf_counter() - started, complete=True)


#: Why a run stops when a worker process died under it.
WORKER_DIED = "a worker process died (a bot may have ended it, e.g. with os._exit, or crashed Python)"


def _broken(err: Exception) -> str:
    """Why a run could not go on, in one line.

    >>> _broken(BrokenProcessPool("gone"))
    'a worker process died (a bot may have ended it, e.g. with os._exit, or crashed Python)'
    """
    if type(err).__module__.startswith("ray."):  # Ray wraps a task's own error, or says its worker died
        cause = getattr(err, "cause", None)
        if isinstance(cause, Exception) and cause is not err:
            return _broken(cause)
        if "WorkerCrashed" in type(err).__name__:
            return WORKER_DIED
    if isinstance(err, BrokenProcessPool):
        return WORKER_DIED
    if isinstance(err, BummerlError):  # e.g. a bot that could be made when the run began and now cannot
        return str(err)
    return f"a chunk failed: {type(err).__name__}: {' '.join(str(err).split())}"


def _result(config: ArenaConfig, labels: tuple[str, ...], seeing: tuple[str, ...], root: int,
            records: list[PairingRecord], seconds: float, complete: bool) -> ArenaResult:
    anchor = config.anchor or ("random" if "random" in labels else labels[0])
    if anchor not in labels and anchor in config.bots:  # named as typed: its label
        anchor = labels[config.bots.index(anchor)]
    return ArenaResult(
        specs=config.bots, labels=labels, rules=config.rules.describe(), seed=root, mode=config.mode,
        games=config.games, workers=config.workers, anchor=anchor,
        pairings=tuple(summarize(rec) for rec in records),
        standings=standings(labels, config.bots, records, anchor),
        deals=sum(len(rec.points) for rec in records), seconds=seconds, complete=complete,
        backend="ray" if config.ray is not None else "local", records=tuple(records), sees_deal=seeing,
    )


def add_chunk(rec: PairingRecord, chunk: ChunkResult) -> None:
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
