"""HTTP connections before they are requests: what uvicorn does not bound.

uvicorn times out a connection only between two requests (``timeout_keep_alive``, 5 s): one that opens and
never finishes its request's headers is held for ever, a file descriptor each. A few hundred such sockets
from one address took every descriptor a server under the usual limit of 1024 may open, and every other
request failed ("Too many open files", audit of the web server). Three things bound them:

- :class:`GuardedHTTP`, uvicorn's HTTP protocol (h11) that closes a connection whose request has not
  arrived whole (headers and body) :attr:`~bummerl.server.limits.Limits.request_within` seconds after it
  began, and refuses (503, closed at once) one more connection from an address that has
  :attr:`~bummerl.server.limits.Limits.connections_per_address` open already. A connection counts until
  it closes or becomes a WebSocket (sockets have a limit of their own:
  :class:`~bummerl.server.limits.SocketLimit`). :func:`guarded_http` makes the class for a server's
  limits: ``uvicorn.Config(app, http=guarded_http(limits))``.
- :func:`allow_more_open_files`: the server raises its soft limit of open files to the hard one (often
  1024 against 524288 on Linux, 256 against unlimited on macOS), as Go programs do at start.

The address is the TCP peer's: behind a reverse proxy every client has the proxy's.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from bummerl.server.limits import Limits, PerAddress

__all__ = ["MOST_OPEN_FILES", "REFUSED_RESPONSE", "GuardedHTTP", "allow_more_open_files", "guarded_http"]

#: The answer to a connection over its address's limit (written as it opens, then closed).
_REASON = b"too many connections from your address: try again in a moment\n"
REFUSED_RESPONSE = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
                    b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_REASON), _REASON))
#: The soft limit of open files the server asks for when its hard limit is unlimited.
MOST_OPEN_FILES = 65536
#: The states in which h11 is still reading a request from the client (its headers, then its body).
_RECEIVING = (h11.IDLE, h11.SEND_BODY)


class GuardedHTTP(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request to arrive and a cap on the connections one
    address holds open (the class attributes; :func:`guarded_http` sets them for a server)."""

    #: Open connections per client address (not yet a WebSocket), at most :attr:`PerAddress.most` each.
    open_connections: ClassVar[PerAddress] = PerAddress(Limits().connections_per_address)
    #: Seconds a request has to arrive whole, from its first byte or the connection's opening (0: no end).
    request_within: ClassVar[float] = Limits().request_within

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else ""
        self._counted = self.open_connections.take(self._address)
        self._deadline: asyncio.TimerHandle | None = None
        if not self._counted:
            transport.write(REFUSED_RESPONSE)
            transport.close()
            return
        self._watch_request()

    def handle_events(self) -> None:
        # uvicorn reads requests here: on data, and after a response for a request sent along with the
        # last one (pipelined), whose deadline would otherwise never start.
        super().handle_events()
        self._watch_request()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._forget()  # a WebSocket from now on: the socket limit counts it
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._forget()
        super().connection_lost(exc)

    def _watch_request(self) -> None:
        """Start the deadline when a request is being waited for (the connection opened, or the next
        request began on it), stop it once the request is in."""
        receiving = self._counted and self.conn.their_state in _RECEIVING and not self.transport.is_closing()
        if receiving and self._deadline is None and self.request_within > 0:
            self._deadline = self.loop.call_later(self.request_within, self._too_slow)
        elif not receiving and self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        self.transport.close()

    def _forget(self) -> None:
        """Stop the deadline and give back the address's count (once)."""
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        if self._counted:
            self._counted = False
            self.open_connections.give_back(self._address)


def guarded_http(limits: Limits) -> type[GuardedHTTP]:
    """A :class:`GuardedHTTP` of its own for a server with ``limits`` (its own count of connections), for
    ``uvicorn.Config(http=...)``."""
    attributes: dict[str, Any] = {"open_connections": PerAddress(limits.connections_per_address),
                                  "request_within": limits.request_within}
    return type("GuardedHTTP", (GuardedHTTP,), attributes)


def allow_more_open_files() -> int:
    """Raise this process's soft limit of open files to its hard limit (:data:`MOST_OPEN_FILES` when that
    is unlimited); the soft limit now (-1 where there are no such limits). A limit that cannot be raised
    is left as it is."""
    try:
        import resource
    except ImportError:  # not a Unix
        return -1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MOST_OPEN_FILES if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
