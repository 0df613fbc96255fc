"""The web application: pages, the JSON API and a WebSocket per seat (the README's "Web protocol").

>>> from starlette.testclient import TestClient
>>> import tempfile
>>> from pathlib import Path
>>> app = create_app(home=Path(tempfile.mkdtemp()), workers=0)
>>> with TestClient(app) as client:
...     made = client.post("/api/games", json={"rules": "standard", "level": "easy", "seed": 1}).json()
...     with client.websocket_connect(f"/ws/games/{made['id']}?token={made['token']}") as ws:
...         log, view = ws.receive_json(), ws.receive_json()
>>> sorted(made), log["type"], view["type"], view["phase"], len(view["deal"]["hand"])
(['id', 'seat', 'token', 'url'], 'events', 'view', 'playing', 5)
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import sys
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from bummerl.cards import parse_cards
from bummerl.engine import Deal
from bummerl.errors import BummerlError
from bummerl.rules import Rules
from bummerl.server import logs
from bummerl.server.connections import allow_more_open_files
from bummerl.server.games import LEVELS, GameHub, GameUnavailable, Listener
from bummerl.server.history import KEY_HEADER, history_routes
from bummerl.server.limits import Limits, PerAddress, PostRateLimit, SocketLimit
from bummerl.server.online import Online, online_routes
from bummerl.server.outbox import TRY_AGAIN_LATER, Outbox
from bummerl.server.presence import AWAY_AFTER, Clock
from bummerl.server.protocol import (
    REFUSED,
    ProtocolError,
    error_message,
    parse_message,
    read_body,
    refuse_unavailable,
)
from bummerl.server.thinker import DEFAULT_WORKERS, Thinker
from bummerl.server.web_store import WebStore
from bummerl.store import GameNotFound, StoreError

__all__ = ["MAX_QUEUE", "STATIC", "TRY_AGAIN_LATER", "create_app"]

#: The page's files (HTML, CSS, JavaScript modules), served as they are: no build step.
STATIC = Path(__file__).parent / "static"
#: Messages queued for one client before it counts as gone.
MAX_QUEUE = 500


#: The peer and host names of Starlette's test client, which stands for this computer's browser in tests.
_TEST_PEER, _TEST_HOST = "testclient", "testserver"
#: Headers only a proxy adds: a request with any of them was relayed (a browser never sends them itself).
_RELAYED = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip", "via")


def _is_loopback(request: Request | WebSocket) -> bool:
    """True for this computer's own browser: a connection from a loopback address, to a loopback host name
    (the ``Host`` header) and, when the request says which page sent it (``Origin``), from a page on a
    loopback host. A page on another site whose name was pointed at 127.0.0.1 (DNS rebinding) connects
    from loopback too, but its requests name that site as their host and origin.

    >>> from starlette.requests import Request
    >>> def asked(host, origin=None, peer="127.0.0.1"):
    ...     headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin else [])
    ...     return _is_loopback(Request({"type": "http", "client": (peer, 5000), "headers": headers}))
    >>> asked("localhost:8000"), asked("[::1]:8000", "http://[::1]:8000"), asked("127.0.0.2")
    (True, True, True)
    >>> asked("attacker.example:8000"), asked("localhost:8000", "http://attacker.example:8000")
    (False, False)
    >>> asked("localhost:8000", "null"), asked("localhost:8000", peer="192.0.2.7")
    (False, False)

    A request a proxy relayed is never this computer's own, whatever its address: one that names a client
    (``X-Real-IP``, ``Forwarded``; ``X-Forwarded-For`` that uvicorn did not trust) or a proxy (``Via``).

    >>> _is_loopback(Request({"type": "http", "client": ("127.0.0.1", 5000),
    ...                       "headers": [(b"host", b"localhost"), (b"x-real-ip", b"192.0.2.7")]}))
    False
    """
    peer = request.client.host if request.client else ""
    test = peer == _TEST_PEER
    if not (test or peer == "localhost" or _loopback_name(peer)):
        return False
    if any(name in request.headers for name in _RELAYED):
        return False
    host = _host_name(request.headers.get("host", ""))
    origin = request.headers.get("origin")
    origin_host = None if origin is None else _host_name(urlsplit(origin).netloc)
    return all(name is None or _loopback_name(name) or (test and name == _TEST_HOST)
               for name in (host, origin_host))


def _host_name(authority: str) -> str:
    """The host of a ``Host`` header or an origin's ``host:port`` (``[::1]:8000``: ``::1``), lower case.

    >>> _host_name("LocalHost:8000"), _host_name("[::1]:8000"), _host_name("127.0.0.1"), _host_name("")
    ('localhost', '::1', '127.0.0.1', '')
    """
    if authority.startswith("["):
        return authority[1:].partition("]")[0].lower()
    return authority.partition(":")[0].lower()


def _loopback_name(name: str) -> bool:
    """``localhost`` or a loopback address (127.0.0.0/8, ``::1``, and 127.0.0.1 as a server listening on
    ``::`` sees it, ``::ffff:127.0.0.1``).

    >>> [_loopback_name(n) for n in ("localhost", "127.0.0.2", "::1", "::ffff:127.0.0.1", "::ffff:192.0.2.7")]
    [True, True, True, True, False]
    """
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


def _error(reason: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


def _seat_answer(request: Request, game_id: str, seat: int, token: str) -> dict[str, Any]:
    url = f"{str(request.base_url).rstrip('/')}/play/{game_id}#token={token}"
    return {"id": game_id, "seat": seat, "token": token, "url": url}


def _new_game_options(body: Any) -> dict[str, Any]:
    """Read the body of ``POST /api/games``; raises BummerlError naming the bad field."""
    if not isinstance(body, dict):
        raise BummerlError("the body must be a JSON object")
    known = {"rules", "level", "seed", "cards", "dealer", "decks"}
    extra = sorted(set(body) - known)
    if extra:
        raise BummerlError(f"unknown field {extra[0]!r} (fields: {', '.join(sorted(known))})")
    rules = Rules.from_json(body.get("rules", "standard"))
    level = body.get("level", "medium")
    if level not in LEVELS:
        raise BummerlError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise BummerlError("seed must be a whole number from 0 up")
    cards = body.get("cards", "french")
    if cards not in ("french", "german"):
        raise BummerlError(f"cards must be \"french\" or \"german\", not {cards!r}")
    dealer = body.get("dealer")
    if dealer not in (None, 0, 1) or isinstance(dealer, bool):
        raise BummerlError("dealer must be 0, 1 or null")
    decks_raw = body.get("decks", [])
    if not isinstance(decks_raw, list) or not all(isinstance(d, str) for d in decks_raw):
        raise BummerlError("decks must be a list of deck strings (e.g. \"QH TC AS ...\")")
    try:
        decks = [[int(c) for c in parse_cards(d)] for d in decks_raw]
        for deck in decks:
            Deal(rules, deck, 0)  # the engine checks the pack
    except BummerlError as err:
        raise BummerlError(f"decks: {err}") from None
    return {"rules": rules, "level": level, "seed": seed, "cards": cards, "first_dealer": dealer,
            "decks": decks}


def create_app(home: Path | None = None, *, workers: int = DEFAULT_WORKERS, thinker: Thinker | None = None,
               analysis_samples: int = 100, review_samples: int = 24,
               limits: Limits | None = None, away_after: float = AWAY_AFTER,
               clock: Clock | None = None) -> Starlette:
    """The web game over the game store in ``home`` (default: the user's data directory); the computer
    thinks in ``workers`` processes (0: one background thread, for quick tests); ``limits`` (default
    :class:`~bummerl.server.limits.Limits`) bound what one client may ask; a player away for ``away_after``
    seconds may be claimed from; ``clock`` is the time of absences and clocks (default ``time.time``)."""
    state: dict[str, Any] = {}
    limits = Limits() if limits is None else limits

    def hub() -> GameHub:
        hub: GameHub = state["hub"]
        return hub

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        logs.install()  # no card in any log line (server/logs.py)
        allow_more_open_files()  # a socket is a file: 1024 of them were soon taken (server/connections.py)
        store = WebStore(home)
        own = thinker is None
        pool = Thinker(workers) if thinker is None else thinker
        pool.askers = PerAddress(limits.questions_per_address)  # players' questions per client address
        state["hub"] = app.state.hub = GameHub(store, pool, analysis_samples=analysis_samples,
                                               review_samples=review_samples)
        state["online"] = app.state.online = Online(  # games between two people
            state["hub"], limits, away_after=away_after, clock=clock or time.time)
        saving = asyncio.create_task(state["hub"].keep_saving())
        try:
            yield
        finally:
            saving.cancel()
            # A game whose moves could not be stored is tried once more; what still fails is said.
            app.state.unsaved = await state["hub"].save_unsaved()
            for game_id, why in app.state.unsaved:
                print(f"error: game {game_id} could not be saved: {why}; its moves since the last save are "
                      "lost", file=sys.stderr)
            state["hub"].close()
            if own:
                pool.close()
            store.close()

    def page(name: str) -> Any:
        async def endpoint(_: Request) -> Response:
            return FileResponse(STATIC / name, media_type="text/html")
        return endpoint

    async def new_game(request: Request) -> Response:
        try:
            options = _new_game_options(read_body(await request.body()))
            game, seat = await hub().create(**options)
        except StoreError as err:  # a store that cannot be written: a conflict, not a bad request
            return _error(str(err), 409)
        except BummerlError as err:
            return _error(str(err))
        player = state["online"].players.by_key(request.headers.get(KEY_HEADER, ""))
        if player is not None:  # a player with a name: the game goes on their player page
            await hub().run_admin(state["online"].players.add_computer_game, game.id, player)
        return JSONResponse(_seat_answer(request, game.id, seat, game.tokens[seat]), status_code=201)

    async def list_games(request: Request) -> Response:
        if not _is_loopback(request):  # another computer sees no list (and no error in its console)
            return JSONResponse({"games": [], "note": "the list of games is only shown on this computer"})
        games = [g for g in await run_in_threadpool(hub().store.games)
                 if g["level"] != "human"]  # friend games: /friend
        return JSONResponse({"games": games})

    async def resume_game(request: Request) -> Response:
        if not _is_loopback(request):
            return _error("games are resumed only on this computer", 403)
        game_id = request.path_params["game_id"]
        if state["online"].players.friend_game(game_id=game_id) is not None:
            return _error("a game with a friend is resumed from /friend or your player page", 403)
        try:
            token = await hub().resume_token(game_id)
        except BummerlError as err:
            return _error(str(err), 404)
        return JSONResponse(_seat_answer(request, game_id, 0, token))

    async def game_record(request: Request) -> Response:
        try:
            return JSONResponse(hub().store.finished_record(request.path_params["game_id"]))
        except GameNotFound as err:
            return _error(str(err), 404)
        except StoreError as err:
            return _error(str(err), 409)

    async def stats(request: Request) -> Response:
        if not _is_loopback(request):  # your totals are for this computer's player alone
            return JSONResponse({"stats": [], "levels": list(LEVELS),
                                 "note": "the totals are only shown on this computer"})
        # Off the event loop: the totals replay every stored game.
        return JSONResponse({"stats": await run_in_threadpool(hub().store.stats), "levels": list(LEVELS)})

    async def rules_text(_: Request) -> Response:
        return PlainTextResponse(_rules_markdown(), media_type="text/markdown; charset=utf-8")

    async def game_socket(ws: WebSocket) -> None:
        try:
            game, seat = await hub().open_seat(ws.path_params["game_id"], ws.query_params.get("token", ""))
        except GameUnavailable:
            await ws.close(code=REFUSED)
            return
        except StoreError as err:  # the right token, but the game is busy elsewhere or damaged
            await refuse_unavailable(ws, err)
            return
        await ws.accept()
        # A client that does not read leaves the game at once and its socket is closed (1013, try again
        # later), so its page knows and reconnects to the whole game. Left open, it stayed "connected" while
        # the game counted it away, and its next move went to a game the hub no longer held.
        outbox = Outbox(ws, MAX_QUEUE, on_overflow=lambda: game.leave(listener))
        send = outbox.send

        listener = Listener(seat, send)
        try:
            game = await hub().attach(game, lambda live: live.join(listener))
        except StoreError as err:  # it was put away meanwhile and cannot be brought back (busy, damaged)
            await refuse_unavailable(ws, err)
            return
        outbox.start()
        game.kick()
        side_tasks: set[asyncio.Task[None]] = set()
        address = ws.client.host if ws.client else ""
        limit = limits.messages()
        try:
            while not outbox.closing:
                raw = await ws.receive()
                if raw["type"] == "websocket.disconnect" or outbox.closing:
                    break
                text: str | bytes = raw["text"] if raw.get("text") is not None else raw.get("bytes") or b""
                if not limit.allow():  # a flood: one error per run of refused messages (server/limits.py)
                    if limit.refused_since_allowed == 1:
                        send(error_message(f"too many messages: at most {limit.rate:g} a second"))
                    continue
                try:
                    message = parse_message(text)
                except ProtocolError as err:
                    send(error_message(str(err)))
                    continue
                if message.type == "act":
                    moves = len(game.table.events)
                    await game.handle(seat, message, send)
                    if len(game.table.events) > moves:  # it moved the game on: not part of a flood
                        limit.refund()
                elif message.type == "ping":
                    await game.handle(seat, message, send)
                else:  # the analysis and the review take a while: keep reading meanwhile
                    task = asyncio.create_task(game.handle(seat, message, send, asker=address))
                    side_tasks.add(task)
                    task.add_done_callback(side_tasks.discard)
        except WebSocketDisconnect:
            pass
        finally:
            game.leave(listener)
            for task in side_tasks:
                task.cancel()
            await outbox.aclose()

    routes = [
        Route("/", page("index.html")),
        Route("/play/{game_id}", page("game.html")),
        Route("/rules", page("rules.html")),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games/{game_id}/resume", resume_game, methods=["POST"]),
        Route("/api/games/{game_id}/record", game_record),
        Route("/api/stats", stats),
        Route("/api/rules", rules_text),
        WebSocketRoute("/ws/games/{game_id}", game_socket),
        Route("/friend", page("friend.html")),
        Route("/friend/{invite}", page("friend.html")),
        *online_routes(lambda: state["online"]),
        Route("/players/{name}", page("player.html")),
        Route("/replay/{game_id}", page("replay.html")),
        *history_routes(lambda: state["online"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(PostRateLimit, per_minute=limits.posts_per_minute, burst=limits.posts_burst,
                             max_bytes=limits.post_bytes),
                  Middleware(SocketLimit, most=limits.sockets_per_address)]
    async def store_trouble(request: Request, err: Exception) -> Response:
        """A store error no route expected (e.g. a damaged player row read with a key): one line, 409."""
        return _error(str(err), 409)

    async def http_trouble(request: Request, err: Exception) -> Response:
        """No such route or method: JSON ``{"error"}`` under ``/api/`` as every API answer, else text."""
        assert isinstance(err, HTTPException)
        if err.status_code in (204, 304):  # no body (as Starlette's own handler)
            return Response(status_code=err.status_code, headers=err.headers)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": err.detail.lower()}, status_code=err.status_code,
                                headers=err.headers)
        return PlainTextResponse(err.detail, status_code=err.status_code, headers=err.headers)

    return Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                     exception_handlers={StoreError: store_trouble, HTTPException: http_trouble})


def _rules_markdown() -> str:
    """The rules page's text (Markdown): ``docs/rules.md`` when shipped with the package (``bummerl/data``)
    or found in a source checkout, else a pointer to the rules contract."""
    shipped = resources.files("bummerl").joinpath("data/rules.md")
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
    if checkout.is_file():
        return checkout.read_text(encoding="utf-8")
    return ("# Schnapsen\n\nThe rules page is not installed with this copy of bummerl. "
            "Run `bummerl play` and press `?` for help, or read the project's `docs/rules.md`.\n")
