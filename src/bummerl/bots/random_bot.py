"""The random bot: a uniform choice among the legal actions, from its own seeded generator.

>>> from bummerl import Deal, Rules, View
>>> deal = Deal.random(Rules.preset("standard"), 4)
>>> view = View.of(deal, deal.to_move)
>>> a, b = RandomBot(seed=9).choose(view), RandomBot(seed=9).choose(view)
>>> a is b and a in view.legal_actions
True
"""

from __future__ import annotations

from random import Random

from bummerl.actions import Action
from bummerl.view import View

__all__ = ["RandomBot"]


class RandomBot:
    """Picks uniformly among ``view.legal_actions``; the same seed gives the same choices."""

    __slots__ = ("_random",)

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._random = Random(seed).random

    def choose(self, view: View) -> Action:
        """One legal action, uniformly at random."""
        legal = view.legal_actions
        return legal[int(self._random() * len(legal))]
