"""The bot-speed benchmark times every decision and judges the targets on what it measured."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from helpers.scripts import load as load_file

load = partial(load_file, folder=Path(__file__).resolve().parent.parent / "benchmarks")


def test_bot_speed_times_every_decision_of_the_bot() -> None:
    bench = load("bot_speed")
    records = bench.time_bot("random", "random", bench.Rules.preset("standard"), pairs=2, seed=3)
    # Four deals; the bot moves in each, and every record has its legal count, cards left and a time.
    assert len(records) >= 4
    assert all(n >= 1 and 1 <= left <= 20 and ns >= 0 for n, left, ns in records)


def test_bot_speed_verdict_follows_the_measured_times() -> None:
    bench = load("bot_speed")
    fast = [(3, 20, 1_000_000)] * 19 + [(3, 10, 2_000_000_000)]  # median 1 ms, p95 ~1.1 s
    slow = [(3, 20, 1_500_000_000)] * 20  # median 1.5 s
    assert "pimc     target median <= 0.3 s: met" in bench.report("pimc", fast)[-1]
    assert "MISSED" in bench.report("expert", slow)[-1]
    assert bench.median_p95([1.0, 2.0, 3.0]) == (2.0, 2.9)


def test_bot_speed_prints_a_row_per_phase(capsys: pytest.CaptureFixture[str]) -> None:
    load("bot_speed").main(["--bots", "random", "--opponent", "random", "--pairs", "1"])
    out = capsys.readouterr().out
    for label in ("all", "choices", "  18+ cards left", "  under 18"):  # the phases are indented
        assert f"random   {label}" in out
