"""The messages waiting to go out on one WebSocket (a seat's, a spectator's, a chat's): one queue, one writer.

Whatever the server has to tell a client is queued by :meth:`Outbox.send`, which never waits, so a game never
waits for its slowest listener; a writer task sends the queue in order. A client that stops reading (its
queue fills up to ``size``) is closed with code :data:`TRY_AGAIN_LATER` (1013) rather than left open while
frames are lost: its page sees the close and connects again, getting the whole state afresh. (A spectator's
and a chat's frames were once dropped silently instead: their pages went stale and never knew.)

>>> import asyncio
>>> class Slow:                                    # a client that never reads: every send waits for ever
...     closed = None
...     async def send_text(self, text): await asyncio.Event().wait()
...     async def close(self, code): self.closed = code
>>> async def main():
...     ws, gone = Slow(), []
...     outbox = Outbox(ws, 2, on_overflow=lambda: gone.append("left the game"))
...     outbox.start()
...     for n in range(4):
...         outbox.send({"type": "ping", "n": n})
...         await asyncio.sleep(0)                 # the writer takes the first and waits on the client
...     await outbox.aclose()
...     return ws.closed, gone, outbox.closing
>>> asyncio.run(main())
(1013, ['left the game'], True)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, Protocol

from bummerl.server.protocol import encode

__all__ = ["TRY_AGAIN_LATER", "Outbox"]

#: The close code of a socket whose client did not read its messages (WebSocket "try again later").
TRY_AGAIN_LATER = 1013


class _Socket(Protocol):
    """What an outbox needs of a WebSocket (Starlette's has both)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int) -> None: ...


class Outbox:
    """The queue of messages for one socket ``ws``, at most ``size`` waiting; ``on_overflow`` is called once
    when the client falls that far behind (e.g. to leave the game at once), before the socket is closed."""

    def __init__(self, ws: _Socket, size: int, on_overflow: Callable[[], None] | None = None) -> None:
        self._ws = ws
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(max(1, size))
        self._on_overflow = on_overflow
        self._writer: asyncio.Task[None] | None = None
        self._dropping: asyncio.Task[None] | None = None
        self._closing = False

    @property
    def closing(self) -> bool:
        """True once the socket is being closed (the client fell behind, or :meth:`aclose`): no more sends."""
        return self._closing

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (never waits); once the client is ``size`` messages behind, close it."""
        if self._closing:
            return
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:
            self._closing = True
            if self._on_overflow is not None:
                self._on_overflow()
            self._dropping = asyncio.get_running_loop().create_task(self._drop())

    def start(self) -> None:
        """Start sending what is queued (and what comes later)."""
        if self._writer is None and not self._closing:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        while True:
            await self._ws.send_text(encode(await self._queue.get()))

    async def _stop_writing(self) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    async def _drop(self) -> None:
        await self._stop_writing()
        with contextlib.suppress(Exception):  # (the client may be gone already)
            await self._ws.close(code=TRY_AGAIN_LATER)

    async def aclose(self) -> None:
        """Stop: nothing more is sent (what is queued is let go); a close for falling behind is finished."""
        self._closing = True
        await self._stop_writing()
        dropping = self._dropping
        if dropping is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await dropping
