"""The bot authors' and researchers' examples run: the JavaScript bot in the arena, the PettingZoo and
OpenSpiel demos."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bummerl.cli import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
NODE = shutil.which("node")
JS_BOT = f"cmd:node {EXAMPLES / 'random_bot.js'}"


@pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript example bot needs it")
def test_the_javascript_bot_plays_arena_deals_without_faults_and_reproducibly() -> None:
    runs = []
    for _ in range(2):
        args = ["arena", "random", JS_BOT, "--deals", "20", "--seed", "5", "--json"]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.stderr
        data = json.loads(result.stdout)
        pairing = data["pairings"][0]
        assert pairing["faults"] == [] and [r["faults"] for r in pairing["results"]] == [0, 0]
        assert sum(r["decisions"] for r in pairing["results"]) > 20 * 4
        runs.append(([r["won"] for r in pairing["results"]], pairing["reasons"]))
    assert runs[0] == runs[1]  # seeded from hello: the same games


@pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript example bot needs it")
def test_the_javascript_bot_enters_a_tournament_and_is_rated() -> None:
    args = ["tournament", "random", "heuristic", JS_BOT, "--deals", "10", "--seed", "2", "--resamples", "50",
            "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    rated = {r["bot"]: r for r in data["ratings"]}
    assert set(rated) == {"random", "heuristic", "cmd:random_bot.js"}
    assert rated["cmd:random_bot.js"]["games"] == 20  # 10 deals against each of the other two
    assert all(p["faults"] == [] for p in data["arena"]["pairings"])


@pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript example bot needs it")
def test_the_javascript_bot_speaks_the_protocol() -> None:
    assert NODE is not None
    messages = [
        {"type": "hello", "protocol": 1, "seed": 7, "timeout": 10.0},
        {"type": "decide", "id": 1, "legal": ["close", "play AS", "play KS"]},
        {"type": "deal_end", "seat": 0, "result": {"winner": 1, "game_points": 2, "reason": "claim"}},
        {"type": "decide", "legal": ["claim"]},
        {"type": "bye"},
    ]
    stdin = "".join(json.dumps(m) + "\n" for m in messages)
    done = subprocess.run([NODE, str(EXAMPLES / "random_bot.js")], input=stdin, capture_output=True,
                          text=True, timeout=60, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0]["name"] and answers[1]["action"] in ("close", "play AS", "play KS")
    assert answers[1]["id"] == 1  # the id is echoed when the message has one
    assert answers[2] == {"action": "claim"} and len(answers) == 3


def run_example(name: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_pettingzoo_example_plays_a_random_policy_against_a_bot() -> None:
    pytest.importorskip("pettingzoo", reason="PettingZoo is in the rl extra: pip install 'bummerl[rl]'")
    out = run_example("pettingzoo_random_vs_bot.py", "--deals", "40", "--bummerls", "2", "--bot", "heuristic")
    deal_line, bummerl_line = out.splitlines()
    found = re.match(r"40 deals, rules standard: random policy ([-+.\d]+), heuristic ([-+.\d]+)", deal_line)
    assert found and float(found[1]) == -float(found[2]) and float(found[2]) > 0
    assert bummerl_line.startswith("2 Bummerls") and "Bummerls" in bummerl_line


def test_the_openspiel_example_runs_ismcts_against_a_bummerl_bot() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel is in the rl extra: pip install 'bummerl[rl]'")
    out = run_example("openspiel_ismcts.py", "--deals", "2", "--simulations", "10")
    expected = r"ISMCTS \(10 simulations\) vs random, 2 deals, rules standard: [-+.\d]+ game points"
    assert re.match(expected, out)
    # Repeatable: ISMCTS's resampling is seeded too (its own resampler draws from the machine's entropy;
    # three runs of 12 deals then gave three results, but two short runs may agree by chance).
    runs = {run_example("openspiel_ismcts.py", "--deals", "6", "--simulations", "10").rsplit(" (", 1)[0]
            for _ in range(2)}
    assert len(runs) == 1, runs
