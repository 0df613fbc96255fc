"""One episode of play for the environments: a single deal or a whole Bummerl, stepped one action at a time.

The environments (PettingZoo, Gymnasium) share this loop; it knows nothing of observations. Rewards are game
points, zero-sum: a deal's winner gets ``+game_points``, the loser as many less. An action that is not
legal *forfeits*, as in the arena: the offender loses :data:`~bummerl.scoring.FORFEIT_POINTS` (3)
game points to the other seat, and the episode ends (in a Bummerl too).

>>> from random import Random
>>> from bummerl import Rules
>>> episode = Episode(Rules.preset("standard"), Random(1))
>>> while not episode.over:
...     rewards = episode.step(episode.deal.legal_actions()[0])
>>> rewards[0] == -rewards[1] != 0, episode.fault
(True, None)
>>> episode = Episode(Rules.preset("standard"), Random(1))
>>> seat = episode.to_move
>>> rewards = episode.step(Action.parse("pass"))
>>> rewards[seat], rewards[1 - seat], episode.over, episode.fault
(-3, 3, True, 'illegal action: pass')
"""

from __future__ import annotations

from random import Random

from bummerl.actions import Action
from bummerl.engine import Deal, Outcome
from bummerl.game import Bummerl
from bummerl.rules import Rules
from bummerl.view import View

__all__ = ["Episode", "rules_of"]


def rules_of(rules: Rules | str) -> Rules:
    """Rules from a preset name (or the rules themselves)."""
    return rules if isinstance(rules, Rules) else Rules.preset(rules)


class Episode:
    """A deal (``whole_bummerl=False``) or a Bummerl to 7, its decks and first dealer drawn from ``rng``."""

    __slots__ = ("deal", "deal_ended", "ended_deal", "fault", "game", "over")

    def __init__(self, rules: Rules, rng: Random, whole_bummerl: bool = False) -> None:
        self.game: Bummerl | None = Bummerl(rules, rng) if whole_bummerl else None
        self.deal: Deal = self.game.deal if self.game else Deal.random(rules, rng, dealer=rng.randrange(2))
        self.over = False
        #: Why the episode ended early (an illegal action), else None.
        self.fault: str | None = None
        #: How the deal that the last step ended ended (a forfeit has reason ``forfeit``), else None.
        self.deal_ended: Outcome | None = None
        #: That deal (the Bummerl has gone on to the next one already).
        self.ended_deal: Deal | None = None

    @property
    def score(self) -> tuple[int, int] | None:
        """Game points each seat still needs in the Bummerl; None for a single deal."""
        return None if self.game is None else self.game.score

    @property
    def to_move(self) -> int:
        """The seat to act."""
        return self.deal.to_move

    def view(self, seat: int) -> View:
        """What ``seat`` sees now (with the Bummerl score when there is one)."""
        return View.of(self.deal, seat, self.score)

    def render(self, mode: str | None, note: str = "") -> str | None:
        """The environments' ``render``: the deal as text (rules, dealer, deck, actions so far), ``note``,
        then the score; printed for mode ``human``, returned for ``ansi``, nothing without a mode."""
        if mode is None:
            return None
        text = repr(self.deal) + note
        if self.score is not None:
            text += f" score={self.score}"
        if mode == "human":
            print(text)
            return None
        return text

    def step(self, action: Action) -> tuple[int, int]:
        """Play the seat to move's action; return each seat's reward (game points, zero-sum)."""
        if self.over:
            raise ValueError("the episode is over")
        seat = self.deal.to_move
        self.deal_ended = self.ended_deal = None
        if not self.deal.is_legal(action):
            self.over = True
            self.ended_deal = self.deal
            self.fault = f"illegal action: {action}"
            self.deal_ended = Outcome.forfeit(seat)
            return _rewards(self.deal_ended)
        if self.game is None:
            self.deal.apply(action)
        else:
            self.game.apply(action)
        outcome = self.deal.outcome
        if outcome is None:
            return (0, 0)
        self.deal_ended, self.ended_deal = outcome, self.deal
        if self.game is None or self.game.is_over:
            self.over = True
        else:
            self.deal = self.game.next_deal()
        return _rewards(outcome)


def _rewards(outcome: Outcome) -> tuple[int, int]:
    return (outcome.value_for(0), outcome.value_for(1))
