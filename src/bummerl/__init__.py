"""bummerl: Schnapsen and Sixty-Six — rules engine, solver, bots, arena and front ends.

>>> from bummerl import Deal, Rules
>>> deal = Deal.random(Rules.preset("standard"), 1)
>>> deal.talon_size
10
"""

from bummerl.actions import Action, ActionParseError
from bummerl.cards import Card, CardParseError, Rank, Suit
from bummerl.engine import Deal, DeckError, IllegalActionError, Outcome, Trick
from bummerl.errors import BummerlError
from bummerl.rules import PRESETS, Rules, RulesError
from bummerl.view import View

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Action",
    "ActionParseError",
    "BummerlError",
    "Card",
    "CardParseError",
    "Deal",
    "DeckError",
    "IllegalActionError",
    "Outcome",
    "Rank",
    "Rules",
    "RulesError",
    "Suit",
    "Trick",
    "View",
    "__version__",
]
