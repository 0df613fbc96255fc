"""The README's screenshot: a scene in the middle of a Bummerl, rendered by Textual.

Regenerate docs/screenshot.svg with
``BUMMERL_WRITE_SCREENSHOT=1 python -m pytest tests/test_tui_screenshot.py``.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from bummerl.cards import parse_cards
from bummerl.rules import Rules
from bummerl.session import PlaySession
from bummerl.tui.app import BummerlApp
from helpers.tui import Script, settle, shown

DOCS = Path(__file__).resolve().parent.parent / "docs"
# Deal 1: you exchange, close, marry and claim (as in test_tui). Deal 2: the computer leads A♣, wins,
# declares 20 in spades and leads Q♠.
DECKS = [
    "JH KH QH JC QC KC AH AS TS TC AC JD QD KD TD AD TH JS QS KS",
    "KS QS AC JC TH AD AH TS QD KD JH QC KC TC JD TD QH KH JS AS",
]
SIZE = (104, 30)


def test_the_screenshot_scene_shows_a_marriage_and_a_trick_in_progress(tmp_path: Path) -> None:
    bot = Script(["play JC", "play AC", "play AC", "marry S", "play QS"])
    session = PlaySession.new(Rules.preset("standard"), level="medium", seed=1, first_dealer=1, home=tmp_path,
                              decks=[[int(c) for c in parse_cards(d)] for d in DECKS],
                              bot=bot)  # type: ignore[arg-type]
    app = BummerlApp(session, delay=0, confirm=False)

    async def main() -> str:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            for key in ("x", "5", "c", "m", "2", "g", "enter", "3"):
                await pilot.press(key)
                await settle(pilot, app)
            screen = shown(app)
            if os.environ.get("BUMMERL_WRITE_SCREENSHOT"):
                DOCS.mkdir(exist_ok=True)
                app.save_screenshot("screenshot.svg", str(DOCS))
            return screen

    screen = asyncio.run(main())
    assert "Computer declares 20 (K♠ Q♠)" in screen and "Computer plays Q♠" in screen
    assert "shown: K♠" in screen and "declared: ♠" in screen
    assert "You       ●●●●○○○ 4" in screen and "Computer  ●●●●●●● 7" in screen
    assert "Computer led Q♠: your card" in screen
    assert (DOCS / "screenshot.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")
