"""The search: an exact open-card (perfect-information) solver, compiled when possible.

>>> from bummerl import Deal, Rules
>>> from bummerl.search import solve
>>> solve(Deal.random(Rules.preset("standard"), 3)) in (-3, -2, -1, 1, 2, 3)
True
"""

from bummerl.search.solver import (
    BACKEND,
    Solution,
    principal_variation,
    python_core,
    solve,
    solve_actions,
    solve_full,
)

__all__ = [
    "BACKEND", "Solution", "principal_variation", "python_core", "solve", "solve_actions", "solve_full",
]
