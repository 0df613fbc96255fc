"""``bummerl play`` (a full-screen game of a whole Bummerl against the computer) and ``bummerl stats``."""

from __future__ import annotations

import secrets
from typing import Annotated

import typer

from bummerl.cli.app import app, fail, parse_rule_overrides

__all__ = ["play", "stats"]

_LEVELS = ("easy", "medium", "hard", "expert")
_DEALERS = ("me", "computer", "random")


@app.command()
def play(
    rules: Annotated[str, typer.Option("--rules", help="Rules preset: standard, soft, sharp, tompa, vu, "
                                                       "sixty-six.")] = "standard",
    rule: Annotated[list[str] | None, typer.Option(
        "--rule", help="Override one rule flag, FLAG=VALUE (repeatable), e.g. false_claim=mirror.")] = None,
    level: Annotated[str, typer.Option(help="Computer level: easy, medium, hard or expert.")] = "medium",
    cards: Annotated[str, typer.Option(help="Card faces: french (♣♦♥♠) or german (Eichel, Schellen, "
                                            "Herz, Laub).")] = "french",
    seed: Annotated[int | None, typer.Option(
        help="Seed for the shuffles and the computer (replayable).")] = None,
    dealer: Annotated[str, typer.Option(help="Who deals first: me, computer or random.")] = "random",
    resume: Annotated[bool, typer.Option("--resume", help="Continue the last unfinished game.")] = False,
    delay: Annotated[float, typer.Option(help="Seconds before each computer move.")] = 0.7,
    samples: Annotated[int, typer.Option(help="Sampled worlds for the ? analysis (exact when fewer "
                                              "worlds are left).")] = 100,
    review_samples: Annotated[int, typer.Option(help="Sampled worlds per decision in the end-of-game "
                                                     "review.")] = 24,
    deck: Annotated[list[str] | None, typer.Option(hidden=True, help="Deck order of the first deals "
                                                                     "(testing).")] = None,
) -> None:
    """Play a whole Bummerl (7 game points down to 0) against the computer in the terminal.

    The game is saved after every action; --resume continues it.
    """
    from bummerl.cards import CardParseError, parse_cards
    from bummerl.engine import DeckError
    from bummerl.rules import Rules, RulesError
    from bummerl.storage import StorageError, latest_unfinished
    from bummerl.tui.session import PlaySession

    if delay < 0:
        fail("--delay cannot be negative")
    if samples < 1 or review_samples < 1:
        fail("--samples and --review-samples must be at least 1")
    try:
        if resume:
            saved = latest_unfinished()
            if saved is None:
                fail("there is no unfinished game to resume (start one with: bummerl play)")
            session = PlaySession.resume(saved)
        else:
            if level not in _LEVELS:
                fail(f"unknown level {level!r} (choose from {', '.join(_LEVELS)})")
            if cards not in ("french", "german"):
                fail(f"unknown card faces {cards!r} (choose french or german)")
            if dealer not in _DEALERS:
                fail(f"--dealer must be me, computer or random, not {dealer!r}")
            chosen = Rules.preset(rules).replace(**parse_rule_overrides(rule or []))
            decks = [[int(c) for c in parse_cards(d)] for d in deck or []]
            first = {"me": 0, "computer": 1, "random": None}[dealer]
            session = PlaySession.new(
                chosen, level=level, seed=secrets.randbelow(2**31) if seed is None else seed,
                first_dealer=first, cards="german" if cards == "german" else "french", decks=decks,
            )
    except (RulesError, ValueError, CardParseError, DeckError, StorageError) as err:
        fail(str(err))

    from bummerl.tui.app import BummerlApp

    BummerlApp(session, delay=delay, analysis_samples=samples, review_samples=review_samples).run()
    saved = session.saved
    if saved.finished:
        typer.echo(f"Game over. Saved as {saved.id}.")
    else:
        typer.echo(f"Game saved ({saved.id}). Continue it with: bummerl play --resume")


@app.command()
def stats() -> None:
    """Games, Bummerls and game points you won against each computer level."""
    from rich.console import Console
    from rich.table import Table

    from bummerl.storage import games_dir
    from bummerl.storage import stats as compute

    totals = compute()
    console = Console()
    if not totals:
        console.print(f"No games saved yet in {games_dir()} — start one with: bummerl play")
        return
    grid = Table(title="Your games against the computer")
    grid.add_column("level")
    for name in ("deals won", "Bummerls won", "game points won", "game points lost", "unfinished"):
        grid.add_column(name, justify="right")
    order = {name: i for i, name in enumerate(_LEVELS)}
    for level in sorted(totals, key=lambda n: (order.get(n, len(order)), n)):
        s = totals[level]
        grid.add_row(level, f"{s.deals_won} / {s.deals}", f"{s.bummerls_won} / {s.bummerls}",
                     str(s.game_points_won), str(s.game_points_lost), str(s.unfinished))
    console.print(grid)
