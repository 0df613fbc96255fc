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
import json
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from bummerl import jsonio
from bummerl.errors import BummerlError
from bummerl.rules import Rules
from bummerl.server.games import GameHub, LiveGame, SeatSpec
from bummerl.server.limits import LimitReached, Limits, check_games_in_progress
from bummerl.server.players import FriendGame, Player, Players
from bummerl.server.protocol import error_message, event_json
from bummerl.session import PlaySession
from bummerl.store import StoreError
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

    def seat_taken(self, seat: int, name: str, token: str) -> None:
        """Somebody took the free seat: name it and tell everyone."""
        self.table.seats[seat].name = name
        self.seats = (self.seats[0], SeatSpec(name)) if seat == 1 else (SeatSpec(name), self.seats[1])
        self.tokens[seat] = token
        self.broadcast([])

    async def act(self, seat: int, action: str) -> None:
        """As :meth:`LiveGame.act`, once both seats are taken."""
        if seat not in self.tokens or 1 - seat not in self.tokens:
            raise IllegalMove("wait for your friend to open the invitation link")
        await super().act(seat, action)

    async def stored(self) -> None:
        """Rate a rated game once it is over (before its end is shown, so both players see the new
        ratings as soon as they see the end)."""
        winner = self.table.game.winner
        if self.table.phase == "game_over" and winner is not None and self.friend.rated:
            await self.hub._admin(self.online.players.rate, self.id, winner)

    def broadcast(self, events: Sequence[Event]) -> None:
        """Both seats as usual; spectators get the events and the public view."""
        super().broadcast(events)
        if not self.watchers:
            return
        frame = public_view(self.table, self.players(), self.id)
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

    def __init__(self, hub: GameHub, limits: Limits | None = None) -> None:
        self.hub = hub
        self.limits = Limits() if limits is None else limits
        self.players = Players(hub.store)
        self._rematching = asyncio.Lock()
        hub.load_special = self.load

    def _names(self, friend: FriendGame) -> tuple[str, str]:
        names = []
        for pid in friend.players:
            player = self.players.by_id(pid) if pid is not None else None
            names.append(WAITING_NAME if player is None else player.name)
        return names[0], names[1]

    def _live(self, session: PlaySession, friend: FriendGame, names: tuple[str, str]) -> FriendTable:
        tokens = self.hub.store.tokens(session.id)
        game = FriendTable(session, (SeatSpec(names[0]), SeatSpec(names[1])), tokens, self.hub, self, friend)
        self.hub.live[game.id] = game
        return game

    async def create(self, host: Player, rules: Rules, *, cards: CardStyle = "french", rated: bool = True,
                     public: bool = False, seed: int | None = None, decks: Sequence[Sequence[int]] = (),
                     limit: bool = True) -> tuple[FriendTable, str]:
        """A new friend game with ``host`` at seat 0: (the live game, the host's seat token). The
        :class:`~bummerl.server.limits.Limits` on open invitations and games in progress hold (unless
        ``limit`` is off)."""
        most = self.limits.open_invitations
        if limit and most > 0 and len(self.players.open_invitations(host)) >= most:
            raise LimitReached(f"you have {most} open invitations: wait until a friend takes one")
        if limit:
            check_games_in_progress(self.limits, self.hub.store.db, self.hub.store.lock, host.id)
        web = self.hub.store
        seed = secrets.randbelow(2**31) if seed is None else seed
        token = secrets.token_urlsafe(24)

        def make() -> tuple[PlaySession, FriendGame]:
            table = Table(rules, (Seat(host.name), Seat(WAITING_NAME)), seed=seed, decks=decks,
                          card_style=cards)
            stored = web.store.create(rules=rules, level="human", seed=seed, cards=cards,
                                      first_dealer=table.first_dealer, record=table.record())
            web.set_token(stored.id, 0, token)
            friend = self.players.add_friend_game(stored.id, host, rated=rated, public=public)
            web.lease(stored.id)
            return PlaySession(stored, table, web.store), friend

        session, friend = await self.hub._admin(make)
        return self._live(session, friend, (host.name, WAITING_NAME)), token

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
                              first_dealer=stored.first_dealer, decks=[d.deck for d in stored.record.deals],
                              card_style=style)
                table.replay(stored.record)
                return PlaySession(stored, table, web.store)
            except BaseException:
                web.release(game_id)
                raise

        session = await self.hub._admin(load)
        return self._live(session, friend, names)

    async def join(self, invite: str, player: Player) -> tuple[FriendGame, int | None, str | None]:
        """Open an invitation: (the game, the player's seat or None for a spectator, the seat's token)."""
        friend = self.players.friend_game(invite=invite)
        if friend is None:
            raise BummerlError("no such invitation")
        seat = friend.seat_of(player.id)
        if seat is None and friend.players[1] is None:
            check_games_in_progress(self.limits, self.hub.store.db, self.hub.store.lock, player.id)
            seat = await self.hub._admin(self.players.take_seat, friend.game_id, player)
            if seat is not None:  # this call took the free seat: give it a token and a name
                token = secrets.token_urlsafe(24)
                await self.hub._admin(self.hub.store.set_token, friend.game_id, seat, token)
                game = await self.hub.get(friend.game_id)
                if isinstance(game, FriendTable):
                    game.seat_taken(seat, player.name, token)
                    game.friend = self.players.friend_game(game_id=friend.game_id) or friend
                    self.hub.put_away(game)
        friend = self.players.friend_game(game_id=friend.game_id) or friend
        if seat is None:
            return friend, None, None
        return friend, seat, self.hub.store.tokens(friend.game_id).get(seat)


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
                if stored.state != "finished":
                    raise BummerlError("the rematch is offered once the Bummerl is over")
                first, second = (self.players.by_id(pid or "") for pid in reversed(friend.players))
                if first is None or second is None:
                    raise BummerlError("a player of this game is gone")
                style: CardStyle = "german" if stored.cards == "german" else "french"
                game, _ = await self.create(first, stored.rules, cards=style, rated=friend.rated, limit=False)
                await self.join(game.friend.invite, second)
                await self.hub._admin(self.players.set_rematch, friend.game_id, game.id)
                friend = self.players.friend_game(game_id=friend.game_id) or friend
        assert friend.rematch is not None
        new = self.players.friend_game(game_id=friend.rematch)
        assert new is not None
        seat = new.seat_of(player.id)
        assert seat is not None
        return new, seat, self.hub.store.tokens(new.game_id).get(seat)


# ----------------------------------------------------------------------------- the HTTP and WebSocket API


def _error(reason: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BummerlError(f"the body is too large (at most {MAX_BODY} bytes)")
    try:
        value = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BummerlError("the body is not JSON") from None
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
                                  "rated": friend.rated, "seat": seat}
        if seat is not None and token is not None:
            answer["token"] = token
            answer["url"] = f"{base}/play/{friend.game_id}#token={token}"
        return answer

    async def register(request: Request) -> Response:
        try:
            body = await _body(request)
            player, key = await hub()._admin(online().players.register, body.get("name"))
        except BummerlError as err:
            return _error(str(err), 409 if "taken" in str(err) else 400)
        return JSONResponse({**player.to_json(), "key": key}, status_code=201)

    async def me(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return _error("unknown player key", 401)
        return JSONResponse(player_page(player, request))

    def player_page(player: Player, request: Request) -> dict[str, Any]:
        games = []
        for friend in online().players.games_of(player):
            seat = friend.seat_of(player.id)
            summary = hub().store.store.load(friend.game_id).summary() if seat is not None else {}
            games.append({"id": friend.game_id, "seat": seat, "players": list(online()._names(friend)),
                          "rated": friend.rated, "state": summary.get("state"), "invite": friend.invite,
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
            extra = sorted(set(body) - {"rules", "cards", "rated", "public"})
            if extra:
                raise BummerlError(f"unknown field {extra[0]!r} (fields: cards, public, rated, rules)")
            rules = Rules.from_json(body.get("rules", "standard"))
            cards = body.get("cards", "french")
            if cards not in ("french", "german"):
                raise BummerlError(f"cards must be \"french\" or \"german\", not {cards!r}")
            rated, public = body.get("rated", True), body.get("public", False)
            if not isinstance(rated, bool) or not isinstance(public, bool):
                raise BummerlError("rated and public must be true or false")
            game, token = await online().create(player, rules, cards=cards, rated=rated, public=public)
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
        except StoreError as err:
            return _error(str(err), 409)
        except BummerlError as err:
            return _error(str(err), 404 if "no such" in str(err) else 400)
        return JSONResponse(seat_answer(request, friend, seat, token))

    async def has_chat(request: Request) -> Response:
        friend = online().players.friend_game(game_id=request.path_params["game_id"])
        return JSONResponse({"chat": friend is not None})

    async def chat(ws: WebSocket) -> None:
        game_id = ws.path_params["game_id"]
        friend = online().players.friend_game(game_id=game_id)
        token = ws.query_params.get("token", "")
        seat = hub().store.seat_for(game_id, token) if friend is not None and token else None
        if seat is None:
            await ws.close(code=4403)
            return
        game = await hub().get(game_id)
        if not isinstance(game, FriendTable):
            await ws.close(code=4403)
            return
        await ws.accept()
        limit = online().limits.chat()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(200)

        def send(message: dict[str, Any]) -> None:
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(message)

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
                    if len(text) > 4 * MAX_CHAT:
                        raise BummerlError(f"a chat message is at most {MAX_CHAT} characters")
                    value = jsonio.loads(text)
                    if not isinstance(value, dict) or value.get("type") != "chat":
                        raise BummerlError('a chat message is {"type": "chat", "text": "..."}')
                    game.say(seat, value.get("text"))
                except jsonio.InputError:
                    send(error_message("message is not JSON"))
                except BummerlError as err:
                    send(error_message(str(err)))
        except WebSocketDisconnect:
            pass
        finally:
            with contextlib.suppress(ValueError):
                game.chatters.remove(send)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
            hub().put_away(game)

    async def lobby(request: Request) -> Response:
        base = str(request.base_url).rstrip("/")
        rows = []
        for friend in online().players.open_invitations():
            host = online().players.by_id(friend.players[0] or "")
            if host is None:
                continue
            stored = hub().store.store.load(friend.game_id)
            rows.append({"host": host.to_json(), "rules": stored.rules.to_json(),
                         "rules_text": stored.rules.describe(), "cards": stored.cards, "rated": friend.rated,
                         "link": f"{base}/friend/{friend.invite}"})
        return JSONResponse({"invitations": rows})

    async def watch(ws: WebSocket) -> None:
        friend = online().players.friend_game(invite=ws.path_params["invite"])
        if friend is None:
            await ws.close(code=4403)
            return
        try:
            game = await hub().get(friend.game_id)
        except StoreError as err:
            await ws.accept()
            await ws.send_json({"type": "error", "reason": str(err)})
            await ws.close(code=4409)
            return
        if not isinstance(game, FriendTable):
            await ws.close(code=4403)
            return
        await ws.accept()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(500)

        def send(message: dict[str, Any]) -> None:
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(message)

        async with game.lock:
            game.watchers.append(send)
            send({"type": "events", "events": [event_json(e) for e in game.table.events], "replay": True})
            send(public_view(game.table, game.players(), game.id))

        async def write() -> None:
            while True:
                await ws.send_json(await queue.get())

        writer = asyncio.create_task(write())
        try:
            while (await ws.receive())["type"] != "websocket.disconnect":
                send({"type": "error", "reason": "spectators only watch"})
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
        WebSocketRoute("/ws/watch/{invite}", watch),
        Route("/api/chat/{game_id}", has_chat),
        WebSocketRoute("/ws/chat/{game_id}", chat),
    ]
