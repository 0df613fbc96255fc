"""``bummerl arena`` on the command line: tables, JSON, CSV and one-line errors."""

from __future__ import annotations

import csv
import io
import json
import os
import sys

import pytest
from typer.testing import CliRunner

from bummerl.cli import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["arena", *args])
    return result.exit_code, result.stdout, result.stderr


def test_two_bots_print_a_table() -> None:
    code, out, _ = run("random", "random", "--deals", "20", "--seed", "3")
    assert code == 0
    assert "random vs random#2: 20 deals per pairing, rules standard, seed 3" in out and "deals/s" in out


def test_json_output_is_the_same_for_one_and_two_workers() -> None:
    outs = []
    for workers in ("1", "2"):
        code, out, _ = run("random", "random", "random", "--deals", "8", "--rules", "vu", "--json",
                           "--seed", "4", "-j", workers)
        assert code == 0
        data = json.loads(out)
        outs.append([p["results"][0]["won"] for p in data["pairings"]])
    assert outs[0] == outs[1] and len(outs[0]) == 3


def test_csv_output_and_rule_overrides() -> None:
    code, out, _ = run("random", "random", "--deals", "10", "--csv", "--rule", "false_claim=mirror")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["bot"] for r in rows] == ["random", "random#2"]


def test_bummerl_mode() -> None:
    code, out, _ = run("random", "random", "--bummerls", "4", "--json", "--rules", "sixty-six")
    assert code == 0
    data = json.loads(out)
    a, b = data["pairings"][0]["results"]
    assert data["mode"] == "bummerls" and a["bummerls_won"] + b["bummerls_won"] == 4


def test_an_outside_bot_joins_by_command() -> None:
    spec = f"cmd:{sys.executable} examples/random_bot.py"
    code, out, _ = run("random", spec, "--deals", "6", "--json", "--timeout", "5")
    assert code == 0
    data = json.loads(out)
    assert data["labels"] == ["random", "cmd:random_bot.py"]
    assert all(r["faults"] == 0 for r in data["pairings"][0]["results"])


def test_list_shows_the_bots() -> None:
    code, out, _ = run("--list")
    assert code == 0 and out.startswith("random ") and "cmd:COMMAND" in out
    assert "expert-v1" not in out.split("(--list --all")[0]  # only named in the hint


def test_list_all_shows_the_baselines_and_candidates_too() -> None:
    from bummerl.bots import bot_names

    code, out, _ = run("--list", "--all")
    names = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and names == [*bot_names(), "cmd:COMMAND"]
    assert "expert-v1" in names and "cheater" in names


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random"], "name at least two bots"),
        (["random", "nobody"], "unknown bot 'nobody'"),
        (["random", "random", "--deals", "5"], "--deals must be an even number"),
        (["random", "random", "--rules", "chess"], "unknown rules preset 'chess'"),
        (["random", "random", "--rule", "open_tricks"], "a rule override is FLAG=VALUE"),
        (["random", "random", "--json", "--csv"], "choose one of --json and --csv"),
        (["random", "random", "--all"], "--all goes with --list"),
    ],
)
def test_mistakes_exit_2_with_one_line(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("command", [["arena", "random", "random"], ["arena", "random", "random", "--json"],
                                     ["tournament", "random", "heuristic"]])
def test_results_that_cannot_be_written_are_one_line_not_a_traceback(command: list[str]) -> None:
    # A full disk (/dev/full) printed a traceback (session 11's audit).
    import subprocess

    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-c", "from bummerl.cli import main; main()", *command,
                               "--deals", "4", "--quiet"], stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=120)
    assert proc.returncode == 2
    assert proc.stderr == "error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("command", ["arena", "tournament"])
def test_deals_and_bummerls_together_are_refused(command: str) -> None:
    # --deals was silently ignored when --bummerls was given (session 11's audit).
    result = runner.invoke(app, [command, "random", "random", "--deals", "4", "--bummerls", "2"])
    assert result.exit_code == 2 and "choose --deals or --bummerls, not both" in result.output


def test_a_tournament_without_resamples_shows_no_interval() -> None:
    # "--resamples 0" printed a "95% interval" of [x, x] (session 11's audit).
    result = runner.invoke(app, ["tournament", "random", "heuristic", "--deals", "4", "--seed", "1",
                                 "--resamples", "0", "--quiet"])
    assert result.exit_code == 0 and "no interval (--resamples 0)" in result.output
    assert "[" not in result.output.split("no interval")[1]
