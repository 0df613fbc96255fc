"""Games being played on the server: who sits where, who is listening, and the turn order.

A :class:`LiveGame` is one stored game brought to life: its :class:`~bummerl.table.Table` (through the
front-end-neutral play session, which commits every action to the game store before it is shown), a
token per human seat, and the connections listening at each seat. A human's ``act`` is checked by the
table (the engine decides), stored, and answered with ``events`` + ``view`` to every listener of both
seats, each getting only its own view; then, if the computer is to move, it thinks in the
:class:`~bummerl.server.thinker.Thinker`'s worker processes while the event loop serves everyone else.

The :class:`GameHub` holds the live games, creates new ones and brings stored ones back (after a reload or
a server restart the game continues exactly where it was: the store has every action).

Seats are general: each is a human (with a token) or a computer level, so a game between two people only
needs two human seats.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sys
import weakref
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from bummerl.errors import BummerlError
from bummerl.records import GameRecord
from bummerl.rules import Rules
from bummerl.server.protocol import NEXT, ClientMessage, error_message, event_json, view_message
from bummerl.server.thinker import PRIORITY, Thinker
from bummerl.server.web_store import WebStore
from bummerl.session import PlaySession
from bummerl.store import Appended, StoreError
from bummerl.table import CardStyle, Event, IllegalMove

__all__ = ["LEVELS", "GameGone", "GameHub", "GameUnavailable", "Listener", "LiveGame", "SeatSpec"]

_log = logging.getLogger(__name__)

#: The computer levels a new web game may be played against (a resumed terminal game may also name
#: ``random``).
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
#: Worlds sampled for the ``?`` analysis and per decision in the end-of-game review.
ANALYSIS_SAMPLES = 100
REVIEW_SAMPLES = 24
#: The interpreter's switch interval while a server runs (seconds): how long the committing thread may wait
#: for the GIL while the event loop is busy, per SQLite statement.
SWITCH_INTERVAL = 0.0005
#: Seconds between two tries to store a game whose last save failed (a full disk, a locked file).
RETRY_SAVES = 5.0

T = TypeVar("T")

#: Sends one message to one client; must not block (it queues).
Send = Callable[[dict[str, Any]], None]


class GameUnavailable(BummerlError):
    """No such game, or a wrong token: the client gets nothing (the same answer for both)."""


#: A live game's own type (a friend's table stays one when it is brought back).
_Game = TypeVar("_Game", bound="LiveGame")


class GameGone(BummerlError):
    """The hub put this live game away before the connection joined it: get the game again."""


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat: a human (``level`` None) or the computer at a level."""

    name: str
    level: str | None = None

    @property
    def is_human(self) -> bool:
        """True when a person plays this seat."""
        return self.level is None

    def to_json(self) -> dict[str, Any]:
        """``{"name", "kind"}`` (+ ``"level"`` for the computer)."""
        if self.level is None:
            return {"name": self.name, "kind": "human"}
        return {"name": self.name, "kind": "computer", "level": self.level}


@dataclass(eq=False)
class Listener:
    """One open connection at a seat: ``send`` queues a message for it."""

    seat: int
    send: Send


class LiveGame:
    """One game being played: its session (table + store), seats, tokens and listeners."""

    def __init__(self, session: PlaySession, seats: tuple[SeatSpec, SeatSpec], tokens: dict[int, str],
                 hub: GameHub) -> None:
        self.id = session.id
        self.session = session
        self.table = session.table
        self.seats = seats
        self.seed = session.seed
        self.tokens = tokens
        self.hub = hub
        self.listeners: list[Listener] = []
        self.lock = asyncio.Lock()
        self.thinking = False
        self._task: asyncio.Task[None] | None = None
        #: Seats with an analysis or review being worked out: one at a time each (the thinker also bounds
        #: the questions of all games at once, and the app those of one client address).
        self._asking: set[int] = set()

    # ------------------------------------------------------------------ who is who

    def players(self) -> list[dict[str, Any]]:
        """The seats as JSON."""
        return [s.to_json() for s in self.seats]

    # ------------------------------------------------------------------ messages

    def view_for(self, seat: int) -> dict[str, Any]:
        """The ``view`` message of one seat now."""
        return view_message(self.table, seat, thinking=self.thinking, players=self.players(), game_id=self.id)

    async def join(self, listener: Listener) -> None:
        """A connection opens at a seat: it gets the whole event log, then its view (never between an
        action and its commit: the state it is shown is stored)."""
        async with self.lock:
            if not self.hub.holds(self):
                raise GameGone(f"game {self.id} was put away")
            self.listeners.append(listener)
            listener.send(self.log_message())
            listener.send(self.view_for(listener.seat))

    def leave(self, listener: Listener) -> None:
        """A connection closed; once nobody is here and the computer is not thinking, the game is put
        away (the store has it) and may be played in the terminal."""
        with contextlib.suppress(ValueError):
            self.listeners.remove(listener)
        self.hub.put_away(self)

    @property
    def idle(self) -> bool:
        """True when nobody listens, the computer is not thinking and every move is stored (a game whose
        last save failed stays in memory, and the hub retries it, so no answered move is lost)."""
        return (not self.listeners and (self._task is None or self._task.done())
                and self.session.save_error is None)

    def broadcast(self, events: Sequence[Event]) -> None:
        """Send the events and each listener's own view to every listener."""
        self._send_all({"type": "events", "events": [event_json(e) for e in events]} if events else None)

    def broadcast_log(self) -> None:
        """Send the whole event log again (``replay``: it replaces the one shown; a line of it changed), and
        each listener's own view, to every listener."""
        self._send_all(self.log_message())

    def log_message(self) -> dict[str, Any]:
        """The whole event log as one ``events`` message (``replay``: it replaces any log shown)."""
        return {"type": "events", "events": [event_json(e) for e in self.table.events], "replay": True}

    def _send_all(self, payload: dict[str, Any] | None) -> None:
        views: dict[int, dict[str, Any]] = {}
        for listener in list(self.listeners):
            if listener.seat not in views:
                views[listener.seat] = self.view_for(listener.seat)
            if payload is not None:
                listener.send(payload)
            listener.send(views[listener.seat])

    # ------------------------------------------------------------------ acting

    async def handle(self, seat: int, message: ClientMessage, reply: Send, asker: str = "") -> None:
        """A client message from ``seat`` (at address ``asker``): an action, a request for the analysis or
        the review, or a ping. Anything wrong is answered with an ``error`` to that client alone and
        changes nothing."""
        try:
            if message.type == "ping":  # the page checks that its connection still reaches the server
                reply({"type": "pong"})
            elif message.type == "act":
                await self.act(seat, message.action)
            elif message.type in ("analyse", "review"):
                if seat in self._asking:
                    raise IllegalMove("wait for the answer to your last question")
                self._asking.add(seat)
                try:
                    reply(await (self.analyse(seat, asker) if message.type == "analyse"
                                 else self.review(seat, asker)))
                finally:
                    self._asking.discard(seat)
        except BummerlError as err:
            reply(error_message(str(err), message.type))

    async def act(self, seat: int, action: str) -> None:
        """Apply a seat's action (or ``next`` between deals), store it and tell everyone; then let the
        computer move if it is its turn. Raises :class:`~bummerl.table.IllegalMove` with the reason."""
        if not self.seats[seat].is_human:
            raise IllegalMove("this seat is played by the computer")
        async with self.lock:
            if self.thinking:
                raise IllegalMove(f"wait: it is {self.table.name(1 - seat)}'s turn")
            table = self.table
            events = table.next_deal() if action == NEXT else table.act(seat, action)
            events += await self.hub.committer.commit(self.session)
            await self.stored()
            self.broadcast(events)
        self.kick()

    async def stored(self) -> None:
        """Called after a human's action is stored and before it is shown (a game between two people
        rates itself here once it is over: server/online.py)."""

    async def saved(self) -> None:
        """Called when a retry stored the moves a failed save had left (a game between two people that
        ended meanwhile is rated then)."""

    def kick(self) -> None:
        """Start the computer's turn if it is to move and not already thinking."""
        seat = self.table.waiting_for
        if seat is None or self.seats[seat].is_human or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.create_task(self._computer_turns())
        # Once the computer has moved and nobody is here (they left while it thought, or never came),
        # the game is put away: only a finished task makes the game idle.
        self._task.add_done_callback(lambda _: self.hub.put_away(self))

    async def _computer_turns(self) -> None:
        while True:
            seat = self.table.waiting_for
            if seat is None or self.seats[seat].is_human:
                return
            level = self.seats[seat].level
            assert level is not None
            view = self.table.view(seat)
            self.thinking = True
            try:
                action = await self.hub.thinker.decide(level, self.seed, view)
            except Exception as err:  # a worker that died must not end the game: report and stop
                self.thinking = False
                if self.hub.thinker.closed:
                    return  # the server is stopping (Ctrl-C): the workers were stopped, nothing failed
                # server.logs takes any card or token out of the message and the traceback
                _log.error("game %s: the computer (%s) failed to move", self.id, level, exc_info=err)
                for listener in list(self.listeners):
                    listener.send(error_message(f"the computer failed to move ({type(err).__name__}); "
                                                "reload the page to try again"))
                return
            async with self.lock:
                self.thinking = False
                events = self.table.act(seat, action)
                events += await self.hub.committer.commit(self.session)
                self.broadcast(events)

    async def analyse(self, seat: int, asker: str = "") -> dict[str, Any]:
        """The ``?`` analysis of ``seat``'s position (its own view only), asked from address ``asker``."""
        view = self.table.view(seat)
        if self.table.waiting_for != seat or not view.legal_actions:
            raise IllegalMove("the analysis is for your turn")
        from bummerl.server.thinker import analyse_view

        result = await self.hub.thinker.ask(analyse_view, view, self.hub.analysis_samples, asker=asker)
        return {"type": "analysis", "deal_number": self.table.deal_number,
                "history": view.history_length, **result}

    async def review(self, seat: int, asker: str = "") -> dict[str, Any]:
        """The end-of-game review of ``seat``'s choices (only once the Bummerl is over), asked from
        address ``asker``."""
        if self.table.phase != "game_over":
            raise IllegalMove("the review is ready once the Bummerl is over")
        from bummerl.server.thinker import review_decisions

        decisions = list(self.table.decisions(seat))
        mistakes = await self.hub.thinker.ask(review_decisions, decisions, self.hub.review_samples,
                                              priority=PRIORITY["review"], asker=asker)
        return {"type": "review", "decisions": len(decisions), "mistakes": mistakes}


class Committer:
    """Group commit: every action is stored before its view is shown, and the actions of all games that
    moved while the last disk sync ran are stored together in the next one (one transaction, one sync),
    in the committing thread, so the event loop keeps serving meanwhile.

    A game's first commit checks the whole record against the store (:meth:`~bummerl.store.GameStore.
    sync_many`); after that the committer knows what is stored of it and sends only what is new
    (:meth:`~bummerl.store.GameStore.append_many`: a few statements for the whole batch, so the thread,
    which takes the GIL back from the busy event loop after every statement, is done sooner). Any error
    and the batch is stored game by game with the full check.

    :meth:`commit` answers the events to add to the log: none, or a ``save_failed`` / ``saved`` note as
    :class:`~bummerl.session.PlaySession` gives them (the table moves on; the next save catches up).
    """

    def __init__(self, store: WebStore) -> None:
        self.store = store
        #: The committing thread takes the GIL back after each statement; from a busy event loop the
        #: interpreter hands it over only every "switch interval" (5 ms by default): shortened while the
        #: committer runs (restored by :meth:`close`).
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._switch_interval, SWITCH_INTERVAL))
        self._pending: list[tuple[PlaySession, GameRecord, asyncio.Future[str | None]]] = []
        self._flushing: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="bummerl-commit")
        #: What is stored of a session's game (deals, actions of the last deal), once a commit told.
        self._stored: weakref.WeakKeyDictionary[PlaySession, tuple[int, int]] = weakref.WeakKeyDictionary()

    async def commit(self, session: PlaySession) -> list[Event]:
        """Store the session's game as it stands (waits for the disk)."""
        future: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._pending.append((session, session.table.record(), future))
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.create_task(self._flush())
        error = await future
        table = session.table
        note = None
        if error is not None and session.save_error is None:
            note = Event("save_failed", f"The game could not be saved: {error}", None, table.deal_number)
        elif error is None and session.save_error is not None:
            note = Event("saved", "The game is saved again (every move so far)", None, table.deal_number)
        session.save_error = error
        if note is None:
            return []
        table.events.append(note)
        return [note]

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            batch, self._pending = self._pending, []
            latest = {session: record for session, record, _ in batch}  # a later record holds an earlier
            errors = dict.fromkeys(latest, None)
            try:
                known = self._stored
                parts = [Appended.of(s.id, r, known[s]) for s, r in latest.items() if s in known]
                whole = [(s.id, r) for s, r in latest.items() if s not in known]
                await loop.run_in_executor(self._thread, self._store_batch, parts, whole)
            except StoreError:  # one game's trouble must not fail the others: one by one, fully checked
                for session, record in latest.items():
                    try:
                        await loop.run_in_executor(self._thread, self.store.store.sync, session.id, record)
                    except StoreError as err:
                        errors[session] = str(err)
                        self._stored.pop(session, None)
            for session, record in latest.items():
                if errors[session] is None:
                    self._stored[session] = (len(record.deals), len(record.deals[-1].actions))
            for session, _, future in batch:
                if not future.done():
                    future.set_result(errors[session])

    def _store_batch(self, parts: list[Appended], whole: list[tuple[str, GameRecord]]) -> None:
        store = self.store.store
        if whole:
            store.sync_many(whole)  # (its own transaction: the new parts' one follows)
        store.append_many(parts)

    def close(self) -> None:
        """Wait for the last commit."""
        self._thread.shutdown(wait=True)
        sys.setswitchinterval(self._switch_interval)


class GameHub:
    """The server's games: creates them, keeps the live ones, brings stored ones back on demand."""

    def __init__(self, store: WebStore, thinker: Thinker, *, analysis_samples: int = ANALYSIS_SAMPLES,
                 review_samples: int = REVIEW_SAMPLES) -> None:
        self.store = store
        self.thinker = thinker
        self.analysis_samples = analysis_samples
        self.review_samples = review_samples
        self.live: dict[str, LiveGame] = {}
        self.committer = Committer(store)
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        self._admin_thread = ThreadPoolExecutor(1, thread_name_prefix="bummerl-store")
        self._closing = False
        #: Brings back a stored game that is not against the computer (None: not such a game); set by
        #: server/online.py for games between two people.
        self.load_special: Callable[[str], Awaitable[LiveGame | None]] | None = None

    async def run_admin(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store call (a commit: creating, leasing, releasing) in the one admin thread, in order, so
        the event loop never waits for the disk and a release never overtakes a later lease."""
        return await asyncio.get_running_loop().run_in_executor(self._admin_thread, fn, *args)

    async def create(self, rules: Rules, level: str, *, seed: int | None = None, cards: CardStyle = "french",
                     first_dealer: int | None = None,
                     decks: Sequence[Sequence[int]] = ()) -> tuple[LiveGame, int]:
        """A new game of a human (seat 0) against the computer at ``level``: (the game, the human's seat)."""
        if level not in LEVELS:
            raise BummerlError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
        if seed is None:
            seed = secrets.randbits(63)  # never found by trying every seed against the cards one saw
        token = secrets.token_urlsafe(24)

        def make() -> PlaySession:
            session = self.store.create(rules, level=level, seed=seed, cards=cards, first_dealer=first_dealer,
                                        decks=decks)
            self.store.set_token(session.id, 0, token)
            self.store.lease(session.id)
            return session

        session = await self.run_admin(make)
        game = LiveGame(session, _seats(session.level), {0: token}, self)
        self.live[game.id] = game
        game.kick()
        self.put_away(game)  # until somebody opens it (unless the computer is thinking: then after that)
        return game, 0

    async def get(self, game_id: str) -> LiveGame:
        """The live game with this id, brought back from the store if needed (and held for the web:
        :class:`~bummerl.store.GameBusy` when the terminal game has it open)."""
        game = self.live.get(game_id)
        if game is not None:
            return game
        loading = self._loading.get(game_id)
        if loading is None:
            loading = self._loading[game_id] = asyncio.ensure_future(self._load(game_id))
            loading.add_done_callback(lambda _: self._loading.pop(game_id, None))
        return await asyncio.shield(loading)

    async def _load(self, game_id: str) -> LiveGame:
        if self.load_special is not None and (special := await self.load_special(game_id)) is not None:
            return special
        def load() -> tuple[PlaySession, dict[int, str]]:
            self.store.lease(game_id)
            try:
                return self.store.resume(game_id), self.store.tokens(game_id)
            except BaseException:
                self.store.release(game_id)
                raise

        session, tokens = await self.run_admin(load)
        game = LiveGame(session, _seats(session.level), tokens, self)
        self.live[game_id] = game
        return game

    async def open_seat(self, game_id: str, token: str) -> tuple[LiveGame, int]:
        """The game and seat a token opens; :class:`GameUnavailable` for a wrong token or game (the same
        answer for both, so a token cannot be guessed game by game)."""
        seat = self.store.seat_for(game_id, token) if token else None
        if seat is None:
            raise GameUnavailable("no such game")
        return await self.get(game_id), seat

    def holds(self, game: LiveGame) -> bool:
        """True while ``game`` is the live game of its id (not put away)."""
        return self.live.get(game.id) is game

    async def enter(self, game: _Game) -> _Game:
        """``game`` if the hub still holds it, else the game brought back again. Call it right before a
        connection attaches to a game it got earlier, with no await in between: while a connection opens
        (an await), the last one elsewhere may close and the game be put away, and a connection attached
        to a game the hub let go would play on a table nobody saves (and see cards ahead of the real
        game)."""
        while not self.holds(game):
            again = await self.get(game.id)
            if not isinstance(again, type(game)):
                raise GameGone(f"game {game.id} was put away")
            game = again
        return game

    async def attach(self, game: _Game, how: Callable[[_Game], Awaitable[None]]) -> _Game:
        """Attach a connection to ``game`` by ``how(game)`` (e.g. ``lambda g: g.join(listener)``), after
        :meth:`enter`: the live game it was attached to. ``how`` raises :class:`GameGone` when the game
        was put away while it waited for the game's lock; then it is brought back and tried again."""
        while True:
            game = await self.enter(game)
            try:
                await how(game)
                return game
            except GameGone:
                continue

    async def save_unsaved(self) -> list[tuple[str, str]]:
        """Try again to store every live game whose last save failed; tell its players when it worked and
        put it away if nobody plays it. The games still unsaved: (id, why)."""
        left = []
        for game in [g for g in self.live.values() if g.session.save_error is not None]:
            async with game.lock:  # not between an action and its own commit
                events = await self.committer.commit(game.session)
                if game.session.save_error is None:
                    await game.saved()
                if events:
                    game.broadcast(events)
            if game.session.save_error is None:
                self.put_away(game)
            else:
                left.append((game.id, game.session.save_error))
        return left

    async def keep_saving(self, every: float = RETRY_SAVES) -> None:
        """Retry the unsaved games every ``every`` seconds (runs for the server's life)."""
        while True:
            await asyncio.sleep(every)
            await self.save_unsaved()

    def put_away(self, game: LiveGame) -> None:
        """Forget a live game nobody plays (its lease is released, after any earlier store call; the store
        has every action)."""
        if game.idle and self.live.get(game.id) is game:
            del self.live[game.id]
            if not self._closing:  # when the server stops, closing the store releases every lease
                self._admin_thread.submit(self.store.release, game.id)

    async def resume_token(self, game_id: str) -> str:
        """The human seat's token of a stored game (made now for a game started elsewhere, e.g. in the
        terminal). Only for the owner of the data: the app asks this from loopback clients alone."""
        def token() -> str:
            if 0 not in self.store.tokens(game_id):
                self.store.load(game_id)  # no token yet: is there such a game? (GameNotFound, GameDamaged)
            return self.store.token_for(game_id, 0)

        value = await self.run_admin(token)
        if game_id in self.live:
            self.live[game_id].tokens[0] = value
        return value

    def close(self) -> None:
        """Wait for the admin thread's and the committer's last store calls."""
        self._closing = True
        self._admin_thread.shutdown(wait=True)
        self.committer.close()


def _seats(level: str) -> tuple[SeatSpec, SeatSpec]:
    return (SeatSpec("You"), SeatSpec("Computer", level))
