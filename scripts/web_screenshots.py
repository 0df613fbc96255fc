"""Screenshots of the web game for the README: the table at desktop (1280 x 800) and phone (360 x 780)
size, French and German card faces, and the landing page.

A server runs on a fresh data directory; a seeded first deal is played by clicks up to a declared
marriage (so the opponent's shown card, the talon and a trick are on the table); the second deal is
started after a claim so the score sheet has a row. Playwright drives Debian's chromium.

Usage: python scripts/web_screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from bummerl.scripting import run
from bummerl.server.process import running_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: The first deal: you hold the trump jack and the trump marriage; the computer deals.
DECK_1 = "JH KH QH JC QC KC AH AS TH JD QD TC AC KD TD AD JS QS KS TS"
#: The second deal: the computer holds the marriage of spades and the trump jack of clubs.
DECK_2 = "KS QS JC TD KD AH QD AC TH KH AD JS QC KC TS TC JD QH JH AS"
SIZES = {"desktop": (1280, 800), "phone": (360, 780)}


def wait_turn(page: Any, tricks: int | None = None) -> None:
    game = page.locator("#game[data-turn='me'][data-queue='0']")
    game.wait_for()
    if tricks is not None:
        page.locator(f"#game[data-tricks='{tricks}'][data-turn='me']").wait_for()


def scene(page: Any, url: str) -> None:
    """Deal 1 to a claim, then deal 2 until your first lead after the computer's marriage."""
    page.goto(url)
    wait_turn(page, 0)
    for action, tricks in (("exchange", None), ("play AS", 1), ("marry H", None), ("play KH", 2),
                           ("close", None), ("play AH", 3)):
        page.click(f'[data-action="{action}"]')
        if action == "close":
            page.click('[data-confirm="close"]')  # a close asks first
        wait_turn(page, tricks)
    page.click('[data-action="claim"]')
    page.click('[data-confirm="claim"]')
    page.locator("#modal[data-kind='summary']").wait_for()
    page.click('#modal [data-action="next"]')
    page.locator("#game[data-deal='2']").wait_for()
    wait_turn(page)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs"))
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as home, running_server(Path(home)) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for faces in ("french", "german"):
            game = server.post("/api/games", {"rules": "standard", "level": "medium", "seed": 11, "dealer": 1,
                                              "cards": faces, "decks": [DECK_1, DECK_2]})
            for size, (width, height) in SIZES.items():
                context = browser.new_context(viewport={"width": width, "height": height},
                                              device_scale_factor=1)
                context.set_default_timeout(60_000)
                page = context.new_page()
                page.goto(server.url + "/")
                settings = json.dumps({"speed": "instant", "cards": faces, "level": "medium",
                                       "rules": "standard"})
                page.evaluate(f"localStorage.setItem('bummerl.settings', '{settings}')")
                if size == "desktop" and faces == "french":
                    page.goto(server.url + "/")
                    page.wait_for_timeout(300)
                    path = args.out / "web_landing.png"
                    page.screenshot(path=str(path))
                    written.append(path)
                if size == "desktop":
                    scene(page, game["url"])
                else:  # the same game, reloaded on a phone
                    page.goto(game["url"])
                    wait_turn(page)
                page.wait_for_timeout(300)
                path = args.out / f"web_{size}_{faces}.png"
                page.screenshot(path=str(path), full_page=size == "phone")
                written.append(path)
                context.close()
        browser.close()
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    run(main)
