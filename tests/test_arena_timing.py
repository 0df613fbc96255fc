"""Time-per-decision histograms: buckets in order, nearest-rank quantiles, merging."""

from __future__ import annotations

import math
import random

from bummerl.arena.timing import Histogram, add_samples, bucket, merge, quantile


def test_buckets_keep_the_order_of_durations() -> None:
    values = sorted(random.Random(1).randrange(1, 10**10) for _ in range(2000))
    keys = [bucket(v) for v in values]
    assert keys == sorted(keys)


def test_quantiles_are_within_a_bucket_of_the_exact_nearest_rank() -> None:
    rng = random.Random(2)
    samples = [int(rng.lognormvariate(10, 1.5)) for _ in range(5000)]
    hist: Histogram = {}
    add_samples(hist, samples)
    ordered = sorted(samples)
    for q in (0.5, 0.95, 0.99):
        exact = ordered[math.ceil(q * len(ordered)) - 1]
        assert abs(quantile(hist, q) - exact) / exact < 0.04


def test_small_durations_are_exact() -> None:
    hist: Histogram = {}
    add_samples(hist, [7, 7, 9, 40])
    assert quantile(hist, 0.5) == 7 and quantile(hist, 1.0) == 40


def test_merging_equals_counting_everything_at_once() -> None:
    a: Histogram = {}
    b: Histogram = {}
    both: Histogram = {}
    add_samples(a, [100, 2000, 30000])
    add_samples(b, [2000, 5_000_000])
    add_samples(both, [100, 2000, 30000, 2000, 5_000_000])
    merge(a, b)
    assert a == both


def test_an_empty_histogram_has_no_quantile() -> None:
    assert math.isnan(quantile({}, 0.5))
