"""Absence and clocks in a game between two people (issue 14): who is away and since when, when the present
player may claim the Bummerl, and the optional clocks chosen at invitation.

The server decides all of it: a seat is *present* while at least one of its WebSockets is open; a seat that
has been away for :data:`AWAY_AFTER` seconds (``bummerl serve --away-after``) may be claimed from by the
other, present player (a win, reason ``abandoned``). A clock (``5+5``: 5 minutes, plus 5 seconds after each
action of its player) runs only for the player to move, and keeps running while that player is away (also
while nobody has the game open); whoever's clock runs out loses the Bummerl (reason ``time``). A server
restart is free: a clock left running by an earlier server starts again when this one loads the game
(:meth:`Clocks.resume`), from what it had when it last started.

Time is a function (``clock``, seconds since the epoch; :func:`time.time` on a real server), so tests move
it by hand instead of sleeping. The clocks and the way a game ended are kept in the web's tables of the
game store (schema step 6): a game record holds only the actions of the deals, so it cannot say that a
Bummerl was won by a claim or on time; the store keeps such a game as ``abandoned`` beside its end here.

>>> control = TimeControl.parse("5+5")
>>> clocks = Clocks.new(control)
>>> clocks.switch(0, now=1000.0)          # seat 0 is to move
>>> clocks.switch(1, now=1012.0)          # ... and moves after 12 s: 300 - 12 + 5 left
>>> clocks.remaining(0, 1020.0), clocks.remaining(1, 1020.0), clocks.out_of_time(1020.0)
(293.0, 292.0, None)
>>> clocks.out_of_time(1312.0)
1
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bummerl.errors import BummerlError
from bummerl.server.web_store import WebStore
from bummerl.store import StoredGame, StoreError, shown_id

__all__ = [
    "AWAY_AFTER",
    "END_REASONS",
    "LEAST_STALL",
    "STALLED_AFTER",
    "Clock",
    "Clocks",
    "End",
    "EndReason",
    "Presence",
    "TimeControl",
    "TimeStore",
    "counts_in_ratings",
]

#: Seconds a seat must have been away before the other player may claim the Bummerl (3 minutes).
AWAY_AFTER = 180.0
#: In a game without clocks, a player who is here but does not move on their turn for this many times
#: ``AWAY_AFTER`` (9 minutes), while the other is here too, may have the Bummerl claimed from them, as if
#: away; so may a host who never opened the game, once their friend took the seat. At least
#: :data:`LEAST_STALL` seconds, whatever ``away_after`` is.
STALLED_AFTER = 3
LEAST_STALL = 60.0
#: Seconds since the epoch (``time.time``); tests give a clock of their own.
Clock = Callable[[], float]
#: Why a friend game ended away from the table: the present player claimed it, or a clock ran out.
EndReason = Literal["abandoned", "time", "resigned"]
END_REASONS: tuple[EndReason, ...] = ("abandoned", "time", "resigned")
#: The longest clock one may choose (minutes) and the largest increment (seconds).
MOST_MINUTES = 180
#: More seconds than any clock or time stamp holds (about 3,000 years): a larger number is damage.
_MOST_SECONDS = 1e11
#: The shortest clock: a whole minute, so that the first player to move has time to open the game (a
#: clock of a few microseconds was lost by whoever took the seat, a rated win for the inviter).
LEAST_MINUTES = 1
MOST_INCREMENT = 180

_CONTROL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)\s*$")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A clock per player: ``initial`` seconds, plus ``increment`` seconds after each of their actions."""

    initial: float
    increment: float

    @classmethod
    def parse(cls, value: object) -> TimeControl | None:
        """``"5+5"`` (minutes + seconds per action); None, ``""`` or ``"none"``: no clocks.

        >>> TimeControl.parse("3+2"), TimeControl.parse("none")
        (TimeControl(initial=180.0, increment=2.0), None)
        >>> TimeControl.parse("0.0000001+0")
        Traceback (most recent call last):
        ...
        bummerl.errors.BummerlError: a clock is at least 1 and at most 180 minutes, plus at most 180 seconds
        >>> TimeControl.parse("5 minutes")
        Traceback (most recent call last):
        ...
        bummerl.errors.BummerlError: a clock is "minutes+seconds" (e.g. "5+5") or "none", not '5 minutes'
        """
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
            return None
        match = _CONTROL.match(value) if isinstance(value, str) else None
        if match is None:
            shown = repr(value)[:40]
            raise BummerlError(f'a clock is "minutes+seconds" (e.g. "5+5") or "none", not {shown}')
        minutes, increment = float(match[1]), float(match[2])
        if not LEAST_MINUTES <= minutes <= MOST_MINUTES or increment > MOST_INCREMENT:
            raise BummerlError(f"a clock is at least {LEAST_MINUTES} and at most {MOST_MINUTES} minutes, "
                               f"plus at most {MOST_INCREMENT} seconds")
        return cls(minutes * 60, increment)

    def __str__(self) -> str:
        """``5+5``."""
        return f"{self.initial / 60:g}+{self.increment:g}"


@dataclass(slots=True)
class Clocks:
    """Both players' clocks: the seconds each had left when ``running`` last started (at ``since``)."""

    control: TimeControl
    left: list[float]
    running: int | None = None
    since: float = 0.0

    @classmethod
    def new(cls, control: TimeControl) -> Clocks:
        """Both clocks full and stopped."""
        return cls(control, [control.initial, control.initial])

    def remaining(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (never below 0)."""
        spent = now - self.since if seat == self.running else 0.0
        return max(0.0, self.left[seat] - max(0.0, spent))

    def switch(self, seat: int | None, now: float, *, moved: bool = True) -> None:
        """Stop the running clock (charging it the time it ran, plus the increment if its player ``moved``)
        and start ``seat``'s (None: no clock runs, e.g. between deals)."""
        if self.running is not None:
            left = self.remaining(self.running, now)
            self.left[self.running] = left + (self.control.increment if moved and left > 0 else 0.0)
        self.running, self.since = seat, now

    def resume(self, server_start: float, now: float) -> bool:
        """A clock left running by an earlier server (it started before ``server_start``, when this server
        did) starts again at ``now``, with what it had when it last started: the time no server held the
        game (and the time its player had spent before the server went down) is not charged. True if it
        did (the caller saves it); a clock started by this server, or none running, is left alone.

        >>> clocks = Clocks(TimeControl(300, 5), [250.0, 300.0], running=0, since=1000.0)
        >>> clocks.resume(server_start=5000.0, now=5010.0), clocks.remaining(0, 5030.0)
        (True, 230.0)
        >>> clocks.resume(server_start=5000.0, now=5040.0), clocks.since
        (False, 5010.0)
        """
        if self.running is None or self.since >= server_start:
            return False
        self.since = now
        return True

    def out_of_time(self, now: float) -> int | None:
        """The seat whose clock has run out, or None."""
        if self.running is not None and self.remaining(self.running, now) <= 0:
            return self.running
        return None

    def until_out(self, now: float) -> float | None:
        """Seconds until the running clock runs out (None: none runs)."""
        return None if self.running is None else self.remaining(self.running, now)

    def to_json(self, now: float) -> dict[str, Any]:
        """``{"control": "5+5", "left_ms": [a, b], "running": seat or null}`` as of ``now``."""
        return {"control": str(self.control), "running": self.running,
                "left_ms": [math.ceil(self.remaining(s, now) * 1000) for s in (0, 1)]}


@dataclass(frozen=True, slots=True)
class End:
    """How a friend game ended away from the table: ``winner`` by ``reason`` at time ``at``."""

    winner: int
    reason: EndReason
    at: float

    def text(self, names: tuple[str, str]) -> str:
        """The sentence for the log.

        >>> End(0, "time", 0.0).text(("Ann", "Bob"))
        "Ann wins the Bummerl: Bob's clock ran out."
        >>> End(1, "resigned", 0.0).text(("Ann", "Bob"))
        'Bob wins the Bummerl: Ann resigned.'
        """
        loser = names[1 - self.winner]
        why = {"time": f"{loser}'s clock ran out", "resigned": f"{loser} resigned",
               "abandoned": f"{loser} was away and {names[self.winner]} claimed it"}[self.reason]
        return f"{names[self.winner]} wins the Bummerl: {why}."

    def to_json(self, names: tuple[str, str]) -> dict[str, Any]:
        """``{"winner", "reason", "text"}``."""
        return {"winner": self.winner, "reason": self.reason, "text": self.text(names)}


def counts_in_ratings(rated: bool, stored: StoredGame, end: End | None) -> bool:
    """Whether a friend game (``rated`` as invited, ``stored`` as the store has it) moves the ratings: not
    when it ended away from the table (``end``) before its first action, like an aborted game."""
    return rated and (end is None or any(deal.actions for deal in stored.record.deals))


@dataclass(slots=True)
class Presence:
    """Since when each seat has had no open connection (None: it has one, it is present), and whether each
    seat's player has come to this table (``opened``: false only for a seat a rematch gave a player who has
    had no connection to the game yet). Only a player who has opened the game can abandon it.

    >>> presence = Presence.start(100.0)          # a game brought to life: nobody is connected yet
    >>> presence.update([True, False], 130.0), presence.away_since, presence.opened
    (True, [None, 100.0], [True, False])
    >>> presence.update([True, False], 140.0), presence.present(0), presence.present(1)
    (False, True, False)
    """

    away_since: list[float | None]
    opened: list[bool]
    #: The seat waiting for the other's move (None: nobody waits, e.g. between deals): the stall of the
    #: player to move counts while this seat is here, whether the player to move is here or not (going
    #: and coming back holds nothing up).
    waiter: int | None = None
    #: Seconds of the current turn counted before :attr:`stall_from`.
    stall_spent: float = 0.0
    #: Since when the stall has been counting (None: it is not, the waiter being away).
    stall_from: float | None = None

    @classmethod
    def start(cls, now: float, opened: Sequence[bool] = (False, False)) -> Presence:
        """Nobody connected yet: both seats away since ``now``; ``opened``: whether each seat's player has
        come to the table (see :class:`Presence`)."""
        return cls([now, now], list(opened))

    def update(self, connected: Sequence[bool], now: float) -> bool:
        """Whether each seat has a connection now; True when a seat came back or went away."""
        changed = False
        for seat, here in enumerate(connected):
            if here:
                self.opened[seat] = True
            if here != (self.away_since[seat] is None):
                self.away_since[seat] = None if here else now
                changed = True
        self._count(now)
        return changed

    def _count(self, now: float) -> None:
        waiting = self.waiter is not None and self.away_since[self.waiter] is None
        if waiting and self.stall_from is None:
            self.stall_from = now
        elif not waiting and self.stall_from is not None:
            self.stall_spent += now - self.stall_from
            self.stall_from = None

    def new_turn(self, now: float, waiter: int | None) -> None:
        """A turn begins (an action, the game's start), ``waiter`` waiting for it: its stall counts from
        nothing, while the waiter is here.

        >>> p = Presence.start(0.0)
        >>> _ = p.update([True, True], 10.0); p.new_turn(20.0, waiter=1); _ = p.update([False, True], 50.0)
        >>> p.stall(100.0)  # the player to move left: it counts on (80 s)
        80.0
        >>> _ = p.update([False, False], 100.0); p.stall(500.0)  # the waiter left too: it stops
        80.0
        """
        self.waiter = waiter
        self.stall_spent, self.stall_from = 0.0, None
        self._count(now)

    def stall(self, now: float) -> float:
        """Seconds of the current turn counted so far (while the waiter was here)."""
        return self.stall_spent + (now - self.stall_from if self.stall_from is not None else 0.0)

    def present(self, seat: int) -> bool:
        """True while ``seat`` has an open connection."""
        return self.away_since[seat] is None


class TimeStore:
    """The clocks and ends of friend games in the web's tables (schema step 6).

    >>> import tempfile
    >>> from pathlib import Path
    >>> from bummerl.rules import Rules
    >>> with WebStore(Path(tempfile.mkdtemp())) as web:
    ...     game = web.create(Rules.preset("standard"), level="easy", seed=1, cards="french",
    ...                       first_dealer=None, decks=())
    ...     times = TimeStore(web)
    ...     times.save_clocks(game.id, Clocks(TimeControl(300, 5), [250.0, 300.0], 0, 1000.0))
    ...     times.save_end(game.id, End(1, "time", 1250.0))
    ...     clocks, end = times.clocks(game.id), times.end(game.id)
    >>> clocks.left, clocks.running, clocks.since, str(clocks.control), end
    ([250.0, 300.0], 0, 1000.0, '5+5', End(winner=1, reason='time', at=1250.0))
    """

    def __init__(self, web: WebStore) -> None:
        self.web = web

    def clocks(self, game_id: str) -> Clocks | None:
        """The game's clocks as last saved (None: played without clocks)."""
        rows = self.web.query("SELECT initial, increment, left0, left1, running, since FROM web_clocks "
                              "WHERE game_id = ?", (game_id,))
        row = rows[0] if rows else None
        if row is None:
            return None
        initial, increment, left0, left1, running, since = row
        seconds = (initial, increment, left0, left1, since)
        if not (all(type(x) in (int, float) and 0 <= x < _MOST_SECONDS for x in seconds)  # (NaN fails too)
                and 0 < initial <= MOST_MINUTES * 60 and increment <= MOST_INCREMENT
                and running in (0, 1, None)):
            raise StoreError(f"the clocks of game {shown_id(game_id)} are damaged")
        return Clocks(TimeControl(float(initial), float(increment)), [float(left0), float(left1)], running,
                      float(since))

    def save_clocks(self, game_id: str, clocks: Clocks) -> None:
        """Keep the clocks as they are now."""
        self.web.write("INSERT OR REPLACE INTO web_clocks VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (game_id, clocks.control.initial, clocks.control.increment, *clocks.left,
                        clocks.running, clocks.since), f"the clocks of game {game_id}")

    def end(self, game_id: str) -> End | None:
        """How the game ended away from the table, or None."""
        rows = self.web.query("SELECT winner, reason, at FROM web_game_ends WHERE game_id = ?", (game_id,))
        row = rows[0] if rows else None
        if row is None:
            return None
        winner, reason, at = row
        if not (type(winner) is int and winner in (0, 1) and reason in END_REASONS
                and type(at) in (int, float) and 0 <= at < _MOST_SECONDS):
            raise StoreError(f"the end of game {shown_id(game_id)} is damaged")
        return End(winner, reason, float(at))

    def save_end(self, game_id: str, end: End) -> None:
        """Record the end (once: an earlier end stays)."""
        # (ON CONFLICT, not OR IGNORE: that would also pass over a row the table's CHECK refuses, silently)
        self.web.write("INSERT INTO web_game_ends VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
                       (game_id, end.winner, end.reason, end.at), f"the end of game {game_id}")
