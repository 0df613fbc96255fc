"""Deprecated: the old name of :mod:`bummerl.match_equity` (the chance to win a Bummerl from a score).

Importing it warns and hands on the same functions.
"""

from __future__ import annotations

import warnings

from bummerl.match_equity import OUTCOMES, DealOdds, deal_odds, markov_win_chance, outcome_values, win_chance

__all__ = ["OUTCOMES", "DealOdds", "deal_odds", "markov_win_chance", "outcome_values", "win_chance"]

warnings.warn("bummerl.bummerl_value is deprecated: import bummerl.match_equity", DeprecationWarning,
              stacklevel=2)
