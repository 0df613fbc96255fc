"""benchmarks/env_speed.py runs and prints its table (the numbers themselves go in the README)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is in the rl extra: pip install 'bummerl[rl]'")

from helpers.scripts import load

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_env_speed_prints_a_row_per_environment(capsys: pytest.CaptureFixture[str]) -> None:
    env_speed = load("env_speed", BENCHMARKS)
    assert env_speed.main(["--deals", "4", "--repeats", "1", "--no-baseline"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("bummerl environment speed") and "4 deals x 1 rounds" in out[0]
    rows = {line[:38].strip(): line[38:].split() for line in out[2:]}
    assert set(rows) == {
        "pettingzoo DealEnv vu", "pettingzoo DealEnv standard", "pettingzoo DealEnv sixty-six",
        "gymnasium BummerlVsBot vu (learner)", "bummerl engine vu, no env",
    }
    for steps_per_second, steps_per_deal, _ in rows.values():
        assert float(steps_per_second) > 0 and 2 <= float(steps_per_deal) <= 31


def test_the_step_counters_count_decisions() -> None:
    env_speed = load("env_speed", BENCHMARKS)
    _, pettingzoo_steps = env_speed.pettingzoo_steps("vu")(6, 3)
    _, engine_steps = env_speed.engine_steps("vu")(6, 3)
    assert 6 * 4 <= pettingzoo_steps <= 6 * 31 and 6 * 4 <= engine_steps <= 6 * 31
