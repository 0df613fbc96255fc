"""The measuring scripts' shared option checks and one-line errors (``bummerl.scripting``)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from bummerl.errors import BummerlError
from bummerl.scripting import positive, run

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("text", ["0", "-3", "two", "1.5", ""])
def test_a_count_must_be_a_whole_number_of_at_least_one(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="not a whole number of at least 1"):
        positive(text)
    assert positive("12") == 12


def test_run_turns_a_bad_bot_or_file_into_one_line_and_status_two(capsys: pytest.CaptureFixture[str]) -> None:
    def bad_bot() -> int:
        raise BummerlError("unknown bot 'nosuch'")

    def missing_file() -> int:
        return len(Path("/nonexistent/tournament.json").read_text())

    for main, line in ((bad_bot, "error: unknown bot 'nosuch'\n"),
                       (missing_file, "error: /nonexistent/tournament.json: No such file or directory\n")):
        with pytest.raises(SystemExit) as stop:
            run(main)
        assert stop.value.code == 2 and capsys.readouterr().err == line
    with pytest.raises(SystemExit) as stop:
        run(lambda: 1)
    assert stop.value.code == 1


@pytest.mark.parametrize("command", [
    ["scripts/compare_bots.py", "nosuch", "random", "--pairs", "1"],
    ["scripts/last_lead_regret.py", "--deals", "0"],
    ["benchmarks/bot_speed.py", "--bots", "random", "--rules", "nosuch", "--pairs", "1"],
    ["benchmarks/arena_ray.py", "--bummerls", "3", "--no-ray"],
    ["scripts/deciding_match.py", "plan", "/nonexistent-dir/m", "--bots", "nosuch", "random", "--seed", "1"],
])
def test_the_scripts_refuse_bad_options_in_one_line(command: list[str]) -> None:
    done = subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert "Traceback" not in done.stderr and (last.startswith("error: ") or ": error: " in last), done.stderr
