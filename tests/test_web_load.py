"""The web load benchmark measures real games on a real server and judges the target on what it measured."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from helpers.scripts import load as load_file

load = partial(load_file, folder=Path(__file__).resolve().parent.parent / "benchmarks")


def test_quantiles_are_exact() -> None:
    bench = load("web_load")
    assert bench.quantile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert bench.quantile([0.0, 10.0], 0.95) == pytest.approx(9.5)


def test_the_verdict_follows_the_measured_numbers() -> None:
    bench = load("web_load")
    fast = bench.Tally(latencies=[0.01] * 99 + [0.2], games=2, deals=3, actions=100)
    assert bench.report(fast, 1.0, 2, 1024, [2048])[-1].endswith(": met")
    slow = bench.Tally(latencies=[0.06] * 100, games=2)
    assert bench.report(slow, 1.0, 2, 0, [])[-1].endswith("MISSED")
    failed = bench.Tally(latencies=[0.01] * 10, games=1, errors=["boom"])
    assert bench.report(failed, 1.0, 2, 0, [])[-1].endswith("MISSED")


def test_two_players_finish_their_bummerls_on_a_real_server(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("web_load").main(["--players", "2", "--level", "easy", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "Bummerls finished    2" in out and "errors               0" in out
