"""Cards, suits and ranks: small values outside, plain ints and bitmasks inside.

A card is an ``int`` from 0 to 23 (``suit * 6 + rank``), so a set of cards is a bitmask.
:class:`Card` is an ``int`` subclass with a readable ``str`` (the contract's code) and a
``repr`` you can paste back into Python.

>>> Card.parse("qh")
Card.parse('QH')
>>> str(Card.parse("Q♥")), Card.parse("QH").points, Card.parse("QH").symbol
('QH', 3, 'Q♥')
>>> Card.parse("Herz Ober") == Card.parse("QH")
True
>>> cards_str(mask_of(parse_cards("AS TS")))
'TS AS'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import TypeGuard

from bummerl.errors import BummerlError, quote

__all__ = [
    "CARDS",
    "HIGHER",
    "MARRIAGE_PAIRS",
    "PACK_MASKS",
    "POINTS",
    "SUITS",
    "SUIT_MASKS",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "card_points",
    "cards_in",
    "cards_str",
    "full_pack",
    "is_card_text",
    "is_index",
    "mask_of",
    "parse_cards",
    "trick_winner",
]


class CardParseError(BummerlError):
    """A text that does not name a card (or a suit)."""


def is_index(value: object, size: int) -> TypeGuard[int]:
    """Whether ``value`` is an int (not a bool, not 2.0) in ``0..size-1``: a card, rank, suit or action
    code as an index (a negative one must not count from the end of a table).

    >>> is_index(23, 24), is_index(-1, 24), is_index(2.0, 24), is_index(True, 24)
    (True, False, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


class Suit(IntEnum):
    """The four suits, in the contract's order C, D, H, S."""

    C = 0
    D = 1
    H = 2
    S = 3

    @property
    def letter(self) -> str:
        """The contract's letter, e.g. ``H``."""
        return self.name

    @property
    def symbol(self) -> str:
        """The French suit symbol, e.g. ``♥``."""
        return "♣♦♥♠"[self]

    @property
    def german(self) -> str:
        """The German-suited name: Eichel, Schellen, Herz, Laub."""
        return ("Eichel", "Schellen", "Herz", "Laub")[self]

    @property
    def english(self) -> str:
        """The English name: clubs, diamonds, hearts, spades."""
        return ("clubs", "diamonds", "hearts", "spades")[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter, symbol, English or German name (any case).

        >>> Suit.parse("h"), Suit.parse("♠"), Suit.parse("Schellen")
        (<Suit.H: 2>, <Suit.S: 3>, <Suit.D: 1>)
        """
        suit = _SUIT_NAMES.get(text.strip().lower()) if is_card_text(text) else None
        if suit is None:
            raise CardParseError(f"not a suit: {quote(text)} (use C, D, H or S)")
        return suit


class Rank(IntEnum):
    """Ranks from low to high: 9 (Sixty-Six only), J, Q, K, T, A."""

    NINE = 0
    JACK = 1
    QUEEN = 2
    KING = 3
    TEN = 4
    ACE = 5

    @property
    def letter(self) -> str:
        """The contract's letter, e.g. ``T`` for the ten."""
        return "9JQKTA"[self]

    @property
    def points(self) -> int:
        """Card points: 0, 2, 3, 4, 10, 11."""
        return (0, 2, 3, 4, 10, 11)[self]

    @property
    def german(self) -> str:
        """The German-suited name: Neuner, Unter, Ober, König, Zehner, Sau."""
        return ("Neuner", "Unter", "Ober", "König", "Zehner", "Sau")[self]

    @property
    def english(self) -> str:
        """The English name: nine, jack, queen, king, ten, ace."""
        return ("nine", "jack", "queen", "king", "ten", "ace")[self]


#: The characters card, suit and action names are written in: printable ASCII, the suit symbols and the
#: umlauts of the German names. Anything else (fullwidth letters, combining marks, zero-width or
#: non-breaking spaces, the Kelvin sign that ``lower()`` turns into ``k``) is refused, not normalised.
_CARD_CHARS = frozenset(chr(i) for i in range(0x20, 0x7F)) | frozenset("\t♣♦♥♠♧♢♡♤äöüÄÖÜ")
_CARD_HELP = "a card is a rank 9 J Q K T A then a suit C D H S, e.g. QH"


def is_card_text(text: object) -> bool:
    """Whether ``text`` is a string of the characters cards, suits and actions are written in.

    >>> is_card_text("Herz König"), is_card_text("Q♥"), is_card_text("ＱＨ"), is_card_text("\u212aH")
    (True, True, False, False)
    """
    return isinstance(text, str) and ((text.isascii() and text.isprintable()) or _CARD_CHARS.issuperset(text))


_SUIT_NAMES: dict[str, Suit] = {}
for _s in Suit:
    for _name in (_s.letter, _s.symbol, _s.german, _s.english, _s.english[:-1]):
        _SUIT_NAMES[_name.lower()] = _s
_SUIT_NAMES.update({"grün": Suit.S, "gruen": Suit.S, "♧": Suit.C, "♢": Suit.D, "♡": Suit.H, "♤": Suit.S})

_RANK_NAMES: dict[str, Rank] = {}
for _r in Rank:
    _RANK_NAMES[_r.letter.lower()] = _r
    _RANK_NAMES[_r.german.lower()] = _r
_RANK_NAMES.update(
    {
        "10": Rank.TEN, "daus": Rank.ACE, "koenig": Rank.KING, "ace": Rank.ACE, "ten": Rank.TEN,
        "king": Rank.KING, "queen": Rank.QUEEN, "jack": Rank.JACK, "nine": Rank.NINE,
    }
)

#: Card points by card index (``POINTS[card]``).
POINTS: tuple[int, ...] = tuple(Rank(i % 6).points for i in range(24))
#: Bitmask of every card of a suit (Sixty-Six pack; Schnapsen never sets the nine bits).
SUIT_MASKS: tuple[int, ...] = tuple(0b111111 << (6 * s) for s in range(4))
#: ``MARRIAGE_PAIRS[suit]``: the king and the queen of a suit, the cards of its marriage.
MARRIAGE_PAIRS: tuple[int, ...] = tuple((1 << (s * 6 + 2)) | (1 << (s * 6 + 3)) for s in range(4))
#: ``HIGHER[card]``: the cards of ``card``'s suit that beat it (the ranks above it).
HIGHER: tuple[int, ...] = tuple(((1 << (c // 6 * 6 + 6)) - 1) & ~((1 << (c + 1)) - 1) for c in range(24))


def trick_winner(lead: int, card: int, trump: int) -> int:
    """Which of a trick's two cards takes it (rules.md 3.3): ``card``, played to ``lead``, wins with a
    higher card of the led suit or with a trump to a plain lead; else ``lead`` wins.

    >>> c = Card.parse
    >>> trick_winner(c("TH"), c("AH"), 0), trick_winner(c("AH"), c("JC"), 0)
    (Card.parse('AH'), Card.parse('JC'))
    >>> trick_winner(c("AH"), c("AS"), trump=0)
    Card.parse('AH')
    """
    if card // 6 == lead // 6:
        return card if card > lead else lead
    return card if card // 6 == trump else lead


class Card(int):
    """One card; an ``int`` (its index) with the contract's code as ``str``.

    >>> c = Card.of(Rank.TEN, Suit.C)
    >>> c, int(c), c.rank, c.suit
    (Card.parse('TC'), 4, <Rank.TEN: 4>, <Suit.C: 0>)
    """

    __slots__ = ()

    @staticmethod
    def of(rank: Rank | int, suit: Suit | int) -> Card:
        """The card of a rank (0..5) and a suit (0..3)."""
        if not (is_index(rank, 6) and is_index(suit, 4)):
            raise CardParseError(f"a card has a rank 0..5 and a suit 0..3, not {quote(rank)}, {quote(suit)}")
        return CARDS[int(suit) * 6 + int(rank)]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this index (0..23; a negative one does not count from the end)."""
        if not is_index(index, 24):
            raise CardParseError(f"a card's index is 0..23, not {quote(index)}")
        return CARDS[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``QH``, ``qh``, ``Q♥``, ``10H`` or a German name such as ``Herz Ober``.

        >>> Card.parse("9d"), Card.parse("Laub Sau")
        (Card.parse('9D'), Card.parse('AS'))
        >>> Card.parse("XH")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bummerl.cards.CardParseError: not a card: 'XH' (a card is a rank 9 J Q K T A then a suit C D H S...)
        """
        if not is_card_text(text):
            raise CardParseError(f"not a card: {quote(text)} ({_CARD_HELP})")
        raw = text.strip()
        card = _CODES.get(raw.upper())
        if card is not None:
            return card
        key = raw.lower()
        parts = key.replace("-", " ").split()
        if len(parts) == 2:
            a, b = parts
            if a in _SUIT_NAMES and b in _RANK_NAMES:
                return Card.of(_RANK_NAMES[b], _SUIT_NAMES[a])
            if a in _RANK_NAMES and b in _SUIT_NAMES:
                return Card.of(_RANK_NAMES[a], _SUIT_NAMES[b])
        elif len(key) >= 2 and key[:-1] in _RANK_NAMES and key[-1] in _SUIT_NAMES:
            return Card.of(_RANK_NAMES[key[:-1]], _SUIT_NAMES[key[-1]])
        raise CardParseError(f"not a card: {quote(text)} ({_CARD_HELP})")

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self // 6)

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank(self % 6)

    @property
    def points(self) -> int:
        """The card points it is worth in a trick."""
        return POINTS[self]

    @property
    def bit(self) -> int:
        """The card as a one-bit mask."""
        return 1 << self

    @property
    def symbol(self) -> str:
        """French form with a suit symbol, e.g. ``Q♥``."""
        return self.rank.letter + self.suit.symbol

    @property
    def german(self) -> str:
        """German-suited name, e.g. ``Herz Ober``."""
        return f"{self.suit.german} {self.rank.german}"

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_NAMES[self]!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (int(self),))


_NAMES: tuple[str, ...] = tuple("9JQKTA"[i % 6] + "CDHS"[i // 6] for i in range(24))
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(24))
_CODES: dict[str, Card] = {name: CARDS[i] for i, name in enumerate(_NAMES)}
_CODES.update({name.replace("T", "10"): CARDS[i] for i, name in enumerate(_NAMES) if name[0] == "T"})


SUITS: tuple[Suit, ...] = tuple(Suit)
_PACKS: tuple[tuple[Card, ...], tuple[Card, ...]] = (tuple(c for c in CARDS if c % 6), CARDS)
#: Bitmask of the full pack: ``PACK_MASKS[sixty_six]``.
PACK_MASKS: tuple[int, int] = (sum(1 << c for c in _PACKS[0]), (1 << 24) - 1)


def full_pack(sixty_six: bool = False) -> list[Card]:
    """The pack in index order: 20 cards for Schnapsen, 24 with the nines for Sixty-Six.

    >>> len(full_pack()), len(full_pack(sixty_six=True))
    (20, 24)
    """
    return list(_PACKS[sixty_six])


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse several cards from a space- or comma-separated text or from a list of codes.

    >>> parse_cards("QH, KH AS")
    [Card.parse('QH'), Card.parse('KH'), Card.parse('AS')]
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(item) for item in items]


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask holding these cards."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of a bitmask, lowest index first."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def _suit_points(bits: int) -> int:
    return sum(POINTS[r] for r in range(6) if bits >> r & 1)


#: The card points of every set of one suit's six cards (the ranks score alike in every suit).
_SUIT_POINTS: tuple[int, ...] = tuple(_suit_points(bits) for bits in range(64))


def card_points(mask: int) -> int:
    """The card points of all cards in a bitmask (a table per suit: it is summed for every set-up position).

    >>> card_points(0b111111 << 18), card_points(mask_of([0, 5, 11]))
    (30, 22)
    """
    return (_SUIT_POINTS[mask & 63] + _SUIT_POINTS[mask >> 6 & 63] + _SUIT_POINTS[mask >> 12 & 63]
            + _SUIT_POINTS[mask >> 18 & 63])


def cards_str(mask: int) -> str:
    """The cards of a bitmask as text, e.g. ``'QH KH'``."""
    return " ".join(_NAMES[c] for c in cards_in(mask))
