"""The player page API, the replays and the spectators' delayed view (server/history.py, server/replay.py,
server/spectators.py), and Resume listing only games against the computer (Starlette's test client; the
pages in a browser are in test_player_page_browser.py)."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bummerl.records import GameRecord
from bummerl.server import create_app
from bummerl.server.presence import End
from helpers.players import finish_computer_game, friend_game, key, play_friends, register
from helpers.web import cards_mentioned


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(home=tmp_path, workers=0)) as c:
        yield c


def computer_game(client: TestClient, player: dict[str, Any] | None, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"level": "easy", **body}, headers=key(player) if player else {})
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def page_of(client: TestClient, name: str) -> dict[str, Any]:
    answer = client.get(f"/api/players/{name}/games")
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def played_cards(replay: dict[str, Any]) -> list[list[str]]:
    """Per deal, every action of the replay's frames in order."""
    return [[f["action"] for f in d["frames"][1:]] for d in replay["deals"]]


def test_the_page_lists_the_players_own_games_and_nobody_elses(client: TestClient) -> None:
    ann, bob, cid = register(client, "Ann"), register(client, "Bob"), register(client, "Cid")
    finished = friend_game(client, ann, bob, rated=True)
    play_friends(client, finished, random.Random(1))
    playing = friend_game(client, ann, bob, rated=False)
    others = friend_game(client, bob, cid)  # not Ann's
    client.post("/api/friends", json={}, headers=key(ann))  # an open invitation: not a game yet
    mine = computer_game(client, ann, seed=3)
    finish_computer_game(client, mine)
    mine_playing = computer_game(client, ann, seed=4)
    anonymous = computer_game(client, None, seed=5)  # nobody's (no player key)
    cids = computer_game(client, cid, seed=6)

    page = page_of(client, "ann")
    assert page["name"] == "Ann"
    assert {"rating", "deviation", "games"} <= set(page)
    assert {g["id"] for g in page["playing"]} == {playing[0]["id"], mine_playing["id"]}
    assert {g["id"] for g in page["finished"]} == {finished[0]["id"], mine["id"]}
    listed = {g["id"] for g in page["playing"] + page["finished"]}
    assert not listed & {others[0]["id"], anonymous["id"], cids["id"]}
    friend = next(g for g in page["finished"] if g["kind"] == "friend")
    assert friend["opponent"] == "Bob" and friend["rated"] and friend["result"] in ("won", "lost")
    assert friend["replay"].endswith(f"/replay/{friend['id']}")
    assert friend["record"].endswith(f"/api/games/{friend['id']}/record")
    computer = next(g for g in page["finished"] if g["kind"] == "computer")
    assert computer["opponent"] == "computer (easy)" and computer["rules_text"] and computer["date"]
    assert computer["result"] == ("won" if computer["score"][0] <= 0 else "lost")
    for game in page["playing"]:  # a game in progress: no replay, no record, no token, no card
        assert "replay" not in game and "record" not in game and "token" not in game
    assert cards_mentioned(page["playing"]) == set()
    friend_playing = next(g for g in page["playing"] if g["kind"] == "friend")
    assert friend_playing["link"].endswith(f"/friend/{playing[0]['invite']}")
    assert client.get("/api/players/nobody/games").status_code == 404


def test_a_friend_game_won_away_from_the_table_is_listed_as_finished(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    seats = friend_game(client, ann, bob)
    play_friends(client, seats, random.Random(2), deals=1)
    client.app.state.online.times.save_end(seats[0]["id"], End(1, "time", 0.0))  # type: ignore[attr-defined]
    page = page_of(client, "Ann")
    assert page["playing"] == []
    (row,) = page["finished"]
    assert row["result"] == "lost" and row["ended"] == "Bob wins the Bummerl: Ann's clock ran out."
    assert "replay" not in row and "record" not in row


def test_a_replay_shows_the_records_cards_in_order(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    seats = friend_game(client, ann, bob)
    play_friends(client, seats, random.Random(7))
    record = GameRecord.from_json(client.get(f"/api/games/{seats[0]['id']}/record").json())
    replay = client.get(f"/api/games/{seats[0]['id']}/replay").json()
    assert replay["complete"] and replay["players"] == ["Ann", "Bob"]
    assert played_cards(replay) == [list(d.actions) for d in record.deals]
    for deal, rec in zip(replay["deals"], record.deals, strict=True):
        dealt = deal["frames"][0]
        everything = dealt["hands"][0] + dealt["hands"][1] + dealt["talon"] + [dealt["trump_card"]]
        assert sorted(everything) == sorted(str(c) for c in rec.deck)  # all cards shown, none twice
        assert deal["result"] is not None
    assert replay["winner"] in (0, 1)


def test_the_export_is_the_record(client: TestClient) -> None:
    ann = register(client, "Ann")
    game = computer_game(client, ann, seed=11)
    finish_computer_game(client, game)
    row = page_of(client, "Ann")["finished"][0]
    exported = client.get(row["record"])
    assert exported.status_code == 200
    assert exported.json() == client.get(f"/api/games/{game['id']}/record").json()
    assert GameRecord.from_json(exported.json()).replay().is_over


def test_a_game_in_progress_shows_no_hidden_card(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    mine = computer_game(client, ann, seed=2)
    finish_computer_game(client, mine, moves=3)
    public = friend_game(client, ann, bob)
    play_friends(client, public, random.Random(3), deals=1)
    for game_id in (mine["id"], public[0]["id"]):
        answer = client.get(f"/api/games/{game_id}/replay")
        assert answer.status_code == 409 and "not over" in answer.json()["error"]
        assert client.get(f"/api/games/{game_id}/record").status_code == 409
    assert client.get("/api/games/nosuchgame/replay").status_code == 404


def test_only_the_owner_opens_the_seat_of_a_game_against_the_computer(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    game = computer_game(client, ann, seed=1)
    opened = client.post(f"/api/games/{game['id']}/seat", headers=key(ann))
    assert opened.status_code == 200 and opened.json()["token"] == game["token"]
    assert client.post(f"/api/games/{game['id']}/seat", headers=key(bob)).status_code == 403
    assert client.post(f"/api/games/{game['id']}/seat").status_code == 401


def test_resume_lists_and_opens_only_games_against_the_computer(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    friends = friend_game(client, ann, bob)
    computer = computer_game(client, None, seed=1)
    listed = [g["id"] for g in client.get("/api/games").json()["games"]]
    assert listed == [computer["id"]]
    refused = client.post(f"/api/games/{friends[0]['id']}/resume")
    assert refused.status_code == 403 and "/friend" in refused.json()["error"]
    assert client.post(f"/api/games/{computer['id']}/resume").status_code == 200


def test_the_pages_are_served(client: TestClient) -> None:
    for path in ("/players/Ann", "/replay/abc", "/static/js/player.js", "/static/js/replay.js"):
        assert client.get(path).status_code == 200, path


# ----------------------------------------------------------------------------- spectators


def watch_first(client: TestClient, invite: str) -> dict[str, Any]:
    """The ``spectators`` message a spectator gets on opening the watch socket."""
    with client.websocket_connect(f"/ws/watch/{invite}") as ws:
        while True:
            msg: dict[str, Any] = ws.receive_json()
            if msg["type"] == "spectators":
                return msg


def test_the_invitation_shows_the_spectators_choice_before_the_seat_is_taken(client: TestClient) -> None:
    ann = register(client, "Ann")
    made = client.post("/api/friends", json={"spectators": "delayed"}, headers=key(ann)).json()
    assert made["spectators"] == "delayed"
    seen = client.get(f"/api/friends/{made['invite']}").json()
    assert seen["spectators"] == "delayed" and "every deal" in seen["spectators_text"]
    assert seen["seat_free"] and seen["host"]["name"] == "Ann" and seen["rules_text"]
    assert client.get(f"/api/friends/{made['invite']}").json()["seat_free"]  # looking takes no seat
    assert client.get("/api/friends/nosuchinvite").status_code == 404
    bad = client.post("/api/friends", json={"spectators": "everything"}, headers=key(ann))
    assert bad.status_code == 400 and "public" in bad.json()["error"]
    default = client.post("/api/friends", json={}, headers=key(ann)).json()
    assert default["spectators"] == "public"


def test_a_spectator_of_a_delayed_game_replays_only_the_deals_that_are_over(client: TestClient) -> None:
    ann, bob, cid = register(client, "Ann"), register(client, "Bob"), register(client, "Cid")
    seats = friend_game(client, ann, bob, spectators="delayed")
    view = play_friends(client, seats, random.Random(5), deals=2)
    assert view["phase"] == "playing" and view["deal_number"] == 3  # the third deal has begun
    watcher = client.post(f"/api/friends/{seats[0]['invite']}/join", headers=key(cid)).json()
    assert watcher["seat"] is None and "token" not in watcher and watcher["spectators"] == "delayed"
    told = watch_first(client, seats[0]["invite"])
    assert told["spectators"] == "delayed" and told["replay"] == f"/replay/{seats[0]['id']}"

    replay = client.get(f"/api/games/{seats[0]['id']}/replay").json()
    stored = client.app.state.hub.store.store.load(seats[0]["id"]).record  # type: ignore[attr-defined]
    assert len(stored.deals) == 3 and not replay["complete"]
    assert len(replay["deals"]) == 2  # never the deal in progress
    assert played_cards(replay) == [list(d.actions) for d in stored.deals[:2]]
    for deal, rec in zip(replay["deals"], stored.deals[:2], strict=True):
        dealt = deal["frames"][0]
        everything = dealt["hands"][0] + dealt["hands"][1] + dealt["talon"] + [dealt["trump_card"]]
        assert sorted(everything) == sorted(str(c) for c in rec.deck)
        assert deal["result"] is not None


def test_a_spectator_of_a_public_game_replays_nothing_until_it_is_over(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    seats = friend_game(client, ann, bob)  # public: the default
    play_friends(client, seats, random.Random(6), deals=2)
    told = watch_first(client, seats[0]["invite"])
    assert told["spectators"] == "public" and told["replay"] is None
    answer = client.get(f"/api/games/{seats[0]['id']}/replay")
    assert answer.status_code == 409 and "error" in answer.json() and "deals" not in answer.json()


def test_a_rematch_keeps_the_spectators_choice(client: TestClient) -> None:
    ann, bob = register(client, "Ann"), register(client, "Bob")
    seats = friend_game(client, ann, bob, spectators="delayed")
    play_friends(client, seats, random.Random(9))
    again = client.post(f"/api/friends/{seats[0]['invite']}/rematch", headers=key(bob))
    assert again.status_code == 200, again.text
    assert again.json()["spectators"] == "delayed"


def test_the_page_gives_the_measured_level_ratings_or_none(client: TestClient) -> None:
    register(client, "Ann")
    try:
        measured: list[dict[str, Any]] | None = [
            r.to_json() for r in importlib.import_module("bummerl.level_ratings").level_ratings()]
    except (ImportError, OSError):  # not measured in this checkout: the page keeps the spot
        measured = None
    assert page_of(client, "Ann")["levels"] == measured


def test_the_levels_stand_beside_the_player(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [{"level": "easy", "rating": 1200, "deviation": 40},
            {"level": "hard", "rating": 1700, "deviation": 35}]
    monkeypatch.setattr("bummerl.server.history.level_ratings", lambda: rows)
    register(client, "Ann")
    assert page_of(client, "Ann")["levels"] == rows
