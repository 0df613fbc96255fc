"""Play a friend in a real browser (Playwright driving Debian's chromium): A chooses a name and invites
publicly, B chooses a name and takes the invitation from the lobby, they play tricks by clicks in two
browser contexts, B reloads and continues at the same seat; a third context only watches. One test,
generous timeouts (two cores)."""

from __future__ import annotations

import re
from typing import Any

from helpers.web import (
    ServerProcess,
    browser_fixture,
    browser_or_skip,
    choose_name,
    new_page,
    play_a_card,
    server_fixture,
    with_settings,
)

playwright_api = browser_or_skip()

expect = playwright_api.expect
TIMEOUT = 30_000  # ms


browser = browser_fixture(playwright_api)
server = server_fixture("online")


class Person:
    """One browser context (its own local storage: its own player key), with console errors collected."""

    def __init__(self, browser: Any, server: ServerProcess, name: str) -> None:
        self.errors: list[str] = []
        self.page = new_page(browser, TIMEOUT, errors=self.errors)
        self.context = self.page.context
        expect.set_options(timeout=TIMEOUT)
        with_settings(self.page, server)
        self.name = name

    def choose_name(self) -> None:
        choose_name(self.page, self.name)

    def game(self) -> Any:
        return self.page.locator("#game")

    def tricks(self) -> int:
        return int(self.game().get_attribute("data-tricks") or 0)


def test_two_friends_play_by_clicks_and_one_reloads(browser: Any, server: ServerProcess) -> None:
    ann, bob, cid = (Person(browser, server, n) for n in ("Ann", "Bob", "Cid"))
    ann.page.goto(server.url + "/friend")
    ann.choose_name()
    expect(ann.page.locator("#me-name")).to_have_text("Ann")
    ann.page.check("#public")
    ann.page.click('[data-action="invite"]')
    expect(ann.page.locator("#online")).to_have_attribute("data-state", "invited")
    link = ann.page.locator("#invite-link").input_value()
    assert link.startswith(server.url + "/friend/")
    ann.page.click("#play-link")
    expect(ann.game()).to_have_attribute("data-connected", "true")

    bob.page.goto(server.url + "/friend")  # Bob finds the invitation in the lobby
    bob.choose_name()
    expect(bob.page.locator("#lobby li")).to_contain_text("Ann (1500)")
    bob.page.locator("#lobby a").first.click()
    expect(bob.page).to_have_url(re.compile(r"/play/[0-9a-f]+"))
    expect(bob.game()).to_have_attribute("data-connected", "true")
    expect(ann.page.locator("#subtitle")).to_contain_text("Bob")
    expect(bob.page.locator("#subtitle")).to_contain_text("Ann")

    def mover() -> Person:
        """The one whose turn it is, once both pages show the same moment (polled, up to TIMEOUT)."""
        for _ in range(TIMEOUT // 100):
            turns = [p.game().get_attribute("data-turn") for p in (ann, bob)]
            logs = {p.page.locator("#log li").count() for p in (ann, bob)}
            if sorted(turns) == ["me", "opponent"] and len(logs) == 1:
                return ann if turns[0] == "me" else bob
            ann.page.wait_for_timeout(100)
        raise AssertionError(f"no one to move: {turns}")

    def play_one_card() -> None:
        """Whoever's turn it is clicks their first playable card; both pages show it."""
        who = mover()
        before = who.page.locator("#log li").count()
        play_a_card(who.page)  # (a click on a marriage's king or queen would declare it)
        for p in (ann, bob):
            expect(p.page.locator("#log li")).not_to_have_count(before)

    for _ in range(4):  # two tricks
        play_one_card()
    expect(bob.game()).to_have_attribute("data-tricks", "2")
    hand = sorted(bob.page.locator("#hand [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)"))

    ann.page.fill("#chat-text", "<b>hi</b> <script>window.bad = 1</script>")  # plain text, shown as text
    ann.page.press("#chat-text", "Enter")
    expect(bob.page.locator("#chat-log li")).to_have_text("Ann: <b>hi</b> <script>window.bad = 1</script>")
    assert bob.page.locator("#chat-log li b").count() == 1 and bob.page.evaluate("window.bad") is None

    bob.page.reload()  # the same browser, the same seat, the same hand
    expect(bob.game()).to_have_attribute("data-connected", "true")
    expect(bob.game()).to_have_attribute("data-tricks", "2")
    cards = bob.page.locator("#hand [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert sorted(cards) == hand
    expect(bob.page.locator("#chat-log li")).to_have_count(1)  # the chat is still there
    play_one_card()
    expect(bob.page.locator("#log li").last).to_be_visible()

    cid.page.goto(link)  # the seat is taken: Cid watches
    cid.choose_name()
    expect(cid.page.locator("#online")).to_have_attribute("data-state", "watching")
    expect(cid.page.locator("#watch-players")).to_contain_text("Ann vs Bob")
    assert cid.page.locator("#hand").count() == 0
    for p in (ann, bob, cid):
        assert [e for e in p.errors if "WebSocket" not in e] == [], p.errors
        p.context.close()
