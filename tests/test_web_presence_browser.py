"""The game page of a game with a friend shows the opponent "away" with a countdown, enables the Claim button
when the server allows the claim, and ends the Bummerl by a click; a friend away on their turn is said away,
not thinking; with clocks on it shows both (Playwright
driving Debian's chromium). The server runs in a thread with a hand-moved clock, so the test moves time
instead of waiting three minutes; generous timeouts (two cores)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from bummerl.server import create_app
from bummerl.server.online import KEY_HEADER
from helpers.web import CHROMIUM, CHROMIUM_ARGS, browser_or_skip, play_a_card, serving_in_thread

playwright_api = browser_or_skip()
expect = playwright_api.expect
TIMEOUT = 30_000  # ms


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def server(tmp_path: Path, clock: FakeClock) -> Iterator[str]:
    with serving_in_thread(create_app(home=tmp_path, workers=0, clock=clock)) as address:
        yield address


@pytest.fixture
def page(server: str) -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1100, "height": 800})
        context.set_default_timeout(TIMEOUT)
        expect.set_options(timeout=TIMEOUT)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/")
        page.evaluate("localStorage.setItem('bummerl.settings', '{\"speed\": \"instant\"}')")
        yield page
        assert errors == []
        browser.close()


def friends(server: str, **body: Any) -> dict[str, Any]:
    """Ann invites and Bob takes the seat over HTTP (Bob never opens the game: he is away): Ann's seat, with
    Bob's under ``"friend"``."""
    with httpx.Client(base_url=server) as http:
        ann = http.post("/api/players", json={"name": "Ann"}).json()
        bob = http.post("/api/players", json={"name": "Bob"}).json()
        made: dict[str, Any] = http.post("/api/friends", json=body, headers={KEY_HEADER: ann["key"]}).json()
        joined = http.post(f"/api/friends/{made['invite']}/join", headers={KEY_HEADER: bob["key"]})
        assert joined.status_code == 200, joined.text
    made["friend"] = joined.json()
    return made


def test_a_spectator_sees_who_is_away_and_the_clocks(page: Any, server: str) -> None:
    made = friends(server, clock="3+2")
    with httpx.Client(base_url=server) as http:
        cid = http.post("/api/players", json={"name": "Cid"}).json()
    player = f"{{name: 'Cid', key: '{cid['key']}'}}"
    page.evaluate(f"localStorage.setItem('bummerl.player', JSON.stringify({player}))")
    page.goto(made["link"])
    expect(page.locator("#online")).to_have_attribute("data-state", "watching")
    expect(page.locator("#watch-presence")).to_contain_text("Ann is away")
    expect(page.locator("#watch-presence")).to_contain_text("Bob is away")
    expect(page.locator("#watch-presence")).to_contain_text("clocks (3+2): Ann 3:00 · Bob 3:00")


def test_the_page_counts_down_to_the_claim_and_claims_the_bummerl(page: Any, server: str,
                                                                 clock: FakeClock) -> None:
    made = friends(server)
    page.goto(made["url"])
    box = page.locator("#presence")
    expect(box).to_have_attribute("data-away", "true")
    expect(page.locator("#away")).to_contain_text("Bob is away")
    countdown = page.locator("#away-countdown")
    expect(countdown).to_have_text(re.compile(r"^(3:00|2:[0-5]\d)$"))
    shown = countdown.text_content()
    expect(countdown).not_to_have_text(shown or "")  # it counts down by itself
    claim = page.locator('[data-action="claim-bummerl"]')
    expect(claim).to_be_disabled()
    clock.now += 180  # three minutes pass on the server: it announces the claim within a second
    expect(box).to_have_attribute("data-claim", "true")
    expect(claim).to_be_enabled()
    claim.click()
    expect(page.locator("#game")).to_have_attribute("data-phase", "game_over")
    expect(page.locator("#modal")).to_contain_text("You won the Bummerl!")
    expect(page.locator("#modal")).to_contain_text("Bob was away and Ann claimed it")
    expect(page.locator("#modal")).not_to_contain_text("null")
    expect(page.locator("#modal a", has_text="Game record")).to_have_count(0)  # no record of such an end
    expect(page.locator("#ended")).to_contain_text("Ann wins the Bummerl")


def test_the_page_shows_both_clocks(page: Any, server: str) -> None:
    made = friends(server, clock="5+5")
    page.goto(made["url"])
    expect(page.locator("#clock-me")).to_contain_text("You")
    expect(page.locator("#clock-opp")).to_contain_text("Bob 5:00")
    expect(page.locator("#presence .clock[data-running='true']")).to_have_count(1)
    expect(page.locator("#presence")).to_contain_text("(5+5)")


def test_a_friend_away_on_their_turn_is_said_away_not_thinking(page: Any, server: str) -> None:
    made = friends(server)
    page.goto(made["url"])
    game = page.locator("#game")
    expect(game).to_have_attribute("data-turn", re.compile("^(me|opponent)$"))
    if game.get_attribute("data-turn") == "me":
        play_a_card(page)
    expect(game).to_have_attribute("data-turn", "opponent")
    status = page.locator("#status")
    expect(status).to_have_text("Bob is away — it is their turn")  # one state: not "Bob is thinking…" too
    expect(page.locator("#away")).to_contain_text("Bob is away")
    bob = page.context.browser.new_context()
    try:
        bob.new_page().goto(made["friend"]["url"])
        # Bob comes back: the presence message alone (no new view for Ann) turns both to his turn.
        expect(page.locator("#presence")).to_have_attribute("data-away", "false")
        expect(status).to_have_text("Bob is thinking…")
    finally:
        bob.close()


def test_a_friend_who_is_here_but_never_moves_may_have_the_bummerl_claimed(page: Any, server: str,
                                                                           clock: FakeClock) -> None:
    # Attacker audit: a player who sat at the table and never moved held the game for ever.
    made = friends(server)
    page.goto(made["url"])
    game = page.locator("#game")
    expect(game).to_have_attribute("data-turn", re.compile("^(me|opponent)$"))
    bob = page.context.browser.new_context()
    try:
        bob.new_page().goto(made["friend"]["url"])
        expect(page.locator("#presence")).to_have_attribute("data-away", "false")
        if game.get_attribute("data-turn") == "me":
            play_a_card(page)
        expect(page.locator("#status")).to_have_text("Bob is thinking…")
        clock.now += 180  # as long as an absence is shown: said, with the countdown to the claim
        expect(page.locator("#away")).to_contain_text("Bob has not moved for a long while.")
        expect(page.locator("#status")).to_have_text("Bob has not moved for a long while — it is their turn")
        expect(page.locator("#away-countdown")).to_have_text(re.compile(r"^(6:00|5:[0-5]\d)$"))
        claim = page.locator('[data-action="claim-bummerl"]')
        expect(claim).to_be_disabled()
        clock.now += 360
        expect(claim).to_be_enabled()
        claim.click()
        expect(game).to_have_attribute("data-phase", "game_over")
    finally:
        bob.close()
