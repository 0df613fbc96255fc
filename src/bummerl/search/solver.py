"""The open-card (perfect-information) solver's public face: values of deals, actions and lines.

Every function reads a :class:`~bummerl.engine.Deal` as it stands (from a deck after some actions, or
from :meth:`Deal.from_setup`) and answers for the player to move, in game points -3..3 (a Sixty-Six
draw is 0), assuming both players see every card and play perfectly. The search itself is
:mod:`bummerl.search.core`, compiled to C when it is built (``BACKEND == "compiled"``), else the same
file run as plain Python (``"python"``); ``BUMMERL_PURE_PYTHON=1`` forces plain Python.

>>> from bummerl import Deal, Rules
>>> deck = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD"
>>> deal = Deal.from_deck(Rules.preset("standard"), deck, dealer=1)
>>> deal.apply("play AS"); deal.apply("play QS")
>>> solve(deal)
-1
>>> {str(a): v for a, v in solve_actions(deal).items()}["play QH"]
-2
>>> line = principal_variation(deal)
>>> for action in line:
...     deal.apply(action)
>>> deal.outcome
Outcome(winner=1, game_points=1, reason='last_trick')
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from bummerl.actions import CLAIM_CODE, PASS_CODE, Action
from bummerl.engine import Deal
from bummerl.search import core
from bummerl.search.position import Position, from_deal

__all__ = [
    "BACKEND", "Solution", "analyse", "principal_variation", "python_core", "solve", "solve_actions",
    "solve_full",
]

Analyse = Callable[[Position, bool], tuple[int, dict[int, int], int]]


@functools.cache
def python_core() -> ModuleType:
    """The search module run as plain Python, even when its compiled form is built (for tests, benchmarks).

    >>> python_core().COMPILED
    False
    """
    if not core.COMPILED:
        return core
    name = "bummerl.search._core_python"
    loader = importlib.machinery.SourceFileLoader(name, str(Path(core.__file__).with_name("core.py")))
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _pick_backend() -> tuple[Analyse, str]:
    if os.environ.get("BUMMERL_PURE_PYTHON", "") not in ("", "0"):
        return python_core().solve_position, "python"
    return core.solve_position, "compiled" if core.COMPILED else "python"


#: The search behind every function here: the compiled core or the same module as plain Python.
analyse: Analyse
#: Which one: ``"compiled"`` or ``"python"``.
BACKEND: str
analyse, BACKEND = _pick_backend()


@dataclass(frozen=True, slots=True)
class Solution:
    """Everything the solver knows about a position, for the player to move."""

    #: Game points under perfect play by both (-3..3).
    value: int
    #: A best line to the end of the deal (both sides), starting with the player to move.
    pv: list[Action] = field(default_factory=list)
    #: The value of every legal action.
    actions: dict[Action, int] = field(default_factory=dict)
    #: Positions the search visited to value the actions.
    nodes: int = 0
    #: ``"compiled"`` or ``"python"``.
    backend: str = "python"


def _example() -> Deal:
    """The doctests' position: player 0 (AS TS) leads against KS QS with 52 points to 40, spades trump."""
    from bummerl.setup import Setup

    return Deal.from_setup(Setup.parse("standard SAT/SKQ - S 0 52/40 4/4"))


def solve(deal: Deal) -> int:
    """Game points for the player to move under perfect open-card play (``ValueError`` once over).

    >>> solve(_example())  # player 0 reaches 66; the opponent has a trick and 40 points: 1
    1
    """
    return analyse(from_deal(deal), False)[0]


def _actions(deal: Deal) -> tuple[dict[Action, int], int]:
    _, values, nodes = analyse(from_deal(deal), True)
    return {a: values[a.code] for a in deal.legal_actions()}, nodes


def solve_actions(deal: Deal) -> dict[Action, int]:
    """The value of every legal action for the player to move, who takes it (in legal-action order).

    >>> {str(a): v for a, v in solve_actions(_example()).items()}  # claiming now would be false
    {'play TS': 1, 'play AS': 1, 'claim': -2}
    """
    return _actions(deal)[0]


def _best(values: dict[Action, int]) -> Action:
    """A best action; a claim or pass first when it is as good (it ends the deal soonest)."""
    top = max(values.values())
    for action, v in values.items():
        if v == top and action.code in (CLAIM_CODE, PASS_CODE):
            return action
    return next(a for a, v in values.items() if v == top)


def principal_variation(deal: Deal) -> list[Action]:
    """A best line for both sides from the position to the end of the deal (the deal is not changed).

    A claim or pass comes first among equally good actions.

    >>> [str(a) for a in principal_variation(_example())]  # QS keeps player 0 on 65 for one more trick
    ['play TS', 'play QS', 'play AS', 'play KS', 'claim']
    """
    if deal.outcome is not None:
        raise ValueError("the deal is over: there is nothing left to solve")
    work = deal.copy()
    line: list[Action] = []
    while work.outcome is None:
        action = _best(solve_actions(work))
        work.apply(action)
        line.append(action)
    return line


def solve_full(deal: Deal) -> Solution:
    """Value, best line, value of every action and search size in one :class:`Solution`.

    >>> sol = solve_full(_example())
    >>> sol.value, len(sol.pv), sol.backend in ("compiled", "python")
    (1, 5, True)
    """
    actions, nodes = _actions(deal)
    return Solution(
        value=max(actions.values()),
        pv=principal_variation(deal),
        actions=actions,
        nodes=nodes,
        backend=BACKEND,
    )

