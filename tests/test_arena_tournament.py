"""``bummerl tournament``: ratings with bootstrap intervals and a cross-table from the arena's round robin."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from bummerl import Rules
from bummerl.arena import ArenaConfig, run_arena
from bummerl.arena.tournament import tournament
from bummerl.cli import app

VU = Rules.preset("vu")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["tournament", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_tournament_of_four_bots_rates_them_with_intervals_and_a_cross_table() -> None:
    code, out, _ = run("random", "heuristic", "easy", "random", "--deals", "60", "--seed", "8", "--rules",
                       "vu", "--json", "--resamples", "300")
    assert code == 0
    data = json.loads(out)
    ratings = {r["bot"]: r for r in data["ratings"]}
    assert next(iter(ratings)) == "heuristic" and set(ratings) == {"random", "heuristic", "easy", "random#2"}
    assert ratings["random"]["rating"] == ratings["random"]["low"] == ratings["random"]["high"] == 0  # anchor
    for r in data["ratings"]:
        assert r["low"] <= r["rating"] <= r["high"] and r["games"] == 180
    assert ratings["heuristic"]["low"] > ratings["random#2"]["high"]  # far apart: the intervals say so
    assert ratings["random#2"]["low"] < 0 < ratings["random#2"]["high"]  # random is no better than random
    # the point ratings are the arena's standings
    standings = {s["bot"]: s["rating"] for s in data["arena"]["standings"]}
    assert all(abs(ratings[k]["rating"] - standings[k]) < 0.2 for k in standings)
    cells = {(c["bot"], c["opponent"]): c for c in data["cross_table"]}
    assert len(cells) == 12
    for (a, b), cell in cells.items():
        back = cells[(b, a)]
        assert (cell["won"], cell["lost"], cell["drawn"]) == (back["lost"], back["won"], back["drawn"])
        assert cell["won"] + cell["lost"] + cell["drawn"] == 60
    score = sum(c["won"] + c["drawn"] / 2 for (a, _), c in cells.items() if a == "easy")
    assert ratings["easy"]["score"] == score


def test_the_same_seed_gives_the_same_intervals() -> None:
    arena = run_arena(ArenaConfig(("random", "heuristic", "random"), VU, seed=4, deals=20))
    one, two = tournament(arena, resamples=100), tournament(arena, resamples=100)
    assert one.ratings == two.ratings
    assert [r.rating for r in tournament(arena, resamples=0).ratings] == [r.rating for r in one.ratings]


def test_bummerl_mode_rates_on_bummerls_won() -> None:
    arena = run_arena(ArenaConfig(("random", "heuristic", "random"), VU, seed=2, bummerls=6))
    table = tournament(arena, resamples=50)
    assert table.unit == "Bummerls" and all(r.games == 12 for r in table.ratings)
    assert sum(c.won for row in table.cross for c in row if c is not None) == 18


def test_csv_has_a_row_per_bot_and_a_column_per_opponent() -> None:
    code, out, _ = run("random", "heuristic", "random", "--deals", "10", "--seed", "1", "--csv",
                       "--resamples", "20", "--rules", "vu")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["rank"] for r in rows] == ["1", "2", "3"] and rows[0]["bot"] == "heuristic"
    assert rows[0]["vs heuristic"] == "" and 0 <= float(rows[0]["vs random"]) <= 1


def test_the_table_for_people() -> None:
    code, out, _ = run("random", "heuristic", "random", "--deals", "10", "--seed", "1", "--resamples", "20")
    assert code == 0
    assert "tournament of 3 bots: 10 deals per pairing, rules standard, seed 1" in out
    assert "95% bootstrap interval over 20 resamples" in out and "cross-table" in out


def test_the_table_says_why_a_bot_forfeited(monkeypatch: pytest.MonkeyPatch) -> None:
    # Session 12's audit: only a count ("faults (forfeited deals): cmd:start_error 12"), no reason.
    from helpers.arena_bots import register_test_bots

    register_test_bots(monkeypatch)
    code, out, _ = run("random", "raiser", "first", "--deals", "4", "--seed", "1", "--resamples", "20")
    assert code == 0
    assert "faults (forfeited deals): raiser 8" in out
    assert "raiser's first fault: raised RuntimeError: boom" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random"], "name at least two bots"),
        (["random", "random", "--deals", "3"], "--deals must be an even number"),
        (["random", "random", "--json", "--csv"], "choose one of --json and --csv"),
        (["random", "random", "--resamples", "-1"], "--resamples must be between 0 and 100000"),
        (["random", "random", "--timeout", "nan"], "--timeout must be a finite positive number"),
    ],
)
def test_mistakes_exit_2_with_one_line(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
