"""Play a friend (server/online.py, server/players.py): players without passwords, invitations, both seats
over the per-seat WebSocket, reconnects and restarts, spectators who never see a hidden card, ratings, and
hostile clients (Starlette's test client; the browser test is in test_web_online.py)."""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bummerl.server import create_app
from bummerl.server.limits import Limits
from bummerl.server.online import KEY_HEADER
from helpers.players import flood_allowance, invite, join, key, next_of, play_friends, register, socket
from helpers.web import cards_mentioned, hidden_from


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(home=tmp_path, workers=0)) as c:
        yield c


# ----------------------------------------------------------------------------- players


def test_a_player_gets_a_secret_key_that_is_stored_only_as_a_hash(client: TestClient) -> None:
    ann = register(client, "  Ann  Marie ")
    assert ann["name"] == "Ann Marie" and ann["rating"] == 1500 and len(ann["key"]) >= 30
    assert client.get("/api/players/me", headers=key(ann)).json()["name"] == "Ann Marie"
    assert client.get("/api/players/me", headers={KEY_HEADER: "guess"}).status_code == 401
    assert client.get("/api/players/ann%20marie").json()["name"] == "Ann Marie"
    with sqlite3.connect(client.app.state.hub.store.store.path) as db:  # type: ignore[attr-defined]
        dump = "\n".join(db.iterdump())
    assert ann["key"] not in dump and "Ann Marie" in dump


@pytest.mark.parametrize(("name", "reason"), [
    ("<script>x", "letters"),
    ("<b>a</b>", "letters"),
    ("x" * 21, "at most 20"),
    ("", "choose a name"),
    ("You", "reserved"),
    (7, "string"),
])
def test_a_bad_name_is_refused_with_the_reason(client: TestClient, name: Any, reason: str) -> None:
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 400 and reason in answer.json()["error"]


def test_names_are_unique_whatever_their_case(client: TestClient) -> None:
    register(client, "Bob")
    answer = client.post("/api/players", json={"name": "BOB"})
    assert answer.status_code == 409 and "taken" in answer.json()["error"]


# ----------------------------------------------------------------------------- invitations and seats


def test_the_first_to_open_the_link_takes_the_seat_then_it_is_for_spectators(client: TestClient) -> None:
    ann, bob, cid = register(client, "Ann"), register(client, "Bob"), register(client, "Cid")
    made = invite(client, ann, rules="sixty-six", cards="german")
    assert made["seat"] == 0 and made["players"] == ["Ann", "Friend"]
    assert made["link"] == f"http://testserver/friend/{made['invite']}"
    waiting = client.get("/api/players/me", headers=key(ann)).json()["friend_games"]
    assert [(g["waiting"], g["link"]) for g in waiting] == [(True, made["link"])]  # the friend page offers it
    bobs = join(client, made, bob)
    assert bobs["seat"] == 1 and bobs["players"] == ["Ann", "Bob"] and bobs["token"] != made["token"]
    assert join(client, made, bob) == bobs  # the same key: the same seat and token
    anns = join(client, made, ann)
    assert anns["seat"] == 0 and anns["token"] == made["token"]
    cids = join(client, made, cid)
    assert cids["seat"] is None and "token" not in cids
    nobody = client.post(f"/api/friends/{made['invite']}/join")
    assert nobody.status_code == 401
    assert client.post("/api/friends/nosuch/join", headers=key(cid)).status_code == 404
    games = client.get("/api/players/me", headers=key(bob)).json()["friend_games"]
    assert [(g["id"], g["seat"], g["players"], g["waiting"]) for g in games] == [
        (made["id"], 1, ["Ann", "Bob"], False)]


def test_the_host_waits_for_the_friend_and_sees_their_name_arrive(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    made = invite(client, ann)
    with socket(client, made) as ws:
        view = next_of(ws, "view")
        assert view["players"][1]["name"] == "Friend"
        if view["waiting_for"] == 0:
            ws.send_json({"type": "act", "action": view["deal"]["legal"][0]})
            assert "wait for your friend" in next_of(ws, "error")["reason"]
        bobs = join(client, made, bob)
        # The log's opening line, said while the seat was free, names Bob now: Ann gets the log again.
        log = next_of(ws, "events")
        assert log["replay"] and [e["kind"] for e in log["events"]] == ["deal"]
        assert "Friend" not in log["events"][0]["text"]
        assert log["events"][0]["text"].startswith(("Deal 1: Ann deals.", "Deal 1: Bob deals."))
        assert next_of(ws, "view")["players"][1] == {"name": "Bob", "kind": "human"}
    with socket(client, bobs) as ws:  # and Bob, when he comes, the same
        assert next_of(ws, "events")["events"] == log["events"]


def test_both_seats_play_and_an_action_for_the_other_seat_is_refused(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    made = invite(client, ann)
    bobs = join(client, made, bob)
    seats = [made, bobs]
    with socket(client, made) as a, socket(client, bobs) as b:
        views = [next_of(a, "view"), next_of(b, "view")]
        assert [v["seat"] for v in views] == [0, 1]
        assert not set(views[0]["deal"]["hand"]) & set(views[1]["deal"]["hand"])
        idle = 1 - views[0]["waiting_for"]
        move = views[1 - idle]["deal"]["legal"][0]
        [a, b][idle].send_json({"type": "act", "action": move})
        refused = next_of([a, b][idle], "error")
        assert "turn" in refused["reason"] and refused["answers"] == "act"
        [a, b][idle].send_json({"type": "hug"})
        assert next_of([a, b][idle], "error")["answers"] is None  # not read: it answers nothing in particular
    last = play_friends(client, seats, random.Random(1), until_tricks=2)
    assert len(last["deal"]["tricks"]) >= 2


def test_a_server_restart_gives_each_player_back_their_seat(tmp_path: Path) -> None:
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        ann, bob = register(client, "Ann"), register(client, "Bob")
        made = invite(client, ann)
        bobs = join(client, made, bob)
        before = play_friends(client, [made, bobs], random.Random(2), until_tricks=2)
    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        again = [join(client, made, ann), join(client, made, bob)]
        assert [s["token"] for s in again] == [made["token"], bobs["token"]]
        with socket(client, again[1]) as b:
            view = next_of(b, "view")
        assert view["deal"]["tricks"] == before["deal"]["tricks"] and view["players"][1]["name"] == "Bob"
        after = play_friends(client, again, random.Random(3), until_tricks=3)
        assert after["deal"]["tricks"][:len(before["deal"]["tricks"])] == before["deal"]["tricks"]


# ----------------------------------------------------------------------------- spectators


@pytest.mark.parametrize("seed", [4, 5])
def test_a_spectator_never_gets_a_hidden_card(client: TestClient, seed: int) -> None:
    ann, bob, cid = register(client, "Ann"), register(client, "Bob"), register(client, "Cid")
    made = invite(client, ann, rules=["standard", "sixty-six"][seed % 2])
    bobs = join(client, made, bob)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    frames: list[int] = []

    def check(frame: dict[str, Any]) -> None:
        deal = hub.live[made["id"]].table.deal
        hidden = hidden_from(deal, 0) | hidden_from(deal, 1)
        assert not cards_mentioned(frame) & hidden, (frame, hidden)
        frames.append(1)

    assert join(client, made, cid)["seat"] is None
    with client.websocket_connect(f"/ws/watch/{made['invite']}") as watch:
        log: list[dict[str, Any]] = []
        first = next_of(watch, "watch", log=log)
        check({**first, "events": log})
        last = play_friends(client, [made, bobs], random.Random(seed), watch=watch, check=check)
        watch.send_json({"type": "act", "action": "next"})
        assert "only watch" in next_of(watch, "error")["reason"]
    # The deal seeds are random: a short Bummerl (three deals won by 3) gave only 17 frames once.
    assert last["phase"] == "game_over" and len(frames) > 10


def test_a_spectator_socket_needs_a_real_invitation(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/watch/nosuch") as ws:
        ws.receive_json()


# ----------------------------------------------------------------------------- ratings


def test_a_rated_game_updates_both_ratings_once_and_an_unrated_one_none(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    made = invite(client, ann)
    last = play_friends(client, [made, join(client, made, bob)], random.Random(6))
    winner, loser = (ann, bob) if last["winner"] == 0 else (bob, ann)
    mine = client.get("/api/players/me", headers=key(winner)).json()
    theirs = client.get("/api/players/me", headers=key(loser)).json()
    assert mine["rating"] > 1500 > theirs["rating"] and mine["games"] == theirs["games"] == 1
    assert mine["deviation"] < 350 and mine["friend_games"][0]["state"] == "finished"
    assert mine["friend_games"][0]["updated"].startswith("20")  # when it was last played (ISO 8601)
    unrated = invite(client, ann, rated=False)
    play_friends(client, [unrated, join(client, unrated, bob)], random.Random(7))
    assert client.get("/api/players/me", headers=key(winner)).json()["rating"] == mine["rating"]
    assert client.get(f"/api/games/{made['id']}/record").status_code == 200


# ----------------------------------------------------------------------------- hostile clients


def test_wrong_and_borrowed_tokens_get_nothing(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    first, second = invite(client, ann), invite(client, bob)
    for url in (f"/ws/games/{first['id']}?token=guess", f"/ws/games/{first['id']}?token={second['token']}",
                f"/ws/games/{first['id']}"):
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(url) as ws:
            ws.receive_json()


def test_a_huge_message_and_a_flood_get_an_error_and_the_connection_stays_usable(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    made = invite(client, ann)
    bobs = join(client, made, bob)
    with socket(client, made) as a, socket(client, bobs) as b:
        views = [next_of(a, "view"), next_of(b, "view")]
        mover = views[0]["waiting_for"]
        ws = [a, b][mover]
        ws.send_text("x" * 1_000_000)
        assert "too large" in next_of(ws, "error")["reason"]
        started = time.monotonic()
        for _ in range(1000):
            ws.send_json({"type": "act", "action": "dance"})
        reasons: list[str] = []
        while not any("too many messages" in r for r in reasons):
            reasons.append(next_of(ws, "error")["reason"])
        limits = Limits()  # the burst is answered, then one error for the whole flood
        seconds = time.monotonic() - started
        assert len(reasons) <= flood_allowance(seconds, limits.messages_per_second, limits.messages_burst) + 1
        time.sleep(2.5)  # the bucket refills (20 a second)
        ws.send_json({"type": "act", "action": views[mover]["deal"]["legal"][0]})
        view = next_of(ws, "view")
        assert view["waiting_for"] != mover or view["deal"]["lead"] is None


# ----------------------------------------------------------------------------- the lobby and limits


def test_public_invitations_are_listed_in_the_lobby_until_taken(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    private = invite(client, ann)
    public = invite(client, ann, rules="sixty-six", public=True, rated=False)
    lobby = client.get("/api/lobby").json()["invitations"]
    assert [row["link"] for row in lobby] == [public["link"]] and private["link"] not in str(lobby)
    assert lobby[0]["host"]["name"] == "Ann" and lobby[0]["rated"] is False and "key" not in str(lobby)
    assert lobby[0]["rules"] == "sixty-six"
    join(client, public, bob)
    assert client.get("/api/lobby").json()["invitations"] == []


def test_a_player_may_have_five_open_invitations(client: TestClient) -> None:
    ann = register(client, "Ann")
    for _ in range(5):
        invite(client, ann)
    answer = client.post("/api/friends", json={}, headers=key(ann))
    assert answer.status_code == 429 and "5 open invitations" in answer.json()["error"]


def test_a_withdrawn_invitation_frees_its_place_and_nobody_can_take_its_seat(client: TestClient) -> None:
    # Five invitations nobody took held the host's place for good: no sixth could be made, ever.
    ann, bob = register(client, "Ann"), register(client, "Bob")
    made = [invite(client, ann, public=True) for _ in range(5)]
    url = f"/api/friends/{made[0]['invite']}/withdraw"
    assert client.post(url, headers=key(bob)).status_code == 403  # only its host
    assert client.post(url).status_code == 401
    with socket(client, made[0]) as page:  # the host's page has the game open: it is told
        assert next_of(page, "view")["friend_to_come"] is True
        answer = client.post(url, headers=key(ann))
        assert answer.status_code == 200 and answer.json() == {"withdrawn": True}
        view = next_of(page, "view")
        assert view["withdrawn"] is True and view["friend_to_come"] is False
    assert client.post(url, headers=key(ann)).status_code == 200  # again: nothing to do
    refused = client.post(f"/api/friends/{made[0]['invite']}/join", headers=key(bob))
    assert refused.status_code == 404 and "Ann has withdrawn this invitation" in refused.json()["error"]
    lobby = [row["link"] for row in client.get("/api/lobby").json()["invitations"]]
    assert made[0]["link"] not in lobby and len(lobby) == 4
    listed = [g["invite"] for g in client.get("/api/players/me", headers=key(ann)).json()["friend_games"]]
    assert made[0]["invite"] not in listed and len(listed) == 4
    assert client.post("/api/friends", json={}, headers=key(ann)).status_code == 201  # the place is free
    with socket(client, made[0]) as page:  # brought back from the store: still withdrawn
        assert next_of(page, "view")["withdrawn"] is True
    assert client.post("/api/friends/nothing/withdraw", headers=key(ann)).status_code == 404
    resign = client.post(f"/api/games/{made[0]['id']}/resign", json={"token": made[0]["token"]})
    assert resign.status_code == 409 and "the invitation was withdrawn" in resign.json()["error"]


def test_an_invitation_taken_cannot_be_withdrawn_but_the_bummerl_can_be_resigned(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    made = invite(client, ann)
    resign = f"/api/games/{made['id']}/resign"
    early = client.post(resign, json={"token": made["token"]})
    assert early.status_code == 409 and "withdraw the invitation instead" in early.json()["error"]
    bobs = join(client, made, bob)
    taken = client.post(f"/api/friends/{made['invite']}/withdraw", headers=key(ann))
    assert taken.status_code == 409 and "Bob has taken the seat" in taken.json()["error"]
    assert client.post(resign, json={"token": "guess"}).status_code == 404
    assert client.post(resign, json={}).status_code == 404
    with socket(client, made) as a, socket(client, bobs) as b:
        views = [next_of(a, "view"), next_of(b, "view")]
        assert views[0]["counts_in_ratings"] is False  # no action yet: an end now would not be rated
        mover = views[0]["waiting_for"]  # a card is played first (a Bummerl ended before any is not rated)
        [a, b][mover].send_json({"type": "act", "action": first_card(views[mover])})
        assert next_of([a, b][mover], "view", lambda m: m["waiting_for"] != mover)["counts_in_ratings"]
        answer = client.post(resign, json={"token": bobs["token"]})
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"winner": 0, "reason": "resigned",
                                 "text": "Ann wins the Bummerl: Bob resigned."}
        for ws in (a, b):  # both pages show the end at once
            view = next_of(ws, "view", lambda m: m["phase"] == "game_over")
            assert view["ended"]["reason"] == "resigned" and view["winner"] == 0
    again = client.post(resign, json={"token": made["token"]})
    assert again.status_code == 409 and "the Bummerl is over" in again.json()["error"]
    pages = {p["name"]: client.get("/api/players/me", headers=key(p)).json() for p in (ann, bob)}
    assert pages["Ann"]["rating"] > 1500 > pages["Bob"]["rating"]  # rated like any win
    assert pages["Bob"]["friend_games"][0]["ended"]["text"] == "Ann wins the Bummerl: Bob resigned."
    assert pages["Bob"]["friend_games"][0]["rematch"] is False
    assert client.post(f"/api/friends/{made['invite']}/rematch", headers=key(bob)).status_code == 200
    again = client.get("/api/players/me", headers=key(bob)).json()["friend_games"]
    assert [g["rematch"] for g in again if g["id"] == made["id"]] == [True]  # its button goes there now


def first_card(view: dict[str, Any]) -> str:
    """The first card the seat of this view may play (not a close or an exchange: they keep the turn)."""
    return next(a for a in view["deal"]["legal"] if a.startswith("play "))


def test_a_bummerl_resigned_before_its_first_card_is_not_rated(client: TestClient) -> None:
    # Like an aborted game: two accounts moved both ratings by ~160 points with an invitation, a join and a
    # resign (a review of the day's change).
    ann, bob = register(client, "Ann"), register(client, "Bob")
    made = invite(client, ann)
    join(client, made, bob)
    answer = client.post(f"/api/games/{made['id']}/resign", json={"token": made["token"]})
    assert answer.status_code == 200 and answer.json()["text"] == "Bob wins the Bummerl: Ann resigned."
    for player in (ann, bob):
        page = client.get("/api/players/me", headers=key(player)).json()
        assert (page["rating"], page["games"]) == (1500, 0)
        row = page["friend_games"][0]
        assert row["ended"]["reason"] == "resigned" and row["rated"] is False  # (the lists said "rated")
        listed = client.get(f"/api/players/{player['name']}/games", headers=key(player)).json()
        assert [g["rated"] for g in listed["finished"]] == [False]


def test_an_end_whose_rating_cannot_be_stored_ends_the_bummerl_and_is_rated_later(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # The end, the game's state and the rating were stored in one call: when the rating failed, the resign
    # answered 409 with the end already stored, and both players could play on (a review of the day's change).
    from bummerl.server.players import Players
    from bummerl.store import StoreError

    ann, bob = register(client, "Ann"), register(client, "Bob")
    made = invite(client, ann)
    bobs = join(client, made, bob)
    rate = Players.rate

    def broken(self: Players, game_id: str, winner: int) -> bool:
        raise StoreError("cannot save the ratings now: disk I/O error")

    with socket(client, made) as a, socket(client, bobs) as b:
        views = [next_of(a, "view"), next_of(b, "view")]
        mover = views[0]["waiting_for"]
        [a, b][mover].send_json({"type": "act", "action": first_card(views[mover])})
        next_of([a, b][mover], "view", lambda m: m["waiting_for"] != mover)
        monkeypatch.setattr(Players, "rate", broken)
        answer = client.post(f"/api/games/{made['id']}/resign", json={"token": bobs["token"]})
        assert answer.status_code == 200, answer.text  # the end is stored: the Bummerl is over
        other = 1 - mover
        over = next_of([a, b][other], "view", lambda m: m["phase"] == "game_over")
        assert over["ended"]["reason"] == "resigned"
        [a, b][other].send_json({"type": "act", "action": "play AS"})
        assert "the Bummerl is over" in next_of([a, b][other], "error")["reason"]  # nobody plays on
    assert client.get("/api/players/me", headers=key(ann)).json()["rating"] == 1500  # not yet
    monkeypatch.setattr(Players, "rate", rate)
    with socket(client, made) as a:  # brought back: what was left undone is done now
        next_of(a, "view")
    pages = {p["name"]: client.get("/api/players/me", headers=key(p)).json() for p in (ann, bob)}
    assert pages["Ann"]["rating"] > 1500 > pages["Bob"]["rating"]
    assert pages["Ann"]["games"] == pages["Bob"]["games"] == 1


@pytest.mark.parametrize("name", ["only Bob", "no such Bob"])
def test_withdrawing_a_taken_invitation_is_a_conflict_whatever_the_friend_is_called(
        client: TestClient, name: str) -> None:
    # The status was chosen by the words of the reason: "only Bob has taken the seat" read as a refusal to
    # somebody else's invitation (403), "no such Bob ..." as no such invitation (404).
    ann, friend = register(client, "Ann"), register(client, name)
    made = invite(client, ann)
    join(client, made, friend)
    taken = client.post(f"/api/friends/{made['invite']}/withdraw", headers=key(ann))
    assert taken.status_code == 409 and f"{name} has taken the seat" in taken.json()["error"]


def test_the_online_pages_are_served(client: TestClient) -> None:
    for path in ("/friend", "/friend/anything", "/static/js/online.js"):
        assert client.get(path).status_code == 200, path
    assert 'href="/friend"' in client.get("/").text


def test_a_rematch_swaps_the_seats_and_both_players_land_in_the_same_game(client: TestClient) -> None:
    ann, bob, cid = register(client, "Ann"), register(client, "Bob"), register(client, "Cid")
    made = invite(client, ann, cards="german")
    bobs = join(client, made, bob)
    early = client.post(f"/api/friends/{made['invite']}/rematch", headers=key(ann))
    assert early.status_code == 400 and "once the Bummerl is over" in early.json()["error"]
    play_friends(client, [made, bobs], random.Random(8))
    answer = client.post(f"/api/friends/{made['invite']}/rematch", headers=key(ann))
    assert answer.status_code == 200, answer.text
    anns = answer.json()
    bobs2 = client.post(f"/api/friends/{made['invite']}/rematch", headers=key(bob)).json()
    assert anns["id"] == bobs2["id"] != made["id"] and anns["players"] == ["Bob", "Ann"]
    assert (anns["seat"], bobs2["seat"]) == (1, 0) and anns["token"] != bobs2["token"]
    refused = client.post(f"/api/friends/{made['invite']}/rematch", headers=key(cid))
    assert refused.status_code == 403 and "only the two players" in refused.json()["error"]
    with socket(client, bobs2) as ws:
        view = next_of(ws, "view")
    assert view["cards"] == "german" and [p["name"] for p in view["players"]] == ["Bob", "Ann"]
    assert client.post(f"/api/friends/{made['invite']}/rematch", headers=key(ann)).json() == anns


# ----------------------------------------------------------------------------- chat


def chat(client: TestClient, seat: dict[str, Any]) -> Any:
    return client.websocket_connect(f"/ws/chat/{seat['id']}?token={seat['token']}")


def test_the_two_players_chat_in_plain_text_within_limits(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    made = invite(client, ann)
    bobs = join(client, made, bob)
    with chat(client, made) as a:
        with chat(client, bobs) as b:
            assert next_of(a, "chat_log")["messages"] == [] and next_of(b, "chat_log")["messages"] == []
            a.send_json({"type": "chat", "text": "  <script>alert(1)</script>\x00 good\nluck  "})
            said = {"type": "chat", "seat": 0, "name": "Ann", "text": "<script>alert(1)</script> good luck"}
            assert next_of(a, "chat") == said and next_of(b, "chat") == said  # plain text: pages escape it
            b.send_json({"type": "chat", "text": "x" * 201})
            assert "at most 200" in next_of(b, "error")["reason"]
            b.send_text("x" * 1_000_000)
            assert "at most 200" in next_of(b, "error")["reason"]
            b.send_json({"type": "chat", "text": "   "})
            assert "empty" in next_of(b, "error")["reason"]
            b.send_bytes(b'{"type": "chat", "text": "hi"}')  # (it was told "message is not JSON")
            assert next_of(b, "error")["reason"].startswith("a chat message is a text frame")
            started = time.monotonic()
            for i in range(100):
                b.send_json({"type": "chat", "text": f"spam {i}"})
            reasons: list[str] = []
            while not reasons or "too many" not in reasons[-1]:
                msg = b.receive_json()
                if msg["type"] == "error":
                    reasons.append(msg["reason"])
            limits = Limits()  # (5 at once, 1 a second)
            passed = flood_allowance(time.monotonic() - started, limits.chat_per_second, limits.chat_burst)
        with chat(client, bobs) as b:  # a reconnect gets the chat so far (what the bucket let pass)
            log = next_of(b, "chat_log")["messages"]
            assert log[0] == said and 1 <= len(log) - 1 <= passed


def test_only_the_two_players_of_a_friend_game_may_chat(client: TestClient) -> None:
    ann = register(client, "Ann")
    made = invite(client, ann)
    computer = client.post("/api/games", json={"rules": "standard", "level": "easy"}).json()
    assert client.get(f"/api/chat/{made['id']}").json() == {"chat": True}
    assert client.get(f"/api/chat/{computer['id']}").json() == {"chat": False}
    for url in (f"/ws/chat/{made['id']}?token=guess", f"/ws/chat/{made['id']}",
                f"/ws/chat/{computer['id']}?token={computer['token']}"):
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(url) as ws:
            ws.receive_json()


def test_two_joins_by_the_same_player_at_once_both_get_the_seat_and_its_token(tmp_path: Path) -> None:
    # Two tabs or a double click: the second join read the seat the first had taken before its token
    # was stored, and answered the seat without a token (that tab said "you are watching").
    from bummerl.server.limits import Limits

    with TestClient(create_app(home=tmp_path, workers=0, limits=Limits.lifted())) as client:
        _join_twice_at_once(client)


def _join_twice_at_once(client: TestClient) -> None:
    import threading

    ann, bob = register(client, "Ann"), register(client, "Bob")

    def take(invite_code: str, start: threading.Barrier, answers: list[dict[str, Any]]) -> None:
        start.wait()
        answers.append(client.post(f"/api/friends/{invite_code}/join", headers=key(bob)).json())

    for _ in range(8):
        made = invite(client, ann)
        answers: list[dict[str, Any]] = []
        start = threading.Barrier(2)
        threads = [threading.Thread(target=take, args=(made["invite"], start, answers)) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert [a["seat"] for a in answers] == [1, 1]
        assert answers[0]["token"] and answers[0]["token"] == answers[1]["token"], answers
