"""The arena: bot-vs-bot matches on paired decks, with 95 % intervals, ratings and speed.

``seeds`` derives decks and bot seeds from a run's root, ``match`` plays deals and Bummerls, ``runner``
spreads the work over processes (``cluster``: over Ray), ``stats`` holds the interval and rating maths,
``results`` the summaries, ``report`` the table, JSON and CSV output.

>>> from bummerl.arena import ArenaConfig, run_arena
>>> from bummerl.rules import Rules
>>> result = run_arena(ArenaConfig(("random", "random"), Rules.preset("standard"), seed=3, deals=10))
>>> sum(line.won for line in result.pairings[0].lines)
10
"""

from bummerl.arena.match import FORFEIT, FORFEIT_POINTS
from bummerl.arena.report import print_report, to_csv, to_json
from bummerl.arena.results import ArenaResult
from bummerl.arena.runner import ArenaBroken, ArenaConfig, ArenaError, ArenaInterrupted, run_arena

__all__ = [
    "FORFEIT", "FORFEIT_POINTS", "ArenaBroken", "ArenaConfig", "ArenaError", "ArenaInterrupted",
    "ArenaResult", "print_report", "run_arena", "to_csv", "to_json",
]
