"""Hostile clients get nothing (issue 14), beyond what test_online.py and test_server.py already check
(wrong and borrowed game tokens, a seat acting out of turn, bad and huge messages, a flood on a game or a
chat socket): unknown player keys on every keyed route, another game's seat token on the chat and watch
sockets, actions for the other seat, a spectator's flood and huge messages, frames over the server's
1 MiB frame limit and 1,000 messages a second over a real socket, and the HTTP limits (POST rate per
address, body size, games in progress per player). Each gets a clear ``error`` (or 401/413/429 with a
JSON ``error``, or a closed connection) and changes nothing in the store."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bummerl.server import create_app
from bummerl.server.limits import Limits
from bummerl.server.online import KEY_HEADER
from bummerl.store import GameStore
from helpers.players import flood_allowance, invite, join, key, next_of, register
from helpers.web import ServerProcess, free_port, running_server


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(home=tmp_path, workers=0)) as c:
        yield c


def stored(client: TestClient) -> list[tuple[str, str, int]]:
    """Every stored game: (id, state, actions so far)."""
    store: GameStore = client.app.state.hub.store.store  # type: ignore[attr-defined]
    games = []
    for game in store.games():
        assert not isinstance(game, Exception)
        games.append((game.id, game.state, sum(len(d.actions) for d in game.record.deals)))
    return sorted(games)


#: The default limits, which the servers of these tests keep.
LIMITS = Limits()


def most_errors(started: float) -> int:
    """The errors a flood of bad messages begun at ``started`` (``time.monotonic()``) may get by now: one for
    each message the bucket let through, then one for the rest of the flood."""
    return flood_allowance(time.monotonic() - started, LIMITS.messages_per_second, LIMITS.messages_burst) + 1


def friends(client: TestClient) -> dict[str, Any]:
    """Two players and a game between them (both seats taken)."""
    ann, bob = register(client, "Ann"), register(client, "Bob")
    made = invite(client, ann)
    return {"ann": ann, "bob": bob, "seats": [made, join(client, made, bob)], "made": made}


# ----------------------------------------------------------------------------- player keys and tokens


@pytest.mark.parametrize("header", [{}, {KEY_HEADER: ""}, {KEY_HEADER: "guess"}, {KEY_HEADER: "k" * 10_000},
                                    {KEY_HEADER: "' OR 1=1 --"}])
def test_an_unknown_player_key_gets_401_on_every_keyed_route_and_changes_nothing(
        client: TestClient, header: dict[str, str]) -> None:
    game = friends(client)
    before = stored(client)
    invite_code = game["made"]["invite"]
    for method, path in (("GET", "/api/players/me"), ("POST", "/api/friends"),
                         ("POST", f"/api/friends/{invite_code}/join"),
                         ("POST", f"/api/friends/{invite_code}/rematch")):
        answer = client.request(method, path, headers=header, json={})
        assert answer.status_code == 401 and answer.json()["error"], (path, answer.text)
    assert stored(client) == before


def test_a_seat_token_opens_only_its_own_game_on_every_socket(client: TestClient) -> None:
    first = friends(client)
    cid, dan = register(client, "Cid"), register(client, "Dan")
    made = invite(client, cid)
    theirs = join(client, made, dan)["token"]
    mine = first["seats"][0]
    for url in (f"/ws/chat/{mine['id']}?token={theirs}",  # another game's token on this game's chat
                f"/ws/games/{mine['id']}?token={theirs}",
                f"/ws/watch/{mine['token']}",  # a seat token is not an invitation
                f"/ws/chat/{mine['id']}?token={first['made']['invite']}",  # nor is an invitation a token
                f"/ws/games/{mine['id']}?token={first['made']['invite']}"):
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(url) as ws:
            ws.receive_json()


@pytest.mark.parametrize("token", ["\ud800", "\udfff" * 32, "x\ud83d"], ids=["lone", "many", "half a pair"])
def test_a_token_that_is_not_text_is_a_wrong_token_on_a_claim(client: TestClient, token: str) -> None:
    # A JSON body may carry a lone surrogate, which no string of UTF-8 holds: the comparison with the seat's
    # token raised UnicodeEncodeError and the claim answered 500 (audit of the web server).
    game = friends(client)
    before = stored(client)
    body = json.dumps({"token": token}).encode()  # the JSON escape \ud800, as a client sends it
    answer = client.post(f"/api/games/{game['made']['id']}/claim", content=body,
                         headers={"Content-Type": "application/json"})
    assert (answer.status_code, answer.json()) == (404, {"error": "no such game"})
    assert stored(client) == before


def test_actions_for_the_other_seat_are_refused_and_change_nothing(client: TestClient) -> None:
    game = friends(client)
    seats = game["seats"]
    with client.websocket_connect(f"/ws/games/{seats[0]['id']}?token={seats[0]['token']}") as a, \
            client.websocket_connect(f"/ws/games/{seats[1]['id']}?token={seats[1]['token']}") as b:
        views = [next_of(a, "view"), next_of(b, "view")]
        mover = views[0]["waiting_for"]
        idle = [a, b][1 - mover]
        before = stored(client)
        theirs = views[mover]["deal"]["legal"]
        for action in theirs[:3]:  # the mover's own moves, sent by the other seat
            idle.send_json({"type": "act", "action": action})
            assert "turn" in next_of(idle, "error")["reason"]
            idle.send_json({"type": "act", "action": action, "seat": mover})  # a seat field is not obeyed
            assert "turn" in next_of(idle, "error")["reason"]
        for action in ("next", "claim", "pass", "close"):
            idle.send_json({"type": "act", "action": action})
            assert next_of(idle, "error")["reason"]
        assert stored(client) == before
        [a, b][mover].send_json({"type": "act", "action": theirs[0]})  # the mover still may
        assert next_of([a, b][mover], "view")["waiting_for"] is not None
        assert stored(client)[0][2] == before[0][2] + 1


def test_a_spectator_flood_and_huge_messages_get_one_error_and_change_nothing(client: TestClient) -> None:
    game = friends(client)
    before = stored(client)
    with client.websocket_connect(f"/ws/watch/{game['made']['invite']}") as watch:
        next_of(watch, "watch")
        watch.send_text("x" * 1_000_000)
        assert "only watch" in next_of(watch, "error")["reason"]
        started = time.monotonic()
        for _ in range(1000):
            watch.send_json({"type": "act", "action": "next"})
        reasons: list[str] = []
        while not any("too many messages" in r for r in reasons):
            reasons.append(next_of(watch, "error")["reason"])
        assert len(reasons) <= most_errors(started), len(reasons)
    assert stored(client) == before


# ----------------------------------------------------------------------------- HTTP limits


def test_post_requests_are_limited_per_address_with_429_and_change_nothing(tmp_path: Path) -> None:
    app = create_app(home=tmp_path, workers=0, limits=Limits(posts_per_minute=6, posts_burst=4))
    with TestClient(app) as here:
        ann = register(here, "Ann")
        made = invite(here, ann)
        register(here, "Bob")
        here.post("/api/games", json={"level": "easy", "dealer": 1})  # the player leads: nothing moves
        before = stored(here)
        refused = [here.post("/api/players", json={"name": "Cid"}),
                   here.post("/api/friends", json={}, headers=key(ann)),
                   here.post(f"/api/friends/{made['invite']}/join", headers=key(ann)),
                   here.post("/api/games", json={"level": "easy"})]
        for answer in refused:
            assert answer.status_code == 429 and "too many requests" in answer.json()["error"]
            assert 1 <= int(answer.headers["Retry-After"]) <= 10
        assert here.get("/api/players/Cid").status_code == 404 and stored(here) == before
        assert here.get("/api/lobby").status_code == 200  # reading is not limited
        there = TestClient(app, client=("192.0.2.7", 50000))  # another address has its own allowance
        assert there.post("/api/players", json={"name": "Cid"}).status_code == 201


def test_lifted_limits_let_one_address_post_as_much_as_it_likes(tmp_path: Path) -> None:
    with TestClient(create_app(home=tmp_path, workers=0, limits=Limits.lifted())) as here:
        host = register(here, "Host")
        for i in range(30):
            register(here, f"Player {i}")
            invite(here, host)  # no limit on open invitations or games either
        assert len(here.get("/api/players/me", headers=key(host)).json()["friend_games"]) == 30


def test_a_post_body_over_64_kib_gets_413_and_changes_nothing(client: TestClient) -> None:
    huge = b'{"name": "' + b"x" * 70_000 + b'"}'
    for path in ("/api/players", "/api/games", "/api/friends"):
        answer = client.post(path, content=huge, headers={"Content-Type": "application/json"})
        assert answer.status_code == 413 and "too large" in answer.json()["error"]
    assert stored(client) == []
    assert client.post("/api/players", json={"name": "Ann"}).status_code == 201


def test_games_in_progress_per_player_are_limited(tmp_path: Path) -> None:
    limits = Limits(games_per_player=2, open_invitations=0)
    with TestClient(create_app(home=tmp_path, workers=0, limits=limits)) as here:
        ann, bob, cid = (register(here, n) for n in ("Ann", "Bob", "Cid"))
        anns = [invite(here, ann), invite(here, ann)]
        third = here.post("/api/friends", json={}, headers=key(ann))
        assert third.status_code == 429 and "2 games that are not over" in third.json()["error"]
        invite(here, bob)
        invite(here, bob)
        before = stored(here)
        refused = here.post(f"/api/friends/{anns[0]['invite']}/join", headers=key(bob))
        assert refused.status_code == 429 and "finish one first" in refused.json()["error"]
        assert stored(here) == before
        assert join(here, anns[0], cid)["seat"] == 1  # somebody else may take it
        assert join(here, anns[0], bob)["seat"] is None  # and Bob may still watch
        assert join(here, anns[0], ann)["seat"] == 0  # a player always gets their own seat back


def test_serve_passes_its_limit_options_to_the_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn
    from typer.testing import CliRunner

    import bummerl.server
    from bummerl.cli import app

    made: list[Limits] = []
    real = bummerl.server.create_app

    def spy(**kwargs: Any) -> Any:
        made.append(kwargs["limits"])
        return real(**kwargs)

    monkeypatch.setenv("BUMMERL_HOME", str(tmp_path))
    monkeypatch.setattr(bummerl.server, "create_app", spy)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)  # never listens: "cannot serve"
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)  # leaves logging alone
    runner = CliRunner()
    port = str(free_port())
    runner.invoke(app, ["serve", "--port", port, "--posts-per-minute", "5", "--games-per-player", "3",
                        "--open-invitations", "0", "--messages-per-second", "2.5",
                        "--connections-per-address", "500"])
    runner.invoke(app, ["serve", "--port", port, "--no-limits"])
    runner.invoke(app, ["serve", "--port", port])
    chosen = Limits(posts_per_minute=5, games_per_player=3, open_invitations=0, messages_per_second=2.5,
                    connections_per_address=500)
    assert made == [chosen, Limits.lifted(), Limits()]
    refused = runner.invoke(app, ["serve", "--games-per-player", "-1"])
    assert refused.exit_code == 2
    assert "--games-per-player must be a number, 0 (no limit) or more, not -1" in refused.output


# ----------------------------------------------------------------------------- a real server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("hostile")) as s:
        yield s


def real_friends(server: ServerProcess, names: tuple[str, str]) -> list[dict[str, Any]]:
    def post(path: str, key: str) -> dict[str, Any]:
        import urllib.request

        request = urllib.request.Request(server.url + path, b"{}", {"Content-Type": "application/json",
                                                                     KEY_HEADER: key})
        with urllib.request.urlopen(request, timeout=60) as answer:
            result: dict[str, Any] = json.loads(answer.read())
            return result

    ann, bob = (server.post("/api/players", {"name": n}) for n in names)
    made = post("/api/friends", ann["key"])
    return [made, post(f"/api/friends/{made['invite']}/join", bob["key"])]


def ws_url(server: ServerProcess, seat: dict[str, Any]) -> str:
    return f"ws://127.0.0.1:{server.port}/ws/games/{seat['id']}?token={seat['token']}"


def receive(ws: Any, kind: str, timeout: float = 60) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
        if msg["type"] == kind:
            return msg


def actions_stored(server: ServerProcess, game_id: str) -> int:
    with GameStore.open(server.home) as store:
        return sum(len(d.actions) for d in store.load(game_id).record.deals)


def test_frames_over_a_mebibyte_close_the_connection_and_change_nothing(server: ServerProcess) -> None:
    seats = real_friends(server, ("Eve", "Fay"))
    huge = json.dumps({"type": "act", "action": "x" * (1 << 20)})
    for url in (ws_url(server, seats[0]), f"ws://127.0.0.1:{server.port}/ws/chat/{seats[0]['id']}"
                f"?token={seats[0]['token']}", f"ws://127.0.0.1:{server.port}/ws/watch/{seats[0]['invite']}"):
        with connect(url, max_size=None) as ws:
            ws.recv(timeout=60)
            ws.send(huge)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=60)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    assert actions_stored(server, seats[0]["id"]) == 0
    with connect(ws_url(server, seats[0])) as ws:  # the seat opens again as it was
        assert receive(ws, "view")["deal_number"] == 1


def test_a_thousand_messages_a_second_get_one_error_and_the_game_plays_on(server: ServerProcess) -> None:
    seats = real_friends(server, ("Gil", "Hal"))
    with connect(ws_url(server, seats[0])) as a, connect(ws_url(server, seats[1])) as b:
        views = [receive(a, "view"), receive(b, "view")]
        mover = views[0]["waiting_for"]
        sockets = [a, b]
        started = time.monotonic()
        for _ in range(1000):
            sockets[mover].send(json.dumps({"type": "act", "action": "dance"}))
        sent_in = time.monotonic() - started
        reasons: list[str] = []
        while not any("too many messages" in r for r in reasons):
            reasons.append(receive(sockets[mover], "error")["reason"])
        assert len(reasons) <= most_errors(started), reasons
        assert actions_stored(server, seats[0]["id"]) == 0
        other = sockets[1 - mover]
        other.send(json.dumps({"type": "analyse"}))  # the other seat is answered meanwhile
        assert receive(other, "error")["reason"]
        legal = views[mover]["deal"]["legal"][0]
        deadline = time.monotonic() + 60
        moved = False
        while not moved:  # once the bucket refills the move passes (before, it is dropped with the flood)
            assert time.monotonic() < deadline
            sockets[mover].send(json.dumps({"type": "act", "action": legal}))
            with contextlib.suppress(TimeoutError):
                moved = receive(sockets[mover], "view", timeout=2)["type"] == "view"
    assert actions_stored(server, seats[0]["id"]) == 1
    print(f"1,000 messages sent in {sent_in:.2f} s")
