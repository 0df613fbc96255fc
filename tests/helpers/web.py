"""Helpers for the web server tests: the cards a frame mentions, the cards a seat may not see, a computer
that waits at a gate, a server in a subprocess, and a headless Chromium (the ``browser`` and ``server``
fixtures of the browser tests, a page in its own context)."""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bummerl import Deal
from bummerl.cards import CARDS, Card, cards_in
from bummerl.server.process import ServerProcess, free_port, running_server
from bummerl.view import View

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "GATE_ENV",
    "SETTINGS",
    "ServerProcess",
    "browser_fixture",
    "browser_or_skip",
    "cards_mentioned",
    "choose_name",
    "free_port",
    "gated_decide",
    "gated_question",
    "hidden_from",
    "matching_state",
    "new_page",
    "running_server",
    "server_fixture",
    "serving_in_thread",
    "with_settings",
]

#: Launch options for Debian's chromium (no sandbox in containers, nothing fetched from the internet).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]



def browser_or_skip() -> Any:
    """Playwright's sync API, or skip the module where the browser is missing — but never on CI (``CI`` set),
    where .ci/run installs chromium and a missing browser must fail instead of turning tests into skips."""
    import pytest

    on_ci = bool(os.environ.get("CI"))
    try:
        import playwright.sync_api as api
    except ImportError:
        if on_ci:
            raise
        pytest.skip("playwright is not installed (pip install -e '.[dev]')", allow_module_level=True)
    if not os.path.exists(CHROMIUM):
        if on_ci:
            raise RuntimeError(f"CI: Debian's chromium is missing at {CHROMIUM}")
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)",
                    allow_module_level=True)
    return api


def browser_fixture(api: Any) -> Any:
    """A module-scoped fixture ``browser``: Debian's chromium launched headless by Playwright's ``api`` (what
    :func:`browser_or_skip` answers). A test module takes it as ``browser = browser_fixture(api)``."""
    import pytest

    @pytest.fixture(scope="module")
    def browser() -> Iterator[Any]:
        with api.sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield b
            b.close()

    return browser


@contextmanager
def serving_in_thread(app: Any, **options: Any) -> Iterator[str]:
    """The ASGI ``app`` served by uvicorn in a thread of this process (its clock, limits and store are the
    test's to set; ``options`` go to ``uvicorn.Config``, e.g. ``http=``); its address."""
    import uvicorn

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False,
                            **options)
    web = uvicorn.Server(config)
    thread = threading.Thread(target=web.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not web.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        web.should_exit = True
        thread.join(30)


def server_fixture(name: str) -> Any:
    """A module-scoped fixture ``server``: ``bummerl serve`` in a subprocess on a new data directory named
    after ``name``. A test module takes it as ``server = server_fixture("web")``."""
    import pytest

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
        with running_server(tmp_path_factory.mktemp(name)) as s:
            yield s

    return server


#: The page settings of the browser tests: no animations, French card names, the easy computer.
SETTINGS = '{"speed": "instant", "cards": "french", "level": "easy", "rules": "standard"}'


def new_page(browser: Any, timeout: int, *, width: int = 1100, height: int = 800,
             errors: list[str] | None = None, console: bool = True, **options: Any) -> Any:
    """A page in a new browser context (``options`` go to the context) that waits at most ``timeout`` ms;
    the page's uncaught errors (and, if ``console``, its console's errors) go to ``errors`` if given."""
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    context.set_default_timeout(timeout)
    page = context.new_page()
    if errors is not None:
        if console:
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def with_settings(page: Any, server: ServerProcess) -> None:
    """Open the server's landing page and store :data:`SETTINGS` in its local storage."""
    page.goto(server.url + "/")
    page.evaluate(f"localStorage.setItem('bummerl.settings', '{SETTINGS}')")


def choose_name(page: Any, name: str) -> None:
    """Choose ``name`` on the /friend page."""
    page.fill("#name", name)
    page.click('[data-action="name"]')


_CODE = re.compile(r"^(?:play )?([9JQKTA][CDHS])$")
_FRENCH = re.compile(r"(10|[9JQKA])([♣♦♥♠])")
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def play_a_card(page: Any, *, tap: bool = False) -> None:
    """Play one card of the hand, as a player would click it (``tap``: the click event alone, as a finger
    gives it, without Playwright scrolling to the card). A click on the king or queen of a marriage one may
    declare declares it first, so another card is taken when there is one; else the marriage is declared
    and its card led with a second click."""
    cards = page.locator("#hand button.card:not(.unplayable)")
    plain = cards.filter(has_not_text="declares its marriage first")
    marriage_only = plain.count() == 0

    def press(card: Any) -> None:
        if tap:
            card.dispatch_event("click")
        else:
            card.click()

    press(cards.first if marriage_only else plain.first)
    if marriage_only:
        page.wait_for_function("document.getElementById('status').textContent.includes('of your marriage')")
        press(cards.first)


def cards_mentioned(value: Any) -> set[str]:
    """Every card a JSON value names: card codes (``"QH"``, ``"play QH"``) and French card names in texts
    (``"Q♥"``, ``"10♠"``)."""
    out: set[str] = set()
    if isinstance(value, dict):
        for v in value.values():
            out |= cards_mentioned(v)
    elif isinstance(value, list):
        for v in value:
            out |= cards_mentioned(v)
    elif isinstance(value, str):
        m = _CODE.match(value)
        if m:
            out.add(m.group(1))
        for rank, suit in _FRENCH.findall(value):
            out.add(("T" if rank == "10" else rank) + _SYMBOLS[suit])
    return out


def hidden_from(deal: Deal, seat: int, *, revealed: bool = False) -> set[str]:
    """The cards ``seat`` may not see in ``deal`` (worked out from the deal itself, not from a View): the
    face-down talon, and the opponent's cards that were never shown (a marriage partner, the trump card
    taken by an exchange, the trump card drawn last) unless ``revealed`` (the hands shown at a deal's end)."""
    opp = 1 - seat
    shown = {deal.trump_card} if deal.trump_card >= 0 else set()
    for player, suit in deal.marriages:
        if player == opp:
            shown |= {suit * 6 + 2, suit * 6 + 3}
    if deal.exchanged is not None:
        shown |= {int(deal.exchanged[1]), int(deal.exchanged[2])}
    hidden = set() if revealed else {c for c in cards_in(deal.hands[opp]) if int(c) not in shown}
    if deal.closed_by >= 0 or deal.talon_size > 0:
        hidden |= {CARDS[int(c)] for c in deal.stock[deal.drawn:]}
    return {str(Card.from_index(int(c))) for c in hidden}


def matching_state(rules: Any, dealer: int, deck: Any, actions: list[str], seat: int,
                   frame_deal: dict[str, Any], score: Any) -> Deal | None:
    """The deal after the prefix of ``actions`` whose view for ``seat`` is exactly ``frame_deal`` (but for
    the words and numbers the server adds: what a pass would do, what each legal marriage counts)."""
    frame_deal = {k: v for k, v in frame_deal.items()
                  if k not in ("pass_words", "marriage_points", "exchange_card")}
    deal = Deal(rules, tuple(int(c) for c in deck), dealer)
    for i in range(len(actions) + 1):
        if View.of(deal, seat, score).to_json() | _masked(frame_deal) == frame_deal:
            return deal
        if i < len(actions):
            deal.apply(actions[i])
    return None


def _masked(frame_deal: dict[str, Any]) -> dict[str, Any]:
    """The fields the server may null out (running points under ``open_tricks`` off)."""
    return {k: None for k in ("points", "pending", "close_snapshot") if frame_deal.get(k) is None}


# ----------------------------------------------------------------------------- a computer at a gate

GATE_ENV = "BUMMERL_TEST_GATE"


def _wait_for_gate() -> None:
    """Wait until the file named by ``$BUMMERL_TEST_GATE`` exists (at most a minute)."""
    gate = Path(os.environ[GATE_ENV])
    deadline = time.monotonic() + 60
    while not gate.exists() and time.monotonic() < deadline:
        time.sleep(0.02)


def gated_question() -> str:
    """A player's question (for :meth:`~bummerl.server.thinker.Thinker.ask`) that is worked out once the
    gate file exists: it holds its worker as long as a test wants."""
    _wait_for_gate()
    return "answered"


def gated_decide(level: str, seed: int, view: View) -> str:
    """:func:`bummerl.server.thinker.decide`, but the ``expert`` waits until the file named by
    ``$BUMMERL_TEST_GATE`` exists (at most a minute): a computer that thinks as long as a test wants."""
    from bummerl.server.thinker import decide

    if level == "expert":
        _wait_for_gate()
    return decide(level, seed, view)

