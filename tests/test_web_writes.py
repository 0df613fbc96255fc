"""Every write to the web's tables goes through the web store (server/web_store.py: ``write`` and
``transaction``): a store that cannot be written is one line saying what could not be saved, never an SQLite
error escaping as a server error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bummerl.rules import Rules
from bummerl.server import create_app
from bummerl.server.web_store import WebStore
from bummerl.store import StoreError
from helpers.players import invite, key, register


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(home=tmp_path, workers=0)) as c:
        yield c


def test_a_seat_that_cannot_be_stored_is_refused_in_one_line(client: TestClient) -> None:
    # Players wrote to the shared connection themselves, and only some of the writes caught SQLite's errors:
    # taking a seat on a store that could not be written was a server error (500, a traceback).
    ann, bob = register(client, "Ann"), register(client, "Bob")
    made = invite(client, ann)
    web: WebStore = client.app.state.hub.store  # type: ignore[attr-defined]
    web._db.execute("PRAGMA query_only = ON")  # every write fails from now on
    try:
        answer = client.post(f"/api/friends/{made['invite']}/join", headers=key(bob))
    finally:
        web._db.execute("PRAGMA query_only = OFF")
    assert answer.status_code == 409
    assert answer.json()["error"].startswith(f"cannot save the seat of game {made['id']}: ")
    assert client.post(f"/api/friends/{made['invite']}/join", headers=key(bob)).json()["seat"] == 1


def test_a_transaction_is_all_or_nothing_and_says_what_it_could_not_save(tmp_path: Path) -> None:
    with WebStore(tmp_path) as web:
        game = web.create(Rules.preset("standard"), level="easy", seed=1, cards="french", first_dealer=None,
                          decks=())
        web.set_token(game.id, 0, "a" * 20)
        with pytest.raises(ValueError), web.transaction("the seats") as db:  # not an SQLite error: as it is
            db.execute("DELETE FROM web_seats")
            raise ValueError("changed my mind")
        with pytest.raises(StoreError, match=r"^cannot save the seats: no such table: nowhere$"), \
                web.transaction("the seats") as db:
            db.execute("DELETE FROM web_seats")
            db.execute("INSERT INTO nowhere VALUES (1)")
        assert web.tokens(game.id) == {0: "a" * 20}  # both rolled back
        with web.transaction("the seats") as db:  # and the connection is usable again
            db.execute("DELETE FROM web_seats")
        assert web.tokens(game.id) == {}



def test_the_friend_game_lookups_made_at_every_turn_use_an_index(tmp_path: Path) -> None:
    # Whose rematch is this (asked each time a friend game is brought to life) and a player's games read the
    # whole table of friend games before web schema 9.
    web = WebStore(tmp_path)
    try:
        plans = {sql: " ".join(str(row[-1]) for row in web.query(f"EXPLAIN QUERY PLAN {sql}", ("x", "x")[:n]))
                 for sql, n in (("SELECT 1 FROM web_friend_games WHERE rematch = ?", 1),
                                ("SELECT 1 FROM web_friend_games WHERE player0 = ? OR player1 = ?", 2))}
    finally:
        web.close()
    for sql, plan in plans.items():
        assert "INDEX" in plan and not plan.startswith("SCAN web_friend_games"), (sql, plan)
