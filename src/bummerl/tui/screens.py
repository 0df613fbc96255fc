"""The app's dialogs: the end-of-deal summary, the analysis of a position, and the end of the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, LoadingIndicator, ProgressBar, Static

from bummerl.cards import Card
from bummerl.table import CardStyle, Table, reason_text
from bummerl.tui.advice import AnalysisUnavailable, Mistake, rate, review
from bummerl.tui.widgets import card_text
from bummerl.view import View

if TYPE_CHECKING:
    from bummerl.analysis import ActionStats, Solver

__all__ = ["AnalysisScreen", "DealSummaryScreen", "GameOverScreen", "action_text"]

HUMAN, COMPUTER = 0, 1


def action_text(action_str: str, style: CardStyle) -> Text:
    """An action for people: ``play Q♥``, ``marry ♥``, ``close``.

    >>> action_text("play QH", "french").plain, action_text("marry S", "german").plain
    ('play Q♥', 'marry Laub')
    """
    from bummerl.actions import Action
    from bummerl.tui.widgets import suit_text

    action = Action.parse(action_str)
    if action.card is not None:
        return Text.assemble("play ", card_text(action.card, style))
    if action.suit is not None:
        return Text.assemble("marry ", suit_text(action.suit, style))
    return Text(action_str)


def _cards(cards: list[Card], style: CardStyle) -> Text:
    return Text(" ").join(card_text(c, style) for c in cards) if cards else Text("—", style="dim")


class DealSummaryScreen(ModalScreen[None]):
    """Both sides' tricks and points, how the deal ended, and the Bummerl score."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,n,space,escape", "close", "continue", key_display="⏎"),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        table = self.table
        deal = table.deal
        outcome = deal.outcome
        style = table.card_style
        with Vertical(classes="dialog", id="summary"):
            if outcome is None:  # pragma: no cover - only shown after a deal
                yield Label("The deal is not over", classes="title")
                return
            if outcome.winner is None:
                head = f"Deal {table.deal_number} is a draw"
            else:
                who = table.name(outcome.winner)
                verb = "win" if table.seats[outcome.winner].is_you else "wins"
                s = "s" if outcome.game_points != 1 else ""
                head = f"Deal {table.deal_number}: {who} {verb} {outcome.game_points} game point{s}"
            yield Label(head, classes="title")
            yield Static(Text.assemble(("Why: ", "bold"), reason_text(outcome)))
            told = [e for e in table.events
                    if e.deal_number == table.deal_number and e.kind in ("claim", "pass")]
            if told:
                yield Static(Text(told[-1].text, style="italic"))
            grid = RichTable(box=None, expand=True, padding=(0, 1))
            grid.add_column("", style="bold", no_wrap=True)
            grid.add_column("tricks", justify="right")
            grid.add_column("points", justify="right")
            grid.add_column("cards taken")
            for seat in (HUMAN, COMPUTER):
                taken: list[Card] = []
                for t in deal.trick_log:
                    if t.winner == seat:
                        taken += [t.lead, t.follow]
                marriages = [40 if s == deal.trump_suit else 20 for p, s in deal.marriages if p == seat]
                pts = Text(str(deal.points[seat]))
                if marriages:
                    pts.append(f" ({'+'.join(map(str, marriages))})", style="dim")
                grid.add_row(table.name(seat), str(deal.tricks[seat]), pts, _cards(taken, style))
            yield Static(grid)
            left = [c for seat in (HUMAN, COMPUTER) for c in deal.hand(seat)]
            if left:
                yield Static(Text.assemble(
                    ("Still in hand: ", "dim"),
                    _cards(deal.hand(COMPUTER), style), (f" ({table.name(COMPUTER)})  ", "dim"),
                    _cards(deal.hand(HUMAN), style), (f" ({table.name(HUMAN)})", "dim"),
                ))
            if deal.closed_by >= 0:
                yield Static(Text(f"{table.name(deal.closed_by)} closed the talon.", style="dim"))
            score = "   ".join(f"{table.name(s)} {table.score[s]}" for s in (HUMAN, COMPUTER))
            yield Static(Text.assemble(("Bummerl, still needed: ", "bold"), score))
            over = table.game.winner
            if over is not None:
                verb = "win" if table.seats[over].is_you else "wins"
                yield Static(Text(f"{table.name(over)} {verb} the Bummerl!", style="bold green"))
            yield Label("Enter: continue", classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


class AnalysisScreen(ModalScreen[None]):
    """What each of your legal actions is worth here, over the hidden cards consistent with what you saw."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,enter,q", "close", "close", key_display="Esc"),
    ]

    def __init__(self, view: View, style: CardStyle, samples: int | None = None,
                 solver: Solver | None = None) -> None:
        super().__init__()
        self.view = view
        self.card_style: CardStyle = style
        self.samples = samples
        self.solver = solver
        self.done = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="analysis"):
            yield Label("Analysis of your position", classes="title")
            waiting = Text("Solving the worlds that fit what you have seen…", style="dim")
            yield Static(waiting, id="analysis-body")
            yield LoadingIndicator(id="analysis-busy")
            yield Label("Esc: back to the game", classes="hint")

    def on_mount(self) -> None:
        self.run_worker(self._compute, thread=True, group="analysis")

    def _compute(self) -> None:
        try:
            ratings, note = rate(self.view, samples=self.samples, solver=self.solver)
            body: Text | RichTable = self._table(ratings, note)
        except (AnalysisUnavailable, ValueError) as err:
            body = Text(str(err), style="yellow")
        self.app.call_from_thread(self._show, body)

    def _table(self, ratings: tuple[ActionStats, ...], note: str) -> RichTable:
        grid = RichTable(title=f"mean game points for you ({note})", box=None, padding=(0, 2))
        grid.add_column("action")
        grid.add_column("mean", justify="right")
        grid.add_column("win share", justify="right")
        grid.add_column("worst", justify="right")
        best = ratings[0].mean if ratings else 0.0
        for r in ratings:
            mark = "bold green" if abs(r.mean - best) < 1e-9 else ""
            grid.add_row(
                action_text(str(r.action), self.card_style),
                Text(f"{r.mean:+.2f}", style=mark),
                f"{100 * r.win_share:.0f}%",
                f"{r.worst:+d}",
            )
        return grid

    def _show(self, body: Text | RichTable) -> None:
        self.done = True
        self.query_one("#analysis-busy", LoadingIndicator).display = False
        self.query_one("#analysis-body", Static).update(body)

    def action_close(self) -> None:
        self.dismiss(None)


class GameOverScreen(ModalScreen[None]):
    """The end of the Bummerl, and where you lost game points (your choices the analysis rated worst)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape,enter", "quit_app", "quit", key_display="q"),
    ]

    def __init__(self, table: Table, samples: int = 8, shown: int = 6, solver: Solver | None = None) -> None:
        super().__init__()
        self.table = table
        self.samples = samples
        self.solver = solver
        self.shown = shown
        self.done = False
        self.mistakes: list[Mistake] = []

    def compose(self) -> ComposeResult:
        table = self.table
        winner = table.game.winner
        with Vertical(classes="dialog", id="game-over"):
            if winner is None:  # pragma: no cover
                yield Label("The Bummerl is not over", classes="title")
                return
            verb = "win" if table.seats[winner].is_you else "wins"
            score = f"{table.score[HUMAN]} : {table.score[COMPUTER]}"
            yield Label(f"{table.name(winner)} {verb} the Bummerl ({score} still needed)", classes="title")
            deals = len(table.game.finished)
            won = sum(1 for s in table.game.finished if s.outcome.winner == HUMAN)
            yield Static(f"{deals} deals played, you won {won}.")
            yield Label("Where you lost game points", classes="caption")
            yield ProgressBar(total=None, show_eta=False, id="review-progress")
            with VerticalScroll(id="review-body-box"):
                yield Static(Text("Analysing your decisions…", style="dim"), id="review-body")
            yield Label("q: quit (the game is saved)", classes="hint")

    def on_mount(self) -> None:
        self.run_worker(self._compute, thread=True, group="review")

    def _compute(self) -> None:
        decisions = list(self.table.decisions(HUMAN))
        bar = self.query_one("#review-progress", ProgressBar)
        self.app.call_from_thread(bar.update, total=max(len(decisions), 1), progress=0)

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(bar.update, progress=done)

        try:
            mistakes = review(decisions, self.samples, progress, solver=self.solver)
            body: Text | RichTable = self._table(mistakes)
        except (AnalysisUnavailable, ValueError) as err:
            body = Text(str(err), style="yellow")
            mistakes = []
        self.mistakes = mistakes
        self.app.call_from_thread(self._show, body)

    def _table(self, mistakes: list[Mistake]) -> Text | RichTable:
        costly = [m for m in mistakes if m.loss >= 0.05][: self.shown]
        if not costly:
            return Text("No costly choices found: well played!", style="green")
        style = self.table.card_style
        grid = RichTable(box=None, padding=(0, 2))
        grid.add_column("deal", justify="right")
        grid.add_column("trick", justify="right")
        grid.add_column("you chose")
        grid.add_column("better")
        grid.add_column("lost", justify="right")
        for m in costly:
            grid.add_row(str(m.deal_number), str(m.trick_number), action_text(str(m.chosen.action), style),
                         action_text(str(m.best.action), style), Text(f"{m.loss:.2f}", style="red"))
        return grid

    def _show(self, body: Text | RichTable) -> None:
        self.done = True
        self.query_one("#review-progress", ProgressBar).display = False
        self.query_one("#review-body", Static).update(body)

    def action_quit_app(self) -> None:
        self.app.exit()
