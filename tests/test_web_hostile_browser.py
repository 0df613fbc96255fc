"""Markup in names and chat is shown as text on every page (issue 14: "script in names and chat"), in a real
browser (Playwright driving Debian's chromium).

The server refuses such names (``check_name``; test_online.py), so this test goes around it the way an old
or hand-edited database would: it writes the name straight into the store. The pages must still show it
as text: /friend (your name, the lobby), the game page of both players, the chat, the spectator's page and
the player page; no element is made from it and its script never runs."""

from __future__ import annotations

import re
import sqlite3
from typing import Any
from urllib.parse import quote

from helpers.web import (
    ServerProcess,
    browser_fixture,
    browser_or_skip,
    choose_name,
    new_page,
    server_fixture,
    with_settings,
)

playwright_api = browser_or_skip()

expect = playwright_api.expect
TIMEOUT = 60_000  # ms
NAME = '<img src=x onerror="window.pwned=1"><svg onload="window.pwned=2">Ann'  # no "/": a path segment
CHAT = '<b onclick="x()">hi</b><img src=y onerror="window.pwned=3">'
#: Elements the markup would make if a page used it as HTML.
INJECTED = 'img[src="x"], img[src="y"], [onerror], [onclick], [onload]'


browser = browser_fixture(playwright_api)
server = server_fixture("markup")


def person(browser: Any, server: ServerProcess, name: str) -> Any:
    page = new_page(browser, TIMEOUT)
    with_settings(page, server)
    page.goto(server.url + "/friend")
    choose_name(page, name)
    expect(page.locator("#me-name")).to_have_text(name)
    return page


def shows_as_text(page: Any, *texts: str) -> None:
    """The page's text holds each text as it is, no element was made from it and no script ran."""
    for text in texts:
        expect(page.locator("body")).to_contain_text(text)
    assert page.locator(INJECTED).count() == 0
    assert page.evaluate("window.pwned") is None


def test_markup_in_a_name_and_in_the_chat_is_shown_as_text_everywhere(browser: Any,
                                                                       server: ServerProcess) -> None:
    expect.set_options(timeout=TIMEOUT)
    ann = person(browser, server, "Ann")
    with sqlite3.connect(server.home / "games.db") as db:  # around check_name, as a hand-edited store
        changed = db.execute("UPDATE web_players SET name = ?, folded = ? WHERE name = 'Ann'",
                             (NAME, NAME.casefold())).rowcount
    assert changed == 1
    ann.reload()
    expect(ann.locator("#me-name")).to_have_text(NAME)
    shows_as_text(ann, NAME)
    ann.check("#public")
    ann.click('[data-action="invite"]')
    expect(ann.locator("#online")).to_have_attribute("data-state", "invited")
    link = ann.locator("#invite-link").input_value()
    ann.click("#play-link")
    expect(ann.locator("#game")).to_have_attribute("data-connected", "true")

    bob = person(browser, server, "Bob")
    expect(bob.locator("#lobby li")).to_contain_text(NAME)  # the lobby
    shows_as_text(bob, NAME)
    bob.goto(link)
    expect(bob).to_have_url(re.compile(r"/play/"))
    expect(bob.locator("#game")).to_have_attribute("data-connected", "true")
    expect(bob.locator("#opponent-name")).to_have_text(NAME)  # the game page: the name, the log
    shows_as_text(bob, NAME)
    expect(ann.locator("#subtitle")).to_contain_text("Bob")

    ann.fill("#chat-text", CHAT)  # the chat: the message and the sender's name
    ann.press("#chat-text", "Enter")
    expect(bob.locator("#chat-log li")).to_have_text(f"{NAME}: {CHAT}")
    shows_as_text(bob, NAME, CHAT)
    shows_as_text(ann, CHAT)

    cid = person(browser, server, "Cid")  # the spectator
    cid.goto(link)
    expect(cid.locator("#online")).to_have_attribute("data-state", "watching")
    expect(cid.locator("#watch-players")).to_contain_text(f"{NAME} vs Bob")
    shows_as_text(cid, NAME)

    cid.goto(f"{server.url}/players/{quote(NAME, safe='')}")  # the player page
    expect(cid.locator("body")).to_contain_text(NAME)
    shows_as_text(cid, NAME)
    for page in (ann, bob, cid):
        page.context.close()
