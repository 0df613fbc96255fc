"""The reference solver: plain exhaustive minimax over the engine itself (slow, obviously right).

Every legal action of :class:`~bummerl.engine.Deal` is tried with ``push``/``pop`` (claims and passes
included, so a false claim is valued by the engine's own outcome), and a finished deal is worth its
:class:`~bummerl.engine.Outcome`. Values already found are remembered by the deal's whole state (every
field the rules read; the records of past tricks, marriages and exchanges are left out, since no rule
reads them), which makes positions of a few tricks with an open talon affordable.
Use it for small positions and to check the fast solvers.

>>> from bummerl import Deal, Setup
>>> deal = Deal.from_setup(Setup.parse("standard SAT/SKQ - S 0 52/40 4/4"))  # AS TS to lead against KS QS
>>> reference_value(deal)
1
>>> {str(a): v for a, v in reference_action_values(deal).items()}
{'play TS': 1, 'play AS': 1, 'claim': -2}
"""

from __future__ import annotations

from bummerl.actions import Action
from bummerl.engine import Deal, Outcome

__all__ = ["outcome_value", "reference_action_values", "reference_value"]

Memo = dict[tuple[object, ...], int]


def outcome_value(outcome: Outcome, player: int) -> int:
    """Game points of a finished deal for ``player``: positive when they won, 0 for a draw.

    >>> outcome_value(Outcome(1, 2, "claim"), 0), outcome_value(Outcome(None, 0, "draw"), 1)
    (-2, 0)
    """
    return outcome.value_for(player)


def _state(deal: Deal) -> tuple[object, ...]:
    """Everything about the deal that its future depends on."""
    return (
        tuple(deal.hands), deal.stock[deal.drawn:], deal.talon_size, deal.trump_card, deal.trump,
        deal.closed_by, deal.close_snapshot, deal.leader, deal.to_move, deal.lead, deal.claim_ok,
        deal.married, tuple(deal.tricks_won), tuple(deal.card_points), tuple(deal.marriage_points),
        tuple(deal.pending), tuple(deal.bonus), deal.ending,
    )


def _value(deal: Deal, memo: Memo) -> int:
    """Minimax value of the deal for its player to move (the deal is restored on return)."""
    key = _state(deal)
    found = memo.get(key)
    if found is not None:
        return found
    player = deal.to_move
    best = -4
    for action in deal.legal_actions():
        deal.push(action)
        try:
            if deal.outcome is not None:
                v = outcome_value(deal.outcome, player)
            else:
                v = _value(deal, memo)
                if deal.to_move != player:
                    v = -v
        finally:
            deal.pop()
        best = max(best, v)
    memo[key] = best
    return best


def reference_action_values(deal: Deal) -> dict[Action, int]:
    """The value of every legal action for the player to move, by exhaustive search."""
    if deal.outcome is not None:
        raise ValueError("the deal is over: there is nothing left to solve")
    player = deal.to_move
    memo: Memo = {}
    out: dict[Action, int] = {}
    for action in deal.legal_actions():
        deal.push(action)
        try:
            if deal.outcome is not None:
                out[action] = outcome_value(deal.outcome, player)
            else:
                v = _value(deal, memo)
                out[action] = v if deal.to_move == player else -v
        finally:
            deal.pop()
    return out


def reference_value(deal: Deal) -> int:
    """Game points for the player to move under perfect play by both, by exhaustive search."""
    return max(reference_action_values(deal).values())
