"""Seat tokens at rest (attacker audit, session 17): the database keeps them sealed with a key in a file of
its own, so a copy of ``games.db`` (a backup) opens no seat; a lost key costs the links, never a game."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bummerl.server import create_app
from bummerl.server.web_store import SECRET_NAME, WebStore
from bummerl.store import DB_NAME, StoreError
from helpers.players import invite, join, key, next_of, register, socket


def stored_tokens(home: Path) -> list[str]:
    with sqlite3.connect(home / DB_NAME) as db:
        return [row[0] for row in db.execute("SELECT token FROM web_seats")]


def test_the_database_holds_no_token_that_opens_a_seat(tmp_path: Path) -> None:
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        ann, bob = register(client, "Ann"), register(client, "Bob")
        made = invite(client, ann)
        bobs = join(client, made, bob)
        computer = client.post("/api/games", json={"level": "easy"}).json()
        kept = stored_tokens(tmp_path)
        assert len(kept) == 3 and all(t.startswith("s1.") for t in kept)
        for token in (made["token"], bobs["token"], computer["token"]):
            assert not any(token in t for t in kept)
        for stolen in kept:  # what a copy of the file gives an attacker
            with pytest.raises(WebSocketDisconnect), client.websocket_connect(
                    f"/ws/games/{made['id']}?token={stolen}") as ws:
                ws.receive_json()
        with socket(client, made) as a:  # the real one opens its seat
            assert next_of(a, "view")["seat"] == 0
    assert (tmp_path / SECRET_NAME).stat().st_mode & 0o777 == 0o600


def test_a_lost_key_costs_the_links_and_the_players_get_new_ones(tmp_path: Path) -> None:
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        ann, bob = register(client, "Ann"), register(client, "Bob")
        made = invite(client, ann)
        join(client, made, bob)
    (tmp_path / SECRET_NAME).unlink()
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(
                f"/ws/games/{made['id']}?token={made['token']}") as ws:
            ws.receive_json()  # the old link opens nothing now
        again = client.post(f"/api/friends/{made['invite']}/join", headers=key(ann))
        assert again.status_code == 200 and again.json()["seat"] == 0
        fresh = again.json()["token"]
        assert fresh != made["token"]
        with socket(client, again.json()) as a:
            assert next_of(a, "view")["players"][1]["name"] == "Bob"  # the game itself is all there
        assert client.post(f"/api/friends/{made['invite']}/join", headers=key(ann)).json()["token"] == fresh


def test_tokens_an_older_server_kept_plain_are_sealed_at_start_and_still_work(tmp_path: Path) -> None:
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        made = invite(client, register(client, "Ann"))
    with sqlite3.connect(tmp_path / DB_NAME) as db:  # as a server before session 17 kept it
        db.execute("UPDATE web_seats SET token = ?", (made["token"],))
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        assert stored_tokens(tmp_path)[0].startswith("s1.")
        with socket(client, made) as a:
            assert next_of(a, "view")["seat"] == 0


def test_a_damaged_key_file_is_refused_in_one_line(tmp_path: Path) -> None:
    WebStore(tmp_path).close()
    (tmp_path / SECRET_NAME).write_text("not a key\n")
    with pytest.raises(StoreError, match=r"key file .* is damaged: move it away"):
        WebStore(tmp_path)


def test_servers_starting_at_once_share_one_key(tmp_path: Path) -> None:
    # The review: the key file was made empty and written after; a second start in between read it as
    # damaged (and its advice, to move the file away, would have lost the first one's key).
    from concurrent.futures import ThreadPoolExecutor

    from bummerl.server.web_store import _seal_key

    path = tmp_path / SECRET_NAME
    with ThreadPoolExecutor(8) as pool:
        keys = set(pool.map(lambda _: _seal_key(path), range(32)))
    assert len(keys) == 1 and path.read_text().strip() == keys.pop().hex()
    assert sorted(p.name for p in tmp_path.iterdir()) == [SECRET_NAME]  # no file of its making is left


def test_a_file_system_without_hard_links_still_gets_its_key(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from bummerl.server.web_store import _seal_key

    def no_links(*_: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    key = _seal_key(tmp_path / SECRET_NAME)
    assert _seal_key(tmp_path / SECRET_NAME) == key
    assert sorted(p.name for p in tmp_path.iterdir()) == [SECRET_NAME]
