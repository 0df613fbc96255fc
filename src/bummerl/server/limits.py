"""Limits per connection: a token bucket for the messages a client may send (an action that moves the
game on gives its token back, so only messages that change nothing are limited).

>>> clock = iter([0.0, 0.0, 0.0, 0.0, 0.0, 1.0]).__next__
>>> bucket = RateLimit(rate=2.0, burst=3, clock=clock)
>>> [bucket.allow() for _ in range(5)]
[True, True, True, False, True]
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["MESSAGES_BURST", "MESSAGES_PER_SECOND", "RateLimit"]

#: Messages a client may send per second on average, and at once.
MESSAGES_PER_SECOND = 20.0
MESSAGES_BURST = 40


class RateLimit:
    """``rate`` messages a second on average, ``burst`` at once; :meth:`allow` says whether one more may
    pass now, and :attr:`refused_since_allowed` counts the refusals in a row (so a flood is answered with
    one ``error``, not one per message)."""

    def __init__(self, rate: float = MESSAGES_PER_SECOND, burst: int = MESSAGES_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()
        self.refused_since_allowed = 0

    def allow(self) -> bool:
        """Take one message's token if there is one."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            self.refused_since_allowed = 0
            return True
        self.refused_since_allowed += 1
        return False

    def refund(self) -> None:
        """Give back one message's token (e.g. for an action that moved the game on: a client playing
        quickly is not a flood; messages that change nothing are).

        >>> bucket = RateLimit(rate=1.0, burst=1, clock=lambda: 0.0)
        >>> bucket.allow(), bucket.allow(), bucket.refund(), bucket.allow()
        (True, False, None, True)
        """
        self._tokens = min(float(self.burst), self._tokens + 1.0)
