"""What one seat may know (rules.md section 6): the only thing bots and front ends are given.

A :class:`View` is a snapshot made by :meth:`View.of`. It holds no reference to the deal, so a bot
cannot reach a hidden card through it.

>>> from bummerl import Deal, Rules
>>> deal = Deal.random(Rules.preset("standard"), 7)
>>> view = View.of(deal, 0)
>>> len(view.hand), view.talon_size, view.opponent_hand_size
(5, 10, 5)
"""

from __future__ import annotations

from typing import Any

from bummerl.actions import Action
from bummerl.cards import CARDS, MARRIAGE_PAIRS, PACK_MASKS, SUIT_MASKS, SUITS, Card, Suit, cards_in
from bummerl.engine import Deal, Outcome, Trick
from bummerl.errors import BummerlError
from bummerl.rules import Rules

__all__ = ["View"]


class View:
    """One seat's information set, as a player with perfect memory holds it."""

    __slots__ = (
        "bottom_card",
        "close_snapshot",
        "closed_by",
        "dealer",
        "exchanged",
        "hand_mask",
        "history_length",
        "last_trump_card",
        "lead_card",
        "legal_actions",
        "marriages",
        "married",
        "opponent_hand_size",
        "outcome",
        "pending",
        "played_tricks_mask",
        "points",
        "revealed_hands",
        "rules",
        "score",
        "seat",
        "talon_size",
        "to_move",
        "trick_log",
        "tricks_won",
        "trump_card",
        "trump_suit",
    )

    rules: Rules
    seat: int
    dealer: int
    to_move: int
    #: The legal actions when this seat is to move, else empty.
    legal_actions: tuple[Action, ...]
    hand_mask: int
    trump_suit: Suit
    #: The trump card lying face up under the talon, or None once closed or drawn.
    trump_card: Card | None
    talon_size: int
    #: The trump card under the talon, face up or (after closing) turned down; None once drawn.
    bottom_card: Card | None
    #: The card that lay under the talon as trump (the jack or nine after an exchange), known to both
    #: seats even once drawn; None only for a set-up position that does not say.
    last_trump_card: Card | None
    closed_by: int
    #: The non-closer's (tricks, points) when the talon was closed.
    close_snapshot: tuple[int, int]
    lead_card: Card | None
    #: The finished tricks in order (as :attr:`Deal.trick_log <bummerl.engine.Deal.trick_log>`).
    trick_log: tuple[Trick, ...]
    #: The cards of every finished trick (also for set-up positions that have no trick log).
    played_tricks_mask: int
    #: Every marriage declared: (player, suit).
    marriages: tuple[tuple[int, int], ...]
    #: (player, jack or nine given, trump card taken), once someone exchanged.
    exchanged: tuple[int, Card, Card] | None
    points: tuple[int, int]
    tricks_won: tuple[int, int]
    #: Marriage points declared but not yet counted, per player.
    pending: tuple[int, int]
    #: The suit of the marriage declared in this lead, or -1.
    married: int
    #: How the deal ended, once it is over; None while it is played.
    outcome: Outcome | None
    #: The cards each seat still held when the deal ended (seat 0's, seat 1's), once it is over; None while
    #: it is played, so a view never shows a hidden card before the end.
    revealed_hands: tuple[tuple[Card, ...], tuple[Card, ...]] | None
    history_length: int
    opponent_hand_size: int
    #: Game points each seat still needs in the Bummerl (7 counted down), when the deal is part of one.
    score: tuple[int, int] | None

    @staticmethod
    def of(deal: Deal, seat: int, score: tuple[int, int] | None = None) -> View:
        """The view of ``seat`` (0 or 1) of a deal; ``score`` is the Bummerl countdown if there is one."""
        if type(seat) is not int or (seat != 0 and seat != 1):  # not 1.0: it indexes tuples
            raise BummerlError(f"seat must be 0 or 1, not {seat!r}")
        v = View.__new__(View)
        v.rules = deal.rules
        v.seat = seat
        v.dealer = deal.dealer
        v.to_move = deal.to_move
        v.legal_actions = deal.legal_actions() if deal.to_move == seat else ()
        v.hand_mask = deal.hands[seat]
        v.trump_suit = SUITS[deal.trump]
        talon_size = v.talon_size = deal.talon_size
        if talon_size:
            bottom = v.bottom_card = v.last_trump_card = CARDS[deal.trump_card]
            v.trump_card = bottom if deal.closed_by < 0 else None
        else:
            v.bottom_card = v.trump_card = None
            v.last_trump_card = CARDS[deal.trump_card] if deal.trump_card >= 0 else None
        v.closed_by = deal.closed_by
        v.close_snapshot = deal.close_snapshot
        v.lead_card = CARDS[deal.lead] if deal.lead >= 0 else None
        v.trick_log = deal.trick_log
        v.played_tricks_mask = deal.played
        v.marriages = deal.marriages
        v.exchanged = deal.exchanged
        cp, mp, bonus = deal.card_points, deal.marriage_points, deal.bonus  # as Deal.points, inlined
        v.points = (cp[0] + mp[0] + bonus[0], cp[1] + mp[1] + bonus[1])
        v.tricks_won = (deal.tricks_won[0], deal.tricks_won[1])
        v.pending = (deal.pending[0], deal.pending[1])
        v.married = deal.married
        v.outcome = deal.outcome
        v.revealed_hands = None if deal.outcome is None else (
            tuple(cards_in(deal.hands[0])), tuple(cards_in(deal.hands[1])))
        v.history_length = len(deal.history)
        v.opponent_hand_size = (deal.hands[1 - seat]).bit_count()
        v.score = score
        return v

    @property
    def hand(self) -> list[Card]:
        """This seat's cards, lowest index first."""
        return list(cards_in(self.hand_mask))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The old name of :attr:`trick_log`, kept as an alias (``Deal.tricks`` are the counts, which a
        view calls :attr:`tricks_won`)."""
        return self.trick_log

    @property
    def opponent(self) -> int:
        """The other seat."""
        return 1 - self.seat

    @property
    def talon_open(self) -> bool:
        """True while players draw after each trick."""
        return self.closed_by < 0 and self.talon_size > 0

    @property
    def turned_down_trump(self) -> Card | None:
        """The trump card turned face down by closing (known to both), else None."""
        return self.bottom_card if self.closed_by >= 0 else None

    @property
    def played_mask(self) -> int:
        """Every card played to a trick, including the current lead."""
        mask = self.played_tricks_mask
        if self.lead_card is not None:
            mask |= 1 << self.lead_card
        return mask

    @property
    def opponent_known_mask(self) -> int:
        """Cards known to be in the opponent's hand, not yet played: shown marriage partners, a trump card
        taken by exchange, and the last trump card once the talon is exhausted and it is not ours.

        >>> from bummerl import Deal, Rules
        >>> from bummerl.cards import cards_str
        >>> deck = "KS QS AC JH JD KC QD JC TC TD QH KH TH AH JS AD KD AS TS QC"
        >>> deal = Deal.from_deck(Rules.preset("soft"), deck)
        >>> deal.apply("marry S"); deal.apply("play QS")
        >>> cards_str(View.of(deal, 1).opponent_known_mask)
        'KS'
        """
        opp = 1 - self.seat
        known = 0
        for player, suit in self.marriages:
            if player == opp:
                known |= MARRIAGE_PAIRS[suit]
        if self.exchanged is not None and self.exchanged[0] == opp:
            known |= 1 << self.exchanged[2]
        if self.talon_size == 0 and self.last_trump_card is not None:
            known |= 1 << self.last_trump_card
        return known & ~self.played_mask & ~self.hand_mask

    @property
    def unseen_mask(self) -> int:
        """Cards whose place this seat does not know: in the opponent's hand or face down in the talon."""
        pack = PACK_MASKS[self.rules.sixty_six]
        seen = self.hand_mask | self.played_mask | self.opponent_known_mask
        if self.bottom_card is not None:
            seen |= 1 << self.bottom_card  # face up, or turned down by closing: known to both
        return pack & ~seen

    @property
    def is_over(self) -> bool:
        """True once the deal has an outcome."""
        return self.outcome is not None

    def suit_cards(self, suit: Suit | int) -> list[Card]:
        """This seat's cards of one suit (0-3, or a :class:`~bummerl.cards.Suit`); ValueError for another."""
        if not 0 <= int(suit) < len(SUIT_MASKS):
            raise ValueError(f"no suit {suit!r}: a suit is 0 to 3 (C, D, H, S)")
        return list(cards_in(self.hand_mask & SUIT_MASKS[int(suit)]))

    def to_json(self) -> dict[str, Any]:
        """The view as JSON: the one encoding every outside reader gets (the outside-bot protocol's
        ``decide`` message and the web server's ``view`` message). Cards and actions are the contract's
        strings; ``legal`` is sorted; ``trump_card`` is the face-up card (null once closed or drawn),
        ``bottom_card`` the trump card under the talon face up or turned down by closing.

        >>> from bummerl import Deal, Rules
        >>> data = View.of(Deal.random(Rules.preset("standard"), 7), 0, score=(7, 5)).to_json()
        >>> data["seat"], data["talon_size"], len(data["hand"]), data["score"], data["lead"]
        (0, 10, 5, [7, 5], None)
        """
        return {
            "seat": self.seat,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "rules": self.rules.to_json(),
            "hand": [str(c) for c in self.hand],
            "trump": self.trump_suit.letter,
            "trump_card": _card(self.trump_card),
            "bottom_card": _card(self.bottom_card),
            "talon_size": self.talon_size,
            "talon_open": self.talon_open,
            "closed_by": self.closed_by if self.closed_by >= 0 else None,
            "close_snapshot": list(self.close_snapshot) if self.closed_by >= 0 else None,
            "lead": _card(self.lead_card),
            "married": SUITS[self.married].letter if self.married >= 0 else None,
            "tricks": [
                {"leader": t.leader, "lead": str(t.lead), "follow": str(t.follow), "winner": t.winner}
                for t in self.trick_log
            ],
            "marriages": [{"player": p, "suit": SUITS[s].letter} for p, s in self.marriages],
            "exchanged": None if self.exchanged is None else {
                "player": self.exchanged[0], "gave": str(self.exchanged[1]), "took": str(self.exchanged[2]),
            },
            "points": list(self.points),
            "tricks_won": list(self.tricks_won),
            "pending": list(self.pending),
            "opponent_hand_size": self.opponent_hand_size,
            "score": None if self.score is None else list(self.score),
            "legal": sorted(str(a) for a in self.legal_actions),
        }


def _card(card: Card | None) -> str | None:
    return None if card is None else str(card)
