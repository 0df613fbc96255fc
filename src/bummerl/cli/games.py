"""``bummerl games``: list the stored games (``--json``: one object per line), ``games export ID`` (its game
record, for ``bummerl replay -``) and ``games delete ID``. An ID may be shortened to any unique start."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from bummerl.cli.app import app, fail

__all__ = ["delete", "export", "games_app", "listing"]

games_app = typer.Typer(
    name="games",
    help="Your stored games: list them, export one's game record, delete one.",
    invoke_without_command=True,
    no_args_is_help=False,
)
app.add_typer(games_app)
_ID = typer.Argument(metavar="ID", help="The game (an id or its start).")


def _score(score: tuple[int, int]) -> str:
    """The game points each seat still needs, as the game shows them: a winner who went past 7 needs 0.

    >>> _score((6, -1))
    '6:0'
    """
    return f"{max(score[0], 0)}:{max(score[1], 0)}"


def _won_by(level: str, winner: int | None) -> str:
    """Who won a finished game, after its state: you (seat 0) or the computer, or a seat between people.

    >>> _won_by("easy", 1), _won_by("expert", 0), _won_by("human", 1), _won_by("easy", None)
    (', the computer won', ', you won', ', seat 1 won', '')
    """
    if winner is None:
        return ""
    if level == "human":
        return f", seat {winner} won"
    return ", you won" if winner == 0 else ", the computer won"


@games_app.callback()
def listing(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line (id, state, …).")] = False,
) -> None:
    """List the stored games, the most recently played first (id, date, rules, level, score, state).

    "to go" is the game points you and the other seat still need (7:7 at the start, 0 for the winner); a
    finished game says who won. A damaged game is listed as damaged, with the reason on standard error.
    """
    if ctx.invoked_subcommand is not None:
        return
    from bummerl.errors import BummerlError
    from bummerl.store import GameDamaged, GameStore

    try:
        with GameStore.open(reading=True) as store:
            found = list(store.games())
            problems = store.notes or store.import_problems()
            path = store.path
    except BummerlError as err:
        fail(str(err))
    for note in problems:
        typer.echo(f"warning: {note}", err=True)
    if found and not as_json:
        typer.echo(f"{'id':<16} {'last played':<16} {'rules':<24} {'level':<7} {'to go':<5} state")
    for game in found:
        if isinstance(game, GameDamaged):
            typer.echo(f"warning: {game}", err=True)
            if as_json:
                typer.echo(json.dumps({"id": game.game_id, "state": "damaged", "error": game.why}))
            else:
                typer.echo(f"{game.game_id:<16} {'?':<16} {'?':<24} {'?':<7} {'?':<5} damaged")
        elif as_json:
            typer.echo(json.dumps(game.summary()))
        else:
            when = game.updated.astimezone().strftime("%Y-%m-%d %H:%M")
            typer.echo(f"{game.id:<16} {when:<16} {game.rules.describe():<24} {game.level:<7} "
                       f"{_score(game.score):<5} {game.state}{_won_by(game.level, game.winner)}")
    if not found and not as_json:
        typer.echo(f"No games saved yet in {path} — start one with: bummerl play")


@games_app.command()
def export(
    game_id: Annotated[str, _ID],
    unfinished: Annotated[bool, typer.Option(
        "--unfinished", help="Also the deal in play, whose record shows every hidden card.")] = False,
) -> None:
    """Print a game's record (JSON, rules.md section 9): ``bummerl games export ID | bummerl replay -``.

    A deal still in play is left out (its record holds the whole deck: the other seat's hand and the talon's
    order), with a note on standard error, unless ``--unfinished`` asks for it.
    """
    from dataclasses import replace

    from bummerl.errors import BummerlError
    from bummerl.store import GameStore

    try:
        with GameStore.open(reading=True) as store:
            game = store.load(store.resolve(game_id))
    except BummerlError as err:
        fail(str(err))
    record = game.record
    in_play = record.scores is not None and len(record.deals) > len(record.scores)
    if in_play and not unfinished:
        if len(record.deals) == 1:
            fail(f"game {game.id} has no finished deal yet, and the record of the deal in play shows every "
                 "hidden card (add --unfinished to export it anyway)")
        typer.echo("note: the deal in play is left out: its record shows every hidden card "
                   "(add --unfinished to include it)", err=True)
        record = replace(record, deals=record.deals[:-1])
    typer.echo(record.dumps())


@games_app.command()
def delete(game_id: Annotated[str, _ID]) -> None:
    """Delete a stored game (not one that is open in a window)."""
    from bummerl.errors import BummerlError
    from bummerl.store import GameStore

    try:
        with GameStore.open() as store:
            full = store.resolve(game_id)
            store.delete(full)
    except BummerlError as err:
        fail(str(err))
    typer.echo(f"Deleted game {full}.")
