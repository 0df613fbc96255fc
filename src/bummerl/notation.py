"""A compact one-line position notation, like chess FEN, for full-information positions and for puzzles.

Seven space-separated fields, then optional ``key=value`` extras::

    rules  hands  talon  trump  turn  points  tricks  [closed=P@T/Q] [married=S] [claim=yes|no]

- ``rules``: a preset name, or a preset and overridden flags: ``standard:false_claim=mirror,open_tricks=no``.
- ``hands``: ``player0/player1``. A hand is written by suit: each suit letter followed by its ranks high to
  low, suits in the order C D H S joined by dots, so ``CTK.DAK.HQ`` is TC KC AD KD QH; ``-`` is no card.
  In a puzzle the second hand is ``KNOWN?UNSEEN``: the cards the opponent is known to hold (may be empty),
  ``?``, then every card "me" has not seen (opponent's hand and face-down talon; ``-`` if none).
- ``talon``: the face-down talon cards, top first, joined by commas (``JD,QC,AS``), ``-`` if none;
  in a puzzle only their number (``1``).
- ``trump``: the card under the talon (face up, or turned down once closed) while there is a talon, else
  the trump suit's letter.
- ``turn``: who is to move, ``0`` or ``1``; ``1:AS`` = player 1 follows the ace of spades led by player 0.
- ``points``: both players' points (card points and counted marriages), ``28/27``; marriage points
  declared but not yet counted follow a plus sign: ``0+20/12``.
- ``tricks``: tricks won by each player, ``2/2``.
- ``closed=0@1/20``: the talon was closed by player 0 when player 1 had 1 trick and 20 points.
- ``married=H``: the player to move has declared the marriage in hearts and must lead its king or queen.
- ``claim=no`` / ``claim=yes``: only where the claim right differs from the usual one (the leader, who won
  the last trick, may claim until they exchange or close).

In a puzzle, player 0 is "me" and player 1 the opponent. ``parse(str(x)) == x`` for every position.

>>> pos = parse("tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2")
>>> isinstance(pos, Position), str(pos)
(True, 'tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2')
>>> sorted(str(a) for a in pos.to_deal().legal_actions())
['close', 'play AD', 'play KC', 'play KD', 'play QH', 'play TC']
>>> str(parse("tompa HQ.CTK.DAK/?HT.CQJ.DTQJ 1 QS 0 28/27 2/2"))
'tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2'
>>> parse("standard CTK/CQJ - S 0 60/40 4/4 closed=1@2/30")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.notation.NotationError: bad position '...': closed=... needs a talon (a trump card in field 4)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from bummerl.cards import CARDS, SUITS, Card, CardParseError, Suit
from bummerl.engine import Deal, DeckError
from bummerl.puzzle import Puzzle, PuzzleError, TalonState, check_position, default_claim_ok
from bummerl.rules import FLAG_NAMES, Rules, RulesError

__all__ = [
    "NotationError",
    "Position",
    "format_hand",
    "format_position",
    "format_puzzle",
    "parse",
    "parse_hand",
    "parse_position",
    "parse_puzzle",
]

_RANKS = "9JQKTA"
_SUIT_LETTERS = "CDHS"
_PLAYERS = ("player 0", "player 1")


class NotationError(PuzzleError):
    """A text that is not a well-formed position."""


@dataclass(frozen=True, slots=True)
class Position:
    """A full-information position: both hands, the talon order, and the public state of the deal.

    Build one with :meth:`from_deal` or :func:`parse`; :meth:`to_deal` sets it up for play or solving.
    ``talon`` holds the face-down cards top first; ``trump_card`` the card under them (None once drawn).
    The other fields mean what they mean in :class:`~bummerl.puzzle.Puzzle`, for players 0 and 1.

    >>> from bummerl import Rules
    >>> deal = Deal.random(Rules.preset("standard"), 7)
    >>> Position.from_deal(deal) == Position.parse(str(Position.from_deal(deal)))
    True
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
    _split: tuple[tuple[int, int], tuple[int, int]] = dataclasses.field(
        init=False, repr=False, compare=False, default=((0, 0), (0, 0))
    )

    def __post_init__(self) -> None:
        talon_mask = 0
        for c in self.talon:
            if talon_mask >> c & 1:
                raise PuzzleError(f"card {c} is twice in the talon")
            talon_mask |= 1 << c
        split = check_position(
            self.rules,
            hand=self.hands[0],
            unseen=talon_mask,
            opponent_has=self.hands[1],
            trump=self.trump,
            trump_card=self.trump_card,
            talon=self.talon_state,
            facedown=len(self.talon),
            points=self.points,
            tricks=self.tricks,
            to_move=self.to_move,
            lead=self.lead,
            closed_by=self.closed_by,
            at_close=self.at_close,
            pending=self.pending,
            married=self.married,
            names=_PLAYERS,
        )
        object.__setattr__(self, "_split", split)
        default = default_claim_ok(
            self.tricks, self.lead, self.married, (self.hands[0] | self.hands[1]).bit_count()
        )
        if self.claim_ok is not None and (self.rules.auto_claim or self.claim_ok == default):
            object.__setattr__(self, "claim_ok", None)

    @property
    def talon_state(self) -> TalonState:
        """``open``, ``closed`` or ``exhausted``."""
        if self.trump_card is None:
            return "exhausted"
        return "open" if self.closed_by is None else "closed"

    @property
    def may_claim(self) -> bool:
        """Whether the player to move has the claim right of a trick winner (``claim_ok`` resolved)."""
        if self.claim_ok is not None:
            return self.claim_ok
        return default_claim_ok(
            self.tricks, self.lead, self.married, (self.hands[0] | self.hands[1]).bit_count()
        )

    @staticmethod
    def from_deal(deal: Deal) -> Position:
        """The position of a deal in progress (raises :class:`NotationError` once it is over)."""
        if deal.is_over:
            raise NotationError("the deal is over: there is no position to write")
        closed = deal.closed_by >= 0
        return Position(
            rules=deal.rules,
            hands=(deal.hands[0], deal.hands[1]),
            talon=tuple(deal.talon),
            trump=SUITS[deal.trump],
            trump_card=CARDS[deal.trump_card] if deal.talon_size else None,
            to_move=deal.to_move,
            lead=deal.lead_card,
            points=deal.points,
            tricks=deal.tricks,
            pending=(deal.pending[0], deal.pending[1]),
            closed_by=deal.closed_by if closed else None,
            at_close=deal.close_snapshot if closed else None,
            married=SUITS[deal.married] if deal.married >= 0 else None,
            claim_ok=deal.claim_ok,
        )

    def to_deal(self) -> Deal:
        """A :class:`~bummerl.engine.Deal` set up at this position (its history starts here)."""
        try:
            return Deal.from_state(
                self.rules,
                hands=self.hands,
                talon=self.talon,
                trump_card=self.trump_card,
                trump_suit=int(self.trump),
                leader=self.to_move if self.lead is None else 1 - self.to_move,
                lead=self.lead,
                closed_by=self.closed_by,
                close_snapshot=self.at_close or (0, 0),
                tricks_won=self.tricks,
                card_points=self._split[0],
                marriage_points=self._split[1],
                pending=self.pending,
                married=-1 if self.married is None else int(self.married),
                claim_ok=self.may_claim,
            )
        except DeckError as err:
            raise PuzzleError(f"the position cannot be set up: {err}") from None

    def puzzle(self, seat: int) -> Puzzle:
        """What ``seat`` sees of this position, as a puzzle ("me" is ``seat``): the other hand and the
        talon become unseen cards (the notation keeps no history, so no card is known to be theirs).

        >>> pos = Position.parse("tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2")
        >>> str(pos.puzzle(0))
        'tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2'
        """
        other = 1 - seat

        def mine(pair: tuple[int, int]) -> tuple[int, int]:
            return (pair[seat], pair[other])

        talon = 0
        for c in self.talon:
            talon |= 1 << c
        return Puzzle(
            rules=self.rules,
            hand=self.hands[seat],
            unseen=self.hands[other] | talon,
            trump=self.trump,
            trump_card=self.trump_card,
            talon=self.talon_state,
            facedown=len(self.talon),
            points=mine(self.points),
            tricks=mine(self.tricks),
            to_move=0 if self.to_move == seat else 1,
            lead=self.lead,
            closed_by=None if self.closed_by is None else (0 if self.closed_by == seat else 1),
            at_close=self.at_close,
            pending=mine(self.pending),
            married=self.married,
            claim_ok=self.claim_ok if self.to_move == seat else None,
        )

    @staticmethod
    def parse(text: str) -> Position:
        """Read a full-information position (see the module's table)."""
        return parse_position(text)

    def __str__(self) -> str:
        return format_position(self)

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    def replace(self, **changes: Any) -> Position:
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)


# --------------------------------------------------------------------- writing


def format_hand(mask: int) -> str:
    """A set of cards by suit, ranks high to low: ``CTK.DAK.HQ``; ``-`` for none.

    >>> from bummerl.cards import mask_of, parse_cards
    >>> format_hand(mask_of(parse_cards("QH TC KC AD KD"))), format_hand(0)
    ('CTK.DAK.HQ', '-')
    """
    groups = []
    for s in range(4):
        ranks = "".join(_RANKS[r] for r in range(5, -1, -1) if mask >> (s * 6 + r) & 1)
        if ranks:
            groups.append(_SUIT_LETTERS[s] + ranks)
    return ".".join(groups) or "-"


def _rules(rules: Rules) -> str:
    over = rules.overrides()
    if not over:
        return rules.base
    words = [f"{k}={('yes' if v else 'no') if isinstance(v, bool) else v}" for k, v in over.items()]
    return f"{rules.base}:{','.join(words)}"


def _common_tail(
    turn_player: int,
    lead: Card | None,
    points: tuple[int, int],
    pending: tuple[int, int],
    tricks: tuple[int, int],
    closed_by: int | None,
    at_close: tuple[int, int] | None,
    married: Suit | None,
    claim_ok: bool | None,
) -> list[str]:
    turn = str(turn_player) if lead is None else f"{turn_player}:{lead}"
    pts = "/".join(f"{p}+{q}" if q else str(p) for p, q in zip(points, pending, strict=True))
    fields = [turn, pts, f"{tricks[0]}/{tricks[1]}"]
    if closed_by is not None and at_close is not None:
        fields.append(f"closed={closed_by}@{at_close[0]}/{at_close[1]}")
    if married is not None:
        fields.append(f"married={married.letter}")
    if claim_ok is not None:
        fields.append(f"claim={'yes' if claim_ok else 'no'}")
    return fields


def format_position(pos: Position) -> str:
    """The notation of a full-information position."""
    talon = ",".join(str(c) for c in pos.talon) or "-"
    trump = str(pos.trump_card) if pos.trump_card is not None else pos.trump.letter
    head = [_rules(pos.rules), f"{format_hand(pos.hands[0])}/{format_hand(pos.hands[1])}", talon, trump]
    return " ".join(
        head
        + _common_tail(
            pos.to_move,
            pos.lead,
            pos.points,
            pos.pending,
            pos.tricks,
            pos.closed_by,
            pos.at_close,
            pos.married,
            pos.claim_ok,
        )
    )


def format_puzzle(p: Puzzle) -> str:
    """The notation of a puzzle (player 0 is "me")."""
    known = format_hand(p.opponent_has) if p.opponent_has else ""
    hands = f"{format_hand(p.hand)}/{known}?{format_hand(p.unseen)}"
    trump = str(p.trump_card) if p.trump_card is not None else p.trump.letter
    head = [_rules(p.rules), hands, str(p.facedown), trump]
    return " ".join(
        head
        + _common_tail(
            p.to_move, p.lead, p.points, p.pending, p.tricks, p.closed_by, p.at_close, p.married, p.claim_ok
        )
    )


# --------------------------------------------------------------------- reading


def parse_hand(text: str) -> int:
    """Read a hand written by suit (``CTK.DAK.HQ``, any case, ``-`` for none) as a bitmask.

    >>> from bummerl.cards import cards_str
    >>> cards_str(parse_hand("hq.ckt"))
    'KC TC QH'
    """
    if text == "-":
        return 0
    mask = 0
    for group in text.split("."):
        if len(group) < 2:
            raise NotationError(
                f"{text!r} is not a hand: each dot-separated group is a suit letter and ranks, e.g. CTK"
            )
        suit = _SUIT_LETTERS.find(group[0].upper())
        if suit < 0:
            raise NotationError(f"{text!r} is not a hand: {group[0]!r} is not a suit letter (C D H S)")
        for ch in group[1:]:
            rank = _RANKS.find(ch.upper())
            if rank < 0:
                raise NotationError(f"{text!r} is not a hand: {ch!r} is not a rank (9 J Q K T A)")
            bit = 1 << (suit * 6 + rank)
            if mask & bit:
                raise NotationError(f"{text!r} names {CARDS[suit * 6 + rank]} twice")
            mask |= bit
    return mask


def _parse_rules(text: str) -> Rules:
    name, _, rest = text.partition(":")
    flags: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or key not in FLAG_NAMES:
                raise NotationError(
                    f"{item!r} is not a rule flag setting (flag=value; flags: {', '.join(FLAG_NAMES)})"
                )
            flags[key] = value
    try:
        return Rules.preset(name).replace(**flags)
    except RulesError as err:
        raise NotationError(str(err)) from None


def _pair(text: str, what: str, plus: bool = False) -> tuple[tuple[int, int], tuple[int, int]]:
    parts = text.split("/")
    if len(parts) != 2:
        raise NotationError(f"{what} must be two numbers joined by '/', not {text!r}")
    main: list[int] = []
    extra: list[int] = []
    for part in parts:
        base, sep, more = part.partition("+") if plus else (part, "", "")
        if not base.isdigit() or (sep and not more.isdigit()):
            raise NotationError(f"{what} must be two numbers joined by '/', not {text!r}")
        main.append(int(base))
        extra.append(int(more) if sep else 0)
    return (main[0], main[1]), (extra[0], extra[1])


def _card(text: str, what: str) -> Card:
    try:
        return Card.parse(text)
    except CardParseError as err:
        raise NotationError(f"{what}: {err}") from None


class _Fields:
    """The parsed common fields of both kinds of position."""

    def __init__(self, text: str) -> None:
        words = text.split()
        if len(words) < 7:
            raise NotationError(
                f"a position has 7 fields (rules hands talon trump turn points tricks), got {len(words)}"
            )
        self.rules = _parse_rules(words[0])
        self.hands = words[1]
        self.talon = words[2]
        trump = words[3]
        if len(trump) == 1:
            try:
                self.trump = Suit.parse(trump)
            except CardParseError as err:
                raise NotationError(f"field 4 (trump): {err}") from None
            self.trump_card: Card | None = None
        else:
            self.trump_card = _card(trump, "field 4 (trump)")
            self.trump = SUITS[self.trump_card // 6]
        turn, colon, lead = words[4].partition(":")
        if turn not in ("0", "1"):
            raise NotationError(
                f"field 5 (turn) must be 0 or 1, or 1:XY when following a lead, not {words[4]!r}"
            )
        self.to_move = int(turn)
        self.lead = _card(lead, "field 5 (turn)") if colon else None
        self.points, self.pending = _pair(words[5], "field 6 (points)", plus=True)
        self.tricks, _ = _pair(words[6], "field 7 (tricks)")
        self.closed_by: int | None = None
        self.at_close: tuple[int, int] | None = None
        self.married: Suit | None = None
        self.claim_ok: bool | None = None
        for extra in words[7:]:
            key, eq, value = extra.partition("=")
            if key == "closed" and eq:
                who, at, snap = value.partition("@")
                if who not in ("0", "1") or not at:
                    raise NotationError(
                        f"{extra!r} must read closed=P@T/Q (closer, then the other's tricks/points)"
                    )
                self.closed_by = int(who)
                self.at_close, _ = _pair(snap, "closed=...@T/Q")
                if self.trump_card is None:
                    raise NotationError("closed=... needs a talon (a trump card in field 4)")
            elif key == "married" and eq:
                try:
                    self.married = Suit.parse(value)
                except CardParseError as err:
                    raise NotationError(f"{extra!r}: {err}") from None
            elif key == "claim" and value in ("yes", "no"):
                self.claim_ok = value == "yes"
            else:
                raise NotationError(f"unknown extra field {extra!r} (closed=P@T/Q, married=S, claim=yes|no)")

    @property
    def talon_state(self) -> TalonState:
        if self.trump_card is None:
            return "exhausted"
        return "open" if self.closed_by is None else "closed"


def _wrap(text: str, err: Exception) -> NotationError:
    return NotationError(f"bad position {text.strip()!r}: {err}")


def parse_position(text: str) -> Position:
    """Read a full-information position; raises :class:`NotationError` (a :class:`PuzzleError`)."""
    try:
        f = _Fields(text)
        hands = f.hands.split("/")
        if len(hands) != 2 or "?" in f.hands:
            raise NotationError(f"field 2 must be two hands joined by '/', not {f.hands!r}")
        talon = () if f.talon == "-" else tuple(_card(c, "field 3 (talon)") for c in f.talon.split(","))
        return Position(
            rules=f.rules,
            hands=(parse_hand(hands[0]), parse_hand(hands[1])),
            talon=talon,
            trump=f.trump,
            trump_card=f.trump_card,
            to_move=f.to_move,
            lead=f.lead,
            points=f.points,
            tricks=f.tricks,
            pending=f.pending,
            closed_by=f.closed_by,
            at_close=f.at_close,
            married=f.married,
            claim_ok=f.claim_ok,
        )
    except PuzzleError as err:
        raise _wrap(text, err) from None


def parse_puzzle(text: str) -> Puzzle:
    """Read a puzzle (one seat's view, player 0 is "me"); raises :class:`NotationError`."""
    try:
        f = _Fields(text)
        mine, slash, theirs = f.hands.partition("/")
        known, q, unseen = theirs.partition("?")
        if not slash or not q:
            raise NotationError(f"field 2 of a puzzle is MINE/KNOWN?UNSEEN, not {f.hands!r}")
        if not f.talon.isdigit():
            raise NotationError(
                f"field 3 of a puzzle is the number of face-down talon cards, not {f.talon!r}"
            )
        return Puzzle(
            rules=f.rules,
            hand=parse_hand(mine),
            unseen=parse_hand(unseen),
            trump=f.trump,
            trump_card=f.trump_card,
            talon=f.talon_state,
            facedown=int(f.talon),
            points=f.points,
            tricks=f.tricks,
            to_move=f.to_move,
            lead=f.lead,
            opponent_has=parse_hand(known) if known else 0,
            closed_by=f.closed_by,
            at_close=f.at_close,
            pending=f.pending,
            married=f.married,
            claim_ok=f.claim_ok,
        )
    except PuzzleError as err:
        raise _wrap(text, err) from None


def parse(text: str) -> Position | Puzzle:
    """Read either kind: a puzzle when the second field holds a ``?`` (unseen cards), else a position."""
    words = text.split()
    if len(words) > 1 and "?" in words[1]:
        return parse_puzzle(text)
    return parse_position(text)
