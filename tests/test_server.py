"""The web server: the JSON API, the WebSocket protocol, bad messages, tokens, reloads and restarts
(Starlette's test client; the browser tests are in test_web.py)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bummerl.records import GameRecord
from bummerl.server import create_app
from bummerl.server.protocol import MAX_MESSAGE

DECK = "JH KH QH JC QC KC AH AS TH JD QD TC AC KD TD AD JS QS KS TS"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(home=tmp_path, workers=0)) as c:
        yield c


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"rules": "standard", "level": "easy", **body})
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


class Seat:
    """One WebSocket at a seat: reads frames (events + view) and sends messages."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.log: list[dict[str, Any]] = []
        self.errors: list[str] = []

    def frame(self) -> dict[str, Any]:
        """The next view (events before it go to the log; errors to ``errors``)."""
        while True:
            msg = self.ws.receive_json()
            if msg["type"] == "events":
                self.log += msg["events"]
            elif msg["type"] == "error":
                self.errors.append(msg["reason"])
            elif msg["type"] == "view":
                return dict(msg)

    def my_turn(self) -> dict[str, Any]:
        """The next view where this seat must act (or the deal/game is over)."""
        while True:
            view = self.frame()
            if view["phase"] != "playing" or (view["waiting_for"] == view["seat"] and not view["thinking"]):
                return view

    def error(self) -> str:
        """The next error's reason (views in between are skipped)."""
        while True:
            msg = self.ws.receive_json()
            if msg["type"] == "error":
                return str(msg["reason"])

    def act(self, action: str) -> None:
        self.ws.send_json({"type": "act", "action": action})


def connect(client: TestClient, game: dict[str, Any]) -> Any:
    return client.websocket_connect(f"/ws/games/{game['id']}?token={game['token']}")


# ----------------------------------------------------------------------------- the API


def test_new_game_answers_id_seat_token_and_a_url_that_opens_the_seat(client: TestClient) -> None:
    game = new_game(client, seed=3, cards="german")
    assert set(game) == {"id", "seat", "token", "url"} and game["seat"] == 0
    assert game["url"] == f"http://testserver/play/{game['id']}#token={game['token']}"
    assert len(game["token"]) >= 30  # secrets.token_urlsafe(24)
    assert client.get(f"/play/{game['id']}").status_code == 200
    with connect(client, game) as ws:
        view = Seat(ws).frame()
    assert view["cards"] == "german" and view["deal"]["seat"] == 0 and view["players"][1]["level"] == "easy"


@pytest.mark.parametrize(("body", "reason"), [
    ({"rules": "standard", "level": "grandmaster"}, "unknown level"),
    ({"rules": "chess", "level": "easy"}, "chess"),
    ({"rules": "standard", "level": "easy", "seed": -1}, "seed"),
    ({"rules": "standard", "level": "easy", "seed": "7"}, "seed"),
    ({"rules": "standard", "level": "easy", "cards": "tarot"}, "cards"),
    ({"rules": "standard", "level": "easy", "decks": ["AS AS"]}, "decks"),
    ({"rules": "standard", "level": "easy", "colour": "red"}, "unknown field"),
])
def test_a_bad_new_game_is_refused_with_the_reason(client: TestClient, body: dict[str, Any],
                                                   reason: str) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400 and reason in answer.json()["error"]


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    answer = client.post("/api/games", content=b"{not json")
    assert answer.status_code == 400 and "not JSON" in answer.json()["error"]


def test_the_pages_and_their_files_are_served(client: TestClient) -> None:
    for path in ("/", "/rules", "/static/style.css", "/static/js/game.js", "/static/js/cards.js"):
        answer = client.get(path)
        assert answer.status_code == 200, path
    assert "Schnapsen" in client.get("/").text
    assert client.get("/api/rules").text.strip()


# ----------------------------------------------------------------------------- tokens


def test_a_wrong_token_gets_nothing(client: TestClient) -> None:
    game = new_game(client)
    other = new_game(client)
    for url in (f"/ws/games/{game['id']}?token=wrong", f"/ws/games/{game['id']}",
                f"/ws/games/{game['id']}?token={other['token']}",
                f"/ws/games/nosuchgame?token={game['token']}"):
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url) as ws:
            ws.receive_json()
        assert refused.value.code == 4403


def test_the_game_list_and_resume_are_for_this_computer_only(tmp_path: Path) -> None:
    app = create_app(home=tmp_path, workers=0)
    with TestClient(app) as local:
        game = new_game(local)
        assert [g["id"] for g in local.get("/api/games").json()["games"]] == [game["id"]]
        assert local.post(f"/api/games/{game['id']}/resume").json()["token"] == game["token"]
    with TestClient(app, client=("192.0.2.7", 5000)) as remote:
        assert remote.get("/api/games").json()["games"] == []
        assert remote.post(f"/api/games/{game['id']}/resume").status_code == 403


def this_computers_answers(app: Any, base_url: str, origin: str | None) -> tuple[int, int, int]:
    """What a browser on this computer (peer 127.0.0.1) at ``base_url`` is told of this computer's own
    games: (games listed, the resume's status, rows of totals)."""
    headers = {} if origin is None else {"Origin": origin}
    with TestClient(app, base_url=base_url, client=("127.0.0.1", 5000), headers=headers) as browser:
        game_id = browser.app.state.hub.store.games()[0]["id"]  # type: ignore[attr-defined]
        listed = len(browser.get("/api/games").json()["games"])
        resumed = browser.post(f"/api/games/{game_id}/resume").status_code
        totals = len(browser.get("/api/stats").json()["stats"])
    return listed, resumed, totals


@pytest.mark.parametrize(("base_url", "origin"), [
    ("http://attacker.example:8000", "http://attacker.example:8000"),  # DNS rebinding: the name now 127.0.0.1
    ("http://attacker.example:8000", None),
    ("http://localhost:8000", "http://attacker.example"),  # another site's page posting to this one
    ("http://localhost:8000", "null"),
    ("http://127.0.0.1.nip.io:8000", None),
])
def test_a_page_of_another_site_reached_from_this_computer_gets_nothing_of_its_own(
        tmp_path: Path, base_url: str, origin: str | None) -> None:
    # Audit of the web server: only the TCP peer was looked at, so a page on attacker.example whose name
    # was rebound to 127.0.0.1 read the list of games, took a seat token and read the totals.
    app = create_app(home=tmp_path, workers=0)
    with TestClient(app) as local:
        new_game(local)
    assert this_computers_answers(app, base_url, origin) == (0, 403, 0)


@pytest.mark.parametrize(("base_url", "origin"), [
    ("http://localhost:8000", None), ("http://localhost:8000", "http://localhost:8000"),
    ("http://127.0.0.1:8000", "http://127.0.0.1:8000"), ("http://[::1]:8000", "http://[::1]:8000"),
    ("http://127.0.0.1", None),
])
def test_this_computers_own_browser_still_gets_its_games(tmp_path: Path, base_url: str,
                                                         origin: str | None) -> None:
    app = create_app(home=tmp_path, workers=0)
    with TestClient(app) as local:
        new_game(local)
    listed, resumed, totals = this_computers_answers(app, base_url, origin)
    assert (listed, resumed) == (1, 200) and totals > 0


# ----------------------------------------------------------------------------- playing


def test_a_deal_of_the_seeded_deck_with_every_kind_of_action(client: TestClient) -> None:
    game = new_game(client, seed=1, dealer=1, decks=[DECK])
    assert client.get(f"/api/games/{game['id']}/record").status_code == 409  # not over yet
    with connect(client, game) as ws:
        seat = Seat(ws)
        view = seat.my_turn()
        assert sorted(view["deal"]["hand"]) == sorted(["JH", "KH", "QH", "AS", "TH"])
        assert view["deal"]["trump_card"] == "AH" and view["deal"]["talon_size"] == 10
        for action in ("exchange", "play AS", "marry H", "play KH", "close", "play AH", "claim"):
            assert action in view["deal"]["legal"], (action, view["deal"]["legal"])
            seat.act(action)
            view = seat.my_turn() if action != "claim" else seat.frame()
        assert view["phase"] == "deal_over" and view["result"]["winner"] == 0
        assert view["result"]["reason"] == "claim" and view["sheet"][0]["winner"] == 0
        kinds = [e["kind"] for e in seat.log]
        for kind in ("deal", "exchange", "marry", "close", "claim", "deal_over"):
            assert kind in kinds
        seat.act("next")
        view = seat.frame()
        assert view["deal_number"] == 2 and view["phase"] == "playing"
        assert seat.errors == []


def test_a_ping_is_answered_at_once_with_a_pong(client: TestClient) -> None:
    # The page's heartbeat: a socket whose network dropped without closing it is found by an unanswered ping.
    game = new_game(client, seed=1)
    with connect(client, game) as ws:
        seat = Seat(ws)
        seat.my_turn()
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_bad_messages_get_an_error_with_a_reason_and_change_nothing(client: TestClient) -> None:
    game = new_game(client, seed=1, dealer=1, decks=[DECK])
    with connect(client, game) as ws:
        seat = Seat(ws)
        before = seat.my_turn()
        bad: list[tuple[Any, str]] = [
            ("this is not json", "not JSON"),
            ("[1, 2]", "JSON object"),
            ('{"type": "dance"}', "unknown message type"),
            ('{"action": "play AS"}', "unknown message type"),
            ('{"type": "act"}', "action"),
            ('{"type": "act", "action": "play AS' + "x" * MAX_MESSAGE + '"}', "too large"),
            ('{"type": "act", "action": "play 7X"}', ""),
            ('{"type": "act", "action": "play AC"}', "do not hold"),
            ('{"type": "act", "action": "pass"}', "pass"),
            ('{"type": "act", "action": "next"}', "not over"),
            ('{"type": "review"}', "once the Bummerl is over"),
        ]
        for text, reason in bad:
            ws.send_text(text)
            got = seat.error()
            assert reason in got, (text, got)
        ws.send_bytes(b"\xff\xfe")
        assert "UTF-8" in seat.error()
        ws.send_text("x" * 200_000)  # huge, yet within the WebSocket frame limit: an error, still open
        assert "too large" in seat.error()
        seat.act("play AS")  # the connection is still usable and nothing changed
        after = seat.frame()
        assert after["deal"]["lead"] == "AS"
        assert before["deal"]["hand"] != after["deal"]["hand"] and "AS" not in after["deal"]["hand"]


def test_reloading_gives_the_same_view_and_the_whole_log(client: TestClient) -> None:
    game = new_game(client, seed=5)
    with connect(client, game) as ws:
        seat = Seat(ws)
        view = seat.my_turn()
        for _ in range(3):
            seat.act(sorted(a for a in view["deal"]["legal"] if a.startswith("play"))[0])
            view = seat.my_turn()
        log = list(seat.log)
    with connect(client, game) as ws:
        again = Seat(ws)
        reloaded = again.frame()
        assert reloaded == view and again.log == log
        again.act(sorted(a for a in reloaded["deal"]["legal"] if a.startswith("play"))[0])
        assert again.frame()["deal"] != reloaded["deal"]


def test_a_server_restart_continues_exactly_where_the_game_was(tmp_path: Path) -> None:
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        game = new_game(client, seed=9, rules="sixty-six")
        with connect(client, game) as ws:
            seat = Seat(ws)
            view = seat.my_turn()
            for _ in range(4):
                seat.act(sorted(view["deal"]["legal"])[-1])
                view = seat.my_turn()
    with TestClient(create_app(home=tmp_path, workers=0)) as client, connect(client, game) as ws:
        seat = Seat(ws)
        again = seat.my_turn()
        assert again == view
        seat.act(sorted(again["deal"]["legal"])[-1])
        assert seat.frame()["deal"] != again["deal"]


def test_a_whole_bummerl_of_random_moves_ends_with_a_record_that_replays(client: TestClient) -> None:
    rng = random.Random(4)
    game = new_game(client, seed=4, rules="tompa")
    with connect(client, game) as ws:
        seat = Seat(ws)
        view = seat.my_turn()
        while view["phase"] != "game_over":
            seat.act("next" if view["phase"] == "deal_over" else rng.choice(view["deal"]["legal"]))
            view = seat.my_turn()
        assert seat.errors == []
    answer = client.get(f"/api/games/{game['id']}/record")
    assert answer.status_code == 200
    replayed = GameRecord.from_json(answer.json()).replay()
    assert list(replayed.score) == view["score"] and replayed.winner == view["winner"]
    stats = client.get("/api/stats").json()["stats"]
    assert {"by": "level", "name": "easy"}.items() <= stats[0].items() and stats[0]["bummerls"] == 1


def test_the_analysis_answers_for_the_seat_to_move_only(client: TestClient) -> None:
    game = new_game(client, seed=1, dealer=1, decks=[DECK])
    with connect(client, game) as ws:
        seat = Seat(ws)
        view = seat.my_turn()
        ws.send_json({"type": "analyse"})
        msg = ws.receive_json()
        while msg["type"] != "analysis":
            msg = ws.receive_json()
        assert {a["action"] for a in msg["actions"]} == set(view["deal"]["legal"])
        assert msg["note"].startswith(("exact", "sampled"))
        assert all(0.0 <= a["bummerl_win"] <= 1.0 for a in msg["actions"])  # a Bummerl: each move's chance


def test_a_game_started_in_the_terminal_continues_in_the_browser_and_not_in_both(tmp_path: Path) -> None:
    from bummerl.rules import Rules
    from bummerl.session import PlaySession
    from bummerl.store import GameStore

    terminal = PlaySession.new(Rules.preset("standard"), level="medium", seed=2, first_dealer=1,
                               home=tmp_path)
    first = terminal.view().legal_actions[0]
    terminal.act(first)
    terminal.close()
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        game = client.post(f"/api/games/{terminal.id}/resume").json()
        assert game["id"] == terminal.id
        with GameStore.open(tmp_path) as store, store.lease(terminal.id, "terminal"), \
                connect(client, game) as ws:  # open in the terminal: one error, then closed
            assert "another window" in ws.receive_json()["reason"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4409
        with connect(client, game) as ws:
            seat = Seat(ws)
            view = seat.my_turn()  # the computer answers the move made in the terminal
    record = client.get(f"/api/games/{terminal.id}/record")
    assert record.status_code == 409  # the same stored game, still being played
    moves = [e for e in seat.log if e["kind"] in ("play", "exchange", "close", "marry")]
    assert moves[0]["seat"] == 0 and moves[1]["seat"] == 1 and view["waiting_for"] == 0
    assert str(first).split()[-1] in (moves[0]["data"].get("card", ""), str(first))


def test_serve_refuses_a_bad_or_busy_port(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    from typer.testing import CliRunner

    from bummerl.cli import app

    monkeypatch.setenv("BUMMERL_HOME", str(tmp_path))
    runner = CliRunner()
    result = runner.invoke(app, ["serve", "--port", "0"])
    assert result.exit_code == 2 and "--port must be from 1 to 65535" in result.output
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2 and f"cannot serve on 127.0.0.1:{port}" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("after", [0.0, 2.0])
def test_ctrl_c_stops_serve_without_a_traceback_from_its_thinking_workers(tmp_path: Path,
                                                                         after: float) -> None:
    """A terminal's Ctrl-C reaches the whole process group: the workers printed a KeyboardInterrupt
    traceback each (session 11's audit); they now leave stopping to the server. At once after the first
    game (``after`` 0: the workers still import bummerl, the computer may be thinking) it printed 3-5 more
    (session 13's audit): an import interrupted, a worker's reset socket, a lease released too late."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    serve = subprocess.Popen(
        [sys.executable, "-c", "from bummerl.cli import main; main()", "serve", "--port", str(port),
         "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "BUMMERL_HOME": str(tmp_path)})
    try:
        deadline = time.monotonic() + 60
        while True:  # up, and its workers warmed up (the first decision waits for them)
            try:
                made = urllib.request.urlopen(urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/games", data=b'{"level": "easy", "dealer": 0}',
                    headers={"Content-Type": "application/json"}), timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline and serve.poll() is None, "the server did not start"
                time.sleep(0.2)
        assert made.status == 201
        time.sleep(after)
        os.killpg(serve.pid, signal.SIGINT)
        out, err = serve.communicate(timeout=60)
    finally:
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "serving the web game" in out


def test_a_seat_socket_that_opens_while_the_last_one_closes_joins_the_game_the_hub_holds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Session 11's audit: the hub put the game away while a new socket was opening (between getting the
    game and joining it), the new socket joined that orphan, and the next one got a second live table of
    the same game, whose moves were never saved and whose talon showed cards ahead of the real game.
    Opening a socket is slowed here (50 ms, as a slow network) so that the other one closes meanwhile."""
    import asyncio
    import socket

    import uvicorn
    import websockets
    from starlette.websockets import WebSocket

    from bummerl.rules import Rules

    accept = WebSocket.accept

    async def slow_accept(self: WebSocket, *args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0.05)
        await accept(self, *args, **kwargs)

    monkeypatch.setattr(WebSocket, "accept", slow_accept)
    app = create_app(home=tmp_path, workers=0)

    async def race() -> tuple[int, int]:  # (listeners at the live table, live games in the end)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        serving = asyncio.create_task(server.serve())
        try:
            while not server.started:
                await asyncio.sleep(0.02)
            hub = app.state.hub
            game, seat = await hub.create(Rules.preset("standard"), "easy", seed=3, first_dealer=1)
            url = f"ws://127.0.0.1:{port}/ws/games/{game.id}?token={game.tokens[seat]}"
            async def shown(ws: Any) -> None:  # the socket has joined: its first view came
                while json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] != "view":
                    pass

            b = await websockets.connect(url)
            await shown(b)
            async def connect() -> Any:
                return await websockets.connect(url)

            opening = asyncio.create_task(connect())  # tab A opens ...
            await asyncio.sleep(0.01)
            await b.close()  # ... while tab B, the only one, closes
            a = await opening
            c = await websockets.connect(url)  # tab C opens later
            await shown(a)
            await shown(c)
            joined = len(hub.live[game.id].listeners)
            await a.close()
            await c.close()
            for _ in range(200):  # the server sees the closes
                if not hub.live:
                    break
                await asyncio.sleep(0.05)
            return joined, len(hub.live)
        finally:
            server.should_exit = True
            await serving

    listeners, tables = asyncio.run(race())
    assert listeners == 2  # A and C at the one live table (A was at an orphan, C alone at the live one)
    assert tables == 0  # and once both closed, it was put away


def test_serve_on_every_address_prints_the_one_friends_reach(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # It printed http://0.0.0.0:8000/, and invitation links made from that address reach nobody.
    import socket

    import uvicorn
    from typer.testing import CliRunner

    import bummerl.cli.serve as serve_cli
    from bummerl.cli import app

    def run(self: uvicorn.Server) -> None:
        self.started = True  # as if it had served and been stopped

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(serve_cli, "_network_address", lambda: "10.9.8.7")
    monkeypatch.setenv("BUMMERL_HOME", str(tmp_path))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0", "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert f"serving the web game at http://10.9.8.7:{port}/" in result.output
    assert f"Friends on your network open http://10.9.8.7:{port}/friend" in result.output


def test_serve_open_says_so_when_there_is_no_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # On a machine without a browser --open did nothing and said nothing.
    import socket
    import threading
    import webbrowser

    import uvicorn
    from typer.testing import CliRunner

    from bummerl.cli import app

    asked = threading.Event()

    def no_browser(url: str) -> bool:
        asked.set()
        return False

    def run(self: uvicorn.Server) -> None:
        self.started = True  # as if it had served until the browser was asked, and been stopped
        assert asked.wait(10)
        time.sleep(0.5)  # the opener's line follows at once

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(webbrowser, "open", no_browser)
    monkeypatch.setenv("BUMMERL_HOME", str(tmp_path))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = CliRunner().invoke(app, ["serve", "--open", "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert f"--open: no web browser found here; open http://127.0.0.1:{port}/ yourself" in result.stderr


# ----------------------------------------------------------------------------- saving fails


def test_a_game_that_could_not_be_saved_is_kept_retried_and_said_at_shutdown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Session 12's audit: with the disk full, closing the page put the game away with its unsaved moves
    # (a reload went back a deal), and Ctrl-C then exited 0 with 39 answered moves lost, saying nothing.
    from bummerl.store import GameStore

    app = create_app(home=tmp_path, workers=0)
    with TestClient(app) as client:
        hub = app.state.hub
        game = new_game(client, seed=5)
        with connect(client, game) as ws:
            seat = Seat(ws)
            view = seat.my_turn()
            hub.store.store._db.execute("PRAGMA query_only = ON")  # every write fails from now on
            seat.act(view["deal"]["legal"][0])
            seat.my_turn()
            assert any(e["kind"] == "save_failed" for e in seat.log)
            played = hub.live[game["id"]].session.table.record()
        assert game["id"] in hub.live  # the page closed, yet the game stays: its moves are not stored
        with connect(client, game) as ws:  # a reload gets the same game, nothing gone back
            assert Seat(ws).frame()["deal"]["hand"] == hub.live[game["id"]].session.view().to_json()["hand"]
        assert client.portal.call(hub.save_unsaved) == [(game["id"], hub.live[game["id"]].session.save_error)]
        hub.store.store._db.execute("PRAGMA query_only = OFF")  # space again: the retry stores it all
        assert client.portal.call(hub.save_unsaved) == [] and game["id"] not in hub.live
        with GameStore.open(tmp_path) as store:
            assert store.load(game["id"]).record == played

        other = new_game(client, seed=6)
        with connect(client, other) as ws:
            seat = Seat(ws)
            view = seat.my_turn()
            hub.store.store._db.execute("PRAGMA query_only = ON")
            seat.act(view["deal"]["legal"][0])
            seat.my_turn()
    assert app.state.unsaved and app.state.unsaved[0][0] == other["id"]
    err = capsys.readouterr().err
    assert f"error: game {other['id']} could not be saved:" in err
    assert "its moves since the last save are lost" in err


def test_a_client_that_does_not_read_is_closed_not_left_open_and_deaf(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Session 12's second web audit: a stalled client whose queue filled was dropped from the game but its
    # socket stayed open, answering pings: its page looked connected while the friend saw it away.
    import bummerl.server.app as web_app

    monkeypatch.setattr(web_app, "MAX_QUEUE", 1)  # the log and the view on opening are already two messages
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        game = new_game(client, seed=1)
        with pytest.raises(WebSocketDisconnect) as closed, connect(client, game) as ws:
            while True:
                ws.receive_json()
        assert closed.value.code == web_app.TRY_AGAIN_LATER
        live = client.app.state.hub.live.get(game["id"])
        assert live is None or not live.listeners
