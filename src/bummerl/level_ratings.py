"""Fixed ratings of the computer levels, on the Glicko-2 scale players see (:mod:`bummerl.ratings`).

Measured once in one round-robin tournament of whole Bummerls (``bummerl tournament``, Bradley-Terry on
Bummerls won, Elo scale, with a 95% bootstrap interval) and shipped in ``bummerl/data/level_ratings.json``,
which ``scripts/make_level_ratings.py`` writes from the tournament's ``--json`` output (never by hand).

The anchoring: ``medium`` is 1500, a new player's Glicko-2 rating; the others are ``medium``'s plus their
Bradley-Terry difference in Elo points. Glicko's scale is Elo's (an expected score ``1 / (1 + 10^(-d/400))``
for a rating difference ``d``), so a person rated like a level is expected to win half their Bummerls
against it. The ``deviation`` is the interval's half-width over 1.96 (never below :data:`MIN_DEVIATION`;
the anchor's own interval is empty by definition).

>>> hard = level_rating("hard")
>>> hard.level, hard.low <= hard.rating <= hard.high, level_rating("medium").rating
('hard', True, 1500.0)
>>> hard.glicko().rating == hard.rating
True
>>> [r.level for r in level_ratings()] == ["easy", "medium", "hard", "expert", "random"]
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from bummerl.errors import BummerlError
from bummerl.ratings import DEFAULT_VOLATILITY, Rating

__all__ = ["ANCHOR", "ANCHOR_RATING", "MIN_DEVIATION", "LevelRating", "UnknownLevel", "level_rating",
           "level_ratings", "tournament"]

#: The level placed at :data:`ANCHOR_RATING`.
ANCHOR = "medium"
#: A new player's Glicko-2 rating.
ANCHOR_RATING = 1500.0
#: The smallest deviation given to a level (the anchor's measured interval is empty by definition).
MIN_DEVIATION = 30.0
_DATA = "level_ratings.json"


class UnknownLevel(BummerlError):
    """A name the level ratings do not know."""


@dataclass(frozen=True, slots=True)
class LevelRating:
    """One computer level's fixed rating (Glicko scale) and its measured 95% interval."""

    level: str
    rating: float
    low: float
    high: float
    deviation: float
    #: Bummerls it played in the tournament, and its share of them won.
    bummerls: int
    share: float

    def glicko(self) -> Rating:
        """As a :class:`~bummerl.ratings.Rating`, e.g. the opponent's in a rated game against a person."""
        return Rating(self.rating, self.deviation, DEFAULT_VOLATILITY)

    def to_json(self) -> dict[str, Any]:
        """``{"level", "rating", "low", "high", "deviation", "bummerls", "share"}``, ratings rounded."""
        return {"level": self.level, "rating": round(self.rating), "low": round(self.low),
                "high": round(self.high), "deviation": round(self.deviation), "bummerls": self.bummerls,
                "share": self.share}


@cache
def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files("bummerl").joinpath("data", _DATA).read_text("utf-8"))
    return data


@cache
def _ratings() -> dict[str, LevelRating]:
    return {name: LevelRating(name, float(e["rating"]), float(e["low"]), float(e["high"]),
                              float(e["deviation"]), int(e["bummerls"]), float(e["share"]))
            for name, e in _load()["bots"].items()}


def level_rating(name: str) -> LevelRating:
    """The fixed rating of a computer level (``easy`` ... ``expert``, ``random``) or another bot of the
    tournament (``pimc``, ``heuristic``, ``expert-v1``).

    >>> level_rating("grandmaster")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bummerl.level_ratings.UnknownLevel: no rating for 'grandmaster' (rated: easy, medium, hard, expert, ...)
    """
    table = _ratings()
    if name not in table:
        known = [*_load()["levels"], *sorted(set(table) - set(_load()["levels"]))]
        raise UnknownLevel(f"no rating for {name!r} (rated: {', '.join(known)})")
    return table[name]


def level_ratings() -> list[LevelRating]:
    """The public computer levels' ratings, in the order of :data:`bummerl.store.COMPUTER_LEVELS`."""
    return [level_rating(name) for name in _load()["levels"]]


def tournament() -> dict[str, Any]:
    """Where the ratings come from: the command, commit, seed, Bummerls per pair, when it was run.

    >>> sorted(tournament())[:3]
    ['bummerls_per_pair', 'command', 'commit']
    """
    source: dict[str, Any] = dict(_load()["tournament"])
    return source
