"""Difficulty levels for people: ``easy``, ``medium``, ``hard`` and ``expert``, each a bot with a budget.

==========  =======================================================================================
level       player
==========  =======================================================================================
easy        the heuristic bot, playing a random card a quarter of the time
medium      the heuristic bot (rules of thumb: counts points, keeps marriages, closes on a sure 66)
hard        PIMC over few worlds (12, 6 in the first tricks)
expert      the expert bot (more worlds, inference from the opponent's play, plays for the Bummerl)
==========  =======================================================================================

>>> from bummerl import Deal, Rules, View
>>> view = View.of(Deal.random(Rules.preset("standard"), 2), 0)
>>> [make_level(name, seed=1).name for name in LEVELS]
['easy', 'medium', 'hard', 'expert']
>>> make_level("medium", 1).choose(view) in view.legal_actions
True
>>> make_level("grandmaster")
Traceback (most recent call last):
...
ValueError: unknown level 'grandmaster' (levels: easy, medium, hard, expert)
"""

from __future__ import annotations

from bummerl.bots.base import Bot

__all__ = ["LEVELS", "make_easy", "make_expert_level", "make_hard", "make_level", "make_medium"]

#: Chance that the easy level plays a random card instead of the heuristic's.
EASY_BLUNDER = 0.25
#: Worlds per decision of the hard level (and in the first tricks).
HARD_SAMPLES = (12, 6)


def make_easy(seed: int | None = None) -> Bot:
    """``easy``: the heuristic with blunders."""
    from bummerl.bots.heuristic import HeuristicBot

    bot = HeuristicBot(seed, blunder=EASY_BLUNDER)
    bot.name = "easy"
    return bot


def make_medium(seed: int | None = None) -> Bot:
    """``medium``: the heuristic bot."""
    from bummerl.bots.heuristic import HeuristicBot

    bot = HeuristicBot(seed)
    bot.name = "medium"
    return bot


def make_hard(seed: int | None = None) -> Bot:
    """``hard``: PIMC on a small budget."""
    from bummerl.bots.pimc import PimcBot

    return PimcBot(seed, HARD_SAMPLES[0], HARD_SAMPLES[1], name="hard")


def make_expert_level(seed: int | None = None) -> Bot:
    """``expert``: the expert bot."""
    from bummerl.bots.expert import ExpertBot

    return ExpertBot(seed)


#: Every level by name, weakest first: (description, factory).
LEVELS = {
    "easy": ("the heuristic bot, playing a random card a quarter of the time", make_easy),
    "medium": ("rules of thumb: counts points, keeps marriages, closes on a sure 66", make_medium),
    "hard": ("Monte Carlo over a few open-card solved worlds", make_hard),
    "expert": ("the strongest: more worlds, reads the opponent's play, plays for the Bummerl",
               make_expert_level),
}
#: Their names, weakest first: the levels a person may play against (``bummerl play --level``, the web).
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)


def make_level(name: str, seed: int | None = None) -> Bot:
    """The bot of a difficulty level (``ValueError`` naming the levels for an unknown one)."""
    entry = LEVELS.get(name.strip().lower())
    if entry is None:
        raise ValueError(f"unknown level {name!r} (levels: {', '.join(LEVELS)})")
    return entry[1](seed)
