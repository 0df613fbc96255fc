"""Fixed ratings of the computer levels: made from a tournament's output by a script, never typed by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bummerl.errors import BummerlError
from bummerl.level_ratings import (
    ANCHOR_RATING,
    MIN_DEVIATION,
    LevelRating,
    UnknownLevel,
    level_rating,
    level_ratings,
    tournament,
)
from bummerl.ratings import Rating, update_pair
from bummerl.store import COMPUTER_LEVELS
from helpers.scripts import load

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "src" / "bummerl" / "data" / "level_ratings.json"
RESULT = ROOT / "benchmarks" / "results" / "levels_tournament.json"


def fake_result(**changes: Any) -> dict[str, Any]:
    """A tournament's --json output in miniature: five levels and pimc, medium the anchor."""
    rows = [("expert", 300.0, 250.0, 360.0), ("pimc", 280.0, 200.0, 330.0), ("hard", 150.0, 80.0, 220.0),
            ("medium", 0.0, 0.0, 0.0), ("easy", -120.0, -180.0, -60.0), ("random", -600.0, -700.0, -520.0)]
    result: dict[str, Any] = {
        "unit": "bummerls", "resamples": 200, "rating_anchor": "medium",
        "ratings": [{"bot": b, "spec": b, "rating": r, "low": lo, "high": hi, "games": 40, "score": 20.0,
                     "share": 0.5} for b, r, lo, hi in rows],
        "cross_table": [],
        "arena": {"labels": [b for b, *_ in rows], "games_per_pairing": 8, "seed": 5, "workers": 2,
                  "rules": "standard", "deals": 900, "seconds": 60.0},
    }
    result.update(changes)
    return result


def test_the_script_puts_medium_at_1500_and_shifts_the_rest_by_their_elo_points() -> None:
    data = load("make_level_ratings").build(fake_result(), "abc1234")
    bots = data["bots"]
    assert bots["medium"]["rating"] == ANCHOR_RATING
    assert bots["hard"] == {"rating": 1650.0, "low": 1580.0, "high": 1720.0, "deviation": 35.7,
                            "bummerls": 40, "share": 0.5}
    assert bots["random"]["low"] == 800.0 and bots["random"]["high"] == 980.0
    assert bots["medium"]["deviation"] == MIN_DEVIATION  # the anchor's interval is empty by definition
    assert data["levels"] == list(COMPUTER_LEVELS)
    assert data["tournament"]["command"] == ("bummerl tournament expert pimc hard medium easy random "
                                             "--bummerls 8 --seed 5 -j 2 --anchor medium --json")
    assert data["tournament"]["commit"] == "abc1234"


@pytest.mark.parametrize(("changes", "message"), [
    ({"unit": "deals"}, "whole Bummerls"),
    ({"rating_anchor": "random"}, "anchored at medium"),
])
def test_the_script_refuses_a_tournament_it_cannot_use(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(SystemExit, match=message):
        load("make_level_ratings").build(fake_result(**changes), "abc1234")
    lacking = fake_result()
    lacking["ratings"] = [r for r in lacking["ratings"] if r["bot"] != "hard"]
    with pytest.raises(SystemExit, match="lacks the levels hard"):
        load("make_level_ratings").build(lacking, "abc1234")


def test_the_shipped_ratings_are_what_the_script_makes_of_the_committed_tournament() -> None:
    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))
    result = json.loads(RESULT.read_text(encoding="utf-8"))
    assert load("make_level_ratings").build(result, shipped["tournament"]["commit"]) == shipped


def test_every_public_level_has_a_usable_glicko_rating() -> None:
    ratings = level_ratings()
    assert [r.level for r in ratings] == list(COMPUTER_LEVELS)
    assert level_rating("medium").rating == ANCHOR_RATING
    for r in ratings:
        assert isinstance(r, LevelRating) and r.low <= r.rating <= r.high
        assert r.deviation >= MIN_DEVIATION and r.bummerls > 0 and 0 <= r.share <= 1
        assert isinstance(r.glicko(), Rating)
        assert set(r.to_json()) == {"level", "rating", "low", "high", "deviation", "bummerls", "share"}
    # A person at 1500 who beats the hard level gains rating; the fixed level is not changed by the API.
    person, _ = update_pair(Rating(), level_rating("hard").glicko(), 1.0)
    assert person.rating > 1500
    assert tournament()["bummerls_per_pair"] > 0


def test_an_unknown_level_is_a_one_line_bummerl_error() -> None:
    with pytest.raises(UnknownLevel, match="no rating for 'grandmaster'") as err:
        level_rating("grandmaster")
    assert isinstance(err.value, BummerlError) and "\n" not in str(err.value)
