"""Helpers for the rules tests: lay out a deck from the hands we want, set up positions, play actions.

``arrange`` writes rules.md section 2 down a second time, from the hands to the deck (the engine reads
it from the deck to the hands); the layout tests check both directions against literal deck indexes.
"""

from __future__ import annotations

from collections.abc import Iterable
from random import Random

from bummerl import Card, Deal, Rules, Suit
from bummerl.cards import SUITS, card_points, cards_in, full_pack, mask_of, parse_cards
from bummerl.engine import _STATE_FIELDS
from bummerl.game import Bummerl
from bummerl.setup import Setup, last_trick_bonus

STANDARD = Rules.preset("standard")
SOFT = Rules.preset("soft")
SHARP = Rules.preset("sharp")
TOMPA = Rules.preset("tompa")
VU = Rules.preset("vu")
SIXTY_SIX = Rules.preset("sixty-six")
PRESET_NAMES = ("standard", "soft", "sharp", "tompa", "vu", "sixty-six")


def hand(text: str) -> int:
    """A bitmask from card codes, e.g. ``hand("AS TS")``."""
    return mask_of(parse_cards(text))


def deck_for(
    rules: Rules, forehand: str, dealer_hand: str, trump: str, talon: str = ""
) -> list[Card]:
    """The deck order that deals ``forehand`` to the non-dealer, ``dealer_hand`` to the dealer, turns up
    ``trump`` and stacks ``talon`` (top first) followed by the remaining cards in pack order."""
    fh, dh, tl = parse_cards(forehand), parse_cards(dealer_hand), parse_cards(talon)
    tr = Card.parse(trump)
    assert len(fh) == len(dh) == rules.hand_size, "give full hands"
    used = [*fh, *dh, tr, *tl]
    assert len(set(used)) == len(used), "a card is given twice"
    rest = [c for c in full_pack(rules.sixty_six) if c not in used]
    return [*fh[:3], *dh[:3], tr, *fh[3:], *dh[3:], *tl, *rest]


def arrange(
    rules: Rules, forehand: str, dealer_hand: str, trump: str, talon: str = "", dealer: int = 1
) -> Deal:
    """A fresh deal with these hands (the non-dealer is ``1 - dealer``)."""
    return Deal(rules, deck_for(rules, forehand, dealer_hand, trump, talon), dealer)


def run(deal: Deal, actions: str | Iterable[str]) -> Deal:
    """Apply actions given as ``"play AS; play TS; close"`` (or a list); returns the deal."""
    items = [a.strip() for a in actions.split(";")] if isinstance(actions, str) else list(actions)
    for a in items:
        if a:
            deal.apply(a)
    return deal


def legal(deal: Deal) -> list[str]:
    """The legal actions as sorted strings (as ``bummerl replay`` shows them)."""
    return sorted(str(a) for a in deal.legal_actions())


def position(
    rules: Rules,
    hands: tuple[str, str],
    *,
    talon: str = "",
    trump: str | None = None,
    trump_suit: str | None = None,
    leader: int = 0,
    tricks: tuple[int, int] = (0, 0),
    points0: int | None = None,
    lead: int | None = None,
    married: int = -1,
    closed_by: int | None = None,
    close_snapshot: tuple[int, int] = (0, 0),
    marriage_points: tuple[int, int] = (0, 0),
    pending: tuple[int, int] = (0, 0),
    claim_ok: bool | None = None,
) -> Deal:
    """A set-up position (``Deal.from_setup``) from card codes. ``points0`` is player 0's card points;
    player 1 gets the rest of the played cards' points (so the totals always add up); counted
    ``marriage_points`` and Sixty-Six's last-trick 10 come on top."""
    h = (hand(hands[0]), hand(hands[1]))
    placed = h[0] | h[1] | hand(talon) | (hand(trump) if trump else 0)
    if lead is not None:
        placed |= 1 << lead
    played = full_mask(rules) & ~placed
    total = card_points(played)
    p0 = total // 2 if points0 is None else points0
    trump_card = Card.parse(trump) if trump else None
    suit = SUITS[trump_card // 6] if trump_card is not None else Suit.parse(trump_suit or "?")
    bonus = last_trick_bonus(rules, h, lead, closed_by is not None, leader)
    return Deal.from_setup(Setup(
        rules,
        hands=h,
        talon=tuple(parse_cards(talon)),
        trump=suit,
        trump_card=trump_card,
        to_move=leader if lead is None else 1 - leader,
        lead=None if lead is None else Card.from_index(lead),
        points=(p0 + marriage_points[0] + bonus[0], total - p0 + marriage_points[1] + bonus[1]),
        tricks=tricks,
        pending=pending,
        closed_by=closed_by,
        at_close=close_snapshot if closed_by is not None else None,
        married=None if married < 0 else SUITS[married],
        claim_ok=claim_ok,
    ))


def played_on(rules: Rules, seed: int, cut: int) -> tuple[Deal, Random] | None:
    """A seeded deal after ``cut`` random actions and the generator that chose them, or None if it ended."""
    deal = Deal.random(rules, seed)
    rng = Random(seed)
    for _ in range(cut):
        deal.apply(rng.choice(deal.legal_actions()))
        if deal.outcome is not None:
            return None
    return deal, rng


def full_mask(rules: Rules) -> int:
    """The pack of these rules as a bitmask."""
    return mask_of(full_pack(rules.sixty_six))


def cards(mask: int) -> str:
    """A mask as sorted card codes, e.g. ``'QH KH'``."""
    return " ".join(str(c) for c in cards_in(mask))


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything that makes up a deal's state, as plain comparable values."""
    values = []
    for name in _STATE_FIELDS:
        value = getattr(deal, name)
        values.append(tuple(value) if isinstance(value, list) else value)
    values.append(tuple(deal.history))
    values.append(deal.legal_actions())
    return tuple(values)


def finished_game(preset: str, seed: int) -> Bummerl:
    """A game to 7 played to its end by seeded random actions."""
    game = Bummerl(Rules.preset(preset), seed=seed, first_dealer=seed % 2)
    rng = Random(seed)
    while not game.is_over:
        if game.deal.is_over:
            game.next_deal()
        else:
            game.apply(rng.choice(game.deal.legal_actions()))
    return game


def deck_of(codes: str) -> list[int]:
    """A deck order from card codes, as ints (top card first)."""
    return [int(c) for c in parse_cards(codes)]
