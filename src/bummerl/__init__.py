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
from bummerl.setup import PositionError, Setup
from bummerl.view import View


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bummerl")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree that is not installed
        return "0+unknown"


#: The version from the package metadata (pyproject.toml's ``version``): one version number.
__version__ = _version()

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
    "PositionError",
    "Rank",
    "Rules",
    "RulesError",
    "Setup",
    "Suit",
    "Trick",
    "View",
    "__version__",
]
