"""Time per decision, kept as a small mergeable histogram (log buckets, about 3 % wide).

>>> hist: Histogram = {}
>>> add_samples(hist, [1_000, 2_000, 3_000, 1_000_000])
>>> round(quantile(hist, 0.5) / 1000, 1), round(quantile(hist, 0.95) / 1e6, 1)
(2.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["Histogram", "add_samples", "bucket", "merge", "quantile"]

#: bucket key -> count. Keys order like the durations they stand for.
Histogram = dict[int, int]
_MANTISSA = 5  # bits kept below the leading one: 32 buckets per doubling


def bucket(ns: int) -> int:
    """The histogram key of a duration in nanoseconds (exact below 64 ns).

    >>> bucket(5), bucket(1000) < bucket(1100) < bucket(2000)
    (5, True)
    """
    b = ns.bit_length()
    if b <= _MANTISSA + 1:
        return ns
    return ((b - _MANTISSA) << _MANTISSA) | ((ns >> (b - _MANTISSA - 1)) & ((1 << _MANTISSA) - 1))


def _value(key: int) -> float:
    """The middle of a bucket, in nanoseconds."""
    if key < 1 << (_MANTISSA + 1):
        return float(key)
    shift = (key >> _MANTISSA) - 1
    mantissa = (key & ((1 << _MANTISSA) - 1)) | (1 << _MANTISSA)
    return (mantissa + 0.5) * (1 << shift)


def add_samples(hist: Histogram, samples: Iterable[int]) -> None:
    """Count durations (nanoseconds) into a histogram."""
    for ns in samples:
        key = bucket(ns)
        hist[key] = hist.get(key, 0) + 1


def merge(into: Histogram, other: Histogram) -> None:
    """Add the counts of ``other`` to ``into``."""
    for key, count in other.items():
        into[key] = into.get(key, 0) + count


def quantile(hist: Histogram, q: float) -> float:
    """The q-quantile (0..1) in nanoseconds, from the bucket middles; NaN for an empty histogram.

    >>> quantile({}, 0.5) != quantile({}, 0.5)
    True
    """
    total = sum(hist.values())
    if total == 0:
        return float("nan")
    rank = max(1, math.ceil(q * total))  # nearest rank: the smallest x with a share q of samples <= x
    seen = 0
    for key in sorted(hist):
        seen += hist[key]
        if seen >= rank:
            return _value(key)
    return _value(max(hist))
