"""The pieces of the table on screen: card faces, the hand, the talon, the trick, the score board.

Widgets only draw what they are given (cards, counts, texts); the app decides what that is from a view.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from bummerl.cards import CARDS, Card, Rank, Suit
from bummerl.table import RANK_LABELS, CardStyle, card_name

__all__ = ["SIXTH_CARD_KEY", "CardWidget", "card_face", "card_keys", "card_text", "face_width", "suit_colour",
           "suit_text"]

#: The key for the sixth card of a Sixty-Six hand (6 claims 66).
SIXTH_CARD_KEY = "0"


def card_keys(cards: int) -> str:
    """The keys that play a hand of ``cards`` cards.

    >>> [card_keys(n) for n in (1, 3, 5, 6)]
    ['1', '1-3', '1-5', '1-5, 0']
    """
    if cards >= 6:
        return f"1-5, {SIXTH_CARD_KEY}"
    return "1" if cards <= 1 else f"1-{cards}"


_FRENCH_COLOUR = {Suit.C: "bright_white", Suit.D: "red1", Suit.H: "red1", Suit.S: "bright_white"}
_GERMAN_COLOUR = {Suit.C: "dark_orange3", Suit.D: "gold1", Suit.H: "red1", Suit.S: "green3"}


def face_width(style: CardStyle) -> int:
    """Width of a card face inside its border: 7 for French faces, 8 for German ones ("Schellen").

    >>> face_width("french"), face_width("german")
    (7, 8)
    """
    return 8 if style == "german" else 7


def suit_colour(suit: Suit | int, style: CardStyle = "french") -> str:
    """The colour a suit is drawn in: red hearts and diamonds (French); four colours for German cards.

    >>> suit_colour(Suit.H), suit_colour(Suit.S), suit_colour(Suit.S, "german")
    ('red1', 'bright_white', 'green3')
    """
    return (_GERMAN_COLOUR if style == "german" else _FRENCH_COLOUR)[Suit(int(suit))]


def suit_text(suit: Suit | int, style: CardStyle = "french") -> Text:
    """A suit's symbol (French) or German name, in colour.

    >>> suit_text(Suit.D).plain, suit_text(Suit.D, "german").plain
    ('♦', 'Schellen')
    """
    s = Suit(int(suit))
    return Text(s.german if style == "german" else s.symbol, style=f"bold {suit_colour(s, style)}")


def card_text(card: Card | int, style: CardStyle = "french") -> Text:
    """A card inline, in colour: ``Q♥`` or ``Herz O``.

    >>> card_text(Card.parse("TD")).plain, card_text(Card.parse("AD"), "german").plain
    ('10♦', 'Schellen Sau')
    """
    c = CARDS[int(card)]
    return Text(card_name(c, style), style=f"bold {suit_colour(c.suit, style)}")


def card_face(card: Card, style: CardStyle, width: int | None = None) -> Text:
    """The three lines inside a card's border: rank top left, suit in the middle, rank bottom right.

    ``width``: the columns inside the border (default :func:`face_width`); a German suit name longer than
    that is cut short with a full stop (six German cards at 80 columns are 7 wide inside: ``Schell.``).

    >>> card_face(Card.parse("AD"), "german").plain.splitlines()
    ['Sau     ', 'Schellen', '     Sau']
    >>> card_face(Card.parse("AD"), "german", 7).plain.splitlines()
    ['Sau    ', 'Schell.', '    Sau']
    """
    colour = suit_colour(card.suit, style)
    rank = RANK_LABELS[style][card.rank]
    middle = card.suit.german if style == "german" else card.suit.symbol
    if style == "french":
        middle = f"{middle} {middle}" if card.rank == Rank.TEN else middle
    w = width if width is not None and width > 0 else face_width(style)
    if len(middle) > w:
        middle = middle[: w - 1] + "."
    lines = (rank.ljust(w), middle.center(w), rank.rjust(w))
    return Text.assemble(("\n".join(lines), f"bold {colour}"))


def _back(label: str, width: int) -> Text:
    fill = "░" * width
    mid = label.center(width, "░") if label else fill
    return Text.assemble((f"{fill}\n{mid}\n{fill}", "blue"))


class CardWidget(Static):
    """One card: a face, a back (optionally with a label such as the talon size), or an empty place.

    Posts :class:`CardWidget.Clicked` when clicked, with its ``slot`` (its position in the hand). The face
    fits the card's width, which the style sheet sets (six German cards on a narrow screen are a column
    narrower), and is drawn again whenever that changes.
    """

    DEFAULT_CSS = """
    CardWidget {
        width: 9;
        height: 5;
        border: round $foreground 60%;
        background: $surface;
        content-align: center middle;
        text-wrap: nowrap;
        text-overflow: clip;
    }
    CardWidget.back { border: round $primary; }
    CardWidget.empty { border: round $foreground 20%; color: $foreground 40%; }
    CardWidget.playable { border: heavy $success; }
    CardWidget.unplayable { opacity: 45%; }
    CardWidget.chosen { border: heavy $warning; }
    CardWidget.faded { opacity: 60%; }
    CardWidget.face:hover { border: heavy $accent; }
    CardWidget.german { width: 10; }
    """

    class Clicked(Message):
        """A card was clicked."""

        def __init__(self, slot: int, card: Card | None, widget_id: str | None) -> None:
            self.slot = slot
            self.card = card
            self.widget_id = widget_id
            super().__init__()

    def __init__(self, slot: int = -1, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(" ", id=id, classes=classes)
        self.slot = slot
        self.card: Card | None = None
        self._shown: tuple[Card | None, CardStyle, bool, str] | None = None
        self._drawn_width = 0

    def show_card(self, card: Card | None, style: CardStyle = "french", *, back: bool = False,
                  label: str = "") -> None:
        """Show a card face (``card``), a back (``back=True``, with an optional label) or an empty place."""
        self.card = card
        self.remove_class("face", "back", "empty")
        self.set_class(style == "german", "german")
        self.add_class("face" if card is not None and not back else "back" if back else "empty")
        self._shown = (card, style, back, label)
        self._draw()

    def _draw(self) -> None:
        if self._shown is None:
            return
        card, style, back, label = self._shown
        inside = self.content_size.width  # 0 before the first layout: the style's usual width
        width = inside if inside > 0 else face_width(style)
        self._drawn_width = inside
        if card is not None and not back:
            self.update(card_face(card, style, width))
        elif back:
            self.update(_back(label, width))
        else:
            self.update(Text(label.center(width), style="dim"))

    def on_resize(self) -> None:
        if self.content_size.width != self._drawn_width:
            self._draw()

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.slot, self.card, self.id))


def hand_marks(hand: Sequence[Card], playable: int) -> list[bool | None]:
    """For each card of a hand: True (playable), False (not) or None when every card may be played.

    >>> from bummerl.cards import parse_cards, mask_of
    >>> hand = parse_cards("JH QH AS")
    >>> hand_marks(hand, mask_of(hand)), hand_marks(hand, mask_of(hand[:2]))
    ([None, None, None], [True, True, False])
    """
    every = all(playable >> c & 1 for c in hand)
    return [None if every else bool(playable >> c & 1) for c in hand]
