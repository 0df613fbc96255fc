"""Helpers for the web server tests: the cards a frame mentions, the cards a seat may not see, a computer
that waits at a gate, a server in a subprocess, and a headless Chromium."""

from __future__ import annotations

import os
import re
import time
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
    "ServerProcess",
    "browser_or_skip",
    "cards_mentioned",
    "free_port",
    "gated_decide",
    "hidden_from",
    "matching_state",
    "running_server",
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


_CODE = re.compile(r"^(?:play )?([9JQKTA][CDHS])$")
_FRENCH = re.compile(r"(10|[9JQKA])([♣♦♥♠])")
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


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
    """The deal after the prefix of ``actions`` whose view for ``seat`` is exactly ``frame_deal``."""
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


def gated_decide(level: str, seed: int, view: View) -> str:
    """:func:`bummerl.server.thinker.decide`, but the ``expert`` waits until the file named by
    ``$BUMMERL_TEST_GATE`` exists (at most a minute): a computer that thinks as long as a test wants."""
    from bummerl.server.thinker import decide

    if level == "expert":
        gate = Path(os.environ[GATE_ENV])
        deadline = time.monotonic() + 60
        while not gate.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
    return decide(level, seed, view)

