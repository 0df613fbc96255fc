"""What the opponent's earlier play says about its hidden cards: a weight for each sampled world.

Three kinds of evidence:

- *Hard* (weight 0): once the talon is closed or exhausted the follower must head the trick, follow suit
  or trump (rules.md 3.2). A world in which the opponent held, say, a heart when it did not follow a heart
  lead is impossible. The engine itself judges each such follow.
- *Soft* (a factor below 1): a good player exchanges the trump jack (the nine in Sixty-Six) and declares
  a marriage when it can. A world in which the opponent held the jack, or a king and queen, at one of its
  leads where it could have exchanged or declared and did not, is less likely. How likely the opponent
  held those cards then is estimated from the cards it drew since (which of its cards came later is
  unknown: each is taken as equally likely).
- *A tilt*: a player closes the talon with a hand it expects to win with. After the opponent closed, the
  worlds in which it wins are more likely than uniform sampling says, so a world's weight is multiplied
  by ``exp(tilt * v)``, ``v`` being my open-card value there in game points (:func:`world_tilt`; the
  tilts were fitted by maximum likelihood to PIMC self-play, ``scripts/fit_inference.py``).

>>> from bummerl import Deal, Rules, View
>>> deal = Deal.random(Rules.preset("standard"), 2)
>>> weigh = world_weight(View.of(deal, 0))
>>> from bummerl.search.worlds import sample_worlds
>>> all(weigh(w) == 1.0 for w in sample_worlds(View.of(deal, 0), 5, seed=1))  # nothing played yet
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from math import comb, exp

from bummerl.actions import Action
from bummerl.cards import CARDS, MARRIAGE_PAIRS, PACK_MASKS, SUITS, Rank, card_points, cards_in
from bummerl.engine import Deal, PositionError, Setup
from bummerl.rules import Rules
from bummerl.view import View

__all__ = [
    "LAST_OPEN_TRICK_TILT", "LEAD_BETA", "MISSED_EXCHANGE", "MISSED_MARRIAGE",
    "OPPONENT_CLOSED_LEAD_TILT", "OPPONENT_CLOSED_TILT", "TILTS", "Evidence", "evidence",
    "follow_was_legal", "lead_likelihood", "tilt_context", "world_tilt", "world_weight",
]

#: How much less likely a world is per lead in which the opponent surely held the trump jack (nine) and did
#: not exchange it, and per lead in which it surely held a marriage and did not declare it. Measured in
#: PIMC self-play (standard, 300 deals, ``scripts/fit_inference.py``): it exchanged at all 168 leads where
#: it could and declared at 226 of 418 leads where it held a marriage (undeclared at 46% of them).
MISSED_EXCHANGE = 0.97
MISSED_MARRIAGE = 0.55
#: The tilt of the worlds: a world where my open-card value is ``v`` game points weighs ``exp(tilt * v)``
#: times as much. Fitted by maximum likelihood on PIMC self-play (``scripts/fit_inference.py``, standard,
#: 1200 deals: the true deal's value against 40 sampled worlds at each of ~14,000 decisions), with 95%
#: intervals (too narrow, as a deal's decisions are not independent): after the opponent's close -0.34
#: (-0.40..-0.28) when I lead and -0.46 (-0.52..-0.40) when I follow its lead; at the last trick before
#: the talon runs out -0.26 (-0.36..-0.16). The first 600 deals alone gave -0.32, -0.58 and -0.38, the
#: other 600 -0.36, -0.40 and -0.16. After my own close (+0.04) and earlier with the talon open (-0.02)
#: the fits are too close to 0 to use.
OPPONENT_CLOSED_TILT = -0.34
OPPONENT_CLOSED_LEAD_TILT = -0.46
LAST_OPEN_TRICK_TILT = -0.26
#: The tilt of each context of :func:`tilt_context` (a context not named here is not tilted).
TILTS: dict[str, float] = {
    "opponent closed, I lead": OPPONENT_CLOSED_TILT,
    "opponent closed, I follow": OPPONENT_CLOSED_LEAD_TILT,
    "last open trick": LAST_OPEN_TRICK_TILT,
}
#: How sharply a world is discounted for each game point the opponent's lead to the current trick would
#: have thrown away in it (open-card): the weight is ``exp(-LEAD_BETA * loss)``.
LEAD_BETA = 0.5
QUEEN, KING = int(Rank.QUEEN), int(Rank.KING)


@dataclass(frozen=True, slots=True)
class _Follow:
    """A follow under the strict rules: the lead, the card followed, the opponent's later cards."""

    lead: int
    follow: int
    later: int


@dataclass(frozen=True, slots=True)
class _Missed:
    """A lead where the opponent could have used ``cards`` (all of them) and did not.

    ``played``: the opponent's cards played from that lead on; ``led``: the card it led then;
    ``draws``: cards it drew since; ``strength``: how much less likely a world is if it surely held them."""

    cards: int
    played: int
    led: int
    draws: int
    strength: float


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a view shows about the opponent's hidden cards."""

    opponent: int
    rules: Rules
    trump: int
    follows: tuple[_Follow, ...]
    missed: tuple[_Missed, ...]


def _open_tricks(view: View) -> int:
    """How many tricks were played with the talon open (the rest under the strict rules)."""
    rules = view.rules
    initial = rules.pack_size - 2 * rules.hand_size
    if view.talon_open:
        return len(view.trick_log)
    if view.closed_by >= 0:
        return (initial - view.talon_size) // 2
    return initial // 2


def evidence(view: View) -> Evidence:
    """Collect the evidence of the opponent's plays in a view.

    >>> from bummerl import Deal, Rules, View
    >>> ev = evidence(View.of(Deal.random(Rules.preset("standard"), 2), 0))
    >>> ev.follows, ev.missed
    ((), ())
    """
    opp = 1 - view.seat
    rules = view.rules
    tricks = view.trick_log
    open_tricks = _open_tricks(view)
    current_lead = int(view.lead_card) if view.lead_card is not None and view.to_move == view.seat else -1
    # The opponent's cards played from trick i on (its current lead included).
    later = [0] * (len(tricks) + 1)
    later[len(tricks)] = (1 << current_lead) if current_lead >= 0 else 0
    for i in range(len(tricks) - 1, -1, -1):
        t = tricks[i]
        mine = t.lead if t.leader == opp else t.follow
        later[i] = later[i + 1] | (1 << mine)
    follows = tuple(
        _Follow(int(t.lead), int(t.follow), later[i + 1])
        for i, t in enumerate(tricks)
        if i >= open_tricks and t.leader != opp
    )
    missed: list[_Missed] = []
    trump = int(view.trump_suit)
    low = trump * 6 + rules.exchange_rank
    opp_exchanged = view.exchanged is not None and view.exchanged[0] == opp
    i_exchanged = view.exchanged is not None and view.exchanged[0] == view.seat
    declared = {suit for player, suit in view.marriages if player == opp}
    initial = rules.pack_size - 2 * rules.hand_size
    won_before = 0
    leads = [(i, t.leader, int(t.lead)) for i, t in enumerate(tricks)]
    if current_lead >= 0:
        leads.append((len(tricks), opp, current_lead))
    for i, leader, led in leads:
        if leader == opp:
            talon_then = initial - 2 * i
            talon_open = i < open_tricks or (i == len(tricks) and view.talon_open)
            draws = max(0, min(open_tricks, len(tricks)) - i)
            if (
                not opp_exchanged and not i_exchanged and talon_open
                and rules.may_exchange(talon_then, bool(won_before))
            ):
                missed.append(_Missed(1 << low, later[i], led, draws, MISSED_EXCHANGE))
            if rules.may_marry(talon_open, bool(won_before)):
                for suit in range(4):
                    if suit not in declared:
                        pair = MARRIAGE_PAIRS[suit]
                        missed.append(_Missed(pair, later[i], led, draws, MISSED_MARRIAGE))
        if i < len(tricks) and tricks[i].winner == opp:
            won_before = 1
    return Evidence(opp, rules, trump, follows, tuple(missed))


@cache
def _plain(rules: Rules) -> Rules:
    return rules.replace(auto_claim=False)


def follow_was_legal(rules: Rules, trump: int, hand: int, lead: int, follow: int) -> bool:
    """Whether the engine lets a follower holding ``hand`` (``follow`` included) play ``follow`` to
    ``lead`` once the talon is exhausted (the strict rules of rules.md 3.2).

    >>> from bummerl.cards import Card, mask_of, parse_cards
    >>> std, c = Rules.preset("standard"), Card.parse
    >>> follow_was_legal(std, 0, mask_of(parse_cards("JH AH")), c("TH"), c("JH"))  # must head with the ace
    False
    >>> follow_was_legal(std, 0, mask_of(parse_cards("JC AS")), c("TH"), c("JC"))  # no heart: must trump
    True
    """
    rules = _plain(rules)
    pack = PACK_MASKS[rules.sixty_six]
    n = hand.bit_count()
    filler = list(cards_in(pack & ~hand & ~(1 << lead)))[: n - 1]
    leader_hand = sum(1 << c for c in filler)
    played = pack & ~hand & ~leader_hand & ~(1 << lead)
    try:
        deal = Deal.from_setup(Setup(
            rules, hands=(leader_hand, hand), talon=(), trump=SUITS[trump], to_move=1, lead=CARDS[lead],
            tricks=(played.bit_count() // 2, 0), points=(card_points(played), 0),
        ))
    except PositionError:
        return True  # a position the engine cannot set up tells nothing
    return deal.is_legal(Action.play(follow))


def world_weight(view: View) -> Callable[[Deal], float]:
    """A weight for the worlds of ``view`` (for :func:`bummerl.search.worlds.worlds`): 0 for a world the
    opponent's strict follows rule out, a product of factors below 1 for missed exchanges and marriages.

    >>> from bummerl import Deal, Rules
    >>> deal = Deal.random(Rules.preset("standard"), 2)
    >>> world_weight(View.of(deal, 0))(deal)  # nothing played yet: every world weighs 1
    1.0
    """
    ev = evidence(view)
    opp = ev.opponent
    possible = _follows_possible(ev)

    def weight(world: Deal) -> float:
        hand = world.hands[opp]
        if not possible(hand):
            return 0.0
        w = 1.0
        for m in ev.missed:
            pool = hand | m.played
            if m.cards & pool != m.cards:
                continue
            # The opponent's cards then: ``pool`` less the ``draws`` cards it drew since, which may be any
            # of ``pool`` but the card it led then.
            sure = m.cards & (1 << m.led)
            unsure = (m.cards & ~sure).bit_count()
            size = pool.bit_count() - (1 if pool >> m.led & 1 else 0)
            if m.draws > size:
                continue
            p_held = comb(size - unsure, m.draws) / comb(size, m.draws) if size >= unsure else 0.0
            w *= 1.0 - m.strength * p_held
        return w

    return weight


def rules_weight(view: View) -> Callable[[Deal], float]:
    """What is certain, nothing guessed: 0 for a world the opponent's strict follows rule out (it did not
    head, follow suit or trump where the rules made it, so it held no such card then), else 1.

    >>> from bummerl import Deal, Rules
    >>> deal = Deal.random(Rules.preset("standard"), 2)
    >>> rules_weight(View.of(deal, 0))(deal)
    1.0
    """
    ev = evidence(view)
    possible = _follows_possible(ev)
    return lambda world: 1.0 if possible(world.hands[ev.opponent]) else 0.0


def _follows_possible(ev: Evidence) -> Callable[[int], bool]:
    """Whether the opponent's hand now (a card mask) fits every strict follow it made (memoised)."""
    checked: dict[tuple[int, int], bool] = {}

    def possible(hand: int) -> bool:
        for f in ev.follows:
            then = hand | f.later | (1 << f.follow)
            key = (then, f.lead)
            ok = checked.get(key)
            if ok is None:
                ok = checked[key] = follow_was_legal(ev.rules, ev.trump, then, f.lead, f.follow)
            if not ok:
                return False
        return True

    return possible


def tilt_context(view: View) -> str | None:
    """Which context of the tilts a decision is in (the tilts are fitted per context by
    ``scripts/fit_inference.py``); None once the talon is exhausted and nothing is hidden.

    >>> from bummerl import Deal, Rules
    >>> tilt_context(View.of(Deal.random(Rules.preset("standard"), 2), 0))
    'talon open, earlier'
    """
    if view.closed_by >= 0:
        if view.closed_by == view.seat:
            return "I closed"
        return "opponent closed, I follow" if view.lead_card is not None else "opponent closed, I lead"
    if not view.talon_open:
        return None
    return "last open trick" if view.talon_size <= 2 else "talon open, earlier"


def world_tilt(view: View) -> float:
    """The tilt of the worlds for ``view`` (see the constants above): what a close, or the play that led
    to the last trick before the talon runs out, says beyond the cards themselves.

    >>> from bummerl import Deal, Rules
    >>> from bummerl.actions import CLOSE
    >>> deal = Deal.random(Rules.preset("standard"), 2)
    >>> world_tilt(View.of(deal, 0))
    0.0
    >>> deal.apply(CLOSE)
    >>> world_tilt(View.of(deal, 1)), world_tilt(View.of(deal, 0))
    (-0.34, 0.0)
    """
    context = tilt_context(view)
    return TILTS.get(context, 0.0) if context else 0.0


def lead_likelihood(
    view: View, values: Callable[[Deal], dict[Action, int]], beta: float = LEAD_BETA
) -> Callable[[Deal], float] | None:
    """When the opponent has just led to the trick I am to follow, a weight for each world: how well
    that lead fits the opponent's hand there, ``exp(-beta * loss)`` where ``loss`` is what the lead
    throws away against the opponent's best action in that world, open-card (``values``). None when
    there is no such lead (or it came right after a marriage, which leaves only the king or queen).

    >>> from bummerl import Deal, Rules
    >>> from bummerl.bots.pimc import action_values
    >>> deal = Deal.random(Rules.preset("standard"), 2)
    >>> lead_likelihood(View.of(deal, deal.to_move), action_values) is None  # nobody has led yet
    True
    >>> deal.apply(deal.legal_actions()[0])
    >>> 0 < lead_likelihood(View.of(deal, deal.to_move), action_values)(deal) <= 1
    True
    """
    if view.lead_card is None or view.to_move != view.seat:
        return None
    lead = int(view.lead_card)
    opp = 1 - view.seat
    if lead % 6 in (QUEEN, KING) and (opp, lead // 6) in view.marriages:
        return None
    action = Action.play(lead)

    def weight(world: Deal) -> float:
        hands = [world.hands[0], world.hands[1]]
        hands[opp] |= 1 << lead
        try:  # the world just before the lead: the card back in the opponent's hand
            before = Deal.from_setup(world.setup().replace(
                hands=(hands[0], hands[1]), to_move=opp, lead=None, married=None, claim_ok=False,
            ))
        except PositionError:
            return 1.0
        q = values(before)
        if action not in q:
            return 1.0
        return exp(-beta * (max(q.values()) - q[action]))

    return weight
