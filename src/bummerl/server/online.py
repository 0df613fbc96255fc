"""Play a friend: games between two people over the network (the first slice of issue 14).

A player registers a name (``POST /api/players``, answered with a secret key the browser keeps) and
creates a friend game (``POST /api/friends``): the host sits at seat 0 and gets an invitation link
``/friend/{invite}``. Whoever opens the link first with a player key takes seat 1; after that the link
shows the game to spectators only. Each seat plays through the usual per-seat WebSocket
(``/ws/games/{id}?token=...``); asking again with the same player key gives the same seat and token, so a
closed tab or a server restart loses nothing (the store has every action). Spectators get a public view
(``/ws/watch/{invite}``): the events both players were told and the cards on the table, never a hand or the
talon. A rated game updates both players' Glicko-2 ratings once it is over. Each game being played is a
:class:`~bummerl.server.friend_table.FriendTable` (server/friend_table.py); this module makes them, brings
them back from the store, and serves the routes.

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
from bummerl.server.errors import Forbidden, NotFound
from bummerl.server.friend_table import MAX_CHAT, FriendTable
from bummerl.server.games import GameGone, GameHub, LiveGame, SeatSpec
from bummerl.server.limits import LimitReached, Limits, check_games_in_progress
from bummerl.server.outbox import Outbox
from bummerl.server.players import FriendGame, NameTaken, Player, Players
from bummerl.server.presence import (
    AWAY_AFTER,
    Clock,
    Clocks,
    End,
    Presence,
    TimeControl,
    TimeStore,
    counts_in_ratings,
)
from bummerl.server.protocol import REFUSED, error_message, read_body, refuse_unavailable
from bummerl.server.spectators import check_spectators, watch_message
from bummerl.session import PlaySession
from bummerl.store import StoreError, shown_id
from bummerl.table import CardStyle, Seat, Table

__all__ = ["CHAT_QUEUE", "KEY_HEADER", "WAITING_NAME", "WATCH_QUEUE", "Online", "online_routes"]

#: The request header that carries the player key.
KEY_HEADER = "X-Player-Key"
#: The name of the free seat until somebody takes it.
WAITING_NAME = "Friend"
#: The longest request body read by the online API (bytes).
MAX_BODY = 4096
#: Messages queued for one spectator's and one chat's socket before its client counts as not reading (it is
#: then closed, server/outbox.py, and its page connects again).
WATCH_QUEUE = 500
CHAT_QUEUE = 200


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

    def names_of(self, friend: FriendGame) -> tuple[str, str]:
        """The names of a friend game's two players (:data:`WAITING_NAME` for a seat nobody has taken; a
        player whose row is damaged as such: the game is still shown)."""
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
            raise LimitReached(f"you have {most} open invitations: withdraw one, or wait until a friend "
                               "takes one")
        if limit:
            check_games_in_progress(self.limits, self.players.games_in_progress, host.id)
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

        session, friend = await self.hub.run_admin(make)
        game = self._live(session, friend, (host.name, WAITING_NAME))
        self.hub.put_away(game)  # until somebody opens it: an invitation never opened holds nothing
        return game, token

    async def load(self, game_id: str) -> LiveGame | None:
        """A stored friend game brought back (None: not a friend game)."""
        friend = self.players.friend_game(game_id=game_id)
        if friend is None:
            return None
        names = self.names_of(friend)
        web = self.hub.store

        def load() -> PlaySession:
            web.lease(game_id)
            try:
                stored = web.load(game_id)
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

        session = await self.hub.run_admin(load)
        end = self.times.end(game_id)
        if end is not None:  # what a failed store left undone after the end (each step once)
            with contextlib.suppress(StoreError):
                await self.hub.run_admin(self.settle_end, game_id, end)
        return self._live(session, friend, names)

    def settle_end(self, game_id: str, end: End) -> None:
        """After an end away from the table is stored (called in the admin thread, again at every load until
        done): the game store keeps the game as ``abandoned`` (its record cannot hold such an end), and a
        rated game is rated once, unless it ended before its first card was played (like an aborted game:
        two accounts could otherwise move ratings by ~160 points with an invitation, a join and a resign)."""
        stored = self.hub.store.load(game_id)
        if stored.state == "playing":
            self.hub.store.store.finish(game_id, "abandoned")
        if counts_in_ratings(True, stored, end):
            self.players.rate(game_id, end.winner)  # (only a rated game, and only once)

    async def join(self, invite: str, player: Player) -> tuple[FriendGame, int | None, str | None]:
        """Open an invitation: (the game, the player's seat or None for a spectator, the seat's token)."""
        async with self._joining:
            return await self._join(invite, player)

    async def _join(self, invite: str, player: Player) -> tuple[FriendGame, int | None, str | None]:
        friend = self.players.friend_game(invite=invite)
        if friend is None:
            raise NotFound("no such invitation")
        seat = friend.seat_of(player.id)
        if seat is None and friend.players[1] is None and self.players.withdrawn(friend.game_id):
            raise BummerlError(f"{self.names_of(friend)[0]} has withdrawn this invitation")
        if seat is None and friend.players[1] is None:
            check_games_in_progress(self.limits, self.players.games_in_progress, player.id)
            seat = await self.hub.run_admin(self.players.take_seat, friend.game_id, player)
            if seat is not None:  # this call took the free seat: give it a token and a name
                token = secrets.token_urlsafe(24)
                await self.hub.run_admin(self.hub.store.set_token, friend.game_id, seat, token)
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
                raise NotFound("no such invitation")
            if friend.players[0] != player.id:
                raise Forbidden("only the player who made an invitation may withdraw it")
            if friend.players[1] is not None:
                raise BummerlError(f"{self.names_of(friend)[1]} has taken the seat: the Bummerl has begun "
                                   "(you may resign it on the game's page)")
            if self.players.withdrawn(friend.game_id):
                return  # (done before: nothing to load, and every join waits while this holds the lock)
            game = await self.hub.get(friend.game_id)
            try:
                if isinstance(game, FriendTable):
                    await game.withdraw()
            finally:
                self.hub.put_away(game)  # (brought back just for this, unless its page is open)

    async def seat_token(self, game_id: str, seat: int) -> str:
        """A taken seat's token, for its player (a new one if its own cannot be opened: the live game hears
        of it)."""
        token: str = await self.hub.run_admin(self.hub.store.token_for, game_id, seat)
        live = self.hub.live.get(game_id)
        if live is not None:
            live.tokens[seat] = token
        return token


    async def rematch(self, invite: str, player: Player) -> tuple[FriendGame, int, str | None]:
        """The rematch of a finished friend game, with the seats swapped (made by whichever of the two asks
        first; the other gets their seat in the same game): (the new game, the player's seat, its token)."""
        friend = self.players.friend_game(invite=invite)
        if friend is None:
            raise NotFound("no such invitation")
        if friend.seat_of(player.id) is None or None in friend.players:
            raise Forbidden("only the two players of a game may ask for its rematch")
        async with self._rematching:
            friend = self.players.friend_game(game_id=friend.game_id) or friend
            if friend.rematch is None:
                stored = await self.hub.run_admin(self.hub.store.load, friend.game_id)
                if stored.state != "finished" and self.times.end(friend.game_id) is None:
                    raise BummerlError("the rematch is offered once the Bummerl is over")
                first, second = (self.players.by_id(pid or "") for pid in reversed(friend.players))
                if first is None or second is None:
                    raise BummerlError("a player of this game is gone")
                style: CardStyle = "german" if stored.cards == "german" else "french"
                old_clocks = self.times.clocks(friend.game_id)
                # Both seats are taken below: if either player may not take one, make nothing.
                for seated in (first, second):
                    check_games_in_progress(self.limits, self.players.games_in_progress, seated.id)
                # Made and both seats taken under the joining lock: in between, the new game was an open
                # invitation of its host, who could withdraw it, or a third player could take its seat.
                async with self._joining:
                    game, _ = await self.create(first, stored.rules, cards=style, rated=friend.rated,
                                                limit=False, spectators=friend.spectators,
                                                clock=None if old_clocks is None else old_clocks.control)
                    # Nobody may claim the Bummerl from the player who did not ask, nor run their clock,
                    # before they open the game: recorded before the seats are both taken, so their clock
                    # never starts.
                    unasked = 0 if first.id != player.id else 1
                    await self.hub.run_admin(self.players.set_unopened, game.id, unasked)
                    game.presence.opened = [s != unasked for s in (0, 1)]  # (as the store now says)
                    await self._join(game.friend.invite, second)
                await self.hub.run_admin(self.players.set_rematch, friend.game_id, game.id)
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


def _refused(err: BummerlError, otherwise: int = 400) -> JSONResponse:
    """A refusal's answer, its status by the error's type: a limit 429, a taken name or a store that cannot
    be written 409, no such thing 404, not yours 403; any other refusal ``otherwise``."""
    status = (429 if isinstance(err, LimitReached) else 409 if isinstance(err, NameTaken | StoreError)
              else 404 if isinstance(err, NotFound) else 403 if isinstance(err, Forbidden) else otherwise)
    return _error(str(err), status)


def _forget(sends: list[Any], send: Any) -> None:
    """Take ``send`` out of a game's spectators or chatters (if it is still there)."""
    with contextlib.suppress(ValueError):
        sends.remove(send)


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
        names = online().names_of(friend)
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
            player, key = await hub().run_admin(online().players.register, body.get("name"))
        except BummerlError as err:
            return _refused(err)
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
            names = online().names_of(friend)
            rated = friend.rated
            if seat is not None:
                try:
                    stored = hub().store.load(friend.game_id)
                    summary = stored.summary()
                    state, updated = summary["state"], summary["updated"]
                    end = online().times.end(friend.game_id)
                    ended = None if end is None else end.to_json(names)
                    rated = counts_in_ratings(rated, stored, end)
                except StoreError:  # one damaged (or busy) game must not hide the others: listed as such
                    state = "damaged"
            games.append({"id": friend.game_id, "seat": seat, "players": list(names), "ended": ended,
                          "rated": rated, "state": state, "updated": updated, "invite": friend.invite,
                          "rematch": friend.rematch is not None,  # (asked already: the button goes there)
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
        except BummerlError as err:
            return _refused(err)
        return JSONResponse(seat_answer(request, game.friend, 0, token), status_code=201)

    async def join(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return _error("choose a name first (unknown player key)", 401)
        try:
            friend, seat, token = await online().join(request.path_params["invite"], player)
        except BummerlError as err:
            return _refused(err, 404)  # (a withdrawn invitation)
        return JSONResponse(seat_answer(request, friend, seat, token))

    async def rematch(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return _error("choose a name first (unknown player key)", 401)
        try:
            friend, seat, token = await online().rematch(request.path_params["invite"], player)
        except BummerlError as err:
            return _refused(err)
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
        opened = await friend_table(ws, game_id)
        if opened is None:
            return
        game: FriendTable = opened
        await ws.accept()
        limit = online().limits.chat()
        outbox = Outbox(ws, CHAT_QUEUE, on_overflow=lambda: _forget(game.chatters, outbox.send))
        send = outbox.send
        try:
            game = await hub().enter(game)  # the game the hub holds (it may have been put away meanwhile)
        except StoreError as err:
            await refuse_unavailable(ws, err)
            return
        game.chatters.append(send)
        send({"type": "chat_log", "messages": list(game.chat)})
        outbox.start()
        try:
            while not outbox.closing and (raw := await ws.receive())["type"] != "websocket.disconnect":
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
            _forget(game.chatters, send)
            await outbox.aclose()
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
        except BummerlError as err:
            return _refused(err, 409)  # (the seat is taken: there is a Bummerl to resign)
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
        except BummerlError as err:
            return _refused(err, 409)
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
                stored = hub().store.load(friend.game_id)
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
        opened = await friend_table(ws, friend.game_id)
        if opened is None:
            return
        game: FriendTable = opened
        await ws.accept()
        outbox = Outbox(ws, WATCH_QUEUE, on_overflow=lambda: _forget(game.watchers, outbox.send))
        send = outbox.send

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
        outbox.start()
        try:
            limit = online().limits.messages()  # a flood gets one error (server/limits.py)
            while not outbox.closing and (await ws.receive())["type"] != "websocket.disconnect":
                if limit.allow():
                    send(error_message("spectators only watch"))
                elif limit.refused_since_allowed == 1:
                    send(error_message(f"too many messages: at most {limit.rate:g} a second"))
        except WebSocketDisconnect:
            pass
        finally:
            _forget(game.watchers, send)
            await outbox.aclose()
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
