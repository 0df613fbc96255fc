"""The computer's thinking, off the event loop: a pool of worker processes.

The compiled solver keeps its settings in module globals, so two games may not think in one process at
once; each decision therefore runs in a worker process of a :class:`concurrent.futures.ProcessPoolExecutor`
(one decision per process at a time), and the event loop only awaits the answer. While one game's expert
thinks, every other game keeps answering.

A decision is a pure function of (level, game seed, view): :func:`decide` makes a fresh bot of the level,
seeded from the game's seed and the view's public state (:func:`bummerl.bots.pimc.decision_seed`), so the
same position gets the same answer, also after a server restart.

>>> from bummerl import Deal, Rules, View
>>> view = View.of(Deal.random(Rules.preset("standard"), 5), 0)
>>> decide("medium", 11, view) == decide("medium", 11, view) and decide("medium", 11, view) in {
...     str(a) for a in view.legal_actions}
True
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from bummerl.actions import Action
from bummerl.view import View

__all__ = ["DEFAULT_WORKERS", "Thinker", "analyse_view", "decide", "review_decisions"]

T = TypeVar("T")

#: Worker processes by default: the machine's cores (at least 1, at most 4).
DEFAULT_WORKERS = max(1, min(4, os.cpu_count() or 1))


def decide(level: str, seed: int, view: View) -> str:
    """The computer's action (as a string) for ``view`` at ``level`` (``easy`` … ``expert``, ``random``)."""
    from bummerl.bots import make_bot
    from bummerl.bots.pimc import decision_seed
    from bummerl.store import COMPUTER_LEVELS

    if level not in COMPUTER_LEVELS:  # never an outside program: the level may come from storage
        raise ValueError(f"{level!r} is not a computer level")
    return str(make_bot(level, decision_seed(seed, view)).choose(view))


def analyse_view(view: View, samples: int) -> dict[str, Any]:
    """The ``?`` analysis of a view as JSON: ``{"note", "actions": [{"action", "mean", "win_share", ...}]}``
    (every legal action, best first; see :func:`bummerl.tui.advice.rate`)."""
    from bummerl.tui.advice import rate

    stats, note = rate(view, samples=samples)
    return {"note": note, "actions": [s.to_json() for s in stats]}


def review_decisions(decisions: list[tuple[int, View, Action]], samples: int) -> list[dict[str, Any]]:
    """The end-of-game review as JSON: the choices that lost game points on average, costliest first."""
    from bummerl.tui.advice import review

    return [
        {"deal": m.deal_number, "trick": m.trick_number, "chosen": m.chosen.to_json(),
         "best": m.best.to_json(), "loss": round(m.loss, 4)}
        for m in review(decisions, samples)
    ]


def _warm_up() -> None:
    """Import the bots and the solver once per worker, so the first decision is not slow."""
    import bummerl.bots.levels
    import bummerl.search  # noqa: F401


class Thinker:
    """Runs the computer's decisions (and analyses) in worker processes; ``await`` them from the loop.

    ``workers=0`` runs them in one background thread instead (handy for quick tests; never two at once,
    as the solver is not re-entrant). ``decide_fn`` replaces :func:`decide` (it must pickle: a module-level
    function). Call :meth:`close` when done.
    """

    def __init__(self, workers: int = DEFAULT_WORKERS,
                 decide_fn: Callable[[str, int, View], str] = decide) -> None:
        self.workers = workers
        self.decide_fn = decide_fn
        self._pool: Executor
        if workers > 0:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_warm_up)
        else:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="bummerl-thinker")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker (``fn`` and the arguments must pickle)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, fn, *args)

    async def decide(self, level: str, seed: int, view: View) -> Action:
        """The computer's action for a view."""
        return Action.parse(await self.run(self.decide_fn, level, seed, view))

    def warm(self, count: int | None = None) -> None:
        """Start the worker processes now rather than on the first decision."""
        futures = [self._pool.submit(_warm_up) for _ in range(count or max(1, self.workers))]
        for f in futures:
            f.result()

    def close(self) -> None:
        """Stop the workers (pending decisions are cancelled)."""
        self._pool.shutdown(wait=True, cancel_futures=True)


