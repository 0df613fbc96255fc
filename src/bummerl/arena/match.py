"""Playing the arena's games: one deal between two bots, paired deals, paired Bummerls, and the work unit
(a *chunk*) that a worker process plays.

Bots only ever get views (``View.of(deal, seat, score)``), never the deal (but for a bot that declares
``sees_deal`` and has ``choose_with_deal(view, deal)``, the non-public cheater yardsticks, handed a copy;
the report names it: :func:`sees_deal`). A bot that raises, returns
something that is not an :class:`~bummerl.actions.Action`, or returns an illegal action *forfeits* the
deal: the other side wins it with :data:`~bummerl.scoring.FORFEIT_POINTS` game points, reason ``forfeit``
(:meth:`Outcome.forfeit <bummerl.engine.Outcome.forfeit>`), and the fault is recorded with its reason.

Seeds (see :mod:`bummerl.arena.seeds`). Deck pair ``j`` of a match is dealt from the deck stream of the
run's root (dealer ``j % 2``), the same for every pairing of a round-robin; twin Bummerl ``j`` draws its
decks from the Bummerl stream. Bots are made afresh for every chunk with seeds from the bot stream, which
tells them nothing about the decks. Chunks depend on the number of games only, never on the number of
workers, so the results are the same whatever ``--workers``.

Optional bot hooks, called when present: ``new_deal(view)`` before a deal (raising forfeits the deal),
``end_deal(view, outcome, fault)`` after it, ``close()`` when the chunk is done, or ``kill()`` instead
when the chunk is abandoned (Ctrl-C, an error).

>>> from bummerl.rules import Rules
>>> task = Task(0, ("random", "random"), Rules.preset("standard"), seed=1, mode="deals", first=0, count=3)
>>> result = play_chunk(task)
>>> len(result.points), sum(result.decisions) > 0, result.faults
(6, True, [])
"""

from __future__ import annotations

import contextlib
import os
import sysconfig
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, Literal

from bummerl.actions import Action
from bummerl.arena.seeds import bot_seeds, bummerl_random, deck_random
from bummerl.arena.timing import Histogram, add_samples
from bummerl.bots.base import Bot
from bummerl.bots.registry import is_outside, make_bot
from bummerl.engine import Deal, IllegalActionError, Outcome
from bummerl.errors import BummerlError
from bummerl.game import TARGET
from bummerl.rules import Rules
from bummerl.scoring import FORFEIT_POINTS, Reason
from bummerl.view import View

__all__ = [
    "FORFEIT", "FORFEIT_POINTS", "MAX_FAULTS_KEPT", "ChunkResult", "Fault", "Mode", "Task",
    "bot_seeds", "chooser", "chunk_size", "deck_deal", "play_bummerl", "play_chunk", "play_deal",
]

#: The outcome reason of a forfeited deal (its string is "forfeit").
FORFEIT = Reason.FORFEIT
#: Faults kept with their reason per bot and pairing (all are counted).
MAX_FAULTS_KEPT = 20

Mode = Literal["deals", "bummerls"]
#: Seconds one decision of each seat's bot may take (None: no limit), checked after the decision.
Limits = tuple[float | None, float | None]


@dataclass(frozen=True, slots=True)
class Fault:
    """A forfeit: which bot of the pairing (0 = A, 1 = B), in which deal (from 0, in play order), why."""

    bot: int
    deal: int
    reason: str


@dataclass(slots=True)
class DealResult:
    """How one deal ended for the arena: its outcome and, for a forfeit, the seat at fault and why."""

    outcome: Outcome
    fault_seat: int | None = None
    fault: str | None = None


def deck_deal(rules: Rules, seed: int, pair: int) -> Deal:
    """The deal of deck pair ``pair``: both games of the pair start from this same position.

    >>> d1, d2 = deck_deal(Rules.preset("standard"), 5, 2), deck_deal(Rules.preset("standard"), 5, 2)
    >>> d1.deck == d2.deck, d1.dealer
    (True, 0)
    """
    return Deal.random(rules, deck_random(seed, pair), dealer=pair % 2)


def chunk_size(pairs: int, outside: bool = False) -> int:
    """Deck pairs (or twin Bummerls) per chunk: about 32 chunks per pairing, 1 to 50 pairs each; with an
    outside bot (a program started per chunk) about 8 chunks of up to 500 pairs.

    >>> chunk_size(1), chunk_size(100), chunk_size(10_000), chunk_size(100, outside=True)
    (1, 4, 50, 13)
    """
    if outside:
        return max(1, min(500, -(-pairs // 8)))
    return max(1, min(50, -(-pairs // 32)))


def _forfeit(deal: Deal, seat: int, why: str) -> DealResult:
    return DealResult(Outcome.forfeit(seat), seat, why)


def sees_deal(bot: object) -> bool:
    """Whether the arena hands ``bot`` the true deal: only a bot that says so (``sees_deal = True``, the
    cheater yardsticks) and has ``choose_with_deal``; the report names it. Any other bot sees views only.

    >>> from bummerl.bots.cheater import CheaterBot
    >>> class Sneaky:
    ...     def choose_with_deal(self, view, deal): ...
    >>> sees_deal(CheaterBot()), sees_deal(Sneaky())
    (True, False)
    """
    return getattr(bot, "sees_deal", False) is True and callable(getattr(bot, "choose_with_deal", None))


def _folder(path: str) -> str:
    return os.path.normcase(os.path.abspath(path)).rstrip(os.sep) + os.sep


#: bummerl's own package, and where Python keeps its standard library and installed packages.
_BUMMERL = _folder(os.path.dirname(os.path.dirname(__file__)))
_LIBRARIES = tuple(dict.fromkeys(_folder(p) for key, p in sysconfig.get_paths().items()
                                 if key in ("stdlib", "platstdlib", "purelib", "platlib")))


def _under(filename: str, folders: tuple[str, ...]) -> bool:
    return os.path.normcase(os.path.abspath(filename)).startswith(folders)


def _raised(err: BaseException) -> str:
    """A bot's exception as a fault says it: its type, message and where in the bot's code it was raised
    (the innermost frame outside bummerl and outside the installed libraries and the standard library, so
    that ``random.choice([])`` names the bot's line, not random.py's; failing that, the innermost outside
    bummerl).

    >>> try:
    ...     None.suit
    ... except AttributeError as err:
    ...     _raised(err)
    "raised AttributeError: 'NoneType' object has no attribute 'suit' (at <doctest ...>:2)"
    """
    import traceback

    where = ""
    outside = [f for f in traceback.extract_tb(err.__traceback__) if not _under(f.filename, (_BUMMERL,))]
    own = [f for f in outside if not f.filename.startswith("<frozen") and not _under(f.filename, _LIBRARIES)]
    if own or outside:
        frame = (own or outside)[-1]
        name = os.path.basename(frame.filename) if os.path.isabs(frame.filename) else frame.filename
        inside = f" in {frame.name}" if frame.name != "<module>" else ""
        where = f" (at {name}:{frame.lineno}{inside})"
    text = " ".join(str(err).split())
    return f"raised {type(err).__name__}" + (f": {text}" if text else "") + where


def chooser(bot: Bot, deal: Deal) -> Callable[[View], Action]:
    """``bot.choose``, or for a bot that :func:`sees_deal` (the cheater yardstick) a call handing it a
    copy of the true deal as well.

    >>> from bummerl.bots.cheater import CheaterBot
    >>> deal = Deal.random(Rules.preset("standard"), 3)
    >>> chooser(CheaterBot(), deal)(View.of(deal, deal.to_move)) in deal.legal_actions()
    True
    """
    if not sees_deal(bot):
        return bot.choose
    peek: Callable[[View, Deal], Action] = bot.choose_with_deal  # type: ignore[attr-defined]
    return lambda view: peek(view, deal.copy())


def play_deal(
    deal: Deal,
    bots: tuple[Bot, Bot],
    score: tuple[int, int] | None = None,
    clocks: tuple[list[int], list[int]] | None = None,
    limits: Limits = (None, None),
) -> DealResult:
    """Play a deal to its end; ``bots[s]`` sits at seat ``s``; ``clocks[s]`` collects its decision times (ns);
    ``limits[s]`` (seconds, None: none) is what one decision of that bot may take: one that took longer
    forfeits the deal (the bot is not interrupted; an outside program's own timeout does that).

    >>> from bummerl.bots.random_bot import RandomBot
    >>> deal = Deal.random(Rules.preset("standard"), 3)
    >>> play_deal(deal, (RandomBot(1), RandomBot(2))).outcome == deal.outcome
    True
    """
    times = clocks if clocks is not None else ([], [])
    clock = time.perf_counter_ns
    view_of = View.of
    for seat in (0, 1):
        hook = getattr(bots[seat], "new_deal", None)
        if hook is not None:
            try:
                hook(view_of(deal, seat, score))
            except KeyboardInterrupt:
                raise
            except BaseException as err:  # a bot's sys.exit (any escape) loses its deal, never the run
                return _forfeit(deal, seat, f"new_deal {_raised(err)}")
    choose = (chooser(bots[0], deal), chooser(bots[1], deal))
    while deal.outcome is None:
        seat = deal.to_move
        view = view_of(deal, seat, score)
        start = clock()
        try:
            action = choose[seat](view)
        except KeyboardInterrupt:
            raise
        except BaseException as err:
            times[seat].append(clock() - start)
            return _forfeit(deal, seat, _raised(err))
        took = clock() - start
        times[seat].append(took)
        limit = limits[seat]
        if limit is not None and took > limit * 1e9:
            return _forfeit(deal, seat, f"took {took / 1e9:.3g} s to decide, over the limit of {limit:g} s")
        if type(action) is not Action:
            return _forfeit(deal, seat, f"returned {type(action).__name__} {action!r}, not an Action")
        try:
            deal.apply(action)
        except IllegalActionError as err:
            return _forfeit(deal, seat, f"illegal action: {err}")
    return DealResult(deal.outcome)


def _end(bots: tuple[Bot, Bot], deal: Deal, score: tuple[int, int] | None, result: DealResult) -> None:
    """Call the bots' ``end_deal`` hooks; a failing hook changes nothing."""
    for seat in (0, 1):
        hook: Callable[..., Any] | None = getattr(bots[seat], "end_deal", None)
        if hook is not None:
            with contextlib.suppress(Exception):  # the deal is over: nothing to forfeit any more
                hook(View.of(deal, seat, score), result.outcome, result.fault)


def play_bummerl(
    rules: Rules,
    rng: Random,
    first_dealer: int,
    bots: tuple[Bot, Bot],
    clocks: tuple[list[int], list[int]] | None = None,
    target: int = TARGET,
    limits: Limits = (None, None),
) -> tuple[int, list[DealResult]]:
    """Play deals until a seat has counted down from ``target`` to 0; return the winning seat and the deals.

    Decks come from ``rng`` (one shuffle per deal) and the dealer alternates from ``first_dealer``, so two
    calls with equal generators deal the same cards. Each bot sees the countdown in ``view.score``.

    >>> from bummerl.bots.random_bot import RandomBot
    >>> winner, deals = play_bummerl(Rules.preset("standard"), Random(1), 0, (RandomBot(1), RandomBot(2)))
    >>> winner in (0, 1) and sum(d.outcome.game_points for d in deals if d.outcome.winner == winner) >= 7
    True
    """
    needed = [target, target]
    dealer = first_dealer
    results: list[DealResult] = []
    while needed[0] > 0 and needed[1] > 0:
        deal = Deal.random(rules, rng, dealer=dealer)
        score = (needed[0], needed[1])
        result = play_deal(deal, bots, score, clocks, limits)
        _end(bots, deal, score, result)
        results.append(result)
        if result.outcome.winner is not None:
            needed[result.outcome.winner] -= result.outcome.game_points
        dealer = 1 - dealer
    return (0 if needed[0] <= 0 else 1), results


@dataclass(frozen=True, slots=True)
class Task:
    """One chunk of one pairing: ``count`` deck pairs (or twin Bummerls) from number ``first``."""

    pairing: int
    names: tuple[str, str]
    rules: Rules
    seed: int
    mode: Mode
    first: int
    count: int
    chunk: int = 0
    timeout: float | None = None


@dataclass(slots=True)
class ChunkResult:
    """What a chunk produced, seen from bot A: everything the report needs, small enough to send back.

    ``points`` has one value per deal in play order: ``+g`` A won g game points, ``-g`` B won, 0 a draw.
    ``winners`` (Bummerl mode) has the winner of each Bummerl (0 = A, 1 = B) and ``lengths`` its deals.
    """

    pairing: int
    first: int
    points: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    faults: list[Fault] = field(default_factory=list)
    fault_counts: list[int] = field(default_factory=lambda: [0, 0])
    winners: list[int] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    times: tuple[Histogram, Histogram] = field(default_factory=lambda: ({}, {}))
    seconds: float = 0.0


def _book(out: ChunkResult, a_seat: int, result: DealResult) -> None:
    """Record a deal; a fault's deal number counts from the chunk's start (the runner adds the offset)."""
    outcome = result.outcome
    number = len(out.points)
    out.points.append(outcome.value_for(a_seat))
    out.reasons[outcome.reason] += 1
    if result.fault_seat is not None:
        slot = 0 if result.fault_seat == a_seat else 1
        out.fault_counts[slot] += 1
        if len(out.faults) < MAX_FAULTS_KEPT:
            out.faults.append(Fault(slot, number, result.fault or ""))


def close_bots(bots: Sequence[object], done: bool) -> None:
    """Close a chunk's bots: ``close`` when the chunk is ``done``, else (stopped or interrupted) ``kill`` at
    once, an outside program and its children, with no goodbye. A stop that interrupts one close (Ctrl-C
    in its second of grace) still stops the others, at once, and is raised after."""
    interrupted: BaseException | None = None
    for bot in bots:
        close = getattr(bot, "close" if done else "kill", None) or getattr(bot, "close", None)
        if close is None:
            continue
        try:
            close()
        except Exception:  # a bot's own failing goodbye changes no result (as end_deal's)
            continue
        except BaseException as err:
            interrupted, done = interrupted or err, False
    if interrupted is not None:
        raise interrupted


#: The bots of the chunk this process plays now (for a worker told to stop: :func:`kill_playing_bots`).
_playing: list[object] = []


def kill_playing_bots() -> None:
    """Kill the bots of the chunk being played, outside programs and their children at once (a worker
    stopping from its signal handler; the chunk is abandoned)."""
    with contextlib.suppress(BaseException):
        close_bots(list(_playing), done=False)


def _made(task: Task, which: int, seed: int) -> Bot:
    """The chunk's bot ``which``; a factory that fails now (it made the bot when the run began) stops the
    run with one line (:class:`~bummerl.errors.BummerlError`), the bot already made closed."""
    spec = task.names[which]
    try:
        return make_bot(spec, seed, timeout=task.timeout)
    except KeyboardInterrupt:
        raise
    except BaseException as err:
        close_bots(list(_playing), done=False)
        raise BummerlError(f"cannot make bot {spec!r} for chunk {task.chunk} of pairing {task.pairing}: "
                           f"{_raised(err).removeprefix('raised ')}") from None


def play_chunk(task: Task) -> ChunkResult:
    """Play one chunk: make the two bots, play every game of it, close the bots (a worker's job)."""
    start = time.perf_counter()
    seeds = bot_seeds(task.seed, task.pairing, task.chunk)
    _playing[:] = []
    bot_a = _made(task, 0, seeds[0])
    _playing[:] = [bot_a]
    bot_b = _made(task, 1, seeds[1])
    _playing.append(bot_b)
    out = ChunkResult(task.pairing, task.first)
    # An outside program is stopped at its timeout by ExternalBot; a Python bot is held to it here.
    limit_a, limit_b = (None if is_outside(name) else task.timeout for name in task.names)
    clocks_a: list[int] = []
    clocks_b: list[int] = []
    done = False
    try:
        for j in range(task.first, task.first + task.count):
            fresh = deck_deal(task.rules, task.seed, j) if task.mode == "deals" else None
            for seat_bots, clocks, limits, a_seat in (
                ((bot_a, bot_b), (clocks_a, clocks_b), (limit_a, limit_b), 0),
                ((bot_b, bot_a), (clocks_b, clocks_a), (limit_b, limit_a), 1),
            ):
                if fresh is not None:
                    deal = fresh.copy()
                    result = play_deal(deal, seat_bots, None, clocks, limits)
                    _end(seat_bots, deal, None, result)
                    _book(out, a_seat, result)
                else:
                    winner, results = play_bummerl(
                        task.rules, bummerl_random(task.seed, j), j % 2, seat_bots, clocks, limits=limits
                    )
                    for result in results:
                        _book(out, a_seat, result)
                    out.winners.append(0 if winner == a_seat else 1)
                    out.lengths.append(len(results))
        done = True
    finally:
        close_bots((bot_a, bot_b), done)
        _playing.clear()
    for slot, clocks_ in enumerate((clocks_a, clocks_b)):
        out.decisions[slot] = len(clocks_)
        add_samples(out.times[slot], clocks_)
    out.seconds = time.perf_counter() - start
    return out
