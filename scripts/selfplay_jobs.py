"""Run self-play jobs for the measuring scripts: in order, on worker processes, with progress.

    from selfplay_jobs import run_jobs
    for result in run_jobs(play, jobs, workers=2, chunksize=4, every=50): ...
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

J = TypeVar("J")
R = TypeVar("R")


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
