"""The web server's limits, in one place: a token bucket per connection for the messages a client may send
(an action that moves the game on gives its token back, so only messages that change nothing are limited),
a token bucket per client address for the POST requests (new players, invitations, joins, games) and the
size of their bodies, the games in progress a player may sit in, and the open invitations a player may
have. :class:`Limits` holds their settings (``create_app(limits=...)``, ``bummerl serve
--posts-per-minute ...``); 0 turns one off.

>>> clock = iter([0.0, 0.0, 0.0, 0.0, 0.0, 1.0]).__next__
>>> bucket = RateLimit(rate=2.0, burst=3, clock=clock)
>>> [bucket.allow() for _ in range(5)]
[True, True, True, False, True]
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from bummerl.errors import BummerlError

__all__ = ["MESSAGES_BURST", "MESSAGES_PER_SECOND", "REFUSAL_WINDOW", "REFUSING_AT_ONCE", "TOO_MANY_SOCKETS",
           "LimitReached", "Limits", "PerAddress", "PostRateLimit", "RateLimit", "SocketLimit",
           "check_games_in_progress"]

#: Messages a client may send per second on average, and at once.
MESSAGES_PER_SECOND = 20.0
MESSAGES_BURST = 40


class LimitReached(BummerlError):
    """A limit refused the request (answered HTTP 429 with the reason)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Every limit of the web server; 0 turns a limit off (:meth:`lifted` turns them all off, for load
    benchmarks that play hundreds of players from one address).

    >>> Limits().posts_per_minute, Limits.lifted().games_per_player
    (60.0, 0)
    """

    #: POST requests a minute from one client address on average, and at once; the largest POST body.
    posts_per_minute: float = 60.0
    posts_burst: int = 20
    post_bytes: int = 65536
    #: Friend games that are not over a player may sit in (creating an invitation or taking a seat).
    games_per_player: int = 20
    #: Invitations nobody has taken yet a player may have at once.
    open_invitations: int = 5
    #: Messages that change nothing a game connection may send a second on average, and at once.
    messages_per_second: float = MESSAGES_PER_SECOND
    messages_burst: int = MESSAGES_BURST
    #: Chat messages a connection may send a second on average, and at once.
    chat_per_second: float = 1.0
    chat_burst: int = 5
    #: WebSocket connections (games, chats, spectators) open at once from one client address.
    sockets_per_address: int = 64
    #: Analyses and reviews being worked out (or waiting for a worker) at once for one client address.
    questions_per_address: int = 2
    #: HTTP connections open at once from one client address (not yet a WebSocket; server/connections.py).
    connections_per_address: int = 64
    #: Seconds a connection has to send a whole request (headers and body) from its opening or the request's
    #: first byte; then it is closed.
    request_within: float = 10.0

    @classmethod
    def lifted(cls) -> Limits:
        """No limit at all (the protocol's own sizes still hold: 4096-character messages, 1 MiB frames)."""
        return cls(**{f.name: 0 for f in dataclasses.fields(cls)})

    def messages(self) -> RateLimit:
        """A new connection's bucket for game messages."""
        return RateLimit(self.messages_per_second, self.messages_burst)

    def chat(self) -> RateLimit:
        """A new chat connection's bucket."""
        return RateLimit(self.chat_per_second, self.chat_burst)


class RateLimit:
    """``rate`` messages a second on average, ``burst`` at once (a rate of 0: no limit); :meth:`allow`
    says whether one more may pass now, and :attr:`refused_since_allowed` counts the refusals in a row (so
    a flood is answered with one ``error``, not one per message).

    >>> unlimited = RateLimit(rate=0, burst=0, clock=lambda: 0.0)
    >>> all(unlimited.allow() for _ in range(1000))
    True
    """

    def __init__(self, rate: float = MESSAGES_PER_SECOND, burst: int = MESSAGES_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()
        self.refused_since_allowed = 0

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now

    def allow(self) -> bool:
        """Take one message's token if there is one."""
        if self.rate <= 0:
            return True
        self._refill()
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            self.refused_since_allowed = 0
            return True
        self.refused_since_allowed += 1
        return False

    def refund(self) -> None:
        """Give back one message's token (e.g. for an action that moved the game on: a client playing
        quickly is not a flood; messages that change nothing are).

        >>> bucket = RateLimit(rate=1.0, burst=1, clock=lambda: 0.0)
        >>> bucket.allow(), bucket.allow(), bucket.refund(), bucket.allow()
        (True, False, None, True)
        """
        self._tokens = min(float(self.burst), self._tokens + 1.0)

    def wait(self) -> float:
        """Seconds until the next token (0 when one is there)."""
        if self.rate <= 0:
            return 0.0
        self._refill()
        return 0.0 if self._tokens >= 1.0 else (1.0 - self._tokens) / self.rate

    @property
    def full(self) -> bool:
        """The bucket is back to its burst (its client has been quiet long enough to be forgotten)."""
        self._refill()
        return self._tokens >= self.burst


class PostRateLimit:
    """ASGI middleware: POST requests from one client address, at most ``per_minute`` a minute on average
    and ``burst`` at once; the rest are answered 429 with ``{"error": ...}`` and a ``Retry-After`` header.
    A body over ``max_bytes`` is answered 413 (read no further). 0: no limit. Addresses that have been quiet
    are forgotten once more than ``remembered`` are known.

    >>> import asyncio
    >>> from starlette.applications import Starlette
    >>> from starlette.responses import PlainTextResponse
    >>> from starlette.routing import Route
    >>> from starlette.testclient import TestClient
    >>> async def ok(_): return PlainTextResponse("ok")
    >>> inner = Starlette(routes=[Route("/", ok, methods=["GET", "POST"])])
    >>> client = TestClient(PostRateLimit(inner, 60, burst=2))
    >>> [client.post("/").status_code for _ in range(3)], client.get("/").status_code
    ([200, 200, 429], 200)
    >>> client.post("/").json()["error"]
    'too many requests from your address (at most 60 a minute): try again in a moment'
    >>> big = PostRateLimit(inner, 0, 0, max_bytes=10)
    >>> [TestClient(big).post("/", content=b"x" * n).status_code for n in (10, 11)]
    [200, 413]
    """

    def __init__(self, app: ASGIApp, per_minute: float, burst: int, *, max_bytes: int = 0,
                 clock: Callable[[], float] = time.monotonic, remembered: int = 10_000) -> None:
        self.app = app
        self.per_minute = per_minute
        self.burst = burst
        self.max_bytes = max_bytes
        self.clock = clock
        self.remembered = remembered
        self.buckets: dict[str, RateLimit] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        if self.per_minute > 0:
            bucket = self._bucket(scope)
            if not bucket.allow():
                retry = max(1, math.ceil(bucket.wait()))
                refused = JSONResponse(
                    {"error": f"too many requests from your address (at most {self.per_minute:g} a minute): "
                              "try again in a moment"}, status_code=429, headers={"Retry-After": str(retry)})
                await refused(scope, receive, send)
                return
        if self.max_bytes > 0:
            body = await _read_at_most(receive, self.max_bytes)
            if body is None:
                too_large = JSONResponse({"error": f"the body is too large (at most {self.max_bytes} bytes)"},
                                         status_code=413)
                await too_large(scope, receive, send)
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send)

    def _bucket(self, scope: Scope) -> RateLimit:
        client: Any = scope.get("client")
        address = str(client[0]) if client else ""
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.remembered:
                self.buckets = {a: b for a, b in self.buckets.items() if not b.full}
            bucket = self.buckets[address] = RateLimit(self.per_minute / 60.0, self.burst, self.clock)
        return bucket


class PerAddress:
    """How many of something (e.g. questions being worked out) each client address has now, at most
    ``most`` (0: no limit); an address is forgotten when its count is back to 0.

    >>> questions = PerAddress(2)
    >>> [questions.take("192.0.2.7") for _ in range(3)], questions.take("192.0.2.8")
    ([True, True, False], True)
    >>> questions.give_back("192.0.2.7"), questions.take("192.0.2.7"), questions.now["192.0.2.8"]
    (None, True, 1)
    """

    def __init__(self, most: int) -> None:
        self.most = most
        self.now: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """Count one more for ``address``, unless it has ``most`` already (then False, nothing counted)."""
        count = self.now.get(address, 0)
        if 0 < self.most <= count:
            return False
        self.now[address] = count + 1
        return True

    def give_back(self, address: str) -> None:
        """Count one less for ``address``."""
        left = self.now.get(address, 0) - 1
        if left > 0:
            self.now[address] = left
        else:
            self.now.pop(address, None)


#: The reason of a socket refused by :class:`SocketLimit` (the page shows it).
TOO_MANY_SOCKETS = "too many connections from your address"
#: Refusals opened and closed for one address within :data:`REFUSAL_WINDOW` seconds (the server waits that
#: long at most for a client to answer a close); more are refused before they open.
REFUSING_AT_ONCE = 4
REFUSAL_WINDOW = 15.0


class SocketLimit:
    """ASGI middleware: at most ``most`` WebSocket connections open at once from one client address (0: no
    limit); one more is opened and closed at once (code 1013, "try again later", with the reason), so one
    address cannot hold thousands of sockets and the memory behind them. It is opened first because a
    browser sees a socket closed before it opens as a failed handshake (code 1006, as for a wrong token),
    and its page could not say why. A refused socket is held until the client answers the close, or up to
    the server's close timeout: so an address gets at most :data:`REFUSING_AT_ONCE` such refusals in
    :data:`REFUSAL_WINDOW` seconds, and any more are refused before they open (HTTP 403, nothing held).

    >>> import asyncio
    >>> opened = []
    >>> async def app(scope, receive, send): opened.append(scope["client"][0])
    >>> async def connect(): return {"type": "websocket.connect"}
    >>> async def refused(message): opened.append(message.get("code", message["type"]))
    >>> limit = SocketLimit(app, 1, clock=lambda: 100.0)
    >>> limit.sockets.now["192.0.2.7"] = 1              # one socket of that address is open
    >>> scope = {"type": "websocket", "client": ("192.0.2.7", 5000)}
    >>> asyncio.run(limit(scope, connect, refused))     # a second one is opened and closed at once
    >>> limit.refused["192.0.2.7"] = [99.0] * REFUSING_AT_ONCE  # as if that many were refused just now
    >>> asyncio.run(limit(scope, connect, refused))     # refused before it opens
    >>> asyncio.run(limit({**scope, "client": ("192.0.2.8", 1)}, None, None))
    >>> opened, limit.sockets.now
    (['websocket.accept', 1013, 1013, '192.0.2.8'], {'192.0.2.7': 1})
    """

    def __init__(self, app: ASGIApp, most: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.most = most
        #: The sockets open per address.
        self.sockets = PerAddress(most)
        #: When each address's recent refusals were opened (within REFUSAL_WINDOW of the last one).
        self.refused: dict[str, list[float]] = {}
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or self.most <= 0:
            await self.app(scope, receive, send)
            return
        client: Any = scope.get("client")
        address = str(client[0]) if client else ""
        if not self.sockets.take(address):
            if (await receive())["type"] != "websocket.connect":
                return
            recent = self._recent_refusals(address)
            if len(recent) >= REFUSING_AT_ONCE:
                await send({"type": "websocket.close", "code": 1013})  # before it opens (HTTP 403)
                return
            recent.append(self.clock())
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1013, "reason": TOO_MANY_SOCKETS})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.sockets.give_back(address)

    def _recent_refusals(self, address: str) -> list[float]:
        """When ``address``'s refusals of the last :data:`REFUSAL_WINDOW` seconds were opened: the list kept
        for it (the table forgets every address whose refusals are all older, once it holds many)."""
        now = self.clock()
        if len(self.refused) > 1000:
            self.refused = {a: t for a, t in self.refused.items() if now - t[-1] < REFUSAL_WINDOW}
        recent = [t for t in self.refused.get(address, ()) if now - t < REFUSAL_WINDOW]
        self.refused[address] = recent
        return recent


async def _read_at_most(receive: Receive, limit: int) -> bytes | None:
    """The request's body, or None as soon as it is longer than ``limit`` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)  # the client left: the app will find out
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` once, then whatever the client sends next (a disconnect)."""
    sent = False

    async def replayed() -> Any:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def check_games_in_progress(limits: Limits, in_progress: Callable[[str], int], player_id: str) -> None:
    """Raise :class:`LimitReached` when the player sits in ``limits.games_per_player`` unfinished friend
    games already (``in_progress``: how many a player sits in,
    :meth:`~bummerl.server.players.Players.games_in_progress`; not asked when there is no limit).

    >>> check_games_in_progress(Limits(games_per_player=2), lambda player: 1, "p1")
    >>> check_games_in_progress(Limits(games_per_player=2), lambda player: 2, "p1")
    Traceback (most recent call last):
    ...
    bummerl.server.limits.LimitReached: you are in 2 games that are not over (at most 2): finish one first
    """
    if limits.games_per_player <= 0:
        return
    count = in_progress(player_id)
    if count >= limits.games_per_player:
        raise LimitReached(f"you are in {count} games that are not over (at most "
                           f"{limits.games_per_player}): finish one first")
