"""The web server with a damaged game or a store it cannot use (session 11's audit): one damaged game must
not take the lobby or a player's page down with it, a chat socket of a game that cannot be loaded says so
in one ``error`` as the game and watch sockets do, and ``bummerl serve`` refuses in one line (exit 2) a
store it cannot migrate or write, instead of a traceback at start-up or a failure at every move."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bummerl.rules import Rules
from bummerl.server import create_app
from bummerl.server.presence import End, TimeStore
from bummerl.server.protocol import UNAVAILABLE
from bummerl.server.web_store import WEB_MIGRATIONS, WebStore
from bummerl.store import DB_NAME, GameStore, StoreError
from bummerl.table import Seat, Table
from helpers.players import invite, join, key, register
from helpers.unprivileged import unprivileged

#: The server and what was made in it: ``ann`` (her key), ``bad``/``good`` (public invitations),
#: ``played`` (Ann's seat in a game with Bob).
Damaged = tuple[TestClient, dict[str, Any]]


def damage(home: Path, game_id: str) -> None:
    """What a bad sector or a hand edit leaves: a deal row whose deck is no deck."""
    with sqlite3.connect(home / DB_NAME) as db:
        db.execute("UPDATE deals SET deck = 'garbage' WHERE game_id = ?", (game_id,))


@pytest.fixture
def damaged(tmp_path: Path) -> Iterator[Damaged]:
    """A server whose store holds Ann's two public invitations and her game with Bob, of which one
    invitation and the game are damaged (the server restarted since)."""
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        ann, bob = register(client, "Ann"), register(client, "Bob")
        bad_invitation, good_invitation = invite(client, ann, public=True), invite(client, ann, public=True)
        played = invite(client, ann)
        join(client, played, bob)
    damage(tmp_path, bad_invitation["id"])
    damage(tmp_path, played["id"])
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        yield client, {"ann": ann, "bad": bad_invitation, "good": good_invitation, "played": played}


def test_the_lobby_lists_the_healthy_invitations_and_leaves_a_damaged_one_out(damaged: Damaged) -> None:
    client, made = damaged
    answer = client.get("/api/lobby")
    assert answer.status_code == 200, answer.text
    links = [row["link"] for row in answer.json()["invitations"]]
    assert len(links) == 1 and links[0].endswith(made["good"]["invite"])


def test_a_players_page_marks_a_damaged_game_and_lists_the_others(damaged: Damaged) -> None:
    client, made = damaged
    answer = client.get("/api/players/me", headers=key(made["ann"]))
    assert answer.status_code == 200, answer.text
    states = {g["id"]: g["state"] for g in answer.json()["friend_games"]}
    assert states[made["played"]["id"]] == "damaged" and states[made["bad"]["id"]] == "damaged"
    assert states[made["good"]["id"]] != "damaged"


def test_a_damaged_player_row_is_left_out_of_the_lobby_and_its_page_says_so(tmp_path: Path) -> None:
    # Session 12's audit: one player's rating stored as 'abc' made the public lobby answer 500 for everyone.
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        ann, bob, cid = register(client, "Ann"), register(client, "Bob"), register(client, "Cid")
        invite(client, ann, public=True)
        mine = invite(client, cid, public=True)
        join(client, invite(client, bob), ann)  # Ann plays Bob: her page names him
        with sqlite3.connect(tmp_path / DB_NAME) as db:
            db.execute("UPDATE web_players SET rating = 'abc' WHERE name IN ('Bob', 'Cid')")
        lobby = client.get("/api/lobby")
        assert lobby.status_code == 200, lobby.text
        assert [row["host"]["name"] for row in lobby.json()["invitations"]] == ["Ann"]
        page = client.get("/api/players/me", headers=key(ann))
        assert page.status_code == 200 and "(damaged player)" in str(page.json()["friend_games"])
        mine_page = client.get("/api/players/me", headers=key(cid))
        assert mine_page.status_code == 409 and "the player record" in mine_page.json()["error"]
        for answer in (client.get("/api/players/Cid"), client.get(f"/api/friends/{mine['invite']}"),
                       client.post("/api/friends", json={}, headers=key(cid))):  # every route: one line
            assert answer.status_code == 409 and "the player record" in answer.json()["error"], answer.text


def test_the_chat_of_a_damaged_game_says_why_in_one_error(damaged: Damaged) -> None:
    client, made = damaged
    seat = made["played"]
    with client.websocket_connect(f"/ws/chat/{seat['id']}?token={seat['token']}") as ws:
        said = ws.receive_json()
        assert said["type"] == "error" and f"game {seat['id']} is damaged" in said["reason"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == UNAVAILABLE


def test_a_web_schema_that_is_no_number_or_newer_is_refused_in_one_line(tmp_path: Path) -> None:
    WebStore(tmp_path).close()
    for value, words in (('"x"', "is damaged: its web schema is 'x', not a valid schema number"),
                         ("99", "has web schema 99, newer than this bummerl knows")):
        with sqlite3.connect(tmp_path / DB_NAME) as db:
            db.execute("UPDATE settings SET value = ? WHERE key = 'web.schema'", (value,))
        with pytest.raises(StoreError, match=words):
            WebStore(tmp_path)


def test_the_ends_of_a_web_schema_7_store_are_kept_when_resigning_comes_in(tmp_path: Path) -> None:
    # Schema 8 makes the table of ends again (a CHECK cannot be changed in SQLite): nothing may be lost.
    table = Table(Rules.preset("standard"), (Seat("Ann"), Seat("Bob")), seed=1)
    with GameStore.open(tmp_path) as store:
        ids = [store.create(rules=table.rules, level="human", seed=1, cards="french",
                            first_dealer=table.first_dealer, record=table.record()).id for _ in range(2)]
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        for statements in WEB_MIGRATIONS[:7]:
            for statement in statements:
                db.execute(statement)
        db.execute("INSERT OR REPLACE INTO settings VALUES ('web.schema', '7')")
        db.execute("INSERT INTO web_game_ends VALUES (?, 1, 'time', 12.5)", (ids[0],))
        db.execute("INSERT INTO web_game_ends VALUES ('gone', 0, 'time', 1.0)")  # its game deleted by hand
    web = WebStore(tmp_path)
    try:
        times = TimeStore(web)
        assert times.end(ids[0]) == End(1, "time", 12.5) and times.end("gone") is None
        with pytest.raises(StoreError, match="cannot save the end"):  # refused aloud, never passed over
            times.save_end(ids[1], End(0, "resigned ", 1.0))  # type: ignore[arg-type]
        times.save_end(ids[1], End(0, "resigned", 1.0))
        times.save_end(ids[1], End(1, "time", 2.0))  # an earlier end stays
        assert times.end(ids[1]) == End(0, "resigned", 1.0)
    finally:
        web.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("web_tables", [False, True])
def test_serve_refuses_a_store_it_cannot_write_in_one_line(tmp_path: Path, web_tables: bool) -> None:
    # Without the web tables the start-up's migration failed with uvicorn's traceback; with them the
    # server started and every move failed.
    (WebStore if web_tables else GameStore.open)(tmp_path).close()
    (tmp_path / DB_NAME).chmod(0o444)
    serve = ["serve", "--port", str(_free_port())]
    command = unprivileged([sys.executable, "-c", "from bummerl.cli import main; main()", *serve])
    result = subprocess.run(command, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "BUMMERL_HOME": str(tmp_path)})
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines == [f"error: cannot write the game database {tmp_path / DB_NAME}: attempt to write a "
                     "readonly database"], result.stderr


def test_a_players_games_page_lists_the_readable_games_and_names_the_damaged_ones(damaged: Damaged) -> None:
    # It answered 409 for the whole page ("... the other games are fine") and listed none of them.
    client, made = damaged
    answer = client.get("/api/players/Ann/games")
    assert answer.status_code == 200, answer.text
    page = answer.json()
    assert page["damaged"] == [made["played"]["id"]]  # open invitations are not games yet
    assert made["played"]["id"] not in {g["id"] for g in page["playing"] + page["finished"]}


@pytest.mark.parametrize(("stop", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_serve_stopped_by_a_signal_exits_with_its_status(tmp_path: Path, stop: signal.Signals,
                                                         code: int) -> None:
    # The exit status says how the server stopped (1 when a game could not be saved: see test_server).
    from bummerl.server.process import ServerProcess

    server = ServerProcess(tmp_path)
    server.start()
    assert server.proc is not None
    server.proc.send_signal(stop)
    assert server.proc.wait(timeout=60) == code


def test_a_write_waiting_for_the_database_lock_holds_up_no_other_request(tmp_path: Path) -> None:
    # Session 13's soak audit: while another process held the write lock, one registration (a write to the
    # web's tables, waiting in the store thread) froze the whole server, reads on the event loop queued
    # behind it: every request and socket of every player answered ~7 s late.
    import json
    import threading
    import time
    import urllib.error
    import urllib.request

    from bummerl.server.process import ServerProcess

    server = ServerProcess(tmp_path)
    server.start()
    try:
        holder = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None, timeout=30)
        holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock for 4 s
        done: dict[str, float] = {}

        def register() -> None:
            start = time.monotonic()
            body = json.dumps({"name": "Ann"}).encode()
            request = urllib.request.Request(server.url + "/api/players", data=body,
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=60):
                done["register"] = time.monotonic() - start

        writer = threading.Thread(target=register)
        writer.start()
        time.sleep(1.0)  # the registration now waits for the lock
        start = time.monotonic()
        with pytest.raises(urllib.error.HTTPError) as missing:  # a read of the web's tables on the loop
            urllib.request.urlopen(server.url + "/api/players/Nobody", timeout=60)
        read = time.monotonic() - start
        time.sleep(3.0 - read if read < 3.0 else 0)
        holder.execute("COMMIT")
        holder.close()
        writer.join(60)
    finally:
        server.stop()
    assert missing.value.code == 404
    assert read < 1.5, f"a read waited {read:.1f} s behind a write waiting for the lock"
    assert done["register"] >= 3.0  # the write itself did wait, and then was stored


def test_serve_refuses_a_store_whose_table_of_games_is_damaged_in_one_line(tmp_path: Path) -> None:
    # It started (opening reads only the schema version) and then answered every listing with an error.
    from bummerl.rules import Rules
    from bummerl.session import PlaySession
    from bummerl.table import FirstLegal

    for seed in range(3):
        PlaySession.new(Rules.preset("standard"), level="easy", seed=seed, home=tmp_path,
                        bot=FirstLegal()).close()
    db = sqlite3.connect(tmp_path / DB_NAME)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    db.close()
    with (tmp_path / DB_NAME).open("r+b") as file:  # the table's page overwritten, as a failing disk might
        file.seek((root - 1) * page_size)
        file.write(bytes([7]) * page_size)
    serve = ["serve", "--port", str(_free_port())]
    command = [sys.executable, "-c", "from bummerl.cli import main; main()", *serve]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "BUMMERL_HOME": str(tmp_path)})
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    said = f"error: the game database {tmp_path / DB_NAME} is damaged"
    assert len(lines) == 1 and lines[0].startswith(said), lines


SEATS = "the seats of game {} are damaged"


@pytest.mark.parametrize(("sql", "words"), [
    ("UPDATE web_seats SET seat = 'x' WHERE game_id = :game AND seat = 1", SEATS),
    ("UPDATE web_seats SET token = 'None' WHERE game_id = :game AND seat = 1", SEATS),
    ("UPDATE web_clocks SET left0 = 'abc' WHERE game_id = :game", "the clocks of game {} are damaged"),
    ("UPDATE web_clocks SET left0 = 1e308 * 10 WHERE game_id = :game", "the clocks of game {} are damaged"),
    ("INSERT INTO web_game_ends VALUES (:game, 7, 'time', 0)", "the end of game {} is damaged"),
], ids=["seat text", "token None", "clock text", "clock infinite", "winner 7"])
def test_a_damaged_row_of_the_webs_tables_is_one_409_and_one_error_on_the_socket(
        tmp_path: Path, sql: str, words: str) -> None:
    # Attacker audit: such rows gave 500s on join and claim and killed the sockets with ValueError,
    # IndexError or OverflowError; a NULL token was read as the guessable token "None".
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        ann, bob = register(client, "Ann"), register(client, "Bob")
        made = invite(client, ann, clock="5+5")
        join(client, made, bob)
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        db.execute("PRAGMA ignore_check_constraints = ON")
        db.execute(sql, {"game": made["id"]})
    said = words.format(made["id"])
    with TestClient(create_app(home=tmp_path, workers=0), raise_server_exceptions=False) as client:
        joined = client.post(f"/api/friends/{made['invite']}/join", headers=key(ann))
        assert joined.status_code == 200 or joined.json() == {"error": said}, joined.text  # (no end read)
        claimed = client.post(f"/api/games/{made['id']}/claim", json={"token": made["token"]})
        assert claimed.status_code == 409 and claimed.json() == {"error": said}, claimed.text
        with client.websocket_connect(f"/ws/games/{made['id']}?token={made['token']}") as ws:
            assert ws.receive_json() == {"type": "error", "reason": said, "answers": None}
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
        with (pytest.raises(WebSocketDisconnect),  # the token a NULL was read as opens nothing
              client.websocket_connect(f"/ws/games/{made['id']}?token=None") as ws):
            assert ws.receive_json()["type"] == "error"  # (the damage, said to anyone) or refused at once
            ws.receive_json()
