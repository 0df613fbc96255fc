"""A position set up directly rather than dealt: the frozen :class:`Setup` value, checked once.

Every way of naming a position (``Deal.from_setup``, ``deal.setup()``, the one-line notation, a
puzzle's possible worlds) goes through a :class:`Setup`, and a :class:`Setup` that cannot happen in a
deal is never made: its constructor refuses it with a :class:`PositionError` naming the first problem.
This is the only place where the consistency of a position is written (talon parity, closing, the
leader's trick, points that need tricks, marriages in 20s, the claim right, automatic claims at 66).

>>> from bummerl.cards import mask_of, parse_cards
>>> s = Setup.parse("standard CA.DT/CT.DA - H 0 40/38 4/4")
>>> s.leader, s.may_claim, s.played.bit_count(), str(s)
(0, True, 16, 'standard CA.DT/CT.DA - H 0 40/38 4/4')
>>> s.replace(points=(40, 39))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.setup.PositionError: the points do not add up: the 16 played cards are worth 78, so 40 + 39 ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import InitVar, dataclass, field
from typing import Any, Literal, NamedTuple, Protocol

from bummerl.cards import (
    CARDS,
    MARRIAGE_PAIRS,
    PACK_MASKS,
    POINTS,
    SUITS,
    Card,
    Suit,
    card_points,
    cards_in,
    cards_str,
    is_index,
)
from bummerl.errors import BummerlError, quote
from bummerl.grammar import NotationError, PositionLine, bad_position, read_position_line, write_position_line
from bummerl.rules import Rules
from bummerl.scoring import LAST_TRICK_POINTS, MARRIAGE_POINTS, MOST_MARRIAGE_POINTS, WIN_POINTS

__all__ = [
    "PLAYERS",
    "PositionError",
    "Setup",
    "TalonState",
    "Trick",
    "check_cards",
    "last_trick_bonus",
    "split_points",
]

#: How messages name the players of a :class:`Setup`.
PLAYERS: tuple[str, str] = ("player 0", "player 1")
#: The most points a player can have in a deal (every card, every marriage, the last trick), per pack.
_MOST_POINTS: tuple[int, ...] = tuple(
    card_points(pack) + MOST_MARRIAGE_POINTS + LAST_TRICK_POINTS for pack in PACK_MASKS
)


class _SetsUp(Protocol):
    """What :meth:`Setup.from_deal` needs of a deal (the engine sits above this module)."""

    def setup(self) -> Setup: ...


class PositionError(BummerlError):
    """A position that cannot happen in a deal (or is not well formed)."""


class Trick(NamedTuple):
    """One finished trick: who led, the two cards, who won."""

    leader: int
    lead: Card
    follow: Card
    winner: int


#: Where the talon stands: cards still drawn, closed (turned down) or used up.
TalonState = Literal["open", "closed", "exhausted"]


def split_points(
    points: tuple[int, int], card_total: int, bonus: tuple[int, int] = (0, 0)
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Split both players' points into card points (adding up to ``card_total``, the played cards' worth)
    and counted marriages (20s and 40s), less a Sixty-Six last-trick ``bonus``; None if impossible.
    When several splits fit, the marriages go to player 0 first (the engine only adds them up).

    >>> split_points((48, 27), 55), split_points((10, 10), 0)
    (((28, 27), (20, 0)), None)
    """
    net = (points[0] - bonus[0], points[1] - bonus[1])
    extra = net[0] + net[1] - card_total
    if extra < 0 or extra % MARRIAGE_POINTS:
        return None
    step = MARRIAGE_POINTS  # marriages count 20 or 40: multiples of 20
    for m0 in range(min(extra, max(net[0], 0)) // step * step, -1, -step):
        c0, c1 = net[0] - m0, net[1] - (extra - m0)
        if c0 >= 0 and c1 >= 0:
            return (c0, c1), (m0, extra - m0)
    return None


def last_trick_bonus(rules: Rules, hands: tuple[int, int], lead: int | None, closed: bool, leader: int
                     ) -> tuple[int, int]:
    """Sixty-Six's 10 for the last trick (rules.md 4.4), already won by the leader once no card is left
    and nobody closed; (0, 0) otherwise.

    >>> last_trick_bonus(Rules.preset("sixty-six"), (0, 0), None, False, 1)
    (0, 10)
    """
    if not rules.sixty_six or closed or lead is not None or hands[0] | hands[1]:
        return (0, 0)
    return (LAST_TRICK_POINTS, 0) if leader == 0 else (0, LAST_TRICK_POINTS)


def check_cards(rules: Rules, listed: Sequence[tuple[str, int]]) -> int:
    """The union of card sets that must be disjoint parts of the rules' pack; ``listed`` names each
    (``(label, mask)``) for the :class:`PositionError` that refuses a card outside the pack or in two.

    >>> check_cards(Rules.preset("standard"), [("hand", 1), ("talon", 2)])
    Traceback (most recent call last):
    ...
    bummerl.setup.PositionError: 9C is not in a schnapsen pack (hand)
    """
    pack = PACK_MASKS[rules.sixty_six]
    total = 0
    for i, (label, mask) in enumerate(listed):
        if type(mask) is not int or mask < 0 or mask >> 24:  # a bool is no set of cards either
            raise PositionError(f"{label} must be a set of cards (a bitmask), not {quote(mask)}")
        outside = mask & ~pack
        if outside:
            raise PositionError(
                f"{cards_str(outside)} {'is' if outside.bit_count() == 1 else 'are'} "
                f"not in a {rules.game} pack ({label})"
            )
        twice = mask & total
        if twice:
            card = next(cards_in(twice))
            first = next(earlier for earlier, m in listed[:i] if m >> card & 1)
            raise PositionError(f"card {card} is listed twice ({first} and {label})")
        total |= mask
    return total


def _card(value: object, what: str) -> Card:
    if not is_index(value, 24):
        raise PositionError(f"{what} must be a card, not {quote(value)}")
    return CARDS[value]


def _suit(value: object, what: str) -> Suit:
    if not is_index(value, 4):
        raise PositionError(f"{what} must be a suit, not {quote(value)}")
    return SUITS[value]


def _seat(value: object, what: str) -> int:
    if value not in (0, 1) or isinstance(value, bool):
        raise PositionError(f"{what} must be player 0 or 1, not {quote(value)}")
    return 0 if value == 0 else 1


def _items(value: object, what: str) -> tuple[Any, ...]:
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise PositionError(f"{what} must be a sequence, not {quote(value)}")
    return tuple(value)


def _marriages(value: object) -> tuple[tuple[int, int], ...]:
    """The marriages declared so far, as (player, suit) pairs."""
    out = []
    for item in _items(value, "marriages"):
        if type(item) not in (tuple, list) or len(item) != 2:
            raise PositionError(f"a marriage is (player, suit), not {quote(item)}")
        out.append((_seat(item[0], "a marriage's player"), int(_suit(item[1], "a marriage's suit"))))
    return tuple(out)


def _exchanged(value: object) -> tuple[int, Card, Card]:
    """The exchange made, as (player, the card given, the card taken)."""
    if not isinstance(value, tuple | list) or len(value) != 3:
        raise PositionError(f"the exchange is (player, card given, card taken), not {quote(value)}")
    player = _seat(value[0], "the exchanging player")
    return player, _card(value[1], "the card given"), _card(value[2], "the card taken")


def _trick_log(value: object) -> tuple[Trick, ...]:
    """The finished tricks, each a :class:`Trick` of who led, two different cards and who won."""
    out = []
    for item in _items(value, "the trick log"):
        if type(item) not in (Trick, tuple, list) or len(item) != 4:
            raise PositionError(f"a trick is (leader, lead, follow, winner), not {quote(item)}")
        lead, follow = _card(item[1], "a trick's lead"), _card(item[2], "a trick's follow")
        if lead == follow:
            raise PositionError(f"a trick holds two different cards, not {lead} twice")
        leader, winner = _seat(item[0], "a trick's leader"), _seat(item[3], "a trick's winner")
        out.append(Trick(leader, lead, follow, winner))
    return tuple(out)


def _pair(value: object, what: str) -> tuple[int, int]:
    if type(value) is tuple and len(value) == 2 and type(value[0]) is int and type(value[1]) is int:
        return value  # the usual case, already as stored
    if (
        not isinstance(value, tuple | list) or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise PositionError(f"{what} must be two whole numbers, not {quote(value)}")
    return (int(value[0]), int(value[1]))


@dataclass(frozen=True, slots=True)
class Setup:
    """A full-information position: both hands, the talon in order, and the public state of the deal.

    ``hands`` are card bitmasks; ``talon`` the face-down cards top first; ``trump_card`` the card under
    them (face up, or turned down once closed), None once drawn; ``lead`` a card the player not to move
    has led. ``points`` are what :attr:`Deal.points <bummerl.engine.Deal.points>` shows (card points,
    counted marriages and Sixty-Six's last-trick 10); ``pending`` declared marriages not counted yet
    (rules.md 4.1). ``closed_by``/``at_close``: who closed the talon and the other's (tricks, points)
    then. ``married``: a marriage just declared by the player to move. ``claim_ok``: the claim right
    where it differs from the usual one (:attr:`may_claim`); it is stored as None when it does not.

    ``dealer``, ``marriages``, ``exchanged`` and ``trick_log`` are the public history a view
    remembers; they do not enter ``==`` (the same position however it came about). A ``trick_log``
    must hold exactly the played cards, agreeing with the tricks and the points. ``names`` only words
    the messages (a puzzle says "me" and "the opponent").
    """

    rules: Rules
    hands: tuple[int, int]
    talon: tuple[Card, ...]
    trump: Suit
    trump_card: Card | None = None
    to_move: int = 0
    lead: Card | None = None
    points: tuple[int, int] = (0, 0)
    tricks: tuple[int, int] = (0, 0)
    pending: tuple[int, int] = (0, 0)
    closed_by: int | None = None
    at_close: tuple[int, int] | None = None
    married: Suit | None = None
    claim_ok: bool | None = None
    dealer: int | None = field(default=None, compare=False)
    marriages: tuple[tuple[int, int], ...] = field(default=(), compare=False)
    exchanged: tuple[int, Card, Card] | None = field(default=None, compare=False)
    trick_log: tuple[Trick, ...] = field(default=(), compare=False)
    #: (card points, counted marriages) per player, the played cards and the last-trick 10, worked out
    #: when the setup is checked.
    _split: tuple[tuple[int, int], tuple[int, int]] = field(
        init=False, repr=False, compare=False, default=((0, 0), (0, 0))
    )
    _played: int = field(init=False, repr=False, compare=False, default=0)
    _bonus: tuple[int, int] = field(init=False, repr=False, compare=False, default=(0, 0))
    names: InitVar[tuple[str, str]] = PLAYERS

    def __post_init__(self, names: tuple[str, str]) -> None:
        _check(self, names)

    # ----------------------------------------------------------------- derived facts

    @property
    def leader(self) -> int:
        """Who leads the trick in progress (the player to move, unless a card is led)."""
        return self.to_move if self.lead is None else 1 - self.to_move

    @property
    def talon_state(self) -> TalonState:
        """``open``, ``closed`` or ``exhausted``."""
        if self.trump_card is None:
            return "exhausted"
        return "open" if self.closed_by is None else "closed"

    @property
    def played(self) -> int:
        """The cards of the finished tricks: every card of the pack not placed anywhere."""
        return self._played

    @property
    def bonus(self) -> tuple[int, int]:
        """Sixty-Six's 10 for the last trick inside :attr:`points` (see :func:`last_trick_bonus`)."""
        return self._bonus

    @property
    def card_points(self) -> tuple[int, int]:
        """Each player's points from the cards of their tricks (from the trick log when there is one)."""
        return self._split[0]

    @property
    def marriage_points(self) -> tuple[int, int]:
        """Each player's counted marriages (20 or 40 each)."""
        return self._split[1]

    @property
    def may_claim(self) -> bool:
        """Whether the player to move has the claim right of a trick winner: ``claim_ok`` if given, else
        the usual right, the leader's, who won the last trick, before any other action of the turn (an
        exchange or a close takes it away); with no card left the claim comes from the end of the deal.
        """
        if self.claim_ok is not None:
            return self.claim_ok
        return _usual_claim(self)

    # ----------------------------------------------------------------- text and copies

    @staticmethod
    def from_deal(deal: _SetsUp) -> Setup:
        """The position of a deal in progress: ``deal.setup()`` (kept for the notation's old ``Position``)."""
        return deal.setup()

    @classmethod
    def parse(cls, text: str) -> Setup:
        """Read the one-line notation of a full position (:mod:`bummerl.notation`); raises
        :class:`~bummerl.grammar.NotationError` naming the line and the problem."""
        try:
            f = read_position_line(text)
            return cls(
                rules=f.rules, hands=f.hands, talon=f.talon, trump=f.trump, trump_card=f.trump_card,
                to_move=f.to_move, lead=f.lead, points=f.points, tricks=f.tricks, pending=f.pending,
                closed_by=f.closed_by, at_close=f.at_close, married=f.married, claim_ok=f.claim_ok,
            )
        except (NotationError, PositionError) as err:
            raise bad_position(text, err) from None

    def __str__(self) -> str:
        return write_position_line(PositionLine(
            self.rules, self.hands, self.talon, self.trump, self.trump_card, self.to_move, self.lead,
            self.points, self.pending, self.tricks, self.closed_by, self.at_close, self.married,
            self.claim_ok,
        ))

    def __repr__(self) -> str:
        return f"Setup.parse({str(self)!r})"

    def replace(self, **changes: Any) -> Setup:
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)


def _usual_claim(s: Setup) -> bool:
    return sum(s.tricks) > 0 and s.lead is None and s.married is None and bool(s.hands[0] | s.hands[1])


def _check(s: Setup, names: tuple[str, str]) -> None:
    """Normalise the fields of a new :class:`Setup` and refuse one that cannot happen (the only checker).

    It runs for every world a bot or an analysis builds, so the usual case is kept short: values already
    of the stored kind are not copied, and a message is only worded once a check fails.
    """
    put = object.__setattr__
    rules = s.rules
    if type(rules) is not Rules:
        raise PositionError(f"rules must be a Rules value, not {quote(rules)}")
    sixty_six = rules.sixty_six
    hand_size = rules.hand_size
    # -- the shape: values of the right kinds, stored as cards, suits and tuples
    hands = _pair(s.hands, "hands")
    if hands is not s.hands:
        put(s, "hands", hands)
    talon = s.talon
    if type(talon) is not tuple or not all(type(c) is Card for c in talon):
        talon = tuple(_card(c, "a talon card") for c in _items(talon, "the talon"))
        put(s, "talon", talon)
    trump = s.trump
    if type(trump) is not Suit:
        trump = _suit(trump, "trump")
        put(s, "trump", trump)
    trump_card, lead, married = s.trump_card, s.lead, s.married
    if trump_card is not None and type(trump_card) is not Card:
        trump_card = _card(trump_card, "trump_card")
        put(s, "trump_card", trump_card)
    if lead is not None and type(lead) is not Card:
        lead = _card(lead, "lead")
        put(s, "lead", lead)
    if married is not None and type(married) is not Suit:
        married = _suit(married, "married")
        put(s, "married", married)
    to_move, closed_by, at_close = s.to_move, s.closed_by, s.at_close
    if type(to_move) is not int or (to_move != 0 and to_move != 1):  # 1.0 is stored as 1; True refused
        to_move = _seat(to_move, "to_move")
        put(s, "to_move", to_move)
    if closed_by is not None and (type(closed_by) is not int or (closed_by != 0 and closed_by != 1)):
        closed_by = _seat(closed_by, "closed_by")
        put(s, "closed_by", closed_by)
    if s.dealer is not None:
        put(s, "dealer", _seat(s.dealer, "dealer"))  # 1.0 is stored as 1
    points, tricks = _pair(s.points, "points"), _pair(s.tricks, "tricks")
    pending = _pair(s.pending, "pending")
    if points is not s.points:
        put(s, "points", points)
    if tricks is not s.tricks:
        put(s, "tricks", tricks)
    if pending is not s.pending:
        put(s, "pending", pending)
    if at_close is not None:
        at_close = _pair(at_close, "at_close")
        put(s, "at_close", at_close)
    put(s, "marriages", _marriages(s.marriages))
    if s.exchanged is not None:
        put(s, "exchanged", _exchanged(s.exchanged))
    trick_log = _trick_log(s.trick_log)
    put(s, "trick_log", trick_log)
    if s.claim_ok is not None and type(s.claim_ok) is not bool:
        raise PositionError(f"claim_ok must be True, False or None, not {quote(s.claim_ok)}")
    leader = to_move if lead is None else 1 - to_move
    # -- the talon
    if trump_card is not None and trump_card // 6 != trump:
        raise PositionError(f"the trump card {trump_card} is not of the trump suit {trump.letter}")
    if trump_card is None and talon:
        raise PositionError("a talon with face-down cards still has its trump card under it")
    if trump_card is not None and len(talon) % 2 == 0:
        raise PositionError(f"a talon has an odd number of face-down cards (1, 3, ...), not {len(talon)}")
    if closed_by is not None:
        if trump_card is None:
            raise PositionError("a closed talon still holds its (turned-down) trump card")
        if not rules.may_close(len(talon) + 1):  # (the face-down cards and the trump card)
            what = "closing a talon of two cards" if rules.allow_close else "closing the talon"
            raise PositionError(f"the {rules.describe()} rules do not allow {what}")
        if at_close is None:
            raise PositionError("a closed talon needs at_close: the other player's tricks and points then")
    elif at_close is not None:
        raise PositionError("at_close belongs to a closed talon only")
    # -- the cards and the points
    talon_mask = 0
    for c in talon:
        if talon_mask >> c & 1:
            raise PositionError(f"card {c} is twice in the talon")
        talon_mask |= 1 << c
    loose = talon_mask | (0 if trump_card is None else 1 << trump_card) | (0 if lead is None else 1 << lead)
    pack = PACK_MASKS[sixty_six]
    if (
        type(hands[0]) is not int or type(hands[1]) is not int or hands[0] < 0 or hands[1] < 0
        or (hands[0] | hands[1] | loose) & ~pack or hands[0] & hands[1] or (hands[0] | hands[1]) & loose
    ):  # say which, in words
        listed = [(f"{names[0]}'s hand", hands[0]), (f"{names[1]}'s hand", hands[1])]
        listed.append(("the talon", talon_mask))
        if trump_card is not None:
            listed.append(("the trump card", 1 << trump_card))
        if lead is not None:
            listed.append(("the lead", 1 << lead))
        check_cards(rules, listed)
    total = hands[0] | hands[1] | loose
    t0, t1 = tricks
    if (t0 or t1) and not tricks[leader]:
        raise PositionError(f"the leader ({names[leader]}) won the previous trick, so cannot have 0 tricks")
    if t0 < 0 or t1 < 0:
        p = 0 if t0 < 0 else 1
        raise PositionError(f"{names[p]} cannot have {tricks[p]} tricks")
    most = _MOST_POINTS[sixty_six]
    for p in (0, 1):
        if points[p] < 0 or points[p] > most:
            raise PositionError(f"{names[p]} cannot have {quote(points[p])} points (0 to {most} in a deal)")
    played = pack & ~total
    n_played, n_tricks = played.bit_count(), t0 + t1
    if n_played != 2 * n_tricks:
        placed = total.bit_count()
        raise PositionError(
            f"the position places {placed} card{'s' * (placed != 1)}, so {n_played} were played, "
            f"but {n_tricks} trick{'s' * (n_tricks != 1)} hold {2 * n_tricks} cards"
        )
    for p in (0, 1):
        if points[p] and not tricks[p]:
            raise PositionError(
                f"{names[p]} has {points[p]} points without a trick (points come from tricks and counted "
                "marriages)"
            )
    bonus = last_trick_bonus(rules, hands, lead, closed_by is not None, leader)
    if trick_log:
        split: tuple[tuple[int, int], tuple[int, int]] | None = _split_by_log(s, played, bonus)
    else:
        split = split_points(points, card_points(played), bonus)
    if split is None:
        raise PositionError(
            f"the points do not add up: the {n_played} played cards are worth {card_points(played)}, so "
            f"{points[0]} + {points[1]} can only exceed that by counted marriages (20 or 40 each)"
            + (" and the 10 for the last trick" if any(bonus) else "")
        )
    put(s, "_split", split)
    put(s, "_played", played)
    put(s, "_bonus", bonus)
    # -- the hands
    held0, held1 = hands[0].bit_count(), hands[1].bit_count()
    size0 = held0 + (lead is not None and leader == 0)
    size1 = held1 + (lead is not None and leader == 1)
    if trump_card is not None and closed_by is None and (size0 != hand_size or size1 != hand_size):
        short = 0 if size0 != hand_size else 1
        raise PositionError(
            f"with the talon open both players hold {hand_size} cards, but {names[short]} would hold "
            f"{(held0, held1)[short]}"
        )
    if size0 != size1 or size0 > hand_size:
        raise PositionError(
            f"the hands do not fit: {names[0]} {size0} and {names[1]} {size1} cards (counting a led card)"
        )
    # -- the close
    if closed_by is not None and at_close is not None:
        other = 1 - closed_by
        at_t, at_p = at_close
        since = hand_size - size0
        if at_p and not at_t:
            raise PositionError(f"at_close gives {names[other]} {at_p} points but no trick")
        if at_t < 0 or at_p < 0 or at_t > tricks[other] or at_p > points[other]:
            raise PositionError(
                f"at_close ({at_t} tricks, {at_p} points) cannot exceed {names[other]}'s {tricks[other]} "
                f"tricks and {points[other]} points now"
            )
        if tricks[other] - at_t > since:
            raise PositionError(
                f"only {since} tricks were played since closing, but {names[other]} won "
                f"{tricks[other] - at_t} of them"
            )
    # -- automatic claims, marriages, the first trick
    ending = not (hands[0] | hands[1]) and lead is None
    if rules.auto_claim:
        for p in (0, 1):
            # the last trick may just have got there
            if points[p] >= WIN_POINTS and not (ending and p == leader):
                raise PositionError(
                    f"{names[p]} has {points[p]} points: with automatic claims the deal is already over"
                )
    for p in (0, 1):
        pend = pending[p]
        if pend and (pend < 0 or pend % MARRIAGE_POINTS or pend > MOST_MARRIAGE_POINTS):
            raise PositionError(
                f"{names[p]}'s pending marriage points must be a multiple of 20 up to "
                f"{MOST_MARRIAGE_POINTS}, not {quote(pend)}"
            )
        if pend and tricks[p] and rules.marriage_scoring == "trick":
            raise PositionError(
                f"{names[p]} has won a trick, so a marriage counts at once and cannot be pending"
            )
    if married is not None:
        pair = MARRIAGE_PAIRS[married]
        if lead is not None:
            raise PositionError("a marriage is declared by the leader before leading, not while following")
        if hands[to_move] & pair != pair:
            raise PositionError(
                f"the marriage in {married.letter} needs its king and queen in the hand of "
                f"{names[to_move]}, the player to move"
            )
    if n_tricks == 0 and s.dealer is not None and s.dealer == leader:
        raise PositionError("the non-dealer leads to the first trick")
    if s.claim_ok is not None and (rules.auto_claim or s.claim_ok == _usual_claim(s)):
        put(s, "claim_ok", None)


def _split_by_log(s: Setup, played: int, bonus: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """The points split by the trick log, which must fit the played cards, tricks, points and leader."""
    log_mask = 0
    won = [0, 0]
    cards = [0, 0]
    for t in s.trick_log:
        log_mask |= (1 << t.lead) | (1 << t.follow)
        won[t.winner] += 1
        cards[t.winner] += POINTS[t.lead] + POINTS[t.follow]
    married = (s.points[0] - cards[0] - bonus[0], s.points[1] - cards[1] - bonus[1])
    if (
        log_mask != played
        or (won[0], won[1]) != s.tricks
        or s.trick_log[-1].winner != s.leader
        or min(married) < 0
        or married[0] % MARRIAGE_POINTS
        or married[1] % MARRIAGE_POINTS
    ):
        raise PositionError("the trick log does not fit the played cards, tricks, points and leader")
    return (cards[0], cards[1]), married
