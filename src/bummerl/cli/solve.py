"""``bummerl solve`` and ``bummerl analyse``: positions in, values out.

Both read FILE (``-`` for standard input), which holds positions of any of these kinds, one per line, or
one JSON object spread over several lines:

* a deal record (rules.md section 9), possibly stopping part-way: the position after its last action;
* a full-information position in the notation of :mod:`bummerl.notation`;
* a puzzle: a JSON diagram (:mod:`bummerl.puzzle`) or its notation (``analyse`` only, or ``solve`` when
  it hides nothing, e.g. an exhausted talon).

Blank lines and lines starting with ``#`` are skipped. Input is strict UTF-8 and JSON is read by
:func:`bummerl.jsonio.loads`. The first bad position (any :class:`~bummerl.errors.BummerlError`) stops the
run with exit status 2 and one line on standard error, naming the line; anything else is a bug and keeps
its traceback.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bummerl.cli.app import app, fail
from bummerl.errors import BummerlError
from bummerl.scoring import Reason

if TYPE_CHECKING:
    from rich.console import Console

    from bummerl.analysis import Analysis
    from bummerl.engine import Deal
    from bummerl.notation import Position
    from bummerl.puzzle import Puzzle

__all__ = ["MOST_SAMPLES", "analyse_command", "solve_command"]

#: The most placements ``analyse --samples`` may ask for (each is a whole solve).
MOST_SAMPLES = 100_000


@dataclass(frozen=True, slots=True)
class _Item:
    where: str
    position: Deal | Position | Puzzle


class _InputError(BummerlError):
    """A position that cannot be read; the message names the line."""


def _read(file: str) -> str:
    from bummerl.jsonio import InputError, not_utf8, open_text, read_text

    try:
        with open_text(file) as stream:
            return read_text(stream, f"{file}: ")
    except InputError as err:
        fail(str(err))
    except UnicodeDecodeError as err:
        fail(str(not_utf8(err, file)))
    except OSError as err:
        fail(f"cannot read {file}: {err.strerror or err}")


def _replay(obj: dict[str, Any]) -> Deal:
    """A deal record replayed to its last action."""
    from bummerl.records import DealRecord

    return DealRecord.from_json(obj).replay()


def _from_json(obj: Any) -> Deal | Puzzle:
    from bummerl.puzzle import Puzzle, PuzzleError

    if not isinstance(obj, dict):
        raise PuzzleError(
            f"a position is a JSON object (a deal record or a puzzle), not {type(obj).__name__}"
        )
    if "deals" in obj:
        raise PuzzleError(
            "a game record holds many deals: give one deal record (rules, dealer, deck, actions)"
        )
    if "deck" in obj:
        return _replay(obj)
    if "hand" in obj:
        return Puzzle.from_json(obj)
    raise PuzzleError('not a deal record (no "deck") nor a puzzle (no "hand")')


def _from_text(line: str) -> Position | Puzzle:
    from bummerl.notation import parse

    return parse(line)


def _items(text: str) -> Iterator[_Item]:
    """Every position of a file's text, with where it came from."""
    from bummerl.jsonio import InputError, loads

    text = text.removeprefix("\ufeff")
    stripped = text.strip()
    if stripped.startswith("{") and "\n" in stripped:
        try:
            whole = loads(stripped)
        except InputError as err:
            if err.lineno is None:  # a duplicate key, a huge number, deep nesting
                raise _InputError(str(err)) from None
            whole = None  # JSON Lines, read line by line below
        if whole is not None:
            yield _Item("", _guard("", lambda: _from_json(whole)))
            return
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"line {number}: "
        if line.startswith("{"):
            try:
                obj = loads(line)
            except InputError as err:
                if err.lineno is None:
                    raise _InputError(f"{where}{err}") from None
                raise _InputError(f"{where}not valid JSON ({err.msg} at column {err.colno})") from None
            yield _Item(where, _guard(where, lambda obj=obj: _from_json(obj)))
        else:
            yield _Item(where, _guard(where, lambda line=line: _from_text(line)))


def _guard(where: str, load: Any) -> Any:
    """Run ``load`` and turn any error a user can cause into one :class:`_InputError` line (anything
    else is a bug and keeps its traceback)."""
    try:
        return load()
    except BummerlError as err:  # PuzzleError, NotationError, RecordError, RulesError, DeckError...
        raise _InputError(f"{where}{err}") from None


def _over(deal: Deal) -> str:
    outcome = deal.outcome
    assert outcome is not None
    if outcome.winner is None:
        return "the deal is over (a draw)"
    reason = Reason(outcome.reason).label
    return f"the deal is over (player {outcome.winner} won {outcome.game_points}, {reason})"


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def _signed(value: float) -> str:
    return f"{value:+.2f}".replace("+0.00", "0.00").replace("-0.00", "0.00")


# ------------------------------------------------------------------------------------------------ solve


_SOLVE_HELP = (
    "Solve full-information positions: value and best line for the player to move.\n\n"
    "The value is in game points (-3..3) with both sides playing perfectly and seeing every card. "
    "FILE holds deal records (JSON, JSON Lines), position notation lines, or puzzles that hide nothing."
)
_ANALYSE_HELP = (
    "Analyse a position for the player to move: what each legal action is worth, best first.\n\n"
    "Over every placement of the cards they cannot see (or a seeded sample), each action is played on "
    "with open cards: mean game points, share of placements won, worst case. FILE holds deal records, "
    "puzzles (JSON) or notation lines."
)


@app.command("solve", help=_SOLVE_HELP)
def solve_command(
    file: Annotated[
        str,
        typer.Argument(help="Positions: deal records (JSON or JSON Lines) or notation lines; - reads stdin."),
    ],
    all_actions: Annotated[bool, typer.Option("--all", help="Also value every legal action.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object per position.")] = False,
) -> None:
    """``bummerl solve``: see the module docstring."""
    import json

    from bummerl.engine import Deal
    from bummerl.notation import Position
    from bummerl.puzzle import Puzzle
    from bummerl.search import solve_full
    from bummerl.search.worlds import count_worlds, world_at

    text = _read(file)
    console = None if json_out else _console()
    done = 0
    try:
        for item in _items(text):
            position = item.position
            if isinstance(position, Puzzle):
                if count_worlds(position) != 1:
                    raise _InputError(
                        f"{item.where}a puzzle hides cards ({count_worlds(position)} possible placements): "
                        "solve needs a full-information position; use bummerl analyse"
                    )
                deal = world_at(position, 0)
            elif isinstance(position, Position):
                deal = _guard(item.where, lambda p=position: Deal.from_setup(p))
            else:
                deal = position
            if deal.is_over:
                raise _InputError(f"{item.where}{_over(deal)}: there is nothing to solve")
            solution = solve_full(deal)
            value = solution.value
            pv = [str(a) for a in solution.pv]
            actions = solution.actions if all_actions else None
            ranked = sorted(actions.items(), key=lambda kv: (-kv[1], str(kv[0]))) if actions else []
            if json_out:
                out: dict[str, Any] = {"to_move": deal.to_move, "value": value, "pv": pv}
                if actions is not None:
                    out["actions"] = {str(a): v for a, v in ranked}
                sys.stdout.write(json.dumps(out) + "\n")
                sys.stdout.flush()
            else:
                assert console is not None
                if done:
                    console.rule()
                _show_solution(console, _label(item.where, text), deal, value, pv, ranked)
            done += 1
    except BummerlError as err:
        sys.stdout.flush()
        fail(str(err))
    except KeyboardInterrupt:
        sys.stdout.flush()
        fail(_interrupted(done, "solved"), code=130)
    if not done:
        fail(f"no position in {file}")


def _interrupted(done: int, verb: str) -> str:
    """The line for Ctrl-C after ``done`` positions were answered (their answers printed).

    >>> _interrupted(0, "solved"), _interrupted(2, "analysed")
    ('interrupted', 'interrupted: the results above are the 2 positions analysed')
    """
    return f"interrupted: the results above are the {done} positions {verb}" if done else "interrupted"


def _label(where: str, text: str) -> str:
    """``line N: `` before a position's answer when the input holds several positions."""
    lines = [x.strip() for x in text.splitlines()]
    many = sum(1 for x in lines if x and not x.startswith("#")) > 1
    return f"{where[:-2]}: " if where and many else ""


def _show_solution(
    console: Console, label: str, deal: Deal, value: int, pv: list[str], ranked: list[Any]
) -> None:
    from rich.table import Table

    word = "wins" if value > 0 else ("loses" if value < 0 else "draws")
    points = f" {abs(value)} game point{'s' * (abs(value) != 1)}" if value else ""
    console.print(
        f"{label}[bold]player {deal.to_move} to move {word}{points}[/bold] with best play ({value:+d})"
    )
    console.print(f"Best line: {', '.join(pv) if pv else '(none)'}", soft_wrap=True)
    if ranked:
        table = Table(show_edge=False, pad_edge=False)
        table.add_column("action")
        table.add_column("value", justify="right")
        for action, v in ranked:
            table.add_row(str(action), f"{v:+d}")
        console.print(table)


# ---------------------------------------------------------------------------------------------- analyse


@app.command("analyse", help=_ANALYSE_HELP)
def analyse_command(
    file: Annotated[
        str, typer.Argument(help="Positions: deal records, puzzles (JSON) or notation lines; - reads stdin.")
    ],
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            help="Sample this many placements of the unseen cards when there are more "
            f"(default: every one up to 2000, else 400; at most {MOST_SAMPLES}).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sample.")] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object per position.")] = False,
) -> None:
    """``bummerl analyse``: see the module docstring."""
    import json

    from bummerl.analysis import analyse
    from bummerl.engine import Deal
    from bummerl.notation import Position
    from bummerl.puzzle import Puzzle
    from bummerl.view import View

    if samples is not None and not 1 <= samples <= MOST_SAMPLES:
        fail(f"--samples must be from 1 to {MOST_SAMPLES}, not {samples}")
    if not 0 <= seed < 2**63:
        fail(f"--seed must be from 0 to 2**63 - 1, not {seed}")
    text = _read(file)
    console = None if json_out else _console()
    done = 0
    try:
        for item in _items(text):
            position = item.position
            source: View | Puzzle
            if isinstance(position, Deal):  # a full deal: the view of the player to move
                deal = position
                if deal.is_over:
                    raise _InputError(f"{item.where}{_over(deal)}: there is nothing to analyse")
                source = View.of(deal, deal.to_move)
                seat_label = f"player {deal.to_move}"
            elif isinstance(position, Position):  # what the player to move sees of it
                source = _guard(item.where, lambda p=position: Puzzle.from_setup(p, p.to_move))
                seat_label = f"player {position.to_move}"
            else:
                source = position
                seat_label = "me"
            with _worlds_bar() as shown:
                result: Analysis = _guard(
                    item.where, lambda source=source: analyse(source, samples, seed, progress=shown))
            if json_out:
                sys.stdout.write(json.dumps(result.to_json()) + "\n")
                sys.stdout.flush()
            else:
                assert console is not None
                if done:
                    console.rule()
                _show_analysis(console, _label(item.where, text), seat_label, result)
            done += 1
    except BummerlError as err:
        sys.stdout.flush()
        fail(str(err))
    except KeyboardInterrupt:
        sys.stdout.flush()
        fail(_interrupted(done, "analysed"), code=130)
    if not done:
        fail(f"no position in {file}")


@contextlib.contextmanager
def _worlds_bar() -> Iterator[Callable[[int, int], None]]:
    """A progress bar of the worlds solved, on standard error when it is a terminal (gone once done);
    yields what :func:`~bummerl.analysis.analyse` calls after each world."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("worlds solved"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("worlds", total=None)

        def shown(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield shown


def _show_analysis(console: Console, label: str, seat: str, result: Analysis) -> None:
    from rich.table import Table

    if result.exact and result.worlds == 1:
        how = "exact: every card is known"
    elif result.exact and result.worlds < result.total_worlds:
        how = (f"exact over the {result.worlds} placements of the unseen cards the opponent's play left "
               f"possible (of {result.total_worlds})")
    elif result.exact:
        how = f"exact over all {result.worlds} placements of the unseen cards"
    else:
        how = f"{result.worlds} of {result.total_worlds} placements sampled (seed {result.seed})"
    console.print(f"{label}[bold]{seat} to move[/bold] — {how}")
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("action")
    table.add_column("mean", justify="right")
    if not result.exact:
        table.add_column("95% interval", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("worst", justify="right")
    for s in result.actions:
        row = [str(s.action), _signed(s.mean)]
        if s.ci95 is not None:
            row.append(f"{_signed(s.ci95[0])} .. {_signed(s.ci95[1])}")
        row += [f"{100 * s.win_share:.0f}%", f"{s.worst:+d}"]
        table.add_row(*row)
    console.print(table)
