"""Where the arena's randomness comes from: one root, and separate keyed streams for decks and for bots.

A bot must not be able to rebuild the decks from anything it is told. So nothing a bot gets is the root
or a function of the deck stream: every value is HMAC-SHA256 under a key made from the root, in its own
domain, and HMAC cannot be turned back into its key.

- ``key = SHA-256("bummerl arena seeds v2/" + str(root))``
- deck pair ``j`` is shuffled by a SHA-256 counter-mode generator keyed by ``HMAC(key, "deck/j")``;
  twin Bummerl ``j`` draws its decks from ``HMAC(key, "bummerl/j")``;
- the two bots of chunk ``c`` of pairing ``p`` get 63-bit seeds from ``HMAC(key, "bots/p/c")`` (an
  outside program hears its seed in ``hello``, and nothing else derived from the root).

The derivation is public, so the secret is the root itself: anyone who can guess the root can rebuild
every deck (a bot could even find a small root from its own cards). Without ``--seed`` the arena draws
a fresh 128-bit root from :mod:`secrets` and prints it with the results, so a run can be repeated
afterwards but not predicted before; a tournament with outside bots should do that, or pick a root as
long. The same root always gives the same decks and the same bot seeds.

>>> deck_random(7, 0).random() == deck_random(7, 0).random() != deck_random(7, 1).random()
True
>>> bot_seeds(7, 0, 0) == bot_seeds(7, 0, 0) != bot_seeds(7, 0, 1)
True
>>> fresh_root().bit_length() <= ROOT_BITS
True
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import math
import secrets
from collections.abc import MutableSequence
from random import Random
from typing import Any, NoReturn

__all__ = [
    "ROOT_BITS", "StreamRandom", "bot_seeds", "bummerl_random", "deck_random", "fresh_root", "root_key",
]

#: Bits of a root drawn when no seed is given.
ROOT_BITS = 128
_DOMAIN = b"bummerl arena seeds v2/"


def fresh_root() -> int:
    """A new secret root (128 random bits from the operating system)."""
    return secrets.randbits(ROOT_BITS)


@functools.lru_cache(maxsize=64)
def root_key(root: int) -> bytes:
    """The 32-byte key every stream of a run is derived from.

    >>> len(root_key(1)), root_key(1) != root_key(2)
    (32, True)
    """
    return hashlib.sha256(_DOMAIN + str(root).encode()).digest()


def _derive(root: int, label: str) -> bytes:
    return hmac.new(root_key(root), label.encode(), hashlib.sha256).digest()


class StreamRandom(Random):
    """A :class:`random.Random` whose bits are SHA-256 in counter mode under a 32-byte key: outputs say
    nothing about the key or about other keys' outputs (unlike the Mersenne Twister, whose state can be
    rebuilt from enough outputs).

    >>> rng = StreamRandom(bytes(32))
    >>> deck = list(range(10))
    >>> rng.shuffle(deck)
    >>> sorted(deck) == list(range(10)), 0 <= StreamRandom(bytes(32)).random() < 1
    (True, True)
    """

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._bits = 0
        self._nbits = 0
        super().__init__(0)

    def seed(self, *args: object, **kwargs: object) -> None:
        """Ignored: the stream is fixed by its key (``Random.__init__`` calls this)."""

    def getrandbits(self, k: int) -> int:
        """``k`` bits from the stream."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._nbits < k:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._bits |= int.from_bytes(block, "big") << self._nbits
            self._nbits += 256
        out = self._bits & ((1 << k) - 1)
        self._bits >>= k
        self._nbits -= k
        return out

    def _below(self, n: int) -> int:
        """A uniform number in ``[0, n)``: as many bits as ``n`` has, drawn again until below ``n``."""
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def random(self) -> float:
        """A float in [0, 1) with 53 bits from the stream."""
        return self.getrandbits(53) / (1 << 53)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle in place, uniformly: one number below ``len(x)!`` from the stream, read digit by digit
        in the mixed radix of Fisher-Yates (each digit is uniform and independent of the others).

        >>> deck = list(range(24))
        >>> StreamRandom(bytes(32)).shuffle(deck)
        >>> sorted(deck) == list(range(24)), deck != list(range(24))
        (True, True)
        """
        n = len(x)
        r = self._below(math.factorial(n)) if n > 1 else 0
        for i in range(n - 1, 0, -1):
            r, j = divmod(r, i + 1)
            x[i], x[j] = x[j], x[i]

    def _unsupported(self, *args: object, **kwargs: object) -> NoReturn:
        raise NotImplementedError("a StreamRandom is fixed by its key: make another from the same key")

    getstate = setstate = _unsupported


def deck_random(root: int, pair: int) -> StreamRandom:
    """The generator that shuffles deck pair ``pair`` of a run."""
    return StreamRandom(_derive(root, f"deck/{pair}"))


def bummerl_random(root: int, twin: int) -> StreamRandom:
    """The generator that deals every deck of twin Bummerl ``twin`` of a run."""
    return StreamRandom(_derive(root, f"bummerl/{twin}"))


def bot_seeds(root: int, pairing: int, chunk: int) -> tuple[int, int]:
    """The seeds of bot A and bot B for one chunk of one pairing (the only values bots get from the root).

    >>> a, b = bot_seeds(1, 0, 0)
    >>> a != b and 0 <= a < 2**63 and 0 <= b < 2**63
    True
    """
    digest = _derive(root, f"bots/{pairing}/{chunk}")
    return (int.from_bytes(digest[:8], "big") >> 1, int.from_bytes(digest[8:16], "big") >> 1)
