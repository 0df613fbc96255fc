"""``bummerl play`` (a full-screen game of a whole Bummerl against the computer) and ``bummerl stats``.

Games live in the game store (:mod:`bummerl.store`); the last level, rules, card faces and the
confirmation setting are remembered there for the next ``bummerl play``.
"""

from __future__ import annotations

import contextlib
import secrets
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bummerl.cli.app import app, fail, parse_rule_overrides

if TYPE_CHECKING:
    from collections.abc import Callable

    from bummerl.rules import Rules
    from bummerl.session import PlaySession
    from bummerl.store import GameStore, Tally

__all__ = ["play", "remembered", "stats"]

_DEALERS = ("me", "computer", "random")
_NO_TERMINAL = "bummerl play needs a terminal (its input and output are not one): run it in a terminal window"


def _has_terminal() -> bool:
    """True when standard input and output are a terminal (the full-screen game needs one)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def remembered(store: GameStore) -> dict[str, Any]:
    """The last options of ``bummerl play`` from the store, each checked (a bad one is dropped with a
    warning): ``level``, ``rules`` (a :class:`~bummerl.rules.Rules`), ``cards``, ``confirm``."""
    from bummerl.bots.levels import LEVEL_NAMES
    from bummerl.rules import Rules, RulesError
    from bummerl.store import CARD_STYLES

    raw = store.settings()
    out: dict[str, Any] = {}
    if raw.get("level") in LEVEL_NAMES:
        out["level"] = raw["level"]
    if raw.get("cards") in CARD_STYLES:
        out["cards"] = raw["cards"]
    if isinstance(raw.get("confirm"), bool):
        out["confirm"] = raw["confirm"]
    if "rules" in raw:
        with contextlib.suppress(RulesError):
            out["rules"] = Rules.from_json(raw["rules"])
    bad = [k for k in ("level", "cards", "confirm", "rules") if k in raw and k not in out]
    if bad:
        typer.echo(f"warning: the remembered {', '.join(bad)} in {store.path} is not valid; using the "
                   "default", err=True)
    return out


def _new_rules(rules: str | None, rule: list[str] | None, last: Rules | None) -> Rules:
    from bummerl.rules import Rules

    if rules is None and not rule and last is not None:
        return last
    base = Rules.preset(rules) if rules is not None else (last or Rules.preset("standard"))
    return base.replace(**parse_rule_overrides(rule or []))


@app.command()
def play(
    game_id: Annotated[str | None, typer.Argument(
        metavar="ID", help="The game to continue (implies --resume; an id or its start: bummerl games).",
        show_default=False)] = None,
    rules: Annotated[str | None, typer.Option(
        "--rules", help="Rules preset: standard, soft, sharp, tompa, vu, sixty-six (default: the last used, "
                        "else standard).", show_default=False)] = None,
    rule: Annotated[list[str] | None, typer.Option(
        "--rule", help="Override one rule flag, FLAG=VALUE (repeatable), e.g. false_claim=mirror.")] = None,
    level: Annotated[str | None, typer.Option(
        help="Computer level: easy, medium, hard or expert (default: the last used, else medium).",
        show_default=False)] = None,
    cards: Annotated[str | None, typer.Option(
        help="Card faces: french (♣♦♥♠) or german (Eichel, Schellen, Herz, Laub) (default: the last used, "
             "else french).", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        help="Seed for the shuffles and the computer (replayable).")] = None,
    dealer: Annotated[str | None, typer.Option(
        help="Who deals first: me, computer or random.", show_default=False)] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the last unfinished game (or the game ID).")] = False,
    confirm: Annotated[bool | None, typer.Option(
        "--confirm/--no-confirm", help="Ask before a claim or a close (remembered; default: ask).",
        show_default=False)] = None,
    delay: Annotated[float, typer.Option(help="Seconds before each computer move.")] = 0.7,
    samples: Annotated[int, typer.Option(help="Sampled worlds for the ? analysis (exact when fewer "
                                              "worlds are left).")] = 100,
    review_samples: Annotated[int, typer.Option(help="Sampled worlds per decision in the end-of-game "
                                                     "review.")] = 24,
    deck: Annotated[list[str] | None, typer.Option(hidden=True, help="Deck order of the first deals "
                                                                     "(testing).")] = None,
) -> None:
    """Play a whole Bummerl (7 game points down to 0) against the computer in the terminal.

    Every action is stored before it is shown; --resume continues the last unfinished game. The level,
    rules, card faces and --confirm setting you choose are remembered for next time.
    """
    from bummerl.bots.levels import LEVEL_NAMES
    from bummerl.errors import BummerlError
    from bummerl.session import PlaySession
    from bummerl.store import CARD_STYLES, COMPUTER_LEVELS, GameStore, StoredGame

    if not 0 <= delay <= 60:  # nan and inf too: the computer would think for ever
        fail("--delay must be from 0 to 60 seconds")
    if seed is not None and not 0 <= seed < 2**63:
        fail("--seed must be from 0 to 2**63 - 1")
    if samples < 1 or review_samples < 1:
        fail("--samples and --review-samples must be at least 1")
    resume = resume or game_id is not None
    try:
        store = GameStore.open()
    except BummerlError as err:
        fail(str(err))
    try:
        for note in store.notes:
            typer.echo(f"warning: {note}", err=True)
        last = remembered(store)
        ask = confirm if confirm is not None else bool(last.get("confirm", True))
        # A --no-confirm given once holds for every later game: said at the start of each (play-test).
        unasked = ("" if ask or confirm is not None else
                   "claims and closes are not asked first (--no-confirm is remembered; --confirm asks again)")
        if resume:
            given = [name for name, value in (("--level", level), ("--rules", rules), ("--rule", rule),
                                              ("--cards", cards), ("--seed", seed), ("--dealer", dealer),
                                              ("--deck", deck)) if value not in (None, [])]
            stored: StoredGame | None
            stored = (store.load(store.resolve(game_id)) if game_id is not None
                      else store.latest_playing(COMPUTER_LEVELS))
            if stored is None:
                fail("there is no unfinished game to resume (start one with: bummerl play)")
            if stored.level not in COMPUTER_LEVELS:
                fail(f"game {stored.id} is played by two people (continue it in the browser: bummerl serve)")
            if stored.state == "finished":
                fail(f"game {stored.id} is finished (see it with: bummerl games export {stored.id} | "
                     "bummerl replay -)")
            note = ""
            if given:
                note = (f"--resume keeps game {stored.id}'s own level ({stored.level}), rules "
                        f"({stored.rules.describe()}), cards ({stored.cards}) and seed; ignored: "
                        f"{', '.join(given)}")
                typer.echo(f"note: {note}", err=True)
            if confirm is not None:
                store.remember({"confirm": confirm})
            game = stored.id

            def start() -> PlaySession:  # read again under the lease: the game as it is now
                session = PlaySession.resume(store.load(game), store)
                session.note = "; ".join(filter(None, (note, unasked)))
                return session

            _run(start, store, game, ask=ask, delay=delay, samples=samples, review_samples=review_samples)
        else:
            chosen_level = level if level is not None else last.get("level", "medium")
            if chosen_level not in LEVEL_NAMES:
                fail(f"unknown level {chosen_level!r} (choose from {', '.join(LEVEL_NAMES)})")
            chosen_cards = cards if cards is not None else last.get("cards", "french")
            if chosen_cards not in CARD_STYLES:
                fail(f"unknown card faces {chosen_cards!r} (choose french or german)")
            if dealer not in (None, *_DEALERS):
                fail(f"--dealer must be me, computer or random, not {dealer!r}")
            try:
                chosen_rules = _new_rules(rules, rule, last.get("rules"))
            except ValueError as err:  # a --rule without FLAG=VALUE
                fail(str(err))
            from bummerl.cards import parse_cards

            decks = [[int(c) for c in parse_cards(d)] for d in deck or []]
            if not _has_terminal():
                fail(_NO_TERMINAL)
            store.remember({"level": chosen_level, "rules": chosen_rules.to_json(), "cards": chosen_cards,
                            "confirm": ask})
            waiting = store.unfinished()
            first = {"me": 0, "computer": 1, "random": None}[dealer or "random"]
            session = PlaySession.new(
                chosen_rules, level=chosen_level, seed=secrets.randbits(63) if seed is None else seed,
                first_dealer=first, cards="german" if chosen_cards == "german" else "french", decks=decks,
                store=store, lease=_OWNER,
            )
            if waiting:  # a plain `bummerl play` starts a new game: say where the others are
                session.note_title = "Unfinished games"
                session.note = (f"you have {waiting} unfinished game{'s' if waiting > 1 else ''}: "
                                "bummerl play --resume continues the last one, bummerl games lists them")
            if unasked:
                session.note_title = session.note_title if waiting else "Without confirmations"
                session.note = "; ".join(filter(None, (session.note, unasked)))
            _run(lambda: session, store, session.id, ask=ask, delay=delay, samples=samples,
                 review_samples=review_samples)
    except BummerlError as err:
        fail(str(err))
    finally:
        store.close()


#: Who holds a game the terminal plays (the web's owners are its pages).
_OWNER = "terminal"


def _run(start: Callable[[], PlaySession], store: GameStore, game_id: str, *, ask: bool, delay: float,
         samples: int, review_samples: int) -> None:
    """Take the game's lease, then its session (``start``), and run the full-screen app ("play again"
    starts and holds a new game with the same settings); then say whether the game is stored."""
    from bummerl.session import PlaySession
    from bummerl.tui.app import BummerlApp

    with contextlib.ExitStack() as leases:
        leases.enter_context(store.lease(game_id, _OWNER))
        if not _has_terminal():
            fail(_NO_TERMINAL)
        session = start()
        sessions = [session]

        def again() -> PlaySession:
            last = sessions[-1]
            fresh = PlaySession.new(last.table.rules, level=last.level, seed=secrets.randbits(63),
                                    cards=last.table.card_style, store=store, lease=_OWNER)
            leases.enter_context(store.lease(fresh.id, _OWNER))
            sessions.append(fresh)
            return fresh

        BummerlApp(session, delay=delay, analysis_samples=samples, review_samples=review_samples,
                   confirm=ask, new_game=again).run()
        for each in sessions:
            each.sync()
    failed = [each for each in sessions if each.save_error is not None]
    if failed:
        fail(f"game {failed[-1].id} could not be saved: {failed[-1].save_error}; the moves since its last "
             "save are lost", 1)
    last = sessions[-1]
    if last.table.game.is_over:
        typer.echo(f"Game over. Saved as {last.id}.")
    else:
        typer.echo(f"Game saved ({last.id}). Continue it with: bummerl play --resume")


def _tally_table(title: str, name: str, rows: dict[str, Tally], order: tuple[str, ...]) -> Any:
    from rich import box
    from rich.table import Table

    grid = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)  # no walls: 80 columns hold it all
    grid.add_column(name, no_wrap=True)
    for column in ("deals won", "Bummerls won", "game points won", "game points lost", "still playing",
                   "abandoned"):
        grid.add_column(column, justify="right", min_width=max(map(len, column.split())))  # words whole
    rank = {n: i for i, n in enumerate(order)}
    # In the given order ("standard (false_claim=mirror)" after "standard"), anything else after them.
    for key in sorted(rows, key=lambda n: (rank.get(n.split(" ")[0], len(rank)), n)):
        s = rows[key]
        grid.add_row(key, f"{s.deals_won} / {s.deals}", f"{s.bummerls_won} / {s.bummerls}",
                     str(s.game_points_won), str(s.game_points_lost), str(s.playing), str(s.abandoned))
    return grid


@app.command()
def stats() -> None:
    """Deals, Bummerls and game points you won against the computer, per level and per rules preset."""
    from rich.console import Console

    from bummerl.errors import BummerlError
    from bummerl.rules import PRESETS
    from bummerl.store import COMPUTER_LEVELS, GameStore

    try:
        with GameStore.open(reading=True) as store:
            totals = store.stats()
            path = store.path
    except BummerlError as err:
        fail(str(err))
    for damaged in totals.damaged:
        typer.echo(f"warning: {damaged} (not counted)", err=True)
    console = Console()
    if not totals.by_level:
        console.print(f"No games saved yet in {path} — start one with: bummerl play")
        return
    console.print(_tally_table("Your games against the computer, per level", "level", totals.by_level,
                               COMPUTER_LEVELS))
    console.print(_tally_table("… and per rules preset", "rules", totals.by_rules, tuple(PRESETS)))
