"""The event log panel: what happened at the table, wrapped to the panel's width, and only what you may
still look at.

Without ``open_tricks`` (rules.md section 6) you may not look back at past tricks: the cards of a trick stay
in the log only until the next trick begins; then only "You take the trick" remains.

>>> from bummerl.table import Event
>>> events = [Event("play", "You play Q♥", 0), Event("play", "Computer plays J♥", 1),
...           Event("trick", "You take the trick", 0), Event("play", "You play A♠", 0)]
>>> [e.text for e in visible_events(events, open_tricks=False)]
['You take the trick', 'You play A♠']
>>> len(visible_events(events, open_tricks=True))
4
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

from bummerl.table import Event

__all__ = ["EventLog", "visible_events"]

#: Actions that begin the next trick (its leader's first action): the cards of the last trick are gone.
_NEXT_TRICK = frozenset({"play", "exchange", "close", "marry", "deal"})


def visible_events(events: Sequence[Event], *, open_tricks: bool) -> list[Event]:
    """The events a player may still read: all of them with ``open_tricks``; otherwise the played cards of a
    finished trick are dropped as soon as the next trick begins (a new lead, exchange, close, marriage or
    deal)."""
    if open_tricks:
        return list(events)
    hidden: set[int] = set()
    current: list[int] = []  # the plays of the trick in progress
    finished: list[int] = []  # the plays of the last trick taken, shown until the next one begins
    for i, event in enumerate(events):
        if event.kind in _NEXT_TRICK and finished:
            hidden.update(finished)
            finished = []
        if event.kind == "play":
            current.append(i)
        elif event.kind == "trick":
            finished, current = current, []
        elif event.kind == "deal":
            current = []
    return [e for i, e in enumerate(events) if i not in hidden]


class EventLog(RichLog):
    """A log of styled lines that wraps them to its width again whenever that changes.

    A plain :class:`~textual.widgets.RichLog` wraps a line once, at the width it has when the line is
    written, and its scroll bar later covers the last column: letters are lost on a small screen. This log
    keeps a column for the scroll bar at all times and redraws its lines on every resize.
    """

    DEFAULT_CSS = """
    EventLog { scrollbar-gutter: stable; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, auto_scroll=True, min_width=1)
        self.entries: list[Text] = []
        self._drawn_width = 0

    def show(self, entries: Sequence[Text]) -> None:
        """Replace the log's lines (the newest last; the log scrolls to it)."""
        self.entries = list(entries)
        self._redraw()

    def _redraw(self) -> None:
        self.clear()
        self._drawn_width = self.scrollable_content_region.width
        for entry in self.entries:
            self.write(entry, shrink=True, expand=False)

    def on_resize(self, event: Resize) -> None:
        """Wrap the lines again at the new width (after the log has taken its new size)."""
        self.call_after_refresh(self._redraw_if_resized)

    def _redraw_if_resized(self) -> None:
        if self.scrollable_content_region.width != self._drawn_width:
            self._redraw()

    @property
    def text(self) -> str:
        """The log's lines as plain text (what is on the panel, wrapped as shown)."""
        return "\n".join(line.text for line in self.lines)
