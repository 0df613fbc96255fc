"""The Bot protocol: a bot is handed its seat's :class:`~bummerl.view.View` and returns one legal action.

>>> from bummerl import Deal, Rules, View
>>> class FirstBot:
...     name = "first"
...     def choose(self, view: View) -> Action:
...         return view.legal_actions[0]
>>> deal = Deal.random(Rules.preset("standard"), 5)
>>> isinstance(FirstBot(), Bot), str(FirstBot().choose(View.of(deal, deal.to_move)))
(True, 'play QC')
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from bummerl.actions import Action
from bummerl.view import View

__all__ = ["Action", "Bot", "forced_action"]


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` and a ``choose(view) -> Action`` method.

    A bot never sees more than its view. Optional hooks, called when present (callers use ``getattr``):
    ``new_deal(view)`` before a deal, ``end_deal(view, outcome, fault)`` after it, ``close()`` when the
    bot is no longer needed (an outside program is stopped there). The one exception to "views only" is
    the arena's non-public ``cheater`` yardstick, handed the true deal through ``choose_with_deal``.
    """

    name: str

    def choose(self, view: View) -> Action:
        """Return one of ``view.legal_actions``."""
        ...


def forced_action(view: View) -> Action | None:
    """The one legal action when there is no choice, else None; a view whose seat is not to move is an
    error (``ValueError``).

    >>> from bummerl import Deal, Rules
    >>> deal = Deal.random(Rules.preset("standard"), 5)
    >>> forced_action(View.of(deal, deal.to_move)) is None
    True
    """
    legal = view.legal_actions
    if not legal:
        raise ValueError("the seat is not to move in this view")
    return legal[0] if len(legal) == 1 else None
