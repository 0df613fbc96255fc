"""Run self-play jobs for the measuring scripts: in order, on worker processes, with progress; and tell
versions of a bot apart by what they play.

    from selfplay_jobs import run_jobs
    for result in run_jobs(play, jobs, workers=2, chunksize=4, every=50): ...
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from random import Random
from typing import TypeVar

from bummerl.bots.base import Bot
from bummerl.engine import Deal
from bummerl.rules import Rules
from bummerl.view import View

J = TypeVar("J")
R = TypeVar("R")
#: Positions a bot's fingerprint is taken on.
FINGERPRINT_VIEWS = 16


def fingerprint(make: Callable[[int], Bot], rules: Rules) -> str:
    """A short hash of what the bot ``make(1)`` plays on ``FINGERPRINT_VIEWS`` seeded positions: a bot
    changed in a way that shows in play gets another one."""
    bot = make(1)
    chosen = []
    for k in range(FINGERPRINT_VIEWS):
        rng = Random(k)
        deal = Deal.random(rules, rng)
        for _ in range(2 * k % 13):
            if deal.outcome is not None:
                break
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.outcome is None:
            view = View.of(deal, deal.to_move, score=(7 - k % 5, 7 - k % 3))
            # A yardstick that sees the deal (the cheaters) is asked as the arena asks it.
            sees = getattr(bot, "sees_deal", False)
            chosen.append(str(bot.choose_with_deal(view, deal.copy()) if sees else bot.choose(view)))
    return hashlib.sha256(" ".join(chosen).encode()).hexdigest()[:16]


def run_jobs(fn: Callable[[J], R], jobs: Sequence[J], workers: int, chunksize: int,
             every: int) -> Iterator[R]:
    """``fn`` of each job, in order; on ``workers`` processes (in this one when 1); a progress line on
    standard error every ``every`` jobs and at the end."""
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) if workers > 1 else _Inline() as pool:
        for i, result in enumerate(pool.map(fn, jobs, chunksize=chunksize), 1):
            yield result
            if i % every == 0 or i == len(jobs):
                print(f"\r{i}/{len(jobs)} deals, {time.perf_counter() - start:.0f}s", end="", file=sys.stderr)
    print(file=sys.stderr)


class _Inline:
    """A stand-in for a process pool that maps in this process (no pickling: scripts loaded by path)."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Callable[[J], R], jobs: Sequence[J], chunksize: int = 1) -> Iterator[R]:
        return map(fn, jobs)
