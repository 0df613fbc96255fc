"""The game of deals, a Bummerl (rules.md section 5): both start at 7, a deal's game points come off its
winner's count, the first at 0 or below wins; the dealer alternates.

>>> from bummerl.rules import Rules
>>> game = Bummerl(Rules.preset("standard"), seed=3, first_dealer=1)
>>> game.score, game.deal.dealer
((7, 7), 1)
>>> while not game.is_over:
...     if game.deal.is_over:
...         _ = game.next_deal()
...     else:
...         game.apply(game.deal.legal_actions()[0])
>>> min(game.score) <= 0 and game.winner in (0, 1)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from bummerl.actions import Action
from bummerl.engine import Deal, Outcome
from bummerl.errors import BummerlError, quote
from bummerl.rules import Rules

__all__ = ["TARGET", "Bummerl", "DealSummary"]

#: Game points a player needs to win a Bummerl.
TARGET = 7


@dataclass(frozen=True, slots=True)
class DealSummary:
    """One finished deal of a Bummerl: who dealt, the deck, the actions and the outcome."""

    dealer: int
    deck: tuple[int, ...]
    actions: tuple[str, ...]
    outcome: Outcome
    score_after: tuple[int, int]


class Bummerl:
    """A game to 7 game points: one :class:`~bummerl.engine.Deal` after another.

    Decks come from ``seed`` (or a given :class:`random.Random`), so a game can be replayed exactly.
    ``first_dealer`` None draws the first dealer from the same generator.
    """

    def __init__(
        self,
        rules: Rules,
        seed: int | Random | None = None,
        first_dealer: int | None = None,
        target: int = TARGET,
    ) -> None:
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise BummerlError(f"a Bummerl's target is 1 game point or more, not {quote(target)}")
        self.rules = rules
        self.rng = seed if isinstance(seed, Random) else Random(seed)
        self.first_dealer = self.rng.randrange(2) if first_dealer is None else first_dealer
        self.target = target
        self.needed = [target, target]
        self.finished: list[DealSummary] = []
        self.deal = Deal.random(rules, self.rng, dealer=self.first_dealer)

    @property
    def score(self) -> tuple[int, int]:
        """Game points each player still needs (the traditional countdown from 7)."""
        return (self.needed[0], self.needed[1])

    @property
    def is_over(self) -> bool:
        """True once a player has counted down to 0 (after the last deal was recorded)."""
        return self.winner is not None

    @property
    def winner(self) -> int | None:
        """The player who won the Bummerl, if any."""
        for p in (0, 1):
            if self.needed[p] <= 0:
                return p
        return None

    def apply(self, action: Action | str) -> None:
        """Apply an action to the current deal; a deal that ends is booked at once."""
        self.deal.apply(action)
        if self.deal.outcome is not None:
            self._book()

    def _book(self) -> None:
        outcome = self.deal.outcome
        assert outcome is not None
        if outcome.winner is not None:
            self.needed[outcome.winner] -= outcome.game_points
        self.finished.append(
            DealSummary(
                self.deal.dealer,
                tuple(int(c) for c in self.deal.deck),
                tuple(str(a) for a in self.deal.history),
                outcome,
                self.score,
            )
        )

    def next_deal(self) -> Deal:
        """Deal the next deal, the other player dealing (the current one must be over)."""
        if self.deal.outcome is None:
            raise ValueError("the current deal is not over yet")
        if self.is_over:
            raise ValueError("the Bummerl is over")
        self.deal = Deal.random(self.rules, self.rng, dealer=1 - self.deal.dealer)
        return self.deal
