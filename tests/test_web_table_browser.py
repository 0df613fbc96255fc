"""The game page's table and connection (Playwright driving Debian's chromium): at the "instant" speed a trick
the computer takes stays on the table a moment before its next lead clears it; a socket the server refuses
as it opens, saying why (the game open in another window: 4409; too many connections: 1013), is not tried
again within a second, for ever: the page says why in one line, offers to try at once, and tries again by
itself every 10 s (what refused it may pass). The server runs in a thread (its limits
and the store's leases are set by the test); generous timeouts (two cores)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from bummerl.server import create_app
from bummerl.server.limits import Limits
from bummerl.server.online import KEY_HEADER
from helpers.web import (
    SETTINGS,
    browser_fixture,
    browser_or_skip,
    choose_name,
    new_page,
    play_a_card,
    serving_in_thread,
)

playwright_api = browser_or_skip()
expect = playwright_api.expect
TIMEOUT = 30_000  # ms
#: Deal 1 of test_web.py: the computer deals, you lead with JH KH QH AS TH; the trump card is AH.
DECK = "JH KH QH JC QC KC AH AS TH JD QD TC AC KD TD AD JS QS KS TS"
#: Counts the page's WebSocket openings and their close codes (before the page's scripts run).
SOCKETS = """window.__sockets = []; const Opened = window.WebSocket;
window.WebSocket = class extends Opened { constructor(...a) { super(...a);
  const i = window.__sockets.length; window.__sockets.push(null);
  this.addEventListener('close', (e) => { window.__sockets[i] = e.code; }); } };"""

browser = browser_fixture(playwright_api)


def serving(home: Path, limits: Limits | None = None) -> AbstractContextManager[str]:
    """The web game over ``home`` in a thread; its address."""
    return serving_in_thread(create_app(home=home, workers=0, limits=limits))


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    errors: list[str] = []
    tab = new_page(browser, TIMEOUT, errors=errors, console=False)  # (a refused socket logs a console error)
    expect.set_options(timeout=TIMEOUT)
    tab.add_init_script(SOCKETS)
    yield tab
    tab.context.close()
    assert errors == []


def friend_game(server: str) -> dict[str, Any]:
    """Ann invites, Bob joins: Ann's seat (its ``url``) and the ``invite``."""
    with httpx.Client(base_url=server) as http:
        ann = http.post("/api/players", json={"name": "Ann"}).json()
        bob = http.post("/api/players", json={"name": "Bob"}).json()
        made: dict[str, Any] = http.post("/api/friends", json={}, headers={KEY_HEADER: ann["key"]}).json()
        http.post(f"/api/friends/{made['invite']}/join", headers={KEY_HEADER: bob["key"]})
    return made


def open_game(page: Any, server: str) -> dict[str, Any]:
    page.goto(server + "/")
    page.evaluate(f"localStorage.setItem('bummerl.settings', '{SETTINGS}')")  # speed: instant
    game: dict[str, Any] = httpx.post(server + "/api/games", json={
        "rules": "standard", "level": "easy", "seed": 1, "dealer": 1, "decks": [DECK]}).json()
    page.goto(game["url"])
    return game


def sockets(page: Any) -> list[int | None]:
    """The close code of each socket the page opened (None: still open)."""
    codes: list[int | None] = page.evaluate("window.__sockets")
    return codes


def test_at_instant_speed_a_trick_the_computer_takes_is_shown_before_its_next_lead(page: Any,
                                                                                tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        # How long each state of the trick's caption was drawn, from a watcher set before the page's scripts.
        page.add_init_script("""window.__captions = []; document.addEventListener('DOMContentLoaded', () => {
            const caption = document.getElementById('trick-caption');
            const seen = () => window.__captions.push([caption.textContent, performance.now()]);
            const all = {childList: true, characterData: true, subtree: true};
            if (caption) new MutationObserver(seen).observe(caption, all); });""")
        open_game(page, server)
        game = page.locator("#game")
        while True:  # the first card that may be played, until the computer has taken a trick and led
            expect(game).to_have_attribute("data-turn", "me")
            captions = page.evaluate("window.__captions")
            taken = [i for i, (text, _) in enumerate(captions[:-1]) if text == "Last trick → Computer"]
            if taken:
                break
            assert game.get_attribute("data-phase") == "playing", "the computer took no trick"
            tricks = int(game.get_attribute("data-tricks") or 0)
            play_a_card(page)
            expect(game).to_have_attribute("data-tricks", str(tricks + 1))  # each card here ends a trick
        shown = [captions[i + 1][1] - captions[i][1] for i in taken]
        assert min(shown) >= 600, shown  # (it was drawn for 0-15 ms, cleared by the computer's lead)


def test_a_game_open_in_another_window_says_so_and_is_tried_again_slowly(page: Any, tmp_path: Path) -> None:
    from bummerl.rules import Rules
    from bummerl.session import PlaySession
    from bummerl.store import GameStore

    terminal = PlaySession.new(Rules.preset("standard"), level="easy", seed=2, home=tmp_path)
    terminal.close()
    with serving(tmp_path) as server, GameStore.open(tmp_path) as store:
        seat = httpx.post(f"{server}/api/games/{terminal.id}/resume").json()
        with store.lease(terminal.id, "terminal"):  # open in the terminal
            page.goto(seat["url"])
            status = page.locator("#status")
            expect(status).to_have_text(
                f"This game cannot be opened now: game {terminal.id} is open in another window "
                "(bummerl play): close it there first. Try again")
            expect(page.locator("#game")).to_have_attribute("data-connected", "refused")
            time.sleep(2)  # the page tried again within 0.3-0.6 s, for ever
            assert sockets(page) == [4409]
        # The terminal has let it go: the page gets in by itself at its next try (it may be a store that was
        # busy for a while: a reviewer's page that had given up stayed refused).
        expect(page.locator("#hand button.card").first).to_be_visible()
        assert sockets(page)[0] == 4409 and sockets(page)[-1] is None  # (not loaded again)


def test_a_socket_over_the_limit_is_told_why_and_tried_again_slowly(page: Any, tmp_path: Path) -> None:
    with serving(tmp_path, Limits(sockets_per_address=2)) as server:
        made = friend_game(server)  # the page opens the game and the chat
        page.goto(made["url"])
        expect(page.locator("#hand button.card").first).to_be_visible()
        expect(page.locator("#chat")).to_have_attribute("data-connected", "true")
        other = page.context.new_page()  # the same game in a second tab: two sockets too many
        other.add_init_script(SOCKETS)
        other.goto(made["url"])
        expect(other.locator("#status")).to_have_text(
            "This game cannot be opened now: too many connections from your address. Try again")
        time.sleep(2)
        # Neither the game's socket nor the chat's is tried again (before, the game's was a failed handshake:
        # tried 4 times, then the game forgotten by this browser; the chat's was tried for ever).
        assert sorted(sockets(other), key=str) == [1013, 1013]
        kept = other.evaluate("Object.keys(JSON.parse(localStorage.getItem('bummerl.games')))")
        assert kept == [made["id"]]
        page.close()  # the first tab closed: room again; both come by themselves at their next try
        expect(other.locator("#hand button.card").first).to_be_visible()
        expect(other.locator("#chat")).to_have_attribute("data-connected", "true")


def test_a_spectator_over_the_socket_limit_is_told_why_and_tried_again_slowly(
        page: Any, browser: Any, tmp_path: Path) -> None:
    with serving(tmp_path, Limits(sockets_per_address=2)) as server:
        made = friend_game(server)
        page.goto(made["url"])  # Ann's game and chat: the address's two sockets
        expect(page.locator("#chat")).to_have_attribute("data-connected", "true")
        cid = new_page(browser, TIMEOUT, console=False)  # a third person, from the same address
        try:
            cid.add_init_script(SOCKETS)
            cid.goto(f"{server}/friend/{made['invite']}")
            choose_name(cid, "Cid")  # the seats are taken: Cid watches
            expect(cid.locator("#online-status")).to_have_text(
                "This game cannot be watched now: too many connections from your address. Try again")
            time.sleep(2)  # (before, it tried again every few seconds for ever)
            assert sockets(cid) == [1013]
            page.close()  # room again
            cid.locator('#online-status [data-action="reload"]').click()
            expect(cid.locator("#watch-box")).to_have_attribute("data-connected", "true")
        finally:
            cid.context.close()


def test_a_game_the_server_does_not_know_is_forgotten_one_it_knows_is_kept(page: Any, tmp_path: Path) -> None:
    # Four failed handshakes before any view: the page forgot the game's token, even when the game was there
    # and its sockets only refused (too many at once, before they open). It now asks the server first.
    with serving(tmp_path) as server:
        game = open_game(page, server)
        expect(page.locator("#hand button.card").first).to_be_visible()
        games = {game["id"]: {"token": "not-its-token"}, "0123456789ab": {"token": "x"}}
        page.evaluate("g => localStorage.setItem('bummerl.games', JSON.stringify(g))", games)
        known = "Object.keys(JSON.parse(localStorage.getItem('bummerl.games'))).sort()"
        page.goto(f"{server}/play/0123456789ab")  # no such game
        page.wait_for_function(f"!{known}.includes('0123456789ab')", timeout=TIMEOUT)
        page.goto(game["url"].split("#")[0])  # a game it knows, with a token that is not its own
        expect(page.locator("#status")).to_have_text(
            "This game cannot be opened now: the server refuses the connection. Trying again in a while.")
        assert page.evaluate(known) == [game["id"]]


def claim_when_offered(page: Any) -> int:
    """Play the first card that may be played until a claim is offered, then claim (wrongly, below 66:
    the deal ends with cards in the hands); the points claimed with. The claim button was checked not to
    be the bright one."""
    game = page.locator("#game")
    while True:
        expect(game).to_have_attribute("data-turn", "me")
        claim = page.locator('#actions [data-action="claim"]')
        if claim.count():
            points = int(re.findall(r"(\d+) points", page.locator("#my-info").inner_text())[0])
            assert points < 66 and not re.search(r"\bclaim\b", claim.get_attribute("class") or "")
            claim.click()
            page.click('[data-confirm="claim"]')
            return points
        tricks = game.get_attribute("data-tricks")
        play_a_card(page)
        page.wait_for_function(f"() => document.getElementById('game').dataset.tricks !== '{tricks}'")


def test_after_a_deal_enter_or_a_card_gives_the_summary_not_a_refused_play(page: Any, tmp_path: Path) -> None:
    # Session 16's play-test: with the summary closed, Enter on the focused card (or a click) sent
    # "play KC" and showed the server's error "the deal is over: start the next deal".
    with serving(tmp_path) as server:
        open_game(page, server)
        modal, status = page.locator("#modal"), page.locator("#status")
        claim_when_offered(page)  # not the bright button below 66: nothing recommends it
        expect(modal).to_have_attribute("data-kind", "summary")
        page.keyboard.press("Escape")
        expect(modal).to_be_hidden()
        page.locator("#hand button.card").first.focus()
        page.keyboard.press("Enter")
        expect(modal).to_have_attribute("data-kind", "summary")
        page.keyboard.press("Escape")
        page.locator("#hand button.card").first.click()
        expect(modal).to_have_attribute("data-kind", "summary")
        expect(status).not_to_have_class(re.compile("error"))
        # The log's words for screen readers stay inside its scroll box (they grew the page a screen a deal).
        outside = page.evaluate("""() => { const log = document.getElementById('log').getBoundingClientRect();
            return [...document.querySelectorAll('#log .sr-only')].filter(
                (s) => s.getBoundingClientRect().bottom > log.bottom + 1).length; }""")
        assert outside == 0


def test_back_to_the_home_page_shows_the_settings_a_game_changed(page: Any, tmp_path: Path) -> None:
    # Session 16's play-test: after Back the form showed "easy" and French cards while Start used the
    # medium level and German cards that the game's settings dialog had stored.
    with serving(tmp_path) as server:
        page.goto(server + "/")
        page.evaluate(f"localStorage.setItem('bummerl.settings', '{SETTINGS}')")
        page.reload()
        expect(page.locator("#level")).to_have_value("easy")
        page.goto(server + "/rules")
        page.evaluate("localStorage.setItem('bummerl.settings', JSON.stringify({...JSON.parse("
                      "localStorage.getItem('bummerl.settings')), level: 'medium', cards: 'german'}))")
        page.go_back()
        expect(page.locator("#level")).to_have_value("medium")
        expect(page.locator("#cards")).to_have_value("german")
