"""``bummerl replay FILE [--json]``: replay deal or game records through the engine (rules.md section 9).

FILE (``-`` for standard input) holds one record, possibly pretty-printed, or JSON Lines (one record per
line). With ``--json`` one compact JSON object is printed per record, in order, as each is replayed;
without it each deal is shown trick by trick for a person. The first bad record stops the run with exit
status 2 and one line on standard error (``error: line 3: step 7: play KS is not legal: ...``); the
results of the records before it have already been printed. Input is read as strict UTF-8 through
:mod:`bummerl.jsonio`; only a :class:`~bummerl.errors.BummerlError` (or a file that cannot be read) is
reported this way, anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from bummerl.cli.app import app, fail, results_out
from bummerl.jsonio import InputError
from bummerl.scoring import Reason

if TYPE_CHECKING:
    from rich.console import Console

    from bummerl.cards import Card
    from bummerl.engine import Deal
    from bummerl.records import DealRecord, DealReplay, GameRecord, GameReplay, Loaded

__all__ = ["replay"]


@app.command("replay")
def replay(
    file: Annotated[
        str, typer.Argument(help="Record file: one JSON record, or JSON Lines (one per line); - reads stdin.")
    ],
    json_out: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per record: steps, result, points, tricks.")
    ] = False,
) -> None:
    """Replay deal records (or whole-game records) through the engine and show every step.

    A game record (an object with "deals") replays every deal of the Bummerl and recomputes the score.
    """
    import json

    from bummerl.errors import BummerlError
    from bummerl.jsonio import lines, not_utf8, open_text
    from bummerl.records import DealRecord, RecordError, read_records

    try:
        stream = open_text(file)
    except OSError as err:
        fail(f"cannot read {file}: {err.strerror or err}")
    console = None if json_out else _console()
    done = 0
    try:
        with stream, results_out():
            for item in _reading(read_records(lines(stream, f"{file}: ")), file):
                try:
                    replayed: DealReplay | GameReplay = item.record.trace()
                except RecordError as err:
                    raise RecordError(f"{item.where}{err}") from None
                if json_out:
                    sys.stdout.write(json.dumps(replayed.to_json()) + "\n")
                    sys.stdout.flush()
                else:
                    assert console is not None
                    if done:
                        console.rule()
                    if isinstance(item.record, DealRecord):
                        _show_deal(console, item.record)
                    else:
                        _show_game(console, item.record, replayed)
                done += 1
    except BummerlError as err:
        with results_out():
            sys.stdout.flush()
        fail(str(err))
    except UnicodeDecodeError as err:
        fail(str(not_utf8(err, file)))


def _reading(items: Iterator[Loaded], file: str) -> Iterator[Loaded]:
    """``items``, with a failure to read them said as one line naming ``file`` (a failure to write the
    results is :func:`~bummerl.cli.app.results_out`'s)."""
    try:
        yield from items
    except OSError as err:
        raise InputError(f"cannot read {file}: {err.strerror or err}") from None


# ------------------------------------------------------------------------------------------ for people


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def _cards(cards: Iterable[object]) -> str:
    return " ".join(str(c) for c in cards)


def _pair(values: tuple[int, int] | list[int]) -> str:
    return f"{values[0]}–{values[1]}"


def _result_line(deal: Deal) -> str:
    outcome = deal.outcome
    if outcome is None:
        legal = ", ".join(sorted(str(a) for a in deal.legal_actions()))
        return f"Unfinished: player {deal.to_move} to move (legal: {legal})"
    if outcome.winner is None:
        return "Result: a draw on equal points, no game points"
    plural = "s" if outcome.game_points != 1 else ""
    reason = Reason(outcome.reason).short
    return f"Result: player {outcome.winner} wins {outcome.game_points} game point{plural} ({reason})"


def _show_deal(console: Console, record: DealRecord) -> None:
    """Print one deal trick by trick: hands, trump, each trick, the other actions, running points."""
    from bummerl.cards import Suit

    start = record.start()
    trump = start.face_up_trump
    assert trump is not None
    console.print(
        f"[bold]Deal[/bold]  rules {record.rules.describe()}, dealer {record.dealer}, "
        f"player {start.to_move} leads"
    )
    console.print(f"Trump card  {trump} ({Suit(start.trump_suit).english})")
    for p in (0, 1):
        console.print(f"Player {p} holds  {_cards(start.hand(p))}")
    console.print(f"Talon, top first  {_cards(start.talon)}, then {trump} face up")
    hands = [set(start.hand(0)), set(start.hand(1))]
    deal = start
    for step, deal in record.walk():
        p = step.to_move
        if step.action.startswith("play ") and deal.lead_card is not None:
            continue  # a lead: shown with its trick (or at the end if the record stops here)
        if step.action.startswith("play "):
            trick = deal.trick_log[-1]
            line = (
                f"[bold]Trick {len(deal.trick_log)}[/bold]  {trick.leader} leads {trick.lead}, "
                f"{1 - trick.leader} plays {trick.follow}: {trick.winner} wins, points {_pair(deal.points)}"
            )
            draws = _draws(deal, hands)
            console.print(line + (f"; {draws}" if draws else ""))
        elif step.action == "exchange" and deal.exchanged is not None:
            console.print(f"  player {p} exchanges {deal.exchanged[1]} for {deal.exchanged[2]}")
        elif step.action == "close":
            console.print(f"  player {p} closes the talon")
        elif step.action.startswith("marry "):
            suit = step.action[6:]
            trump_note = ", the trump marriage" if suit == Suit(deal.trump_suit).letter else ""
            console.print(f"  player {p} marries {suit} (shows K{suit} Q{suit}{trump_note})")
        elif step.action == "claim":
            console.print(f"Player {p} claims with {deal.points[p]} points")
        elif step.action == "pass":
            console.print(f"Player {p} passes after the last trick")
        hands = [set(deal.hand(0)), set(deal.hand(1))]
    if deal.lead_card is not None:
        console.print(f"[bold]Trick {len(deal.trick_log) + 1}[/bold]  {deal.leader} leads {deal.lead_card}")
    outcome = deal.outcome
    last = record.actions[-1] if record.actions else ""
    if outcome is not None and last not in ("claim", "pass"):
        if outcome.reason == "claim":
            console.print(f"Player {outcome.winner} reaches 66: the deal ends by itself")
        else:
            console.print("All cards are played")
    console.print(f"[bold]{_result_line(deal)}[/bold]")
    console.print(f"Points {_pair(deal.points)}, tricks {_pair(deal.tricks)}")


def _draws(deal: Deal, before: list[set[Card]]) -> str:
    """The cards each player drew after the trick just taken, the winner first."""
    winner = deal.trick_log[-1].winner
    out = []
    for p in (winner, 1 - winner):
        new = sorted(set(deal.hand(p)) - before[p])
        if new:
            out.append(f"{p} draws {_cards(new)}")
    if out and deal.talon_size == 0:
        out.append("the talon is exhausted")
    return ", ".join(out)


def _show_game(console: Console, record: GameRecord, replayed: DealReplay | GameReplay) -> None:
    """Print a whole Bummerl: one line per deal with its result and the score after it."""
    from rich.table import Table

    from bummerl.records import GameReplay

    assert isinstance(replayed, GameReplay)
    game = replayed.game
    console.print(
        f"[bold]Bummerl[/bold]  rules {record.rules.describe()}, player {record.first_dealer} deals first, "
        f"{record.target} game points to win"
    )
    table = Table(show_edge=False, pad_edge=False)
    for name in ("Deal", "Dealer", "Tricks", "Points", "Result", "Score"):
        table.add_column(name)
    for i, dr in enumerate(replayed.deals, 1):
        deal, outcome = dr.deal, dr.deal.outcome
        if outcome is None:
            result, score = f"unfinished after {len(dr.steps)} actions", ""
        else:
            reason = Reason(outcome.reason).label
            won = "draw" if outcome.winner is None else f"{outcome.winner} wins {outcome.game_points}"
            result, score = f"{won}: {reason}", _score(game.finished[i - 1].score_after)
        table.add_row(str(i), str(deal.dealer), _pair(deal.tricks), _pair(deal.points), result, score)
    console.print(table)
    if game.winner is not None:
        console.print(f"[bold]Player {game.winner} wins the Bummerl[/bold], score {_score(game.score)}")
    else:
        console.print(f"[bold]Unfinished Bummerl[/bold], score {_score(game.score)}")
    console.print(f"(the score counts down the game points each player still needs, from {record.target})")


def _score(score: tuple[int, int]) -> str:
    """Game points still needed, as every other screen shows them: a winner who went past 0 needs 0
    (the record keeps the count itself: ``6 : -2`` in JSON).

    >>> _score((6, -2))
    '6 : 0'
    """
    return f"{max(score[0], 0)} : {max(score[1], 0)}"
