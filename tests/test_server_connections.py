"""HTTP connections before they are requests (server/connections.py): a request that never arrives whole is
given up, one address may hold only so many connections open, and the server may open as many files as
its hard limit allows. Found by an audit of the web server: ~1,000 sockets that never finished their
headers, from one address, took every file descriptor of a server under the usual limit of 1024."""

from __future__ import annotations

import asyncio
import resource
import socket
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket
from websockets.sync.client import connect

from bummerl.server import create_app
from bummerl.server.connections import MOST_OPEN_FILES, REFUSED_RESPONSE, guarded_http
from bummerl.server.limits import Limits
from helpers.web import serving_in_thread

#: The start of a request whose headers never end.
HALF_A_REQUEST = b"GET / HTTP/1.1\r\nHost: localhost\r\n"


async def hello(_: Any) -> PlainTextResponse:
    return PlainTextResponse("hello")


async def slow(_: Any) -> PlainTextResponse:
    await asyncio.sleep(1.0)
    return PlainTextResponse("hello")


async def echo(ws: WebSocket) -> None:
    await ws.accept()
    await ws.send_text(await ws.receive_text())
    await ws.receive()


async def posted(request: Any) -> PlainTextResponse:
    return PlainTextResponse(f"{len(await request.body())} bytes")


APP = Starlette(routes=[Route("/", hello), Route("/slow", slow), Route("/post", posted, methods=["POST"]),
                        WebSocketRoute("/ws", echo)])


@contextmanager
def guarded(limits: Limits) -> Iterator[tuple[str, int]]:
    """``APP`` served with :func:`guarded_http` for ``limits``: (host, port)."""
    with serving_in_thread(APP, http=guarded_http(limits)) as url:
        host, port = url.removeprefix("http://").split(":")
        yield host, int(port)


def opened(address: tuple[str, int], first: bytes = b"") -> socket.socket:
    sock = socket.create_connection(address, timeout=5)
    if first:
        sock.sendall(first)
    return sock


def answer(address: tuple[str, int], path: str = "/") -> bytes:
    """The whole answer to a plain ``GET`` on a new connection."""
    request = f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode()
    with opened(address, request) as sock:
        return read_to_end(sock)


def first_words(address: tuple[str, int]) -> bytes:
    """What the server says on a new connection before it is sent anything, until it closes it (nothing,
    in 0.5 s, from a server that waits for the request)."""
    with opened(address) as sock:
        sock.settimeout(0.5)
        try:
            return read_to_end(sock)
        except TimeoutError:
            return b""


def read_to_end(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_a_request_whose_headers_never_end_is_closed_after_its_deadline() -> None:
    with guarded(Limits(request_within=0.5)) as address, opened(address, HALF_A_REQUEST) as sock:
        started = time.monotonic()
        assert read_to_end(sock) == b""  # closed by the server (a timeout would raise here)
        assert 0.4 < time.monotonic() - started < 4


def test_the_deadline_starts_again_for_the_next_request_on_a_kept_connection() -> None:
    with guarded(Limits(request_within=0.5)) as address, opened(address) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        reply = b""
        while not reply.endswith(b"hello"):
            reply += sock.recv(65536)
        sock.sendall(HALF_A_REQUEST)  # within the keep-alive time, so that uvicorn's own timeout stops
        assert read_to_end(sock) == b""


def test_a_request_sent_along_with_the_last_one_has_its_deadline_too() -> None:
    # Pipelined: uvicorn reads the second request only once the first is answered, outside data_received,
    # so its deadline never started and a POST without its body held the connection for good (session
    # 15's review of the fix).
    two = (b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
           b"POST /post HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n")
    with guarded(Limits(request_within=0.5)) as address, opened(address, two) as sock:
        started = time.monotonic()
        assert read_to_end(sock).endswith(b"hello")  # the first answered, then closed (a timeout raises)
        assert time.monotonic() - started < 4


def test_a_request_sent_whole_is_answered_however_long_its_answer_takes() -> None:
    with guarded(Limits(request_within=0.5)) as address:
        reply = answer(address, "/slow")  # 1 s
        assert reply.startswith(b"HTTP/1.1 200") and reply.endswith(b"hello")


def test_one_address_may_hold_only_so_many_connections_open() -> None:
    with guarded(Limits(connections_per_address=3)) as address, ExitStack() as held:
        for _ in range(3):
            held.enter_context(opened(address, HALF_A_REQUEST))
        assert first_words(address) == REFUSED_RESPONSE  # the fourth: 503 and closed at once
        held.close()
        deadline = time.monotonic() + 5
        while first_words(address) == REFUSED_RESPONSE and time.monotonic() < deadline:
            time.sleep(0.05)  # until the server sees them closed
        assert answer(address).startswith(b"HTTP/1.1 200")


def test_a_connection_that_became_a_websocket_counts_no_more() -> None:
    with guarded(Limits(connections_per_address=2)) as (host, port), ExitStack() as held:
        for _ in range(3):
            ws = held.enter_context(connect(f"ws://{host}:{port}/ws"))
            ws.send("hi")
            assert ws.recv(timeout=5) == "hi"
        assert answer((host, port)).startswith(b"HTTP/1.1 200")


def test_lifted_limits_hold_nothing_back() -> None:
    with guarded(Limits.lifted()) as address, ExitStack() as held:
        for _ in range(70):  # more than the default of 64
            held.enter_context(opened(address, HALF_A_REQUEST))
        assert answer(address).startswith(b"HTTP/1.1 200")


@pytest.fixture
def low_open_files() -> Iterator[int]:
    """This process's soft limit of open files lowered to 256 (put back afterwards); the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, soft), hard))
    try:
        yield hard
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_server_raises_its_soft_limit_of_open_files_to_the_hard_one(low_open_files: int) -> None:
    with TestClient(create_app(home=Path(tempfile.mkdtemp()), workers=0)):
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert soft == (MOST_OPEN_FILES if low_open_files == resource.RLIM_INFINITY else low_open_files)


def test_serve_guards_its_http_connections_with_its_limits(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from bummerl.cli import app
    from bummerl.server.connections import GuardedHTTP
    from helpers.web import free_port

    served: list[Any] = []
    monkeypatch.setenv("BUMMERL_HOME", str(tmp_path))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: served.append(self.config.http))  # never listens
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    CliRunner().invoke(app, ["serve", "--port", str(free_port())])
    assert len(served) == 1 and isinstance(served[0], type) and issubclass(served[0], GuardedHTTP)
    assert served[0].open_connections.most == Limits().connections_per_address
