"""A live game between two people (issue 14): play waits until both seats are taken; spectators watch its
public view; the two players chat; who is away, the stalls and the clocks decide when a Bummerl may be claimed
or is lost on time; a rated game is rated when it ends. :class:`~bummerl.server.online.Online` makes and
brings back these tables; server/presence.py holds the values they keep (absence, clocks, ends).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bummerl.errors import BummerlError
from bummerl.server.games import GameHub, Listener, LiveGame, SeatSpec
from bummerl.server.players import FriendGame, Players
from bummerl.server.presence import LEAST_STALL, STALLED_AFTER, Clocks, End, EndReason, Presence, TimeStore
from bummerl.server.protocol import event_json
from bummerl.session import PlaySession
from bummerl.store import StoreError
from bummerl.table import Event, IllegalMove, Table

__all__ = ["CHAT_KEPT", "MAX_CHAT", "TICK", "FriendTable", "Host", "public_view"]

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


class Host(Protocol):
    """What a friend table asks of the server that keeps it (:class:`~bummerl.server.online.Online`): its
    clock and absence time, the players and the web's clocks and ends, the presences kept across put-aways,
    and how an end away from the table is settled."""

    clock: Callable[[], float]
    away_after: float
    players: Players
    times: TimeStore
    presences: dict[str, Presence]

    def settle_end(self, game_id: str, end: End) -> None: ...


class FriendTable(LiveGame):
    """A live game between two people: play waits until both seats are taken; spectators watch; a rated
    game is rated when it ends."""

    def __init__(self, session: PlaySession, seats: tuple[SeatSpec, SeatSpec], tokens: dict[int, str],
                 hub: GameHub, online: Host, friend: FriendGame) -> None:
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
                await self.hub.run_admin(self.online.players.rate, self.id, winner)

    # ------------------------------------------------------------------ absence and clocks

    @property
    def started(self) -> bool:
        """True once both seats are taken."""
        return 0 in self.tokens and 1 in self.tokens

    @property
    def played(self) -> bool:
        """True once the Bummerl's first action was taken (an end away from the table before it is not
        rated: :meth:`Host.settle_end`)."""
        return bool(self.table.game.finished or self.table.game.deal.history)

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
            await self.hub.run_admin(self.online.times.save_clocks, self.id, clocks)

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
        # Whether an end now (a resign, a claim, a clock) would move the ratings: not before the first action.
        message["counts_in_ratings"] = self.friend.rated and self.played
        message["invite"] = self.friend.invite  # (its two players know it): the page asks for the rematch
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
            await self.hub.run_admin(self.online.players.set_unopened, self.id, None)
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
            if self.withdrawn:
                raise BummerlError("the invitation was withdrawn: there is no Bummerl to resign")
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
            await self.hub.run_admin(self.hub.store.store.finish, self.id, "abandoned")
            self.withdrawn = True
            self._send_all(None)

    async def _finish(self, winner: int, reason: EndReason) -> None:
        """End the Bummerl away from the table: ``winner`` wins. Stored before it is shown: the end (and the
        stopped clocks) in the web's tables; then :meth:`Host.settle_end` marks the game and rates it."""
        async with self.lock:
            if self.over:
                return
            now = self.online.clock()
            end = End(winner, reason, now)
            clocks = self.clocks
            if clocks is not None:
                clocks.switch(None, now, moved=False)
            times = self.online.times

            def store() -> None:
                if clocks is not None:
                    times.save_clocks(self.id, clocks)
                times.save_end(self.id, end)

            await self.hub.run_admin(store)  # once the end is stored, the Bummerl is over: nobody plays on
            self.end = end
            event = self.end_event()
            self.table.events.append(event)
            self.broadcast([event])
        with contextlib.suppress(StoreError):  # (not now: the next time the game is brought back)
            await self.hub.run_admin(self.online.settle_end, self.id, end)
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
