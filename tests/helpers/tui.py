"""Driving the terminal game in tests: a scripted session, Textual's pilot, and the screen as text."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import RichLog

from bummerl.cards import parse_cards
from bummerl.rules import Rules
from bummerl.session import PlaySession
from bummerl.tui.app import BummerlApp
from helpers.arena_bots import Script

# You (seat 0, forehand) get JH KH QH + AS TS; the computer JC QC KC + TC AC; the trump card is AH.
SCRIPTED_DECK = "JH KH QH JC QC KC AH AS TS TC AC JD QD KD TD AD TH JS QS KS"
SIZE = (110, 32)


def session(tmp_path: Path, decks: Sequence[str] = (SCRIPTED_DECK,), rules: str | Rules = "standard",
            bot: object | None = None, cards: str = "french", seed: int = 1) -> PlaySession:
    return PlaySession.new(
        Rules.preset(rules) if isinstance(rules, str) else rules, level="medium", seed=seed, first_dealer=1,
        decks=[[int(c) for c in parse_cards(d)] for d in decks], home=tmp_path,
        bot=bot if bot is not None else Script(["play JC", "play AC"]),  # type: ignore[arg-type]
        cards="german" if cards == "german" else "french",
    )


def screen_text(app: BummerlApp) -> str:
    """The whole screen as plain text, as a person would read it."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, force_terminal=True,
                      color_system="truecolor", legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def log_text(app: BummerlApp) -> str:
    """The event log panel's lines, joined (long events wrap over several lines)."""
    lines = app.query_one("#log", RichLog).lines
    return " ".join(" ".join(line.text.split()) for line in lines)


def shown(app: BummerlApp) -> str:
    """What is on the screen, plus the whole event log (its wrapped lines joined)."""
    return screen_text(app) + "\n" + log_text(app)


async def settle(pilot: Pilot[None], app: BummerlApp) -> None:
    """Wait until the computer has moved and the screen is quiet."""
    for _ in range(500):
        await pilot.pause()
        if not app.busy:
            await pilot.pause()
            if not app.busy:
                return
    raise AssertionError("the computer never finished its move")


async def press(pilot: Pilot[None], app: BummerlApp, *keys: str, look: bool = True) -> str:
    """Press keys one by one, letting the computer answer; then read the screen (unless ``look`` is off)."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot, app)
    return shown(app) if look else ""


def run(app: BummerlApp, body: Callable[[Pilot[None]], Awaitable[None]],
        size: tuple[int, int] = SIZE, *, notifications: bool = False) -> None:
    """Run the app headless at ``size`` and ``body`` once it is quiet (``notifications``: show Textual's
    notifications, which tests leave out by default)."""

    async def main() -> None:
        async with app.run_test(size=size, notifications=notifications) as pilot:
            await settle(pilot, app)
            await body(pilot)

    asyncio.run(main())
