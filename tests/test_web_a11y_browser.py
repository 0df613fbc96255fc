"""The game page for keyboard and screen-reader players, and the rules it shows (Playwright driving Debian's
chromium; session 13's accessibility and presets audits). A screen reader hears each trick; focus stays in
the hand after a move and goes back to its opener after a dialog, with the page behind the dialog inert;
cards are named in words with their key; the presence box is not rebuilt while its clocks tick; the hand
is never cut off at 200% zoom; the page shows the game's rules with their overrides and draws the game's
card faces; a close asks first; the Keys dialog lists what the rules allow; the deal summary says who
closed and where the points came from; a dialog taller than the screen (400% zoom) has the focus on its
title, where it is seen."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.web import SETTINGS, ServerProcess, browser_fixture, browser_or_skip, new_page, play_a_card

playwright_api = browser_or_skip()
expect = playwright_api.expect
TIMEOUT = 30_000  # ms
#: Deal 1 of test_web.py: the computer deals, you lead with JH KH QH AS TH; the trump card is AH.
DECK = "JH KH QH JC QC KC AH AS TH JD QD TC AC KD TD AD JS QS KS TS"

browser = browser_fixture(playwright_api)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose friend games may be claimed one second after the friend went away."""
    s = ServerProcess(Path(tmp_path_factory.mktemp("a11y")), options=["--away-after", "1"])
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def page(browser: Any, server: ServerProcess) -> Iterator[Any]:
    errors: list[str] = []
    tab = new_page(browser, TIMEOUT, width=1280, height=900, errors=errors)
    expect.set_options(timeout=TIMEOUT)
    tab.goto(server.url + "/")
    tab.evaluate(f"localStorage.setItem('bummerl.settings', '{SETTINGS}')")
    yield tab
    tab.context.close()
    assert errors == []


def post(server: ServerProcess, path: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", **({"X-Player-Key": key} if key else {})}
    request = urllib.request.Request(server.url + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=60) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def open_game(page: Any, server: ServerProcess, **body: Any) -> None:
    game = post(server, "/api/games", {"rules": "standard", "level": "easy", "seed": 1, "dealer": 1,
                                       "decks": [DECK], **body})
    page.goto(game["url"])
    expect(page.locator("#game")).to_have_attribute("data-turn", "me")


def focused(page: Any) -> dict[str, Any]:
    """What has the focus: its id, its data-action, and whether it is in the hand, the actions, the dialog."""
    answer: dict[str, Any] = page.evaluate("""() => { const a = document.activeElement;
        return {id: a.id, action: a.dataset ? a.dataset.action || null : null, tag: a.tagName,
                hand: !!a.closest('#hand'), actions: !!a.closest('#actions'),
                modal: !!a.closest('#modal')}; }""")
    return answer


def test_a_trick_is_announced_and_the_focus_stays_in_the_hand(page: Any, server: ServerProcess) -> None:
    open_game(page, server)
    assert focused(page)["id"] == "hand"  # the game starts in the hand: Tab goes to its first card
    page.keyboard.press("Tab")
    assert focused(page)["action"] == "play JH"
    # Cards are named in words with their key (the visible digit): what a screen reader says.
    expect(page.get_by_role("button", name="Ace of spades, key 5", exact=True)).to_have_attribute(
        "data-action", "play AS")
    assert page.locator("#hand button.card[aria-label]").count() == 0  # the name is the content
    expect(page.locator("#opponent-hand")).to_have_attribute("aria-label", "Computer's hand: 5 cards")
    for _ in range(4):
        page.keyboard.press("Tab")
    assert focused(page)["action"] == "play AS"
    page.keyboard.press("Enter")
    expect(page.locator("#game")).to_have_attribute("data-tricks", "1")
    expect(page.locator("#game")).to_have_attribute("data-turn", "me")
    where = focused(page)
    assert where["hand"] and where["action"] == "play TH"  # the card now in the fifth place
    news = page.locator("#announce")
    assert news.get_attribute("aria-live") == "polite"
    expect(news).to_contain_text("You play Ace of spades")
    expect(news).to_contain_text("Computer plays")
    expect(news).to_contain_text("You take the trick (+")
    assert "♠" not in (news.text_content() or "")  # words, not symbols
    expect(page.locator("#status [aria-hidden='true']")).to_have_count(0)  # no card named: one text
    # A digit key keeps the focus in the hand too.
    page.keyboard.press("1")
    expect(page.locator("#game")).to_have_attribute("data-tricks", "2")
    expect(page.locator("#game")).to_have_attribute("data-turn", "me")
    assert focused(page)["hand"]


def test_a_dialog_makes_the_page_inert_and_gives_the_focus_back(page: Any, server: ServerProcess) -> None:
    open_game(page, server)
    page.focus("#btn-settings")
    page.keyboard.press("Enter")
    expect(page.locator("#modal")).to_have_attribute("data-kind", "settings")
    assert page.evaluate("document.getElementById('game').inert")
    assert page.evaluate("document.querySelector('header.bar').inert")
    for _ in range(8):  # Tab never reaches the page behind the dialog
        page.keyboard.press("Tab")
        where = focused(page)
        assert where["modal"] or where["tag"] == "BODY", where
    page.keyboard.press("Escape")
    expect(page.locator("#modal")).to_be_hidden()
    assert focused(page)["id"] == "btn-settings"
    assert not page.evaluate("document.getElementById('game').inert")
    # The analysis, opened by its key from a card: back on the card once it is closed.
    page.locator('#hand [data-action="play JH"]').focus()
    page.keyboard.press("?")
    expect(page.locator("#modal")).to_have_attribute("data-kind", "analysis")
    assert focused(page)["modal"]
    page.keyboard.press("Escape")
    assert focused(page)["action"] == "play JH"


def test_a_close_asks_first_and_the_summary_says_who_closed(page: Any, server: ServerProcess) -> None:
    open_game(page, server)
    page.keyboard.press("c")
    expect(page.locator("#modal")).to_have_attribute("data-kind", "close")
    expect(page.locator("#modal")).to_contain_text("must reach 66")
    page.keyboard.press("Escape")
    expect(page.locator("#talon .count")).to_have_text("10")  # nothing closed
    page.click('[data-action="exchange"]')
    page.click('[data-action="play AS"]')
    expect(page.locator("#game")).to_have_attribute("data-tricks", "1")
    expect(page.locator("#game")).to_have_attribute("data-turn", "me")
    page.keyboard.press("m")  # hearts, 40
    # (declared once the server's view says so: a card key before it would declare it again, refused)
    expect(page.locator("#status")).to_contain_text("of your marriage")
    hand = page.locator("#hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    page.keyboard.press(str(hand.index("KH") + 1))
    expect(page.locator("#game")).to_have_attribute("data-tricks", "2")
    expect(page.locator("#game")).to_have_attribute("data-turn", "me")
    page.click('[data-action="close"]')
    expect(page.locator("#modal")).to_have_attribute("data-kind", "close")
    page.click('[data-confirm="close"]')
    expect(page.locator("#talon .closed-mark")).to_be_visible()
    expect(page.locator("#announce")).to_contain_text("You close the talon")
    page.click('[data-action="play AH"]')
    expect(page.locator("#game")).to_have_attribute("data-tricks", "3")
    expect(page.locator("#game")).to_have_attribute("data-turn", "me")
    page.keyboard.press("g")
    page.click('[data-confirm="claim"]')
    expect(page.locator("#modal")).to_have_attribute("data-kind", "summary")
    expect(page.locator("#modal")).to_contain_text("You closed the talon.")
    points = page.locator("#modal table.summary tbody tr").first.locator("td").nth(1)
    expect(points).to_contain_text("(40)")  # the marriage among the points
    page.keyboard.press("Enter")  # the next deal: the focus goes to the new hand
    expect(page.locator("#game")).to_have_attribute("data-deal", "2")
    expect(page.locator("#game")).to_have_attribute("data-turn", "me")
    assert focused(page)["hand"] or focused(page)["id"] == "hand"


def test_the_shortcuts_may_be_turned_off_and_q_asks_first(page: Any, server: ServerProcess) -> None:
    open_game(page, server)
    page.keyboard.press("q")
    expect(page.locator("#modal")).to_have_attribute("data-kind", "leave")
    page.keyboard.press("Escape")
    page.click("#btn-settings")
    page.select_option('[data-setting="keys"]', "off")
    page.keyboard.press("Escape")
    assert json.loads(page.evaluate("localStorage.getItem('bummerl.settings')"))["keys"] == "off"
    page.keyboard.press("1")
    page.keyboard.press("q")
    expect(page.locator("#modal")).to_be_hidden()  # (q opens its question at once when the keys are on)
    # A card played by "1" would be answered before anything asked after it on the same socket: once the
    # analysis asked by a click has come (refused, had it no longer been my turn), no card was played.
    page.get_by_role("button", name="What is each move worth?").click()
    expect(page.locator("#modal-body table.analysis")).to_be_visible(timeout=60_000)
    expect(page.locator("#game")).to_have_attribute("data-tricks", "0")
    expect(page.locator("#log")).not_to_contain_text("You play")


def test_the_page_shows_the_rules_overrides_and_the_keys_they_allow(page: Any, server: ServerProcess) -> None:
    open_game(page, server, rules={"preset": "standard", "false_claim": "mirror"})
    expect(page.locator("#subtitle")).to_contain_text("standard (false_claim=mirror)")
    page.goto(server.url + "/")
    expect(page.locator("#resume")).to_contain_text("standard (false_claim=mirror) against easy")
    open_game(page, server, rules="vu", decks=[])
    page.click("#btn-help")
    keys = page.locator("#modal table.keys")
    expect(keys).not_to_contain_text("close the talon")  # vu: no closing
    expect(keys).not_to_contain_text("claim 66")  # 66 is claimed automatically
    expect(keys).not_to_contain_text("sixth card")


def test_the_page_draws_the_games_faces_not_the_browsers(page: Any, server: ServerProcess) -> None:
    # The browser's settings say French (SETTINGS); the game is German: the page follows the game, as its log.
    open_game(page, server, cards="german")
    expect(page.locator("#log")).to_contain_text("Trump is Herz (Herz Sau face up)")
    expect(page.locator('#talon [data-card="AH"]')).to_have_attribute("title", "Herz Sau")
    expect(page.get_by_role("button", name="Laub Sau, key 5", exact=True)).to_be_visible()
    assert "Sau" in (page.locator('#talon [data-card="AH"] svg text').first.text_content() or "")


def test_the_presence_box_is_not_rebuilt_and_the_claim_keeps_its_focus(page: Any,
                                                                        server: ServerProcess) -> None:
    ann = post(server, "/api/players", {"name": "Ann"})
    bob = post(server, "/api/players", {"name": "Bob"})
    made = post(server, "/api/friends", {"clock": "5+5"}, ann["key"])
    post(server, f"/api/friends/{made['invite']}/join", {}, bob["key"])  # Bob never opens it: he is away
    page.goto(made["url"])
    expect(page.locator("#hand button.card").first).to_be_visible()  # the first view is drawn
    claim = page.locator('[data-action="claim-bummerl"]')
    expect(claim).to_be_enabled()
    claim.focus()
    page.evaluate("document.querySelector('[data-action=\"claim-bummerl\"]').dataset.mark = 'kept'")
    clock = page.locator("#presence .clock[data-running='true'] .time")  # whoever is to lead
    before = clock.text_content()
    expect(clock).not_to_have_text(before or "")  # the clock ticks ...
    assert focused(page)["action"] == "claim-bummerl", focused(page)  # ... the same button keeps it
    expect(claim).to_have_attribute("data-mark", "kept")
    box = page.locator("#presence")
    assert box.get_attribute("aria-live") is None  # no live region that ticks
    expect(page.locator("#presence-news")).to_contain_text("Bob is away. You may claim the Bummerl")


def test_the_hand_is_never_cut_off_at_200_percent_or_with_a_large_font(browser: Any,
                                                                       server: ServerProcess) -> None:
    game = post(server, "/api/games", {"rules": "sixty-six", "level": "easy", "seed": 7})
    for width, height, scale, font in ((640, 450, 2, ""), (1280, 900, 1, "32px"), (320, 600, 1, "")):
        errors: list[str] = []
        tab = new_page(browser, TIMEOUT, width=width, height=height, errors=errors, device_scale_factor=scale)
        tab.goto(server.url + "/")
        tab.evaluate(f"localStorage.setItem('bummerl.settings', '{SETTINGS}')")
        tab.goto(game["url"])
        if font:
            tab.add_style_tag(content=f"html {{ font-size: {font}; }}")
        expect(tab.locator("#hand button.card")).to_have_count(6)
        boxes = tab.locator("#hand button.card").evaluate_all(
            "cs => cs.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.right]; })")
        assert all(left >= 0 and right <= width for left, right in boxes), (width, font, boxes)
        assert tab.evaluate("document.scrollingElement.scrollWidth") <= width
        tab.context.close()
        assert errors == []


def test_a_tall_dialog_opens_with_the_focus_where_it_is_seen(browser: Any, server: ServerProcess) -> None:
    # At 400% zoom (320 x 225 CSS px) the analysis opened at its title with the focus on Close, off-screen.
    errors: list[str] = []
    tab = new_page(browser, TIMEOUT, width=320, height=225, errors=errors)
    tab.goto(server.url + "/")
    tab.evaluate(f"localStorage.setItem('bummerl.settings', '{SETTINGS}')")
    open_game(tab, server)
    tab.locator('#hand [data-action="play JH"]').focus()
    tab.keyboard.press("?")
    expect(tab.locator("#modal")).to_have_attribute("data-kind", "analysis")
    expect(tab.locator("#modal-title")).to_be_focused()
    assert tab.evaluate("document.querySelector('#modal .dialog').scrollTop") == 0  # it opens at its title
    box = tab.locator("#modal-title").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 225
    tab.keyboard.press("Escape")
    assert focused(tab)["action"] == "play JH"
    tab.context.close()
    assert errors == []


def test_the_view_message_carries_every_rule_flag(tmp_path: Path) -> None:
    # The Keys dialog lists only what the rules allow; a preset's name with overrides does not say it.
    from starlette.testclient import TestClient

    from bummerl.rules import FLAG_NAMES
    from bummerl.server import create_app

    with TestClient(create_app(home=tmp_path, workers=0)) as client:
        game = client.post("/api/games", json={"rules": {"preset": "vu", "auto_claim": False},
                                               "level": "easy", "seed": 1}).json()
        with client.websocket_connect(f"/ws/games/{game['id']}?token={game['token']}") as ws:
            ws.receive_json()
            view = ws.receive_json()
    assert view["type"] == "view" and set(view["flags"]) == set(FLAG_NAMES)
    assert view["flags"]["allow_close"] is False and view["flags"]["auto_claim"] is False
    assert view["rules_text"] == "vu (auto_claim=no)"


def test_the_invitation_says_who_invites_and_to_what_before_a_name_is_chosen(page: Any,
                                                                               server: ServerProcess) -> None:
    # It said only "Choose a name to take the free seat (or to watch)." (session 12's friend audit).
    host = post(server, "/api/players", {"name": "Cleo"})
    made = post(server, "/api/friends", {"rules": {"preset": "tompa"}, "rated": False}, host["key"])
    page.goto(made["link"])
    said = page.locator("#online-status")
    expect(said).to_contain_text("Cleo (")
    expect(said).to_contain_text("invites you to a Bummerl: tompa · unrated. Choose a name")


def test_after_a_move_the_focus_is_on_a_card_that_may_be_played(page: Any, server: ServerProcess) -> None:
    # A play-test: the focus went back to the card in the same place even when it could not be played
    # (strict following once the talon is used up), and Enter on it only gave an error.
    open_game(page, server, level="medium", dealer=0)  # the computer leads, with the strong hand
    game = page.locator("#game")
    checked = 0
    while game.get_attribute("data-phase") == "playing" and page.locator("#hand button.card").count():
        page.wait_for_function("() => document.getElementById('game').dataset.turn === 'me' || "
                               "document.getElementById('game').dataset.phase !== 'playing'")
        if game.get_attribute("data-phase") != "playing" or not page.locator("#hand button.card").count():
            break
        if page.locator("#hand button.card.unplayable").count():
            assert focused(page)["hand"]
            assert not page.evaluate("document.activeElement.classList.contains('unplayable')")
            checked += 1
        tricks = game.get_attribute("data-tricks")
        play_a_card(page)
        page.wait_for_function(f"() => document.getElementById('game').dataset.tricks !== '{tricks}' || "
                               "document.getElementById('game').dataset.phase !== 'playing'")
    assert checked  # hands with cards that may not be played were met
