"""The referee: one deal of Schnapsen or Sixty-Six as a state machine (rules.md sections 2-4).

This is the only place where the rules are written. Everything else asks a :class:`Deal`.

>>> from bummerl import Deal, Rules
>>> deck = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD"
>>> deal = Deal.from_deck(Rules.preset("standard"), deck, dealer=1)
>>> deal.to_move, str(deal.face_up_trump), deal.talon_size
(0, 'AH', 10)
>>> sorted(str(a) for a in deal.legal_actions())
['close', 'play AS', 'play KS', 'play QH', 'play TC', 'play TD']
>>> deal.apply("play AS"); deal.apply("play QS"); deal.tricks, deal.points
((1, 0), (14, 0))
>>> deal.apply("claim"); deal.outcome
Outcome(winner=1, game_points=3, reason='false_claim')
>>> deal.illegal_reason(Action.parse("play KH")), deal.illegal_reason(Action.parse("close"))
(<Illegal.DEAL_OVER: 'deal_over'>, <Illegal.DEAL_OVER: 'deal_over'>)
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from random import Random

from bummerl.actions import (
    ACTIONS,
    CLAIM,
    CLAIM_CODE,
    CLOSE,
    CLOSE_CODE,
    EXCHANGE,
    EXCHANGE_CODE,
    MARRY_CODE,
    PASS,
    PASS_CODE,
    Action,
    ActionParseError,
)
from bummerl.cards import (
    CARDS,
    HIGHER,
    MARRIAGE_PAIRS,
    PACK_MASKS,
    POINTS,
    SUIT_MASKS,
    SUITS,
    Card,
    CardParseError,
    Rank,
    Suit,
    full_pack,
    is_index,
    mask_of,
    trick_winner,
)
from bummerl.errors import BummerlError, quote
from bummerl.rules import Rules
from bummerl.scoring import (
    FORFEIT_POINTS,
    LAST_TRICK_POINTS,
    WIN_POINTS,
    Reason,
    closer_failed_points,
    game_point_table,
    marriage_points,
)
from bummerl.setup import PositionError, Setup, Trick, last_trick_bonus

__all__ = [
    "Deal", "DeckError", "Illegal", "IllegalActionError", "Outcome", "PositionError", "Reason", "Setup",
    "Trick", "game_point_table",
]

#: The ranks the engine reads, as plain ints (an enum member is slower to look up on the hot path).
QUEEN, KING = int(Rank.QUEEN), int(Rank.KING)


class IllegalActionError(BummerlError):
    """An action the rules do not allow in this position (or after the deal is over)."""


class DeckError(BummerlError):
    """A deck order that is not exactly one full pack."""


class Illegal(StrEnum):
    """Why an action is not legal now: the answer of :meth:`Deal.illegal_reason`. The engine decides it;
    front ends word it (``table.Table.explain_illegal``, the engine's own :class:`IllegalActionError`)."""

    #: The deal has ended.
    DEAL_OVER = "deal_over"
    #: Another player is to move.
    NOT_YOUR_TURN = "not_your_turn"
    #: Every card is played: the last trick's winner may only claim or pass (4.4).
    ALL_PLAYED = "all_played"
    #: A play of a card the player does not hold.
    NOT_IN_HAND = "not_in_hand"
    #: After declaring a marriage its king (or queen, unless ``marriage_leads_king``) is led.
    MUST_LEAD_MARRIAGE = "must_lead_marriage"
    #: Talon closed or exhausted (3.2): a card of the led suit is held, so one must be played...
    MUST_FOLLOW_SUIT = "must_follow_suit"
    #: ... and a higher one if held (the trick must be headed).
    MUST_HEAD = "must_head"
    #: ... and without the led suit, a trump if held.
    MUST_TRUMP = "must_trump"
    #: An exchange, close or marriage while following a lead.
    NOT_LEADING = "not_leading"
    #: An exchange, close or second marriage after a marriage was declared in this lead.
    MARRIAGE_DECLARED = "marriage_declared"
    #: The talon is closed (no exchange, no second close, no Sixty-Six marriage).
    TALON_CLOSED = "talon_closed"
    #: The talon is used up.
    TALON_EXHAUSTED = "talon_exhausted"
    #: Only two talon cards are left and the rules then forbid the exchange or the close.
    TALON_TOO_SMALL = "talon_too_small"
    #: An exchange without the trump jack (the trump nine in Sixty-Six).
    NO_TRUMP_LOW = "no_trump_low"
    #: ``exchange_needs_trick`` or ``marriage_needs_trick`` and the player has won no trick.
    NO_TRICK_YET = "no_trick_yet"
    #: These rules do not allow closing (``allow_close``).
    CLOSING_NOT_ALLOWED = "closing_not_allowed"
    #: The king and queen of the suit are not both in the hand.
    NO_MARRIAGE = "no_marriage"
    #: Claims are made by the engine under these rules (``auto_claim``).
    AUTO_CLAIM = "auto_claim"
    #: Only the winner of the last trick may claim, first in the turn or after a marriage.
    CLAIM_NOT_NOW = "claim_not_now"
    #: A pass is only legal after the last trick.
    PASS_NOT_NOW = "pass_not_now"


#: The engine's words for the reasons that name no card or player (:meth:`Deal._illegal_words` words the
#: others); front ends word every reason themselves, for their player (``table.Table.explain_illegal``).
_ILLEGAL_WORDS: dict[Illegal, str] = {
    Illegal.ALL_PLAYED: "every card is played: the last trick's winner may only claim or pass",
    Illegal.MARRIAGE_DECLARED: "a marriage was declared in this lead: its card must be led now",
    Illegal.TALON_CLOSED: "the talon is closed",
    Illegal.TALON_EXHAUSTED: "the talon is used up",
    Illegal.CLOSING_NOT_ALLOWED: "these rules do not allow closing",
    Illegal.AUTO_CLAIM: "claims are automatic under these rules",
    Illegal.CLAIM_NOT_NOW: (
        "only the winner of the previous trick may claim, as the first action of the turn or after a marriage"
    ),
    Illegal.PASS_NOT_NOW: "pass is only legal after the last trick",
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a deal ended: the winner (None for a Sixty-Six draw), game points and the reason, a
    :class:`~bummerl.scoring.Reason` (its value is the string of records and JSON; a string is taken).

    >>> Outcome(0, 2, "closer_failed").reason.sentence
    'the player who closed the talon did not reach 66'
    """

    winner: int | None
    game_points: int
    reason: Reason

    def __post_init__(self) -> None:
        if type(self.reason) is not Reason:
            object.__setattr__(self, "reason", Reason(self.reason))

    @staticmethod
    def forfeit(loser: int) -> Outcome:
        """A deal forfeited by ``loser`` (a bot broke a rule or did not answer; never the engine's): the
        other player wins :data:`~bummerl.scoring.FORFEIT_POINTS` game points.

        >>> Outcome.forfeit(0)
        Outcome(winner=1, game_points=3, reason='forfeit')
        """
        return Outcome(1 - loser, FORFEIT_POINTS, Reason.FORFEIT)

    def to_json(self) -> dict[str, object]:
        """The contract's ``result`` object."""
        return {"winner": self.winner, "game_points": self.game_points, "reason": self.reason}

    def value_for(self, player: int) -> int:
        """Game points for ``player``: positive when they won, negative when they lost, 0 for a draw.

        >>> Outcome(1, 2, "claim").value_for(0), Outcome(1, 2, "claim").value_for(1)
        (-2, 2)
        >>> Outcome(None, 0, "draw").value_for(1)
        0
        """
        if self.winner is None:
            return 0
        return self.game_points if self.winner == player else -self.game_points


def _as_action(action: object) -> Action:
    """An :class:`Action`, or the action a string names; :class:`IllegalActionError` for anything else."""
    if isinstance(action, Action):
        return action
    try:
        return Action.parse(action)  # type: ignore[arg-type]
    except ActionParseError as err:
        raise IllegalActionError(str(err)) from None


def _check_rules(rules: object) -> None:
    """Raise :class:`DeckError` unless ``rules`` is a :class:`Rules` (not "standard", its preset's name)."""
    if not isinstance(rules, Rules):
        raise DeckError(f"rules must be a Rules (e.g. Rules.preset('standard')), not {quote(rules)}")


def _check_deck(rules: Rules, deck: Sequence[int]) -> None:
    """Raise :class:`DeckError` unless ``deck`` holds each card of the rules' pack exactly once."""
    _check_rules(rules)
    try:
        if (len(deck) == rules.pack_size and min(deck) >= 0 and max(deck) < 24  # no 1 << 2**40 below
                and mask_of(deck) == PACK_MASKS[rules.sixty_six]):
            return  # the fast path: exactly the pack (a mask of the right size has no repeats)
    except (TypeError, ValueError):
        pass
    bad = [c for c in deck if not is_index(c, 24)]
    if bad:
        raise DeckError(f"the deck holds {quote(bad[0])}, which is not a card")
    pack = full_pack(rules.sixty_six)
    twice = [CARDS[c] for i, c in enumerate(deck) if c in deck[:i]]
    foreign = [CARDS[c] for c in deck if c not in pack]
    missing = [c for c in pack if c not in deck]
    problems = [f"{name} {' '.join(map(str, cards))}" for name, cards in
                (("twice:", twice), ("not in the pack:", foreign), ("missing:", missing)) if cards]
    raise DeckError(
        f"the deck is not a full {rules.game} pack of {len(pack)} cards "
        f"(got {len(deck)}; {'; '.join(problems)})"
    )


def _check_seat(name: str, value: object) -> None:
    if not is_index(value, 2):  # not 1.0, not True
        raise DeckError(f"{name} must be player 0 or 1, not {value!r}")


_PLAY_TUPLES: dict[int, tuple[Action, ...]] = {}


def _plays(mask: int) -> tuple[Action, ...]:
    """The play actions for every card of a mask (cached; hands are few)."""
    found = _PLAY_TUPLES.get(mask)
    if found is None:
        acts = []
        m = mask
        while m:
            low = m & -m
            acts.append(ACTIONS[low.bit_length() - 1])
            m ^= low
        found = _PLAY_TUPLES[mask] = tuple(acts)
    return found


_STATE_FIELDS = (
    "hands", "drawn", "talon_size", "trump_card", "closed_by", "close_snapshot", "leader", "to_move",
    "lead", "claim_ok", "married", "tricks_won", "card_points", "marriage_points", "pending",
    "bonus", "trick_log", "played", "marriages", "exchanged", "ending", "outcome",
)
#: The state fields that are lists changed in place (push copies them), and the others.
_LIST_FIELDS = ("hands", "tricks_won", "card_points", "marriage_points", "pending", "bonus")
_SCALAR_FIELDS = tuple(f for f in _STATE_FIELDS if f not in _LIST_FIELDS)


class Deal:
    """One deal as a state machine: :meth:`legal_actions`, :meth:`apply`, :meth:`push`/:meth:`pop`.

    Players are 0 and 1. Build one with :meth:`from_deck` or :meth:`random`.
    """

    __slots__ = (
        "rules", "deck", "dealer", "stock", "trump", "history", "_undo", "_sixty_six", "_auto",
        "_exchange_card", *_STATE_FIELDS,
    )

    rules: Rules
    deck: tuple[Card, ...]
    dealer: int
    stock: tuple[int, ...]
    #: The trump suit as the plain int the engine reads (:attr:`trump_suit` is the Suit).
    trump: int
    #: The trump card an exchange takes back for the face-up trump (the jack, the nine in Sixty-Six).
    _exchange_card: int
    history: list[Action]
    hands: list[int]
    drawn: int
    talon_size: int
    trump_card: int
    closed_by: int
    close_snapshot: tuple[int, int]
    leader: int
    to_move: int
    lead: int
    claim_ok: bool
    married: int
    tricks_won: list[int]
    card_points: list[int]
    marriage_points: list[int]
    pending: list[int]
    bonus: list[int]
    trick_log: tuple[Trick, ...]
    #: Every card in a finished trick (a set-up position may know them without a trick log).
    played: int
    marriages: tuple[tuple[int, int], ...]
    exchanged: tuple[int, Card, Card] | None
    ending: bool
    outcome: Outcome | None

    def __init__(self, rules: Rules, deck: Sequence[int], dealer: int = 1) -> None:
        """A fresh deal: ``deck[0]`` is the top card (rules.md section 2). Raises :class:`DeckError`."""
        _check_seat("dealer", dealer)
        _check_deck(rules, deck)
        self.rules = rules
        cards = self.deck = tuple([CARDS[c] for c in deck])
        self.dealer = dealer
        self._sixty_six = rules.sixty_six
        self._auto = rules.auto_claim
        second = 3 if rules.sixty_six else 2
        forehand = 1 - dealer
        hands = [0, 0]
        for c in cards[0:3] + cards[7 : 7 + second]:
            hands[forehand] |= 1 << c
        for c in cards[3:6] + cards[7 + second : 7 + 2 * second]:
            hands[dealer] |= 1 << c
        self.hands = hands
        self.stock = cards[7 + 2 * second :]
        self.drawn = 0
        self.trump_card = int(cards[6])
        self.trump = cards[6] // 6
        self._exchange_card = self.trump * 6 + rules.exchange_rank
        self.talon_size = len(self.stock) + 1
        self.closed_by = -1
        self.close_snapshot = (0, 0)
        self.leader = self.to_move = forehand
        self.lead = -1
        self.claim_ok = False
        self.married = -1
        self.tricks_won = [0, 0]
        self.card_points = [0, 0]
        self.marriage_points = [0, 0]
        self.pending = [0, 0]
        self.bonus = [0, 0]
        self.trick_log = ()
        self.played = 0
        self.marriages = ()
        self.exchanged = None
        self.ending = False
        self.outcome = None
        self.history = []
        self._undo: list[tuple[int, tuple[object, ...], tuple[list[int], ...]]] = []

    # ----------------------------------------------------------------- construction

    @classmethod
    def from_deck(
        cls, rules: Rules, deck: str | Sequence[str] | Sequence[int], dealer: int = 1
    ) -> Deal:
        """A deal from card codes (a string or a list; ints are card indexes), top card first.

        Raises :class:`DeckError` on a bad deck.

        >>> Deal.from_deck(Rules.preset("standard"), "AS KS")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bummerl.engine.DeckError: the deck is not a full schnapsen pack of 20 cards (got 2; missing: JC ...)
        """
        items: Sequence[str | int] = deck.replace(",", " ").split() if isinstance(deck, str) else deck
        cards: list[int] = []
        for item in items:
            if isinstance(item, str):
                try:
                    cards.append(Card.parse(item))
                except CardParseError as err:
                    raise DeckError(f"bad card in deck: {err}") from None
            else:
                cards.append(item)
        return cls(rules, cards, dealer)

    @classmethod
    def random(cls, rules: Rules, rng: Random | int | None = None, dealer: int = 1) -> Deal:
        """A deal from a shuffled pack; pass a seed or a :class:`random.Random` to make it repeatable."""
        if not isinstance(rng, Random):
            rng = Random(rng)
        _check_rules(rules)
        deck = list(range(24)) if rules.sixty_six else [c for c in range(24) if c % 6]
        rng.shuffle(deck)
        return cls(rules, deck, dealer)

    @classmethod
    def from_setup(cls, setup: Setup) -> Deal:
        """A deal at a position set up directly (a puzzle's world, a line of notation), not dealt.

        The :class:`~bummerl.setup.Setup` was checked when it was made, so this only builds: its history
        starts here. With every card played the deal is at its end (4.4): the leader, as the last trick's
        winner, may claim or pass; with ``auto_claim`` the outcome is decided at once.

        >>> d = Deal.from_setup(Setup.parse("standard SAT/SKQ - S 0 52/40 4/4"))
        >>> d.apply("play AS"); d.apply("play KS"); d.points
        (67, 40)
        >>> d.legal_actions()
        (Action.parse('play TS'), Action.parse('claim'))
        """
        self = cls.__new__(cls)
        rules = self.rules = setup.rules
        leader = setup.leader
        self.dealer = setup.dealer if setup.dealer is not None else 1 - leader
        self._sixty_six = rules.sixty_six
        self._auto = rules.auto_claim
        self.deck = ()
        hands = setup.hands
        self.hands = [hands[0], hands[1]]
        self.stock = tuple(setup.talon)
        self.drawn = 0
        trump_card = setup.trump_card
        self.trump_card = -1 if trump_card is None else int(trump_card)
        self.trump = int(setup.trump)
        self._exchange_card = self.trump * 6 + rules.exchange_rank
        self.talon_size = 0 if trump_card is None else len(setup.talon) + 1
        self.closed_by = -1 if setup.closed_by is None else setup.closed_by
        self.close_snapshot = setup.at_close or (0, 0)
        self.leader = leader
        self.lead = -1 if setup.lead is None else int(setup.lead)
        self.to_move = setup.to_move
        self.claim_ok = setup.may_claim
        self.married = -1 if setup.married is None else int(setup.married)
        self.tricks_won = list(setup.tricks)
        self.card_points = list(setup.card_points)
        self.marriage_points = list(setup.marriage_points)
        self.pending = list(setup.pending)
        self.bonus = list(setup.bonus)
        self.trick_log = setup.trick_log
        self.played = setup.played
        self.marriages = setup.marriages
        self.exchanged = setup.exchanged
        self.ending = not (hands[0] | hands[1]) and setup.lead is None  # a closed talon may still hold cards
        self.outcome = None
        self.history = []
        self._undo = []
        if self._auto and self.ending:
            self.ending = False
            over = self._points(leader) >= WIN_POINTS
            self.outcome = self._claim_outcome(leader) if over else self._all_played_outcome()
        return self

    def setup(self) -> Setup:
        """This position as a :class:`~bummerl.setup.Setup` (without the deck and the actions, with the
        public history a view remembers); ``.replace(...)`` it to set up a related position.

        >>> d = Deal.random(Rules.preset("standard"), 3)
        >>> d.apply(d.legal_actions()[0])
        >>> again = Deal.from_setup(d.setup())
        >>> again.hands == d.hands and again.legal_actions() == d.legal_actions()
        True
        """
        if self.outcome is not None:
            raise PositionError("the deal is over: there is no position to set up")
        closed = self.closed_by >= 0
        return Setup(
            rules=self.rules,
            hands=(self.hands[0], self.hands[1]),
            talon=tuple(self.talon),
            trump=SUITS[self.trump],
            trump_card=CARDS[self.trump_card] if self.talon_size else None,
            to_move=self.to_move,
            lead=self.lead_card,
            points=self.points,
            tricks=self.tricks,
            pending=(self.pending[0], self.pending[1]),
            closed_by=self.closed_by if closed else None,
            at_close=self.close_snapshot if closed else None,
            married=SUITS[self.married] if self.married >= 0 else None,
            claim_ok=self.claim_ok,
            dealer=self.dealer,
            marriages=self.marriages,
            exchanged=self.exchanged,
            # a deal set up without its tricks logs only those played since: not a log of the position
            trick_log=self.trick_log if len(self.trick_log) == sum(self.tricks_won) else (),
        )

    @classmethod
    def from_state(
        cls,
        rules: Rules,
        *,
        hands: tuple[int, int],
        talon: Sequence[int] = (),
        trump_card: int | None = None,
        trump_suit: int | None = None,
        leader: int = 0,
        lead: int | None = None,
        closed_by: int | None = None,
        close_snapshot: tuple[int, int] = (0, 0),
        tricks_won: tuple[int, int] = (0, 0),
        card_points: tuple[int, int] = (0, 0),
        marriage_points: tuple[int, int] = (0, 0),
        pending: tuple[int, int] = (0, 0),
        marriages: tuple[tuple[int, int], ...] = (),
        exchanged: tuple[int, Card, Card] | None = None,
        married: int = -1,
        claim_ok: bool | None = None,
        dealer: int | None = None,
        trick_log: Sequence[Trick] = (),
    ) -> Deal:
        """Deprecated: use :meth:`from_setup` with a :class:`~bummerl.setup.Setup`.

        The old keywords (``card_points`` + ``marriage_points`` become the setup's ``points``, ``leader``
        its ``to_move``, ``close_snapshot`` its ``at_close``); an impossible position raises a
        :class:`DeckError` as it always did.
        """
        warnings.warn("Deal.from_state is deprecated: use Deal.from_setup(Setup(...))", DeprecationWarning,
                      stacklevel=2)
        try:
            if leader not in (0, 1) or isinstance(leader, bool):
                raise PositionError(f"leader must be player 0 or 1, not {leader!r}")
            if trump_card is None and trump_suit is None:
                raise PositionError("a position needs the trump card or, once it is drawn, the trump suit")
            if trump_card is not None and trump_suit is not None and trump_card // 6 != trump_suit:
                raise PositionError(f"trump suit {trump_suit!r} does not fit the trump card {trump_card!r}")
            trump = trump_suit if trump_card is None else trump_card // 6
            bonus = last_trick_bonus(rules, hands, lead, closed_by is not None, leader)
            setup = Setup(
                rules=rules, hands=hands, talon=tuple(talon), trump=trump,  # type: ignore[arg-type]
                trump_card=trump_card,  # type: ignore[arg-type]
                to_move=leader if lead is None else 1 - leader, lead=lead,  # type: ignore[arg-type]
                points=(card_points[0] + marriage_points[0] + bonus[0],
                        card_points[1] + marriage_points[1] + bonus[1]),
                tricks=tricks_won, pending=pending, closed_by=closed_by,
                at_close=close_snapshot if closed_by is not None else None,
                married=None if married < 0 else married,  # type: ignore[arg-type]
                claim_ok=claim_ok, dealer=dealer, marriages=marriages, exchanged=exchanged,
                trick_log=tuple(trick_log),
            )
        except PositionError as err:
            raise DeckError(str(err)) from None
        return cls.from_setup(setup)

    def copy(self) -> Deal:
        """An independent copy (without the undo stack)."""
        new = Deal.__new__(Deal)
        for name in ("rules", "deck", "dealer", "stock", "trump", "_sixty_six", "_auto", "_exchange_card",
                     *_STATE_FIELDS):
            setattr(new, name, getattr(self, name))
        for name in ("hands", "tricks_won", "card_points", "marriage_points", "pending", "bonus"):
            setattr(new, name, list(getattr(self, name)))
        new.history = list(self.history)
        new._undo = []
        return new

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        """True once the deal has an :class:`Outcome`."""
        return self.outcome is not None

    @property
    def talon_open(self) -> bool:
        """True while cards are drawn after each trick: not closed and not exhausted."""
        return self.closed_by < 0 and self.talon_size > 0

    @property
    def points(self) -> tuple[int, int]:
        """Both players' points: card points + counted marriages (+ Sixty-Six's last-trick 10)."""
        return (self._points(0), self._points(1))

    @property
    def tricks(self) -> tuple[int, int]:
        """How many tricks each player has won (the tricks themselves are :attr:`trick_log`)."""
        return (self.tricks_won[0], self.tricks_won[1])

    def _points(self, p: int) -> int:
        return self.card_points[p] + self.marriage_points[p] + self.bonus[p]

    def hand(self, player: int) -> list[Card]:
        """A player's cards, lowest index first (the referee sees all; bots get a view)."""
        mask = self.hands[player]
        return [CARDS[c] for c in range(24) if mask >> c & 1]

    @property
    def talon(self) -> list[Card]:
        """The face-down talon cards still to be drawn, top first (without the face-up trump)."""
        return [CARDS[c] for c in self.stock[self.drawn :]] if self.talon_size else []

    @property
    def face_up_trump(self) -> Card | None:
        """The trump card lying face up under the open talon, else None."""
        return CARDS[self.trump_card] if self.closed_by < 0 and self.talon_size > 0 else None

    @property
    def lead_card(self) -> Card | None:
        """The card led to the trick in progress, if any."""
        return CARDS[self.lead] if self.lead >= 0 else None

    @property
    def trump_suit(self) -> Suit:
        """The trump suit, a :class:`~bummerl.cards.Suit` as in a view (an ``IntEnum``, so code that
        took it for an int still works; :attr:`trump` is the plain int the engine reads)."""
        return SUITS[self.trump]

    def _play_mask(self) -> int:
        """Cards the player to move may play now."""
        hand = self.hands[self.to_move]
        lead = self.lead
        if lead < 0:
            if self.married >= 0:
                base = self.married * 6
                return sum([1 << (base + rank) for rank in self.rules.marriage_lead_ranks])
            return hand
        if self.closed_by < 0 and self.talon_size > 0:
            return hand
        suit = SUIT_MASKS[lead // 6]
        m = hand & HIGHER[lead]
        if m:
            return m
        m = hand & suit
        if m:
            return m
        m = hand & SUIT_MASKS[self.trump]
        return m if m else hand

    def _can_claim(self) -> bool:
        return not self._auto and (self.claim_ok or self.married >= 0 or self.ending)

    def _can_exchange(self) -> bool:
        rules = self.rules
        p = self.to_move
        return (
            self.lead < 0
            and self.married < 0
            and self.closed_by < 0
            and bool(self.hands[p] >> self._exchange_card & 1)
            and rules.may_exchange(self.talon_size, self.tricks_won[p] > 0)
        )

    def _can_close(self) -> bool:
        if self.lead >= 0 or self.married >= 0 or self.closed_by >= 0:
            return False
        return self.rules.may_close(self.talon_size)

    def _can_marry(self, suit: int) -> bool:
        p = self.to_move
        pair = MARRIAGE_PAIRS[suit]
        return (
            self.lead < 0
            and self.married < 0
            and self.hands[p] & pair == pair
            and self.rules.may_marry(self.closed_by < 0 and self.talon_size > 0, self.tricks_won[p] > 0)
        )

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action for the player to move (empty once the deal is over)."""
        if self.outcome is not None:
            return ()
        if self.ending:
            return (CLAIM, PASS)
        plays = _plays(self._play_mask())
        if self.lead >= 0:
            return plays
        extra: list[Action] = []
        if self._can_claim():
            extra.append(CLAIM)
        if self.married < 0:
            if self._can_exchange():
                extra.append(EXCHANGE)
            if self._can_close():
                extra.append(CLOSE)
            hand = self.hands[self.to_move]
            for s in range(4):
                if hand & MARRIAGE_PAIRS[s] == MARRIAGE_PAIRS[s] and self._can_marry(s):
                    extra.append(ACTIONS[MARRY_CODE + s])
        return plays + tuple(extra) if extra else plays

    def is_legal(self, action: Action | str) -> bool:
        """Whether an action (an :class:`Action` or its string) is legal now."""
        if self.outcome is not None:
            return False
        code = (action if isinstance(action, Action) else _as_action(action)).code
        if self.ending:
            return code in (CLAIM_CODE, PASS_CODE)
        if code < 24:
            return bool(self._play_mask() >> code & 1)
        if code == CLAIM_CODE:
            return self.lead < 0 and self._can_claim()
        if code == EXCHANGE_CODE:
            return self._can_exchange()
        if code == CLOSE_CODE:
            return self._can_close()
        if code >= MARRY_CODE:
            return self._can_marry(code - MARRY_CODE)
        return False

    # ----------------------------------------------------------------- actions

    def apply(self, action: Action | str) -> None:
        """Apply a legal action (an :class:`Action` or its string); illegal ones raise IllegalActionError."""
        action = _as_action(action)
        if not self.is_legal(action):
            raise IllegalActionError(self._why_illegal(action))
        self.history.append(action)
        code = action.code
        if code < 24:
            self._play(code)
        elif code == CLAIM_CODE:
            self.outcome = self._claim_outcome(self.to_move)
        elif code == PASS_CODE:
            self.outcome = self._all_played_outcome()
        elif code == EXCHANGE_CODE:
            self._exchange()
        elif code == CLOSE_CODE:
            self._close()
        else:
            self._marry(code - MARRY_CODE)

    def push(self, action: Action | str) -> None:
        """Apply an action so that :meth:`pop` can take it back (an illegal one changes nothing).

        >>> deal = Deal.random(Rules.preset("standard"), 5)
        >>> before = deal.hand(0), deal.talon
        >>> deal.push(deal.legal_actions()[0]); deal.push(deal.legal_actions()[0])
        >>> _ = deal.pop(); _ = deal.pop()
        >>> (deal.hand(0), deal.talon) == before and deal.tricks == (0, 0)
        True
        """
        saved = (
            len(self.history),
            tuple([getattr(self, f) for f in _SCALAR_FIELDS]),
            tuple([getattr(self, f)[:] for f in _LIST_FIELDS]),
        )
        self.apply(action)
        self._undo.append(saved)

    def pop(self) -> Action:
        """Take back the last action applied with :meth:`push` (and any applied after it); returns it.

        Raises :class:`IndexError` when nothing was pushed.
        """
        n, scalars, lists = self._undo.pop()
        for name, value in zip(_SCALAR_FIELDS, scalars, strict=True):
            setattr(self, name, value)
        for name, value in zip(_LIST_FIELDS, lists, strict=True):
            setattr(self, name, value)
        action = self.history[n]
        del self.history[n:]
        return action

    def _play(self, card: int) -> None:
        p = self.to_move
        self.hands[p] ^= 1 << card
        self.claim_ok = False
        if self.lead < 0:
            self.lead = card
            self.married = -1
            self.to_move = 1 - p
            return
        lead = self.lead
        leader = self.leader
        winner = p if trick_winner(lead, card, self.trump) == card else leader
        self.tricks_won[winner] += 1
        self.card_points[winner] += POINTS[lead] + POINTS[card]
        if self.pending[winner]:
            self.marriage_points[winner] += self.pending[winner]
            self.pending[winner] = 0
        self.trick_log = (*self.trick_log, Trick(leader, CARDS[lead], CARDS[card], winner))
        self.played |= (1 << lead) | (1 << card)
        self.lead = -1
        self.leader = self.to_move = winner
        last = not (self.hands[0] | self.hands[1])
        if last and self._sixty_six and self.closed_by < 0:
            self.bonus[winner] = LAST_TRICK_POINTS
        if self.closed_by < 0 and self.talon_size > 0:
            self._draw(winner)
            last = False
        if self._auto:
            if self._points(winner) >= WIN_POINTS:
                self.outcome = self._claim_outcome(winner)
            elif last:
                self.outcome = self._all_played_outcome()
        elif last:
            self.ending = True
        else:
            self.claim_ok = True

    def _draw(self, winner: int) -> None:
        d = self.drawn
        self.hands[winner] |= 1 << self.stock[d]
        if self.talon_size == 2:
            self.hands[1 - winner] |= 1 << self.trump_card
            self.talon_size = 0
        else:
            self.hands[1 - winner] |= 1 << self.stock[d + 1]
            self.talon_size -= 2
        self.drawn = d + 2

    def _exchange(self) -> None:
        p = self.to_move
        low = self._exchange_card
        self.exchanged = (p, CARDS[low], CARDS[self.trump_card])
        self.hands[p] ^= (1 << low) | (1 << self.trump_card)
        self.trump_card = low
        self.claim_ok = False

    def _close(self) -> None:
        p = self.to_move
        o = 1 - p
        self.closed_by = p
        self.close_snapshot = (self.tricks_won[o], self._points(o))
        self.claim_ok = False

    def _marry(self, suit: int) -> None:
        p = self.to_move
        value = marriage_points(suit, self.trump)
        self.marriages = (*self.marriages, (p, suit))
        if self.rules.marriage_scoring == "trick" and self.tricks_won[p] > 0:
            self.marriage_points[p] += value
        else:
            self.pending[p] += value
        self.married = suit
        self.claim_ok = False
        if self._auto and self._points(p) >= WIN_POINTS:
            self.outcome = self._claim_outcome(p)

    # ----------------------------------------------------------------- scoring

    def _claim_outcome(self, p: int) -> Outcome:
        """rules.md 4.2: the outcome of a claim by player p now.

        Readings of the contract: ``false_claim="mirror"`` gives O ``game_point_table(O's tricks, O's
        points)`` now, what a correct claim would have won P (seed 000's "many sources"), also when O
        closed; a wrong claim by the closer always scores 3/2 by the snapshot, whatever ``false_claim``.
        """
        o = 1 - p
        closer = self.closed_by
        snap_tricks, snap_points = self.close_snapshot
        if self._points(p) >= WIN_POINTS:
            if closer < 0:
                gp = game_point_table(self.tricks_won[o], self._points(o))
            elif closer == p:
                if self.rules.closing_scoring == "viennese":
                    gp = game_point_table(snap_tricks, snap_points)
                else:
                    gp = game_point_table(self.tricks_won[o], self._points(o))
            else:
                gp = closer_failed_points(snap_tricks)
            return Outcome(p, gp, Reason.CLAIM)
        if closer == p:
            gp = closer_failed_points(snap_tricks)
        elif self.rules.false_claim == "fixed":
            gp = closer_failed_points(self.tricks_won[o])  # the same 3-or-2 table, by O's tricks now
        else:
            gp = game_point_table(self.tricks_won[o], self._points(o))
        return Outcome(o, gp, Reason.FALSE_CLAIM)

    def _all_played_outcome(self) -> Outcome:
        """rules.md 4.4: every card played and no (correct) claim.

        A closer who passes after the last trick has failed, even with 66 points (only a claim wins).
        """
        if self.closed_by >= 0:
            other = 1 - self.closed_by
            return Outcome(other, closer_failed_points(self.close_snapshot[0]), Reason.CLOSER_FAILED)
        last_winner = self.leader
        if not self._sixty_six:
            return Outcome(last_winner, 1, Reason.LAST_TRICK)
        a, b = self._points(0), self._points(1)
        if a == b:
            return Outcome(None, 0, Reason.DRAW)
        w = 0 if a > b else 1
        return Outcome(w, game_point_table(self.tricks_won[1 - w], self._points(1 - w)), Reason.MORE_POINTS)

    # ----------------------------------------------------------------- messages

    def illegal_reason(self, action: Action | str, player: int | None = None) -> Illegal | None:
        """Why ``action`` (by ``player``, by default the player to move) is not legal now, as a value;
        None when it is legal. Front ends word the value; the rules stay here.

        >>> deal = Deal.from_deck(Rules.preset("standard"), "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC "
        ...                       "AC JS TS QD", dealer=1)
        >>> [deal.illegal_reason(Action.parse(a)) for a in ("play AS", "play KH", "exchange", "pass")]
        [None, <Illegal.NOT_IN_HAND: 'not_in_hand'>, <Illegal.NO_TRUMP_LOW: 'no_trump_low'>, \
<Illegal.PASS_NOT_NOW: 'pass_not_now'>]
        >>> deal.illegal_reason(Action.parse("play JD"), player=1)
        <Illegal.NOT_YOUR_TURN: 'not_your_turn'>
        """
        action = _as_action(action)
        if self.outcome is not None:
            return Illegal.DEAL_OVER
        if player is not None and player != self.to_move:
            return Illegal.NOT_YOUR_TURN
        if self.is_legal(action):
            return None
        if self.ending:
            return Illegal.ALL_PLAYED
        kind = action.kind
        if kind == "play":
            return self._illegal_play(action.code)
        if kind == "claim":
            return Illegal.AUTO_CLAIM if self._auto else Illegal.CLAIM_NOT_NOW
        if kind == "pass":  # under automatic claims there is nothing to pass on, ever (rules.md 4.3)
            return Illegal.AUTO_CLAIM if self._auto else Illegal.PASS_NOT_NOW
        if kind == "close" and not self.rules.allow_close:
            return Illegal.CLOSING_NOT_ALLOWED
        if self.lead >= 0:
            return Illegal.NOT_LEADING
        if kind == "marry":
            return self._illegal_marriage(action.code - MARRY_CODE)
        talon = (
            Illegal.TALON_CLOSED if self.closed_by >= 0
            else Illegal.TALON_EXHAUSTED if self.talon_size == 0
            else Illegal.TALON_TOO_SMALL if self.talon_size <= 2
            else None
        )
        if kind == "exchange":
            rules = self.rules
            if talon in (Illegal.TALON_CLOSED, Illegal.TALON_EXHAUSTED):
                return talon
            if not self.hands[self.to_move] >> self._exchange_card & 1:
                return Illegal.NO_TRUMP_LOW
            if talon is Illegal.TALON_TOO_SMALL and not rules.exchange_with_two_left:
                return talon
            if rules.exchange_needs_trick and not self.tricks_won[self.to_move]:
                return Illegal.NO_TRICK_YET
            return Illegal.MARRIAGE_DECLARED
        if talon is not None and (talon is not Illegal.TALON_TOO_SMALL or not self.rules.close_with_two_left):
            return talon  # closing a closed, used-up or too small talon
        return Illegal.MARRIAGE_DECLARED

    def _illegal_play(self, card: int) -> Illegal:
        """Why playing ``card`` is illegal: not held, the marriage's king or queen due, or 3.2's rules."""
        hand = self.hands[self.to_move]
        if not hand >> card & 1:
            return Illegal.NOT_IN_HAND
        if self.married >= 0:
            return Illegal.MUST_LEAD_MARRIAGE
        suit = SUIT_MASKS[self.lead // 6]
        if hand & suit:
            return Illegal.MUST_HEAD if 1 << card & suit else Illegal.MUST_FOLLOW_SUIT
        return Illegal.MUST_TRUMP

    def _illegal_marriage(self, suit: int) -> Illegal:
        """Why declaring the marriage in ``suit`` is illegal (the player leads)."""
        p = self.to_move
        pair = MARRIAGE_PAIRS[suit]
        if self.married >= 0:
            return Illegal.MARRIAGE_DECLARED
        if self.hands[p] & pair != pair:
            return Illegal.NO_MARRIAGE
        if self.rules.marriage_needs_trick and not self.tricks_won[p]:
            return Illegal.NO_TRICK_YET
        return Illegal.TALON_CLOSED if self.closed_by >= 0 else Illegal.TALON_EXHAUSTED  # Sixty-Six

    def _why_illegal(self, action: Action) -> str:
        """The message of :class:`IllegalActionError`: the action, why not (the engine's words for
        :meth:`illegal_reason`) and the legal actions."""
        why = self.illegal_reason(action)
        assert why is not None, "asked why a legal action is illegal"
        if why is Illegal.DEAL_OVER:
            return f"{action} is not legal: the deal is over"
        legal = ", ".join(sorted(str(a) for a in self.legal_actions()))
        return f"{action} is not legal: {self._illegal_words(action, why)} (legal: {legal})"

    def _illegal_words(self, action: Action, why: Illegal) -> str:
        """The engine's words for ``why`` (third person: the message names the player)."""
        who = f"player {self.to_move}"
        kind = action.kind
        if why is Illegal.NOT_IN_HAND or (why is Illegal.ALL_PLAYED and kind == "play"):
            return f"{who} does not hold {action.card}"
        if why is Illegal.MUST_LEAD_MARRIAGE:
            due = "king" if self.rules.marriage_leads_king else "king or queen"
            return f"after a marriage its {due} must be led"
        if why in (Illegal.MUST_FOLLOW_SUIT, Illegal.MUST_HEAD, Illegal.MUST_TRUMP, Illegal.NOT_LEADING):
            rule = "" if why is Illegal.NOT_LEADING else " as 3.2 says"
            state = "" if why is Illegal.NOT_LEADING else "the talon is closed or exhausted: "
            return f"{state}{who} must follow the lead {CARDS[self.lead]}{rule}"
        if why is Illegal.TALON_TOO_SMALL:
            return f"only two cards are left in the talon, too few to {kind}"
        if why is Illegal.NO_TRUMP_LOW:
            return f"{who} does not hold the trump {self.rules.exchange_rank.name.lower()}"
        if why is Illegal.NO_TRICK_YET:
            return f"{who} has won no trick yet, which these rules require first"
        if why is Illegal.NO_MARRIAGE:
            suit = action.code - MARRY_CODE
            return f"{who} does not hold {CARDS[suit * 6 + KING]} and {CARDS[suit * 6 + QUEEN]}"
        if why in (Illegal.TALON_CLOSED, Illegal.TALON_EXHAUSTED) and kind == "marry":
            return "in Sixty-Six marriages are declared only while the talon is open"
        return _ILLEGAL_WORDS[why]

    def __repr__(self) -> str:
        deck = " ".join(str(c) for c in self.deck)
        return (
            f"<Deal {self.rules.describe()} dealer={self.dealer} deck={deck!r} "
            f"actions={len(self.history)}>"
        )
