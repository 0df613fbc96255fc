"""Play a friend: games between two people over the network (the first slice of issue 14).

A player registers a name (``POST /api/players``, answered with a secret key the browser keeps) and
creates a friend game (``POST /api/friends``): the host sits at seat 0 and gets an invitation link
``/friend/{invite}``. Whoever opens the link first with a player key takes seat 1; after that the link
shows the game to spectators only. Each seat plays through the usual per-seat WebSocket
(``/ws/games/{id}?token=...``); asking again with the same player key gives the same seat and token, so a
closed tab or a server restart loses nothing (the store has every action). Spectators get a public view
(``/ws/watch/{invite}``): the events both players were told and the cards on the table, never a hand or the
talon. A rated game updates both players' Glicko-2 ratings once it is over.

>>> from starlette.testclient import TestClient
>>> import tempfile
>>> from pathlib import Path
>>> from bummerl.server import create_app
>>> with TestClient(create_app(home=Path(tempfile.mkdtemp()), workers=0)) as client:
...     ann = client.post("/api/players", json={"name": "Ann"}).json()
...     bob = client.post("/api/players", json={"name": "Bob"}).json()
...     made = client.post("/api/friends", json={}, headers={KEY_HEADER: ann["key"]}).json()
...     join = client.post(f"/api/friends/{made['invite']}/join", headers={KEY_HEADER: bob["key"]}).json()
...     again = client.post(f"/api/friends/{made['invite']}/join", headers={KEY_HEADER: bob["key"]}).json()
>>> made["seat"], join["seat"], join == again, join["players"]
(0, 1, True, ['Ann', 'Bob'])
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from bummerl import jsonio
from bummerl.errors import BummerlError
from bummerl.rules import Rules
from bummerl.server.games import GameGone, GameHub, Listener, LiveGame, SeatSpec
from bummerl.server.limits import LimitReached, Limits, check_games_in_progress
from bummerl.server.players import FriendGame, Player, Players
from bummerl.server.presence import (
    AWAY_AFTER,
    LEAST_STALL,
    STALLED_AFTER,
    Clock,
    Clocks,
    End,
    EndReason,
    Presence,
    TimeControl,
    TimeStore,
)
from bummerl.server.protocol import REFUSED, error_message, event_json, read_body, refuse_unavailable
from bummerl.server.spectators import check_spectators, watch_message
from bummerl.session import PlaySession
from bummerl.store import StoreError, shown_id
from bummerl.table import CardStyle, Event, IllegalMove, Seat, Table

__all__ = ["KEY_HEADER", "WAITING_NAME", "FriendTable", "Online", "online_routes", "public_view"]

#: The request header that carries the player key.
KEY_HEADER = "X-Player-Key"
#: The name of the free seat until somebody takes it.
WAITING_NAME = "Friend"
#: The longest request body read by the online API (bytes).
MAX_BODY = 4096
#: The longest chat message (characters) and the chat messages a game keeps (their rate per connection is
#: in :class:`~bummerl.server.limits.Limits`).
MAX_CHAT = 200
CHAT_KEPT = 50
#: The longest wait (seconds) between two looks at a live game's clocks and absences (a clock that runs
#: out or an absence that may now be claimed is announced within this time).
TICK = 1.0


def public_view(table: Table, players: list[dict[str, Any]], game_id: str) -> dict[str, Any]:
    """What a spectator sees: what both players have been shown (the cards played, the face-up trump card,
    marriages, exchanges, the score) and never a hand or the talon's order."""
    view = table.view(0).to_json()
    return {
        "type": "watch", "game": game_id, "players": players, "phase": table.phase,
        "deal_number": table.deal_number, "waiting_for": table.waiting_for, "score": list(table.score),
        "winner": table.game.winner, "trump": view["trump"], "trump_card": view["trump_card"],
        "talon_size": view["talon_size"], "closed_by": view["closed_by"], "lead": view["lead"],
        "tricks": view["tricks"], "marriages": view["marriages"], "exchanged": view["exchanged"],
        "hand_sizes": [len(view["hand"]), view["opponent_hand_size"]],
    }


class FriendTable(LiveGame):
    """A live game between two people: play waits until both seats are taken; spectators watch; a rated
    game is rated when it ends."""

    def __init__(self, session: PlaySession, seats: tuple[SeatSpec, SeatSpec], tokens: dict[int, str],
                 hub: GameHub, online: Online, friend: FriendGame) -> None:
        super().__init__(session, seats, tokens, hub)
        self.online = online
        self.friend = friend
        self.watchers: list[Any] = []
        #: The chat of the two players (kept while the game is live): {"seat", "name", "text"} each.
        self.chat: list[dict[str, Any]] = []
        self.chatters: list[Any] = []
        #: Who is away since when, the clocks (None: played without), and how the game ended away from the
        #: table (None: it did not); server/presence.py.
        # Kept while the server runs (a game is put away whenever nobody has it open, and brought back):
        # a reload must not start a countdown or a stall afresh.
        kept = online.presences.get(session.id)
        self.presence = kept or Presence.start(online.clock(), opened=(friend.unopened != 0,
                                                                       friend.unopened != 1))
        online.presences[session.id] = self.presence
        self.clocks: Clocks | None = None
        self.end: End | None = None
        if kept is None:  # (after a restart: the turn's stall counts from now)
            self._new_turn(online.clock())
        self._timer: asyncio.TimerHandle | None = None
        self._claimable = (False, False)
        self._stalled = (False, False)
        #: A rematch: its player who did not ask for it and never came may not have it claimed from them.
        self.rematch = online.players.is_rematch(session.id)
        self._ending: set[asyncio.Task[None]] = set()
        #: Held by an action, a claim or a loss on time from its check to its end, so they never cross.
        self._turn = asyncio.Lock()
        #: The host took the invitation back before anybody took the seat (:meth:`withdraw`).
        self.withdrawn = False

    def seat_taken(self, seat: int, name: str, token: str) -> None:
        """Somebody took the free seat: name it and tell everyone."""
        self.table.take_seat(seat, name)
        self.seats = (self.seats[0], SeatSpec(name)) if seat == 1 else (SeatSpec(name), self.seats[1])
        self.tokens[seat] = token
        now = self.online.clock()
        if not self._connected(seat):  # the countdown starts now, not when the invitation was made
            self.presence.away_since[seat] = now
        if self.presence.away_since[1 - seat] is not None:  # (a host who never opened it: from now too)
            self.presence.away_since[1 - seat] = now
        self._new_turn(now)  # the first turn begins
        if self.clocks is not None:
            self.clocks.switch(self._clock_seat(), self.online.clock(), moved=False)
        self.broadcast_log()  # (its opening line named the free seat; nobody watches before it is taken)
        self.schedule()

    async def act(self, seat: int, action: str) -> None:
        """As :meth:`LiveGame.act`, once both seats are taken and while nobody has won away from the table
        (a clock that has run out ends the game first)."""
        if not self.started:
            raise IllegalMove("wait for your friend to open the invitation link")
        async with self._turn:  # no end away from the table between this check and the action
            await self._flag()
            if self.end is not None:
                raise IllegalMove(f"the Bummerl is over: {self.end.text(self.names())}")
            await super().act(seat, action)

    async def analyse(self, seat: int, asker: str = "") -> dict[str, Any]:
        """Refused: the solver's advice is for games against the computer, never between two people."""
        raise IllegalMove("the analysis is only for games against the computer")

    async def stored(self) -> None:
        """After an action is stored and before it is shown: the clocks move on (the mover's stops, with
        the increment; the next mover's starts) and are saved; a rated game is rated once it is over (so
        both players see the new ratings as soon as they see the end)."""
        now = self.online.clock()
        self._new_turn(now)  # the next player's turn begins
        if self.clocks is not None:
            self.clocks.switch(self._clock_seat(), now)
            await self.save_clocks()
        await self.saved()
        # What the pages will now be shown (with the view), then a look when something can change by itself
        # (the looks had stopped between deals, and a seat already claimable was not watched again).
        self._shown(self.online.clock())
        self.schedule()

    async def saved(self) -> None:
        """Once the end of a rated game is stored (now, or by a later retry of a failed save), rate it; a
        rating that cannot be written now is left for the next save or look."""
        winner = self.table.game.winner
        if (self.table.phase == "game_over" and winner is not None and self.friend.rated
                and self.session.save_error is None):
            with contextlib.suppress(StoreError):
                await self.hub._admin(self.online.players.rate, self.id, winner)

    # ------------------------------------------------------------------ absence and clocks

    @property
    def started(self) -> bool:
        """True once both seats are taken."""
        return 0 in self.tokens and 1 in self.tokens

    @property
    def over(self) -> bool:
        """True once the Bummerl is won, at the table or away from it."""
        return self.end is not None or self.table.phase == "game_over"

    def names(self) -> tuple[str, str]:
        """The two players' names."""
        return self.table.name(0), self.table.name(1)

    def _clock_seat(self) -> int | None:
        """The seat whose clock runs: the player to move, while both seats are taken, nobody has won, and
        that player has opened the game (a rematch's player who never came loses no time, nor on time)."""
        seat = self.table.waiting_for if self.started and not self.over else None
        return seat if seat is None or self.presence.opened[seat] else None

    def _connected(self, seat: int) -> bool:
        return any(listener.seat == seat for listener in self.listeners)

    async def save_clocks(self) -> None:
        """Keep the clocks in the store (they survive a restart)."""
        clocks = self.clocks
        if clocks is not None:
            await self.hub._admin(self.online.times.save_clocks, self.id, clocks)

    def _new_turn(self, now: float) -> None:
        mover = self.table.waiting_for if self.started and not self.over else None
        self.presence.new_turn(now, None if mover is None else 1 - mover)

    def gone(self, seat: int) -> tuple[float, float] | None:
        """Since when ``seat`` has left the game, and after how many seconds of it the other may claim the
        Bummerl (None: it has not, or may never be claimed from): away (no connection) after the server's
        ``away_after``; a host who never opened the game, since the friend took the seat, after
        :meth:`stall_limit` (a rematch's player who never came: never); or, in a game without clocks, here
        but not moving on its turn for :meth:`stall_limit` seconds spent with both at the table (an attacker
        took invitations and sat at each without moving, for good; going and coming back does not start it
        afresh)."""
        if not self.started or self.over:
            return None
        since = self.presence.away_since[seat]
        if not self.presence.opened[seat]:
            return None if self.rematch or since is None else (since, self.stall_limit)
        ways = [] if since is None else [(since, self.online.away_after)]
        if self.clocks is None and self.table.waiting_for == seat:
            now = self.online.clock()
            ways.append((now - self.presence.stall(now), self.stall_limit))
        return min(ways, key=sum) if ways else None  # the sooner of the two

    @property
    def stall_limit(self) -> float:
        """Seconds a stall lasts before the other may claim: :data:`STALLED_AFTER` times ``away_after``,
        at least :data:`LEAST_STALL`."""
        return max(LEAST_STALL, STALLED_AFTER * self.online.away_after)

    @property
    def stall_shown(self) -> float:
        """Seconds of a stall after which the pages say so: a third of :meth:`stall_limit` (as long as an
        absence takes, by default)."""
        return self.stall_limit / STALLED_AFTER

    def stalled(self, seat: int, now: float) -> bool:
        """True when ``seat`` is here but has not moved on its turn for :meth:`stall_shown` seconds."""
        gone = self.gone(seat)
        return self.presence.present(seat) and gone is not None and now - gone[0] >= self.stall_shown

    def _shown(self, now: float) -> None:
        """Remember what the pages are shown now (who may claim, who is stalled): a look sends presence
        again when it changes."""
        self._claimable = (self.can_claim(0, now), self.can_claim(1, now))
        self._stalled = (self.stalled(0, now), self.stalled(1, now))

    def can_claim(self, seat: int, now: float) -> bool:
        """True when ``seat`` may claim the Bummerl now: both seats taken, nobody has won, ``seat`` is here
        and the other has left the game long enough (:meth:`gone`)."""
        gone = self.gone(1 - seat)
        return self.presence.present(seat) and gone is not None and now - gone[0] >= gone[1]

    def presence_json(self, seat: int | None) -> dict[str, Any]:
        """Who is here, the countdowns and the clocks as seen by ``seat`` (None: a spectator): the
        ``presence`` of the README's protocol."""
        now = self.online.clock()
        seats = []
        for s in (0, 1):
            gone, stalled, since = self.gone(s), self.stalled(s, now), self.presence.away_since[s]
            absent = self.started and not self.over and since is not None
            away = absent or stalled
            start = since if absent else (gone[0] if gone else None)
            seats.append({"present": self.presence.present(s), "away": away, "stalled": stalled,
                          "opened": self.presence.opened[s],
                          "away_ms": math.floor((now - start) * 1000) if away and start is not None else None,
                          "claim_in_ms": (math.ceil(max(0.0, gone[0] + gone[1] - now) * 1000)
                                          if away and gone else None)})
        names = self.names()
        return {"seats": seats, "away_after_ms": round(self.online.away_after * 1000),
                "clocks": None if self.clocks is None else self.clocks.to_json(now),
                "ended": None if self.end is None else self.end.to_json(names),
                "can_claim": seat is not None and self.can_claim(seat, now)}

    def view_for(self, seat: int) -> dict[str, Any]:
        """The seat's view, with its ``presence``; a game won away from the table shows as over."""
        message = super().view_for(seat)
        message["presence"] = self.presence_json(seat)
        # The other seat is free: play waits for the friend, unless the host took the invitation back.
        message["friend_to_come"] = not self.started and not self.withdrawn
        message["withdrawn"] = self.withdrawn
        message["rated"] = self.friend.rated
        if self.end is not None:
            message.update(phase="game_over", winner=self.end.winner, waiting_for=None,
                           ended=self.end.to_json(self.names()))
        return message

    def watch_frame(self) -> dict[str, Any]:
        """What a spectator sees now: the public view, the ``presence``, and an end away from the table."""
        frame = public_view(self.table, self.players(), self.id)
        frame["presence"] = self.presence_json(None)
        if self.end is not None:
            frame.update(phase="game_over", winner=self.end.winner, waiting_for=None,
                         ended=self.end.to_json(self.names()))
        return frame

    def send_presence(self) -> None:
        """Send a ``presence`` message to every seat's connections and every spectator; look again later."""
        now = self.online.clock()
        self._shown(now)
        messages: dict[int | None, dict[str, Any]] = {}
        for listener in list(self.listeners):
            if listener.seat not in messages:
                messages[listener.seat] = {"type": "presence", **self.presence_json(listener.seat)}
            listener.send(messages[listener.seat])
        if self.watchers:
            spectators = {"type": "presence", **self.presence_json(None)}
            for send in list(self.watchers):
                send(spectators)
        self.schedule()

    async def join(self, listener: Listener) -> None:
        """A connection opens at a seat: a seat that was away is back (everyone is told); a rematch's player
        has now opened the game."""
        opening = not self.presence.opened[listener.seat]
        if opening:
            await self.hub._admin(self.online.players.set_unopened, self.id, None)
            self.friend = self.online.players.friend_game(game_id=self.id) or self.friend
        now = self.online.clock()
        back = self.presence.update([self._connected(s) or s == listener.seat for s in (0, 1)], now)
        if opening:  # no stall of a turn before this player ever came to the table
            self._new_turn(now)
        if opening and self.clocks is not None and self.clocks.running is None:
            self.clocks.switch(self._clock_seat(), now, moved=False)  # their clock starts now
            await self.save_clocks()
        await super().join(listener)
        # Once more with this connection among the listeners: the other seat's connection may have looked
        # while this one waited above, seen no listener here and marked this seat away (a host who opened a
        # game with clocks then showed as away to the friend, who could claim the Bummerl).
        back = self.presence.update([self._connected(s) for s in (0, 1)], self.online.clock()) or back
        if back:
            self.send_presence()

    def leave(self, listener: Listener) -> None:
        """A connection closed: once a seat has none, it is away (everyone left is told)."""
        super().leave(listener)
        changed = self.presence.update([self._connected(s) for s in (0, 1)], self.online.clock())
        if self.hub.live.get(self.id) is not self:  # put away: nobody is left to tell (the presence is kept
            self._stop_timer()  # for its next load, with everybody away)
            return
        if changed:
            self.send_presence()

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def schedule(self) -> None:
        """Look again at the clocks and absences within :data:`TICK` seconds while something can change
        by itself (a clock runs, or a present player waits for an absent one)."""
        self._stop_timer()
        if self.over or not self.started or self.hub.live.get(self.id) is not self:
            return
        now = self.online.clock()
        waits = []
        if self.clocks is not None and (left := self.clocks.until_out(now)) is not None:
            waits.append(left)
        for s in (0, 1):
            gone = self.gone(s)
            if gone is not None and self.presence.present(1 - s) and not self._claimable[1 - s]:
                waits.append(gone[0] + gone[1] - now)
                if self.presence.present(s) and not self._stalled[s]:
                    waits.append(gone[0] + self.stall_shown - now)  # shown as not moving from then
        if waits:
            delay = min(TICK, max(0.02, min(waits)))
            self._timer = asyncio.get_running_loop().call_later(delay, self._tick)

    def _tick(self) -> None:
        self._timer = None
        if self.hub.live.get(self.id) is not self:  # put away meanwhile: the next load looks again
            return
        now = self.online.clock()
        if self.clocks is not None and self.clocks.out_of_time(now) is not None:
            task = asyncio.create_task(self._flag_quietly())
            self._ending.add(task)
            task.add_done_callback(self._ending.discard)
        elif ((self.can_claim(0, now), self.can_claim(1, now)) != self._claimable
              or (self.stalled(0, now), self.stalled(1, now)) != self._stalled):
            self.send_presence()
        else:
            self.schedule()

    async def _flag_quietly(self) -> None:
        with contextlib.suppress(BummerlError):  # a store error: the next action or claim tries again
            await self.flag()

    async def flag(self) -> int | None:
        """End the game if a clock has run out (its player loses on time): that seat, or None."""
        async with self._turn:
            return await self._flag()

    async def _flag(self) -> int | None:
        now = self.online.clock()
        seat = None if self.clocks is None or self.over else self.clocks.out_of_time(now)
        if seat is not None:
            await self._finish(1 - seat, "time")
        return seat

    async def claim(self, seat: int) -> End:
        """``seat`` claims the Bummerl: allowed once the other player has been away for the server's
        ``away_after`` seconds (or their clock has run out); :class:`~bummerl.errors.BummerlError` says
        why not."""
        async with self._turn:
            return await self._claim(seat)

    async def _claim(self, seat: int) -> End:
        await self._flag()
        if self.end is not None:
            return self.end
        if self.table.phase == "game_over":
            raise BummerlError("the Bummerl is over")
        if not self.started:
            raise BummerlError("nobody has taken the other seat yet")
        if not self.presence.present(seat):
            raise BummerlError("open the game to claim it")
        gone, other = self.gone(1 - seat), self.table.name(1 - seat)
        opened = self.presence.opened[1 - seat]
        if gone is None:
            why = "has not opened this game yet" if not opened else "is here"
            raise BummerlError(f"{other} {why}: there is nothing to claim")
        wait = gone[0] + gone[1] - self.online.clock()
        if wait > 0:
            how = ("has not opened this game yet" if not opened else "has been away only a short while"
                   if not self.presence.present(1 - seat) else "has been without moving only a short while")
            raise BummerlError(f"{other} {how}: you may claim the Bummerl in {math.ceil(wait)} s")
        await self._finish(seat, "abandoned")
        assert self.end is not None
        return self.end

    async def resign(self, seat: int) -> End:
        """``seat`` gives the Bummerl up: the other player wins it (rated like any win);
        :class:`~bummerl.errors.BummerlError` says why not."""
        async with self._turn:
            await self._flag()
            if self.end is not None:
                raise BummerlError(f"the Bummerl is over: {self.end.text(self.names())}")
            if self.table.phase == "game_over":
                raise BummerlError("the Bummerl is over")
            if not self.started:
                raise BummerlError("nobody has taken the other seat yet: withdraw the invitation instead")
            await self._finish(1 - seat, "resigned")
            assert self.end is not None
            return self.end

    async def withdraw(self) -> None:
        """The host takes the invitation back before anybody took the seat: the game is stored as
        ``abandoned`` (nobody won), and the pages that have it open are told."""
        async with self.lock:
            if self.started or self.withdrawn:
                return
            await self.hub._admin(self.hub.store.store.finish, self.id, "abandoned")
            self.withdrawn = True
            self._send_all(None)

    async def _finish(self, winner: int, reason: EndReason) -> None:
        """End the Bummerl away from the table: ``winner`` wins (rated like any win). Stored before it is
        shown: the end (and the stopped clocks) in the web's tables, the game as ``abandoned`` in the
        game store (its record cannot hold such an end)."""
        async with self.lock:
            if self.over:
                return
            now = self.online.clock()
            end = End(winner, reason, now)
            clocks = self.clocks
            if clocks is not None:
                clocks.switch(None, now, moved=False)
            web, times, players = self.hub.store, self.online.times, self.online.players
            rated = self.friend.rated

            def store() -> None:
                if clocks is not None:
                    times.save_clocks(self.id, clocks)
                times.save_end(self.id, end)
                web.store.finish(self.id, "abandoned")
                if rated:
                    players.rate(self.id, winner)

            await self.hub._admin(store)
            self.end = end
            event = self.end_event()
            self.table.events.append(event)
            self.broadcast([event])
        self.send_presence()

    def end_event(self) -> Event:
        """The log's line for an end away from the table."""
        assert self.end is not None
        return Event("game_over", self.end.text(self.names()), None, self.table.deal_number,
                     {"winner": self.end.winner, "reason": self.end.reason})

    def broadcast(self, events: Sequence[Event]) -> None:
        """Both seats as usual; spectators get the events and the public view."""
        super().broadcast(events)
        if not self.watchers:
            return
        frame = self.watch_frame()
        payload = {"type": "events", "events": [event_json(e) for e in events]}
        for send in list(self.watchers):
            if events:
                send(payload)
            send(frame)

    @property
    def idle(self) -> bool:
        """Nobody plays or watches."""
        return super().idle and not self.watchers and not self.chatters

    def say(self, seat: int, text: object) -> dict[str, Any]:
        """A chat message from a player (plain text, one line, at most :data:`MAX_CHAT` characters),
        sent to both players' chat connections; :class:`~bummerl.errors.BummerlError` says why not."""
        if not isinstance(text, str):
            raise BummerlError('a chat message is {"type": "chat", "text": "..."}')
        line = " ".join("".join(c for c in text if c.isprintable() or c.isspace()).split())
        if not line:
            raise BummerlError("the message is empty")
        if len(line) > MAX_CHAT:
            raise BummerlError(f"a chat message is at most {MAX_CHAT} characters")
        message = {"type": "chat", "seat": seat, "name": self.table.name(seat), "text": line}
        self.chat = [*self.chat[-(CHAT_KEPT - 1):], message]
        for send in list(self.chatters):
            send(message)
        return message


class Online:
    """The friend games of a :class:`~bummerl.server.games.GameHub` (it asks :meth:`load` for stored ones)."""

    def __init__(self, hub: GameHub, limits: Limits | None = None, *, away_after: float = AWAY_AFTER,
                 clock: Clock = time.time) -> None:
        self.hub = hub
        self.limits = Limits() if limits is None else limits
        self.players = Players(hub.store)
        #: Seconds a player must have been away before the other may claim the Bummerl; the time (seconds
        #: since the epoch; tests give their own clock); the clocks and ends of friend games.
        self.away_after = away_after
        self.clock = clock
        #: Each friend game's presence (who is away, the stall), kept while the server runs.
        self.presences: dict[str, Presence] = {}
        #: When this server started: a clock left running before it is restarted on load (downtime is free).
        self.started = clock()
        self.times = TimeStore(hub.store)
        self._rematching = asyncio.Lock()
        #: One join at a time: a second join by the same player (two tabs, a double click) must not read
        #: the seat the first took before its token is stored (it answered a seat without a token).
        self._joining = asyncio.Lock()
        hub.load_special = self.load

    def _names(self, friend: FriendGame) -> tuple[str, str]:
        names = []
        for pid in friend.players:
            try:
                player = self.players.by_id(pid) if pid is not None else None
            except StoreError:  # a damaged player row: the game is still shown
                names.append("(damaged player)")
                continue
            names.append(WAITING_NAME if player is None else player.name)
        return names[0], names[1]

    def _live(self, session: PlaySession, friend: FriendGame, names: tuple[str, str]) -> FriendTable:
        # Every taken seat has a token (a new one if its own was sealed with a key since lost).
        tokens = {seat: self.hub.store.token_for(session.id, seat)
                  for seat, holder in enumerate(friend.players) if holder is not None}
        game = FriendTable(session, (SeatSpec(names[0]), SeatSpec(names[1])), tokens, self.hub, self, friend)
        game.clocks = self.times.clocks(game.id)
        game.end = self.times.end(game.id)
        game.withdrawn = not game.started and self.players.withdrawn(game.id)
        if game.end is not None:
            game.table.events.append(game.end_event())
        self.hub.live[game.id] = game
        return game

    async def create(self, host: Player, rules: Rules, *, cards: CardStyle = "french", rated: bool = True,
                     public: bool = False, seed: int | None = None, decks: Sequence[Sequence[int]] = (),
                     limit: bool = True, clock: TimeControl | None = None,
                     spectators: str = "public") -> tuple[FriendTable, str]:
        """A new friend game with ``host`` at seat 0: (the live game, the host's seat token). The
        :class:`~bummerl.server.limits.Limits` on open invitations and games in progress hold (unless
        ``limit`` is off). ``clock``: a clock per player (None: no clocks). ``spectators``: what they see
        (``public`` or ``delayed``, server/spectators.py)."""
        most = self.limits.open_invitations
        if limit and most > 0 and len(self.players.open_invitations(host)) >= most:
            raise LimitReached(f"you have {most} open invitations: wait until a friend takes one")
        if limit:
            check_games_in_progress(self.limits, self.hub.store.query, host.id)
        web = self.hub.store
        seed = secrets.randbits(63) if seed is None else seed  # never guessable from what a player sees
        token = secrets.token_urlsafe(24)

        def make() -> tuple[PlaySession, FriendGame]:
            table = Table(rules, (Seat(host.name), Seat(WAITING_NAME)), seed=seed, decks=decks,
                          card_style=cards)
            stored = web.store.create(rules=rules, level="human", seed=seed, cards=cards,
                                      first_dealer=table.first_dealer, record=table.record(),
                                      decks=table.decks)
            web.set_token(stored.id, 0, token)
            friend = self.players.add_friend_game(stored.id, host, rated=rated, public=public,
                                                  spectators=spectators)
            if clock is not None:
                self.times.save_clocks(stored.id, Clocks.new(clock))
            web.lease(stored.id)
            return PlaySession(stored, table, web.store), friend

        session, friend = await self.hub._admin(make)
        game = self._live(session, friend, (host.name, WAITING_NAME))
        self.hub.put_away(game)  # until somebody opens it: an invitation never opened holds nothing
        return game, token

    async def load(self, game_id: str) -> LiveGame | None:
        """A stored friend game brought back (None: not a friend game)."""
        friend = self.players.friend_game(game_id=game_id)
        if friend is None:
            return None
        names = self._names(friend)
        web = self.hub.store

        def load() -> PlaySession:
            web.lease(game_id)
            try:
                stored = web.store.load(game_id)
                style: CardStyle = "german" if stored.cards == "german" else "french"
                table = Table(stored.rules, (Seat(names[0]), Seat(names[1])), seed=stored.seed,
                              first_dealer=stored.first_dealer, decks=stored.decks, card_style=style)
                table.replay(stored.record)
                clocks = self.times.clocks(game_id)
                if clocks is not None and clocks.resume(self.started, self.clock()):
                    self.times.save_clocks(game_id, clocks)  # no server held it: that time is not charged
                return PlaySession(stored, table, web.store)
            except BaseException:
                web.release(game_id)
                raise

        session = await self.hub._admin(load)
        return self._live(session, friend, names)

    async def join(self, invite: str, player: Player) -> tuple[FriendGame, int | None, str | None]:
        """Open an invitation: (the game, the player's seat or None for a spectator, the seat's token)."""
        async with self._joining:
            return await self._join(invite, player)

    async def _join(self, invite: str, player: Player) -> tuple[FriendGame, int | None, str | None]:
        friend = self.players.friend_game(invite=invite)
        if friend is None:
            raise BummerlError("no such invitation")
        seat = friend.seat_of(player.id)
        if seat is None and friend.players[1] is None and self.players.withdrawn(friend.game_id):
            raise BummerlError(f"{self._names(friend)[0]} has withdrawn this invitation")
        if seat is None and friend.players[1] is None:
            check_games_in_progress(self.limits, self.hub.store.query, player.id)
            seat = await self.hub._admin(self.players.take_seat, friend.game_id, player)
            if seat is not None:  # this call took the free seat: give it a token and a name
                token = secrets.token_urlsafe(24)
                await self.hub._admin(self.hub.store.set_token, friend.game_id, seat, token)
                game = await self.hub.get(friend.game_id)
                if isinstance(game, FriendTable):
                    game.seat_taken(seat, player.name, token)
                    await game.save_clocks()
                    game.friend = self.players.friend_game(game_id=friend.game_id) or friend
                    self.hub.put_away(game)
        friend = self.players.friend_game(game_id=friend.game_id) or friend
        if seat is None:
            return friend, None, None
        return friend, seat, await self.seat_token(friend.game_id, seat)

    async def withdraw(self, invite: str, player: Player) -> None:
        """The host takes back an invitation nobody has taken yet: nobody can take its seat any more, and it
        leaves the lobby, the host's list and the count of their open invitations. Done already: nothing."""
        async with self._joining:  # never while somebody is taking the seat
            friend = self.players.friend_game(invite=invite)
            if friend is None:
                raise BummerlError("no such invitation")
            if friend.players[0] != player.id:
                raise BummerlError("only the player who made an invitation may withdraw it")
            if friend.players[1] is not None:
                raise BummerlError(f"{self._names(friend)[1]} has taken the seat: the Bummerl has begun "
                                   "(you may resign it on the game's page)")
            game = await self.hub.get(friend.game_id)
            try:
                if isinstance(game, FriendTable):
                    await game.withdraw()
            finally:
                self.hub.put_away(game)  # (brought back just for this, unless its page is open)

    async def seat_token(self, game_id: str, seat: int) -> str:
        """A taken seat's token, for its player (a new one if its own cannot be opened: the live game hears
        of it)."""
        token: str = await self.hub._admin(self.hub.store.token_for, game_id, seat)
        live = self.hub.live.get(game_id)
        if live is not None:
            live.tokens[seat] = token
        return token


    async def rematch(self, invite: str, player: Player) -> tuple[FriendGame, int, str | None]:
        """The rematch of a finished friend game, with the seats swapped (made by whichever of the two asks
        first; the other gets their seat in the same game): (the new game, the player's seat, its token)."""
        friend = self.players.friend_game(invite=invite)
        if friend is None:
            raise BummerlError("no such invitation")
        if friend.seat_of(player.id) is None or None in friend.players:
            raise BummerlError("only the two players of a game may ask for its rematch")
        async with self._rematching:
            friend = self.players.friend_game(game_id=friend.game_id) or friend
            if friend.rematch is None:
                stored = await self.hub._admin(self.hub.store.store.load, friend.game_id)
                if stored.state != "finished" and self.times.end(friend.game_id) is None:
                    raise BummerlError("the rematch is offered once the Bummerl is over")
                first, second = (self.players.by_id(pid or "") for pid in reversed(friend.players))
                if first is None or second is None:
                    raise BummerlError("a player of this game is gone")
                style: CardStyle = "german" if stored.cards == "german" else "french"
                old_clocks = self.times.clocks(friend.game_id)
                # Both seats are taken below: if either player may not take one, make nothing.
                for seated in (first, second):
                    check_games_in_progress(self.limits, self.hub.store.query, seated.id)
                game, _ = await self.create(first, stored.rules, cards=style, rated=friend.rated, limit=False,
                                            clock=None if old_clocks is None else old_clocks.control,
                                            spectators=friend.spectators)
                # Nobody may claim the Bummerl from the player who did not ask, nor run their clock, before
                # they open the game: recorded before the seats are both taken, so their clock never starts.
                unasked = 0 if first.id != player.id else 1
                await self.hub._admin(self.players.set_unopened, game.id, unasked)
                game.presence.opened = [s != unasked for s in (0, 1)]  # (as the store now says)
                await self.join(game.friend.invite, second)
                await self.hub._admin(self.players.set_rematch, friend.game_id, game.id)
                live = self.hub.live.get(game.id)
                if isinstance(live, FriendTable):  # (loaded by the join above, before the link was written)
                    live.rematch = True
                friend = self.players.friend_game(game_id=friend.game_id) or friend
                old = self.hub.live.get(friend.game_id)  # the finished game's pages hear of the offer
                if isinstance(old, FriendTable):
                    for listener in list(old.listeners):
                        listener.send({"type": "rematch", "by": player.name})
        assert friend.rematch is not None
        new = self.players.friend_game(game_id=friend.rematch)
        seat = None if new is None else new.seat_of(player.id)
        if new is None or seat is None:  # (the rematch this code made seats both players)
            raise StoreError(f"the rematch of game {shown_id(friend.game_id)} is damaged")
        return new, seat, await self.seat_token(new.game_id, seat)


# ----------------------------------------------------------------------------- the HTTP and WebSocket API


def _error(reason: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BummerlError(f"the body is too large (at most {MAX_BODY} bytes)")
    value = read_body(raw)
    if not isinstance(value, dict):
        raise BummerlError("the body must be a JSON object")
    return value


def online_routes(online: Callable[[], Online]) -> list[BaseRoute]:
    """The routes of online play; ``online()`` gives the running server's :class:`Online`."""

    def hub() -> GameHub:
        return online().hub

    def player_of(request: Request) -> Player | None:
        return online().players.by_key(request.headers.get(KEY_HEADER, ""))

    def seat_answer(request: Request, friend: FriendGame, seat: int | None,
                    token: str | None) -> dict[str, Any]:
        base = str(request.base_url).rstrip("/")
        names = online()._names(friend)
        answer: dict[str, Any] = {"id": friend.game_id, "invite": friend.invite,
                                  "link": f"{base}/friend/{friend.invite}", "players": list(names),
                                  "rated": friend.rated, "seat": seat, "clock": clock_of(friend.game_id),
                                  "spectators": friend.spectators}
        if seat is not None and token is not None:
            answer["token"] = token
            answer["url"] = f"{base}/play/{friend.game_id}#token={token}"
        return answer

    def clock_of(game_id: str) -> str | None:
        clocks = online().times.clocks(game_id)
        return None if clocks is None else str(clocks.control)

    async def register(request: Request) -> Response:
        try:
            body = await _body(request)
            player, key = await hub()._admin(online().players.register, body.get("name"))
        except BummerlError as err:
            return _error(str(err), 409 if "taken" in str(err) else 400)
        return JSONResponse({**player.to_json(), "key": key}, status_code=201)

    async def me(request: Request) -> Response:
        player = player_of(request)  # a damaged row: the app's StoreError handler's 409, never a 401
        if player is None:
            return _error("unknown player key", 401)
        return JSONResponse(await run_in_threadpool(player_page, player, request))  # replays their games

    def player_page(player: Player, request: Request) -> dict[str, Any]:
        games = []
        for friend in online().players.games_of(player):
            seat = friend.seat_of(player.id)
            state = updated = ended = None
            names = online()._names(friend)
            if seat is not None:
                try:
                    summary = hub().store.store.load(friend.game_id).summary()
                    state, updated = summary["state"], summary["updated"]
                    end = online().times.end(friend.game_id)
                    ended = None if end is None else end.to_json(names)
                except StoreError:  # one damaged (or busy) game must not hide the others: listed as such
                    state = "damaged"
            games.append({"id": friend.game_id, "seat": seat, "players": list(names), "ended": ended,
                          "rated": friend.rated, "state": state, "updated": updated, "invite": friend.invite,
                          "waiting": None in friend.players,  # a seat nobody has taken yet
                          "link": f"{str(request.base_url).rstrip('/')}/friend/{friend.invite}"})
        return {**player.to_json(), "friend_games": games}

    async def public_player(request: Request) -> Response:
        player = online().players.by_name(request.path_params["name"])
        if player is None:
            return _error("no such player", 404)
        return JSONResponse(player.to_json())

    async def new_friend_game(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return _error("choose a name first (unknown player key)", 401)
        try:
            body = await _body(request)
            extra = sorted(set(body) - {"rules", "cards", "rated", "public", "clock", "spectators"})
            if extra:
                raise BummerlError(f"unknown field {extra[0]!r} "
                                   "(fields: cards, clock, public, rated, rules, spectators)")
            rules = Rules.from_json(body.get("rules", "standard"))
            cards = body.get("cards", "french")
            if cards not in ("french", "german"):
                raise BummerlError(f"cards must be \"french\" or \"german\", not {cards!r}")
            rated, public = body.get("rated", True), body.get("public", False)
            if not isinstance(rated, bool) or not isinstance(public, bool):
                raise BummerlError("rated and public must be true or false")
            clock = TimeControl.parse(body.get("clock"))
            spectators = check_spectators(body.get("spectators", "public"))
            game, token = await online().create(player, rules, cards=cards, rated=rated, public=public,
                                                clock=clock, spectators=spectators)
        except LimitReached as err:
            return _error(str(err), 429)
        except BummerlError as err:
            return _error(str(err))
        return JSONResponse(seat_answer(request, game.friend, 0, token), status_code=201)

    async def join(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return _error("choose a name first (unknown player key)", 401)
        try:
            friend, seat, token = await online().join(request.path_params["invite"], player)
        except LimitReached as err:
            return _error(str(err), 429)
        except StoreError as err:
            return _error(str(err), 409)
        except BummerlError as err:
            return _error(str(err), 404)
        return JSONResponse(seat_answer(request, friend, seat, token))

    async def rematch(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return _error("choose a name first (unknown player key)", 401)
        try:
            friend, seat, token = await online().rematch(request.path_params["invite"], player)
        except LimitReached as err:
            return _error(str(err), 429)
        except StoreError as err:
            return _error(str(err), 409)
        except BummerlError as err:
            return _error(str(err), 404 if "no such" in str(err) else 400)
        return JSONResponse(seat_answer(request, friend, seat, token))

    async def has_chat(request: Request) -> Response:
        friend = online().players.friend_game(game_id=request.path_params["game_id"])
        return JSONResponse({"chat": friend is not None})

    async def friend_table(ws: WebSocket, game_id: str) -> FriendTable | None:
        """The live table of a friend game for a socket about to open, or None when the socket has been
        refused: no friend game (:data:`REFUSED`), or one that cannot be loaded now (one ``error``,
        :data:`UNAVAILABLE`)."""
        try:
            game = await hub().get(game_id)
        except StoreError as err:  # damaged or busy
            await refuse_unavailable(ws, err)
            return None
        if not isinstance(game, FriendTable):
            await ws.close(code=REFUSED)
            return None
        return game

    async def chat(ws: WebSocket) -> None:
        game_id = ws.path_params["game_id"]
        friend = online().players.friend_game(game_id=game_id)
        token = ws.query_params.get("token", "")
        seat = hub().store.seat_for(game_id, token) if friend is not None and token else None
        if seat is None:
            await ws.close(code=REFUSED)
            return
        game = await friend_table(ws, game_id)
        if game is None:
            return
        await ws.accept()
        limit = online().limits.chat()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(200)

        def send(message: dict[str, Any]) -> None:
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(message)

        try:
            game = await hub().enter(game)  # the game the hub holds (it may have been put away meanwhile)
        except StoreError as err:
            await refuse_unavailable(ws, err)
            return
        game.chatters.append(send)
        send({"type": "chat_log", "messages": list(game.chat)})

        async def write() -> None:
            while True:
                await ws.send_json(await queue.get())

        writer = asyncio.create_task(write())
        try:
            while (raw := await ws.receive())["type"] != "websocket.disconnect":
                text = raw.get("text") or ""
                if not limit.allow():
                    if limit.refused_since_allowed == 1:
                        send(error_message(f"too many chat messages: at most {limit.burst} at once"))
                    continue
                try:
                    if raw.get("text") is None:
                        raise BummerlError('a chat message is a text frame: {"type": "chat", "text": "..."}')
                    if len(text) > 4 * MAX_CHAT:
                        raise BummerlError(f"a chat message is at most {MAX_CHAT} characters")
                    value = jsonio.loads(text)
                    if not isinstance(value, dict) or value.get("type") != "chat":
                        raise BummerlError('a chat message is {"type": "chat", "text": "..."}')
                    game.say(seat, value.get("text"))
                except jsonio.InputError:
                    send(error_message("message is not JSON"))
                except BummerlError as err:
                    send(error_message(str(err), "chat"))
        except WebSocketDisconnect:
            pass
        finally:
            with contextlib.suppress(ValueError):
                game.chatters.remove(send)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
            hub().put_away(game)

    async def claim(request: Request) -> Response:
        return await seat_call(request, FriendTable.claim)

    async def resign(request: Request) -> Response:
        return await seat_call(request, FriendTable.resign)

    async def withdraw(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return _error("choose a name first (unknown player key)", 401)
        try:
            await online().withdraw(request.path_params["invite"], player)
        except StoreError as err:
            return _error(str(err), 409)
        except BummerlError as err:
            why = str(err)
            return _error(why, 404 if why.startswith("no such") else 403 if why.startswith("only") else 409)
        return JSONResponse({"withdrawn": True})

    async def seat_call(request: Request, call: Callable[[FriendTable, int], Awaitable[End]]) -> Response:
        """A seat's call about the whole Bummerl (claim it, resign it): ``{"token"}`` in, the end out."""
        game_id = request.path_params["game_id"]
        try:
            body = await _body(request)
        except BummerlError as err:
            return _error(str(err))  # a bad request, as on every other route
        try:
            token = body.get("token")
            seat = (hub().store.seat_for(game_id, token) if isinstance(token, str) and token
                    and online().players.friend_game(game_id=game_id) is not None else None)
            if seat is None:
                return _error("no such game", 404)
            game = await hub().get(game_id)
            if not isinstance(game, FriendTable):
                return _error("no such game", 404)
            try:
                end = await call(game, seat)
            finally:
                hub().put_away(game)  # brought back just for this call (nobody here): let it go again
        except StoreError as err:
            return _error(str(err), 409)
        except BummerlError as err:
            return _error(str(err), 409)
        return JSONResponse(end.to_json(game.names()))

    async def lobby(request: Request) -> Response:
        return JSONResponse({"invitations": await run_in_threadpool(lobby_rows, request)})

    def lobby_rows(request: Request) -> list[dict[str, Any]]:
        """The open invitations (each game is read from the store: off the event loop)."""
        base = str(request.base_url).rstrip("/")
        rows = []
        for friend in online().players.open_invitations():
            try:  # a damaged invitation (or its host's row) is left out; the others are listed
                host = online().players.by_id(friend.players[0] or "")
                if host is None:
                    continue
                stored = hub().store.store.load(friend.game_id)
            except StoreError:
                continue
            rows.append({"host": host.to_json(), "rules": stored.rules.to_json(),
                         "rules_text": stored.rules.describe(), "cards": stored.cards, "rated": friend.rated,
                         "clock": clock_of(friend.game_id), "link": f"{base}/friend/{friend.invite}"})
        return rows

    async def watch(ws: WebSocket) -> None:
        friend = online().players.friend_game(invite=ws.path_params["invite"])
        if friend is None:
            await ws.close(code=REFUSED)
            return
        game = await friend_table(ws, friend.game_id)
        if game is None:
            return
        await ws.accept()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(500)

        def send(message: dict[str, Any]) -> None:
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(message)

        async def watching(table: FriendTable) -> None:
            async with table.lock:
                if not hub().holds(table):
                    raise GameGone(f"game {table.id} was put away")
                table.watchers.append(send)
                send(table.log_message())
                send(table.watch_frame())
                send(watch_message(friend.game_id, friend.spectators))  # what the players agreed to

        try:  # the game the hub holds (it may have been put away while this socket opened)
            game = await hub().attach(game, watching)
        except StoreError as err:
            await refuse_unavailable(ws, err)
            return

        async def write() -> None:
            while True:
                await ws.send_json(await queue.get())

        writer = asyncio.create_task(write())
        try:
            limit = online().limits.messages()  # a flood gets one error (server/limits.py)
            while (await ws.receive())["type"] != "websocket.disconnect":
                if limit.allow():
                    send(error_message("spectators only watch"))
                elif limit.refused_since_allowed == 1:
                    send(error_message(f"too many messages: at most {limit.rate:g} a second"))
        except WebSocketDisconnect:
            pass
        finally:
            with contextlib.suppress(ValueError):
                game.watchers.remove(send)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
            hub().put_away(game)

    return [
        Route("/api/players", register, methods=["POST"]),
        Route("/api/players/me", me),
        Route("/api/players/{name}", public_player),
        Route("/api/friends", new_friend_game, methods=["POST"]),
        Route("/api/friends/{invite}/join", join, methods=["POST"]),
        Route("/api/friends/{invite}/rematch", rematch, methods=["POST"]),
        Route("/api/lobby", lobby),
        Route("/api/friends/{invite}/withdraw", withdraw, methods=["POST"]),
        Route("/api/games/{game_id}/claim", claim, methods=["POST"]),
        Route("/api/games/{game_id}/resign", resign, methods=["POST"]),
        WebSocketRoute("/ws/watch/{invite}", watch),
        Route("/api/chat/{game_id}", has_chat),
        WebSocketRoute("/ws/chat/{game_id}", chat),
    ]
