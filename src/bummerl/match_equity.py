"""Match equity: the chance to win a Bummerl from every score, for bots that play for the game to 7.

(Formerly ``bummerl.bummerl_value``, which still imports, with a DeprecationWarning.)

A Markov model: the deals of a Bummerl are independent, and a deal's result, seen from the player who leads
first (the non-dealer, "forehand"), has a distribution measured by self-play of a good bot
(``scripts/make_bummerl_values.py``, shipped in ``bummerl/data/bummerl_values.json``, one per rules preset).
From it, :func:`win_chance` solves the game to any target exactly, the dealer alternating.

Scores are the countdown of the contract: the game points each player still *needs* (7 at the start).

>>> round(win_chance("standard", 7, 7, deals_next=False) + win_chance("standard", 7, 7, deals_next=True), 9)
1.0
>>> win_chance("standard", 1, 7, deals_next=True) > win_chance("standard", 7, 1, deals_next=True)
True
>>> vals = outcome_values("standard", needed=(2, 5), seat=0, dealer=1)
>>> vals[3 + 2] == vals[3 + 3] == 1.0  # winning 2 or 3 game points both end the Bummerl
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from bummerl.rules import Rules

__all__ = ["OUTCOMES", "DealOdds", "deal_odds", "markov_win_chance", "outcome_values", "win_chance"]

#: A deal's result for the forehand (non-dealer): +k it wins k game points, -k it loses k, 0 a draw.
OUTCOMES: tuple[int, ...] = (-3, -2, -1, 0, 1, 2, 3)
_DATA = "bummerl_values.json"


@dataclass(frozen=True, slots=True)
class DealOdds:
    """The measured distribution of one deal's result for the forehand, ``probs[k + 3]`` for k in -3..3."""

    preset: str
    probs: tuple[float, ...]
    deals: int
    bot: str

    def __post_init__(self) -> None:
        if len(self.probs) != len(OUTCOMES) or abs(sum(self.probs) - 1.0) > 1e-6 or min(self.probs) < 0:
            raise ValueError(f"deal odds for {self.preset} must be 7 probabilities summing to 1")


@cache
def _load() -> dict[str, DealOdds]:
    text = resources.files("bummerl").joinpath("data", _DATA).read_text(encoding="utf-8")
    raw = json.loads(text)
    out: dict[str, DealOdds] = {}
    for preset, entry in raw["presets"].items():
        probs = tuple(float(entry["forehand_outcomes"][str(k)]) for k in OUTCOMES)
        out[preset] = DealOdds(preset, probs, int(entry["deals"]), str(entry["bot"]))
    return out


def deal_odds(rules: Rules | str) -> DealOdds:
    """The shipped deal-result distribution for a rules value (by its base preset) or a preset name.

    >>> odds = deal_odds("standard")
    >>> odds.deals > 0, round(sum(odds.probs), 6)
    (True, 1.0)
    """
    preset = rules if isinstance(rules, str) else rules.base
    table = _load()
    return table.get(preset, table["standard"])


def win_chance(rules: Rules | str, needed: int, opp_needed: int, deals_next: bool) -> float:
    """The chance that a player who still needs ``needed`` game points (the opponent ``opp_needed``) wins
    the Bummerl, when this player deals the next deal (``deals_next``) or not.

    >>> win_chance("standard", 0, 3, deals_next=True), win_chance("standard", 3, 0, deals_next=False)
    (1.0, 0.0)
    """
    return markov_win_chance(deal_odds(rules).probs, needed, opp_needed, deals_next)


def outcome_values(
    rules: Rules | str, needed: tuple[int, int] | None, seat: int, dealer: int
) -> tuple[float, ...]:
    """What each result of the current deal is worth to ``seat``: ``values[k + 3]`` for winning k game
    points (k < 0: losing -k), given the Bummerl countdown ``needed`` and the current deal's ``dealer``.

    With ``needed`` None (a deal outside a Bummerl) the values are the game points themselves.
    Otherwise they are chances to win the Bummerl, the next deal dealt by the other player.

    >>> outcome_values("standard", None, 0, 1)
    (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)
    """
    if needed is None:
        return tuple(float(k) for k in OUTCOMES)
    mine, theirs = needed[seat], needed[1 - seat]
    deals_next = dealer != seat  # the dealer alternates
    out = []
    for k in OUTCOMES:
        if k > 0:
            out.append(win_chance(rules, mine - k, theirs, deals_next))
        elif k < 0:
            out.append(win_chance(rules, mine, theirs + k, deals_next))
        else:
            out.append(win_chance(rules, mine, theirs, deals_next))
    return tuple(out)


@cache
def markov_win_chance(probs: tuple[float, ...], a: int, b: int, deals: bool) -> float:
    """The Bummerl win chance of a player needing ``a`` against ``b``, dealing now (``deals``) or not, when
    each deal's result for the forehand has the distribution ``probs`` (``probs[k + 3]`` for k in -3..3).

    Exact: value iteration over the finite score grid (draws make two-state loops).

    >>> always_forehand_1 = (0, 0, 0, 0, 1.0, 0, 0)
    >>> markov_win_chance(always_forehand_1, 1, 1, False), markov_win_chance(always_forehand_1, 2, 1, False)
    (1.0, 0.0)
    """
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    return _table(probs, max(a, 7), max(b, 7))[(a, b, deals)]


@cache
def _table(probs: tuple[float, ...], top_a: int, top_b: int) -> dict[tuple[int, int, bool], float]:
    states = [(a, b, d) for a in range(1, top_a + 1) for b in range(1, top_b + 1) for d in (False, True)]
    w: dict[tuple[int, int, bool], float] = dict.fromkeys(states, 0.5)

    def get(a: int, b: int, d: bool) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return w[(a, b, d)]

    # States only lead to smaller scores or (on a draw) to the same score with the other dealer, so
    # sweeping from small to large scores converges in a few passes.
    for _ in range(200):
        delta = 0.0
        for a, b, d in sorted(states, key=lambda s: s[0] + s[1]):
            total = 0.0
            for k, p in zip(OUTCOMES, probs, strict=True):
                if not p:
                    continue
                # Result k for the forehand; this player is forehand unless it deals.
                mine = -k if d else k
                if mine > 0:
                    total += p * get(a - mine, b, not d)
                elif mine < 0:
                    total += p * get(a, b + mine, not d)
                else:
                    total += p * get(a, b, not d)
            delta = max(delta, abs(total - w[(a, b, d)]))
            w[(a, b, d)] = total
        if delta < 1e-13:
            break
    return w
