"""One send queue for every WebSocket (server/outbox.py): a spectator or a chat client that stops reading is
closed with 1013 (try again later), as a seat's is, so its page connects again and gets the whole state; its
frames are never lost silently while it looks connected."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocket

import bummerl.server.online as online
from bummerl.server import create_app
from helpers.players import friend_game, next_of, register

#: The messages each test's client would be sent if it were never closed (reading more would wait for ever).
_SENT = 3


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(home=tmp_path, workers=0)) as c:
        yield c


def _until_closed(ws: Any) -> tuple[list[str], int | None]:
    """The types of the messages that came, then the close code (None: all of them came, and no close)."""
    kinds = []
    for _ in range(_SENT):
        message = ws.receive()
        if message["type"] == "websocket.close":
            return kinds, message.get("code")
        kinds.append(message["type"])
    return kinds, None


def _deaf_to(monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    """Sockets under ``path`` never get their frames through: a client that does not read (its sends wait,
    as when the network buffers are full)."""
    original = WebSocket.send_text

    async def send_text(self: WebSocket, data: str) -> None:
        if self.url.path.startswith(path):
            await asyncio.Event().wait()
        await original(self, data)

    monkeypatch.setattr(WebSocket, "send_text", send_text)


def test_a_spectator_who_does_not_read_is_closed_with_1013_and_gets_everything_on_reconnecting(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made, _ = friend_game(client, register(client, "Ann"), register(client, "Bob"))
    # Opening sends three messages (the log, the public view, what spectators may see): room for two only.
    monkeypatch.setattr(online, "WATCH_QUEUE", 2, raising=False)
    with client.websocket_connect(f"/ws/watch/{made['invite']}") as watch:
        _, code = _until_closed(watch)
    assert code == 1013  # (it was left open, its frames dropped: the page went stale and never knew)
    live = client.app.state.hub.live.get(made["id"])  # type: ignore[attr-defined]
    assert live is None or not live.watchers  # nothing is queued for it any more
    monkeypatch.setattr(online, "WATCH_QUEUE", 500)
    with client.websocket_connect(f"/ws/watch/{made['invite']}") as watch:  # its page connects again
        assert next_of(watch, "events")["replay"] is True
        assert next_of(watch, "watch")["players"][1]["name"] == "Bob"


def test_a_chat_client_that_does_not_read_is_closed_with_1013(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made, _ = friend_game(client, register(client, "Ann"), register(client, "Bob"))
    monkeypatch.setattr(online, "CHAT_QUEUE", 1, raising=False)
    _deaf_to(monkeypatch, "/ws/chat/")
    with client.websocket_connect(f"/ws/chat/{made['id']}?token={made['token']}") as chat:
        for text in ("one", "two"):  # each comes back to Ann's own chat: the second finds no room
            chat.send_json({"type": "chat", "text": text})
        kinds, code = _until_closed(chat)
    assert code == 1013 and kinds == []  # (its frames were dropped silently once 200 were queued)
    live = client.app.state.hub.live.get(made["id"])  # type: ignore[attr-defined]
    assert live is None or not live.chatters
