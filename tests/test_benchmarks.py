"""The bot-speed benchmark times every decision and judges the targets on what it measured."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from helpers.scripts import load as load_file

load = partial(load_file, folder=Path(__file__).resolve().parent.parent / "benchmarks")


def test_bot_speed_times_every_decision_of_the_bot() -> None:
    bench = load("bot_speed")
    records, faults = bench.time_bot("random", "random", bench.Rules.preset("standard"), pairs=2, seed=3)
    # Four deals; the bot moves in each, and every record has its legal count, cards left and a time.
    assert len(records) >= 4 and faults == []
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


def test_solver_speed_verdicts_carry_intervals_over_the_deals(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("solver_speed")
    std = [0.2e-3] * 90 + [8e-3] * 10  # mean 0.98 ms, median 0.2 ms
    s66 = [1e-3] * 45 + [100e-3] * 5  # mean 10.9 ms: 11.1x, carried by five deals
    bench.verdicts({("standard", "compiled"): std, ("sixty-six", "compiled"): s66})
    out = capsys.readouterr().out
    assert "mean 0.980 ms [" in out and "<= 1.2: yes" in out and "median 0.200 ms [0.200, 0.200]" in out
    line = next(x for x in out.splitlines() if "Sixty-Six" in x)
    low, high = (float(x) for x in line.split("[")[1].split("]")[0].split(", "))
    assert "= 11.1 [" in line and "<= 5: NO" in line
    assert low < 11.1 < high and high - low > 5  # five deals of fifty: a wide interval


def test_solver_speed_times_the_two_games_in_turns() -> None:
    """The verdict's ratio compares the games' means: their deals are timed alternately, in every pass."""
    bench = load("solver_speed")
    calls: list[str] = []

    def analyse(pos: tuple[str, int], want: bool) -> tuple[int, dict[int, int], int]:
        calls.append(pos[0])
        return 0, {}, pos[1]

    std, s66 = [("s", 1), ("s", 2), ("s", 3)], [("x", 7)]
    (secs, nodes), (secs66, nodes66) = bench.timed_together(analyse, [std, s66], False, 2)
    assert calls == ["s", "x", "s", "s"] * 2
    assert nodes == [1, 2, 3] and nodes66 == [7] and len(secs) == 3 and len(secs66) == 1
