"""The player page, the replay viewer and Resume in a real browser (Playwright driving Debian's chromium).

The games are played beforehand through the API (Starlette's test client on the same data directory), then
a ``bummerl serve`` subprocess serves them: the page lists the right games, a replay steps through the
record's actions in order with every card shown, the export is the record, a name with markup in it is
shown as text, and Resume on the landing page lists only games against the computer."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bummerl.server import create_app
from helpers.players import finish_computer_game, friend_game, key, play_friends, register
from helpers.web import ServerProcess, browser_fixture, browser_or_skip, new_page, running_server

playwright_api = browser_or_skip()
expect = playwright_api.expect
TIMEOUT = 30_000  # ms
#: A name no player could choose (the server refuses it) written into the database as a hostile copy would.
HOSTILE = '<img src=x onerror="window.hacked=1">Bob'


def _prepare(home: Path) -> dict[str, Any]:
    """Ann's games (and others') played and stored; Bob's name made hostile in the database."""
    with TestClient(create_app(home=home, workers=0)) as client:
        ann, bob, cid = register(client, "Ann"), register(client, "Bob"), register(client, "Cid")
        finished = friend_game(client, ann, bob, rated=True)
        play_friends(client, finished, random.Random(4))
        playing = friend_game(client, ann, bob, rated=False)
        others = friend_game(client, bob, cid)

        def computer(seed: int, player: dict[str, Any] | None) -> dict[str, Any]:
            answer: dict[str, Any] = client.post("/api/games", json={"level": "easy", "seed": seed},
                                                 headers=key(player) if player else {}).json()
            return answer

        won = computer(8, ann)
        finish_computer_game(client, won)
        going = computer(9, ann)
        finish_computer_game(client, going, moves=2)
        anonymous = computer(10, None)
        record = client.get(f"/api/games/{finished[0]['id']}/record").json()
        delayed = friend_game(client, ann, bob, spectators="delayed")
        play_friends(client, delayed, random.Random(12), deals=1)
        delayed_deals = [list(d.actions) for d in client.app.state.hub.store.store.load(  # type: ignore[attr-defined]
            delayed[0]["id"]).record.deals]
        invitation = client.post("/api/friends", json={"spectators": "delayed"}, headers=key(ann)).json()
        dan = register(client, "Dan")
    with sqlite3.connect(home / "games.db") as db:
        db.execute("UPDATE web_players SET name = ?, folded = ? WHERE name = 'Bob'",
                   (HOSTILE, HOSTILE.casefold()))
    return {"ann": ann, "finished": finished[0], "playing": playing[0], "others": others[0], "won": won,
            "going": going, "anonymous": anonymous, "record": record, "delayed": delayed[0],
            "delayed_deals": delayed_deals, "invitation": invitation, "cid": cid, "dan": dan}


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, dict[str, Any]]]:
    home = tmp_path_factory.mktemp("players")
    made = _prepare(home)
    with running_server(home) as server:
        yield server, made


browser = browser_fixture(playwright_api)


def _tab(browser: Any, server: ServerProcess, player: dict[str, Any], errors: list[str]) -> Any:
    """A browser context with ``player``'s key in its local storage."""
    tab = new_page(browser, TIMEOUT, height=900, errors=errors, console=False, accept_downloads=True)
    expect.set_options(timeout=TIMEOUT)
    tab.goto(server.url + "/rules")
    tab.evaluate("p => localStorage.setItem('bummerl.player', JSON.stringify(p))",
                 {"name": player["name"], "key": player["key"]})
    return tab


@pytest.fixture
def page(browser: Any, games: tuple[ServerProcess, dict[str, Any]]) -> Iterator[Any]:
    """Ann's browser: her player key in local storage."""
    server, made = games
    errors: list[str] = []
    tab = _tab(browser, server, made["ann"], errors)
    yield tab
    tab.context.close()
    assert errors == []


def _ids(tab: Any, list_id: str) -> set[str]:
    return set(tab.locator(f"#{list_id} li[data-game]").evaluate_all("els => els.map(e => e.dataset.game)"))


def test_the_page_lists_the_right_games_and_shows_names_as_text(page: Any, games: Any) -> None:
    server, made = games
    page.goto(server.url + "/players/Ann")
    expect(page.locator("#player")).to_have_attribute("data-state", "ready")
    assert page.locator("#player-name").text_content() == "Ann"
    assert _ids(page, "playing") == {made["playing"]["id"], made["going"]["id"], made["delayed"]["id"]}
    assert _ids(page, "finished") == {made["finished"]["id"], made["won"]["id"]}
    friend = page.locator(f'#finished li[data-game="{made["finished"]["id"]}"]')
    assert HOSTILE in (friend.text_content() or "")  # the markup is text ...
    assert page.locator("#finished img").count() == 0  # ... not an element
    assert page.evaluate("window.hacked") is None
    playing = page.locator(f'#playing li[data-game="{made["playing"]["id"]}"] [data-action="play"]')
    assert playing.get_attribute("href", timeout=TIMEOUT).endswith(f"/friend/{made['playing']['invite']}")
    answer = page.request.get(f"{server.url}/api/players/Ann/games").json()
    if answer["levels"] is None:  # not measured in this checkout: the spot says so
        expect(page.locator("#stand-box")).to_have_attribute("data-state", "missing")
        expect(page.locator("#stand-missing")).to_be_visible()
    else:
        _check_stand(page, answer)

    page.goto(server.url + "/players/" + HOSTILE.replace("#", "%23"))  # the hostile player's own page
    expect(page.locator("#player")).to_have_attribute("data-state", "ready")
    assert page.locator("#player-name").text_content() == HOSTILE
    assert page.locator("main img").count() == 0 and page.evaluate("window.hacked") is None


def _check_stand(page: Any, answer: dict[str, Any]) -> None:
    """The levels' ratings are shown beside the player's, highest first."""
    expect(page.locator("#stand-box")).to_have_attribute("data-state", "shown")
    shown = page.locator("#stand tbody tr").evaluate_all(
        "rows => rows.map(r => [r.dataset.level || 'you', parseInt(r.cells[1].textContent)])")
    rows = [("you", answer["rating"]), *((lv["level"], lv["rating"]) for lv in answer["levels"])]
    assert [tuple(r) for r in shown] == sorted(rows, key=lambda r: -r[1])


def test_where_you_stand_shows_the_levels_ratings_beside_yours(page: Any, games: Any) -> None:
    server, _ = games
    answer = page.request.get(f"{server.url}/api/players/Ann/games").json()
    answer["levels"] = [{"level": "easy", "rating": 1100, "deviation": 40},  # as bummerl.level_ratings gives
                        {"level": "expert", "rating": 1900, "deviation": 45}]
    page.route("**/api/players/Ann/games", lambda route: route.fulfill(json=answer))
    page.goto(server.url + "/players/Ann")
    _check_stand(page, answer)
    expect(page.locator("#stand-note")).to_be_visible()


def test_a_replay_steps_through_the_records_actions_in_order(page: Any, games: Any) -> None:
    server, made = games
    page.goto(server.url + "/players/Ann")
    page.click(f'#finished li[data-game="{made["finished"]["id"]}"] [data-action="replay"]')
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-state", "ready")
    record = made["record"]
    dealt = page.locator(".felt [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(dealt) == sorted(record["deals"][0]["deck"])  # every card shown, the deal as dealt
    shown: list[list[str]] = []
    for number, deal in enumerate(record["deals"], 1):
        page.click(f'[data-action="deal {number}"]')
        expect(replay).to_have_attribute("data-step", "0")
        actions = []
        for step in range(1, len(deal["actions"]) + 1):
            page.click("#next")
            expect(replay).to_have_attribute("data-step", str(step))
            actions.append((page.locator("#step-action").text_content() or "").split(": ", 1)[1])
        shown.append(actions)
    assert shown == [d["actions"] for d in record["deals"]]
    expect(page.locator("#next")).to_be_disabled()


def test_the_export_is_the_record(page: Any, games: Any) -> None:
    server, made = games
    page.goto(server.url + "/players/Ann")
    with page.expect_download() as download:
        page.click(f'#finished li[data-game="{made["won"]["id"]}"] [data-action="export"]')
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    stored = page.request.get(f"{server.url}/api/games/{made['won']['id']}/record").json()
    assert json.loads(saved) == stored and stored["deals"]


def test_continue_opens_the_players_own_game_against_the_computer(page: Any, games: Any) -> None:
    server, made = games
    page.goto(server.url + "/players/Ann")
    page.click(f'#playing li[data-game="{made["going"]["id"]}"] [data-action="play"]')
    page.wait_for_url(f"**/play/{made['going']['id']}**")
    expect(page.locator("#game")).not_to_have_attribute("aria-busy", "true")


def test_resume_lists_only_games_against_the_computer(page: Any, games: Any) -> None:
    server, made = games
    friend = made["playing"]
    page.evaluate("g => localStorage.setItem('bummerl.games', JSON.stringify(g))",
                  {friend["id"]: {"token": friend["token"]}})  # this browser holds a friend game's seat
    page.goto(server.url + "/")
    expect(page.locator('#resume [data-action^="resume "]').first).to_be_visible()
    listed = page.locator('#resume [data-action^="resume "]').evaluate_all(
        "els => els.map(e => e.dataset.action.slice(7))")
    assert set(listed) == {made["going"]["id"], made["anonymous"]["id"]}
    assert page.locator("#player-link").get_attribute("href") == "/players/Ann"


def test_a_spectator_of_a_delayed_game_replays_the_deals_that_are_over(browser: Any, games: Any) -> None:
    server, made = games
    errors: list[str] = []
    tab = _tab(browser, server, made["cid"], errors)
    tab.goto(f"{server.url}/friend/{made['delayed']['invite']}")
    expect(tab.locator("#watch-spectators")).to_have_attribute("data-spectators", "delayed")
    link = tab.locator('[data-action="replay-over"]')
    assert link.get_attribute("href") == f"/replay/{made['delayed']['id']}"
    tab.goto(server.url + link.get_attribute("href"))
    replay = tab.locator("#replay")
    expect(replay).to_have_attribute("data-state", "ready")
    assert tab.locator("#deals button").count() == 1  # the one deal that is over, not the one being played
    assert "goes on" in (tab.locator("#replay-note").text_content() or "")
    tab.click("#last")
    expect(replay).to_have_attribute("data-step", str(len(made["delayed_deals"][0])))
    tab.context.close()
    assert errors == []


def test_whoever_opens_a_delayed_invitation_sees_the_choice_before_taking_the_seat(browser: Any,
                                                                                   games: Any) -> None:
    server, made = games
    errors: list[str] = []
    tab = _tab(browser, server, made["dan"], errors)
    tab.goto(f"{server.url}/friend/{made['invitation']['invite']}")
    expect(tab.locator("#online")).to_have_attribute("data-state", "consent")
    assert "replay" in (tab.locator("#consent-spectators").text_content() or "")
    assert "agree" in (tab.locator("#consent-box").text_content() or "")
    seen = tab.request.get(f"{server.url}/api/friends/{made['invitation']['invite']}").json()
    assert seen["seat_free"]  # showing the choice took no seat
    tab.click('[data-action="take-seat"]')
    tab.wait_for_url(f"**/play/{made['invitation']['id']}**")
    tab.context.close()
    assert errors == []


def test_the_friend_page_keeps_the_players_key_when_the_server_fails_and_forgets_only_an_unknown_one(
        browser: Any, games: Any) -> None:
    # The server keeps only the key's hash: a key the page throws away is a name and a rating lost. It
    # did so on any failure of /api/players/me (session 11's audit: a 500, or a network error).
    server, made = games
    errors: list[str] = []
    tab = _tab(browser, server, made["ann"], errors)
    stored = "localStorage.getItem('bummerl.player')"
    kept = tab.evaluate(stored)
    tab.route("**/api/players/me", lambda route: route.fulfill(status=500, body="Internal Server Error"))
    tab.goto(server.url + "/friend")
    expect(tab.locator("#online-status")).to_contain_text("Cannot load your player page just now")
    assert tab.evaluate(stored) == kept and tab.locator("#name-box").is_hidden()
    tab.unroute("**/api/players/me")
    tab.reload()
    expect(tab.locator("#me-name")).to_have_text("Ann")
    tab.evaluate("localStorage.setItem('bummerl.player', JSON.stringify({name: 'Eve', key: 'not-a-key'}))")
    tab.reload()  # a key this server does not know (401): forgotten, and a name may be chosen
    expect(tab.locator("#name-box")).to_be_visible()
    assert tab.evaluate(stored) is None
    tab.context.close()
    assert errors == []


def test_an_invitation_made_on_localhost_warns_that_a_friend_cannot_open_its_link(browser: Any,
                                                                                  games: Any) -> None:
    # The link is made from the address the page was opened by (session 11's audit of the README).
    server, made = games
    errors: list[str] = []
    tab = _tab(browser, server, made["cid"], errors)
    tab.goto(server.url + "/friend")
    expect(tab.locator("#invite-form")).to_be_visible()
    tab.locator("#invite-form").evaluate("form => form.requestSubmit()")
    expect(tab.locator("#online-status")).to_contain_text("which a friend's computer cannot reach")
    assert "127.0.0.1" in (tab.locator("#invite-link").input_value() or "")
    tab.context.close()
    assert errors == []
