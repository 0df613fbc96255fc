"""A deal's state as the compact tuple of ints both search backends read (no rules live here).

The tuple is relative to the *leader* of the trick in progress ("me"); the other player is "op".
Fields, in order (:data:`FIELDS`):

- ``kind``: :data:`LEAD` (the leader is to act, nothing declared yet), :data:`MARRIED` (the leader has
  declared the marriage in suit ``arg``), :data:`FOLLOW` (``arg`` was led, op is to follow) or
  :data:`ENDING` (every card played, the leader may claim or pass).
- ``hm``, ``ho``: both hands as card bitmasks.
- ``pm``, ``po``: points (cards + counted marriages + Sixty-Six's last-trick 10).
- ``tm``, ``to``: 1 if that player has won a trick, else 0.
- ``qm``, ``qo``: declared marriage points not counted yet.
- ``cl``: 0 nobody closed, 1 me closed, 2 op closed.
- ``sw``, ``sf``: when closed, the closer's game points for a correct claim under the Viennese snapshot
  (3/2/1 from the non-closer's tricks and points when closing) and the non-closer's game points when
  the closer fails (3 if the non-closer had no trick then, else 2).
- ``ts``: cards in the talon counting the trump card while it is open, 0 once closed or exhausted.
- ``tc``: the card under the open talon (0 when ``ts`` is 0).
- ``claim``: 1 if the leader may claim now as the first action of the turn (never with auto claims).
- ``flags``: the rule flags as bits (``F_*``), ``trump``: the trump suit.
- ``stock``: the face-down talon cards still to be drawn, top first.

>>> from bummerl import Deal, Rules
>>> pos = from_deal(Deal.random(Rules.preset("standard"), 3))
>>> pos[0] == LEAD, pos[13], len(pos[18])
(True, 10, 9)
"""

from __future__ import annotations

from bummerl.engine import Deal
from bummerl.scoring import closer_failed_points, game_point_table

__all__ = [
    "ENDING", "FIELDS", "FOLLOW", "F_ALLOW_CLOSE", "F_AUTO", "F_CLOSE_TWO", "F_EXCH_TRICK", "F_EXCH_TWO",
    "F_LEADS_KING", "F_MARRY_TRICK", "F_MIRROR", "F_NEXT_TRICK", "F_SIXTY_SIX", "F_TOURNAMENT", "LEAD",
    "MARRIED", "Position", "from_deal", "rule_flags",
]

LEAD, MARRIED, FOLLOW, ENDING = 0, 1, 2, 3

F_SIXTY_SIX = 1
F_AUTO = 2
F_ALLOW_CLOSE = 4
F_CLOSE_TWO = 8
F_EXCH_TWO = 16
F_EXCH_TRICK = 32
F_MARRY_TRICK = 64
F_LEADS_KING = 128
F_NEXT_TRICK = 256
F_TOURNAMENT = 512
F_MIRROR = 1024

FIELDS = (
    "kind", "arg", "hm", "ho", "pm", "po", "tm", "to", "qm", "qo", "cl", "sw", "sf", "ts", "tc", "claim",
    "flags", "trump", "stock",
)

#: The tuple described in the module docstring.
Position = tuple[int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int,
                 tuple[int, ...]]

_FLAG_CACHE: dict[object, int] = {}


def rule_flags(deal: Deal) -> int:
    """The deal's rule flags packed as the ``F_*`` bits."""
    rules = deal.rules
    flags = _FLAG_CACHE.get(rules)
    if flags is None:
        flags = (
            F_SIXTY_SIX * rules.sixty_six
            | F_AUTO * rules.auto_claim
            | F_ALLOW_CLOSE * rules.allow_close
            | F_CLOSE_TWO * rules.close_with_two_left
            | F_EXCH_TWO * rules.exchange_with_two_left
            | F_EXCH_TRICK * rules.exchange_needs_trick
            | F_MARRY_TRICK * rules.marriage_needs_trick
            | F_LEADS_KING * rules.marriage_leads_king
            | F_NEXT_TRICK * (rules.marriage_scoring == "next_trick")
            | F_TOURNAMENT * (rules.closing_scoring == "tournament")
            | F_MIRROR * (rules.false_claim == "mirror")
        )
        _FLAG_CACHE[rules] = flags
    return flags


def from_deal(deal: Deal) -> Position:
    """The compact position of a deal that is not over (``ValueError`` once it is)."""
    if deal.outcome is not None:
        raise ValueError("the deal is over: there is nothing left to solve")
    me = deal.leader
    op = 1 - me
    if deal.ending:
        kind, arg = ENDING, -1
    elif deal.lead >= 0:
        kind, arg = FOLLOW, deal.lead
    elif deal.married >= 0:
        kind, arg = MARRIED, deal.married
    else:
        kind, arg = LEAD, -1
    cp, mp, bonus = deal.card_points, deal.marriage_points, deal.bonus
    tw, pend = deal.tricks_won, deal.pending
    closed_by = deal.closed_by
    if closed_by < 0:
        cl = sw = sf = 0
        ts = deal.talon_size
    else:
        cl = 1 if closed_by == me else 2
        snap_tricks, snap_points = deal.close_snapshot
        sw = game_point_table(snap_tricks, snap_points)
        sf = closer_failed_points(snap_tricks)
        ts = 0
    stock = tuple(deal.stock[deal.drawn:]) if ts else ()
    return (
        kind, arg, deal.hands[me], deal.hands[op],
        cp[me] + mp[me] + bonus[me], cp[op] + mp[op] + bonus[op],
        1 if tw[me] else 0, 1 if tw[op] else 0, pend[me], pend[op],
        cl, sw, sf, ts, deal.trump_card if ts else 0,
        1 if deal.claim_ok and not deal.rules.auto_claim else 0,
        rule_flags(deal), deal.trump, stock,
    )
