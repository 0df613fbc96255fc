"""The grammar of the one-line position notation: text to plain fields and back, nothing else.

No rule of the game lives here and no position value: :class:`~bummerl.setup.Setup` and
:class:`~bummerl.puzzle.Puzzle` read and write their lines through these functions, and check what
they read themselves. The notation is described in :mod:`bummerl.notation`.

>>> line = read_position_line("tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2")
>>> line.talon, line.trump.letter, line.points
((Card.parse('JD'),), 'S', (28, 27))
>>> read_position_line("tompa CTK/CQ JD QS 0 28/27")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.grammar.NotationError: a position has 7 fields (rules hands talon trump turn points tricks), got 6
"""

from __future__ import annotations

from typing import NamedTuple

from bummerl.cards import CARDS, SUITS, Card, CardParseError, Suit
from bummerl.errors import BummerlError, quote
from bummerl.rules import FLAG_NAMES, Rules, RulesError

__all__ = [
    "NotationError",
    "PositionLine",
    "PuzzleLine",
    "bad_position",
    "format_hand",
    "parse_hand",
    "read_position_line",
    "read_puzzle_line",
    "write_position_line",
    "write_puzzle_line",
]

_RANKS = "9JQKTA"
_SUIT_LETTERS = "CDHS"
#: The most digits a number of a position may have (points, tricks and cards are far below 10**6).
_MOST_DIGITS = 6


class NotationError(BummerlError):
    """A text that is not a well-formed position (or one that cannot happen)."""


class PositionLine(NamedTuple):
    """The fields of a full position's line, read but not checked."""

    rules: Rules
    hands: tuple[int, int]
    talon: tuple[Card, ...]
    trump: Suit
    trump_card: Card | None
    to_move: int
    lead: Card | None
    points: tuple[int, int]
    pending: tuple[int, int]
    tricks: tuple[int, int]
    closed_by: int | None
    at_close: tuple[int, int] | None
    married: Suit | None
    claim_ok: bool | None


class PuzzleLine(NamedTuple):
    """The fields of a puzzle's line (player 0 is "me"), read but not checked."""

    rules: Rules
    hand: int
    known: int
    unseen: int
    facedown: int
    trump: Suit
    trump_card: Card | None
    to_move: int
    lead: Card | None
    points: tuple[int, int]
    pending: tuple[int, int]
    tricks: tuple[int, int]
    closed_by: int | None
    at_close: tuple[int, int] | None
    married: Suit | None
    claim_ok: bool | None


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


def _format_rules(rules: Rules) -> str:
    over = rules.overrides()
    if not over:
        return rules.base
    words = [f"{k}={('yes' if v else 'no') if isinstance(v, bool) else v}" for k, v in over.items()]
    return f"{rules.base}:{','.join(words)}"


def _line(line: PositionLine | PuzzleLine, hands: str, talon: str) -> str:
    """The seven fields and the extras; ``hands`` and ``talon`` are the two fields the kinds write apart."""
    turn = str(line.to_move) if line.lead is None else f"{line.to_move}:{line.lead}"
    pts = "/".join(f"{p}+{q}" if q else str(p) for p, q in zip(line.points, line.pending, strict=True))
    fields = [
        _format_rules(line.rules),
        hands,
        talon,
        str(line.trump_card) if line.trump_card is not None else line.trump.letter,
        turn,
        pts,
        f"{line.tricks[0]}/{line.tricks[1]}",
    ]
    if line.closed_by is not None and line.at_close is not None:
        fields.append(f"closed={line.closed_by}@{line.at_close[0]}/{line.at_close[1]}")
    if line.married is not None:
        fields.append(f"married={line.married.letter}")
    if line.claim_ok is not None:
        fields.append(f"claim={'yes' if line.claim_ok else 'no'}")
    return " ".join(fields)


def write_position_line(line: PositionLine) -> str:
    """The line of a full position (both hands, the talon cards top first).

    >>> text = "tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2"
    >>> write_position_line(read_position_line(text)) == text
    True
    """
    hands = f"{format_hand(line.hands[0])}/{format_hand(line.hands[1])}"
    return _line(line, hands, ",".join(str(c) for c in line.talon) or "-")


def write_puzzle_line(line: PuzzleLine) -> str:
    """The line of a puzzle: ``MINE/KNOWN?UNSEEN`` and the number of face-down talon cards."""
    known = format_hand(line.known) if line.known else ""
    hands = f"{format_hand(line.hand)}/{known}?{format_hand(line.unseen)}"
    return _line(line, hands, str(line.facedown))


# --------------------------------------------------------------------- reading


def parse_hand(text: str) -> int:
    """Read a hand written by suit (``CTK.DAK.HQ``, any case, ``-`` for none) as a bitmask.

    >>> from bummerl.cards import cards_str
    >>> cards_str(parse_hand("hq.ckt"))
    'KC TC QH'
    """
    if not isinstance(text, str):
        raise NotationError(f"a hand is text such as CTK.DAK.HQ, not {quote(text)}")
    if text == "-":
        return 0
    if not text.isascii():  # 'ſ'.upper() is 'S' and the Kelvin sign lowers to 'k': no odd letters
        raise NotationError(f"{quote(text)} is not a hand: write it with C D H S and 9 J Q K T A")
    mask = 0
    for group in text.split("."):
        if len(group) < 2:
            raise NotationError(
                f"{quote(text)} is not a hand: each dot-separated group is a suit letter and ranks, e.g. CTK"
            )
        suit = _SUIT_LETTERS.find(group[0].upper())
        if suit < 0:
            raise NotationError(f"{quote(text)} is not a hand: {group[0]!r} is not a suit letter (C D H S)")
        for ch in group[1:]:
            rank = _RANKS.find(ch.upper())
            if rank < 0:
                raise NotationError(f"{quote(text)} is not a hand: {ch!r} is not a rank (9 J Q K T A)")
            bit = 1 << (suit * 6 + rank)
            if mask & bit:
                raise NotationError(f"{quote(text)} names {CARDS[suit * 6 + rank]} twice")
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
                    f"{quote(item)} is not a rule flag setting (flag=value; flags: {', '.join(FLAG_NAMES)})"
                )
            flags[key] = value
    try:
        return Rules.preset(name).replace(**flags)
    except RulesError as err:
        raise NotationError(str(err)) from None


def _pair(text: str, what: str, plus: bool = False) -> tuple[tuple[int, int], tuple[int, int]]:
    parts = text.split("/")
    if len(parts) != 2:
        raise NotationError(f"{what} must be two numbers joined by '/', not {quote(text)}")
    main: list[int] = []
    extra: list[int] = []
    for part in parts:
        base, sep, more = part.partition("+") if plus else (part, "", "")
        if not _is_number(base) or (sep and not _is_number(more)):
            raise NotationError(f"{what} must be two numbers joined by '/', not {quote(text)}")
        main.append(_number(base, what))
        extra.append(_number(more, what) if sep else 0)
    return (main[0], main[1]), (extra[0], extra[1])


def _is_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``isdigit`` alone also takes ``²`` and ``٣``)."""
    return text.isascii() and text.isdigit()


def _number(text: str, what: str) -> int:
    """A number of :func:`_is_number` digits, refusing at once one too long to be points or a count
    (``int`` refuses over 4,300 digits with a bare ValueError)."""
    if len(text) > _MOST_DIGITS:
        raise NotationError(f"{what}: {quote(text)} is far too large")
    return int(text)


def _card(text: str, what: str) -> Card:
    try:
        return Card.parse(text)
    except CardParseError as err:
        raise NotationError(f"{what}: {err}") from None


class _Fields:
    """The fields both kinds of line share, read; ``hands`` and ``talon`` are left as text."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise NotationError(f"a position is a line of text, not {quote(text)}")
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
                f"field 5 (turn) must be 0 or 1, or 1:XY when following a lead, not {quote(words[4])}"
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
                        f"{quote(extra)} must read closed=P@T/Q (closer, then the other's tricks/points)"
                    )
                self.closed_by = int(who)
                self.at_close, _ = _pair(snap, "closed=...@T/Q")
                if self.trump_card is None:
                    raise NotationError("closed=... needs a talon (a trump card in field 4)")
            elif key == "married" and eq:
                try:
                    self.married = Suit.parse(value)
                except CardParseError as err:
                    raise NotationError(f"{quote(extra)}: {err}") from None
            elif key == "claim" and value in ("yes", "no"):
                self.claim_ok = value == "yes"
            else:
                raise NotationError(
                    f"unknown extra field {quote(extra)} (closed=P@T/Q, married=S, claim=yes|no)"
                )


def read_position_line(text: str) -> PositionLine:
    """Read the fields of a full position's line; raises :class:`NotationError` on bad text."""
    f = _Fields(text)
    hands = f.hands.split("/")
    if len(hands) != 2 or "?" in f.hands:
        raise NotationError(f"field 2 must be two hands joined by '/', not {quote(f.hands)}")
    talon = () if f.talon == "-" else tuple(_card(c, "field 3 (talon)") for c in f.talon.split(","))
    return PositionLine(
        f.rules, (parse_hand(hands[0]), parse_hand(hands[1])), talon, f.trump, f.trump_card, f.to_move,
        f.lead, f.points, f.pending, f.tricks, f.closed_by, f.at_close, f.married, f.claim_ok,
    )


def read_puzzle_line(text: str) -> PuzzleLine:
    """Read the fields of a puzzle's line; raises :class:`NotationError` on bad text."""
    f = _Fields(text)
    mine, slash, theirs = f.hands.partition("/")
    known, q, unseen = theirs.partition("?")
    if not slash or not q:
        raise NotationError(f"field 2 of a puzzle is MINE/KNOWN?UNSEEN, not {quote(f.hands)}")
    if not _is_number(f.talon):
        talon = quote(f.talon)
        raise NotationError(f"field 3 of a puzzle is the number of face-down talon cards, not {talon}")
    return PuzzleLine(
        f.rules, parse_hand(mine), parse_hand(known) if known else 0, parse_hand(unseen),
        _number(f.talon, "field 3 (talon)"),
        f.trump, f.trump_card, f.to_move, f.lead, f.points, f.pending, f.tricks, f.closed_by, f.at_close,
        f.married, f.claim_ok,
    )


def bad_position(text: str, err: Exception) -> NotationError:
    """The one-line error for a line that could not be read or cannot happen."""
    return NotationError(f"bad position {quote(text.strip() if isinstance(text, str) else text)}: {err}")
