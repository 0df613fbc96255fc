"""The app's dialogs: the end-of-deal summary, the analysis of a position, and the end of the game."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Label, LoadingIndicator, ProgressBar, Static

from bummerl.actions import Action
from bummerl.analysis import Mistake, rate, review
from bummerl.cards import Card, Rank
from bummerl.game import TARGET
from bummerl.rules import Rules
from bummerl.scoring import (
    HALF_POINTS,
    LAST_TRICK_POINTS,
    MARRIAGE_POINTS,
    TRUMP_MARRIAGE_POINTS,
    WIN_POINTS,
    game_point_table,
)
from bummerl.table import CardStyle, Event
from bummerl.tui.widgets import card_keys, card_text
from bummerl.view import View

if TYPE_CHECKING:
    from bummerl.analysis import ActionStats, Solver

__all__ = [
    "AnalysisScreen",
    "ConfirmScreen",
    "DealSummaryScreen",
    "Dialog",
    "GameOverScreen",
    "KeysScreen",
    "ScoreSheetScreen",
    "action_text",
    "score_sheet",
]

HUMAN, COMPUTER = 0, 1
_SAVED = " (the game is saved)"
_NOT_SAVED = " (the game could NOT be saved)"


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


def _cards(cards: Sequence[Card], style: CardStyle) -> Text:
    """Cards in a row: ``A♠ J♣``, or ``Laub Sau, Eichel U`` (German names are two words each)."""
    gap = Text(", " if style == "german" else " ")
    return gap.join(card_text(c, style) for c in cards) if cards else Text("—", style="dim")


def _says(name: str, you: str, other: str) -> str:
    """``You win`` / ``Computer wins``: the verb agrees with the seat's name."""
    return f"{name} {you if name.lower() == 'you' else other}"


def score_sheet(events: Sequence[Event], names: tuple[str, str]) -> RichTable:
    """The Bummerl deal by deal, from the table's ``deal_over`` events: who dealt, who won, the game points,
    why, and the game points each seat still needed afterwards.

    >>> from bummerl.table import Event
    >>> over = Event("deal_over", "…", 0, 1, {"winner": 0, "game_points": 2, "why": "a correct claim of 66",
    ...                                      "dealer": 1, "score": [5, 7]})
    >>> sheet = score_sheet([over], ("You", "Computer"))
    >>> sheet.row_count, [c.header for c in sheet.columns][:3]
    (1, ['deal', 'dealer', 'won by'])
    """
    sheet = RichTable(box=None, padding=(0, 1), expand=False)
    sheet.add_column("deal", justify="right")
    sheet.add_column("dealer")
    sheet.add_column("won by")
    sheet.add_column("pts", justify="right")
    sheet.add_column("why", ratio=1)
    sheet.add_column(f"{names[0]} : {names[1]}", justify="center", no_wrap=True)
    for e in events:
        if e.kind != "deal_over":
            continue
        d = e.data
        winner = d["winner"]
        who = Text("draw", style="dim") if winner is None else Text(
            names[winner], style="green" if winner == HUMAN else "yellow")
        score = d["score"]
        sheet.add_row(str(e.deal_number), names[d["dealer"]], who, str(d["game_points"]), d["why"],
                      f"{max(score[0], 0)} : {max(score[1], 0)}")  # a winner below 0 needs nothing
    return sheet


Answer = TypeVar("Answer")


class _Stopped(Exception):
    """The screen went away while its worker was still thinking."""


def _from_thread(screen: ModalScreen[Any], callback: Callable[..., object], *args: Any,
                 **kwargs: Any) -> None:
    """Run ``callback`` on the UI thread from a worker, unless the screen is gone or the app is ending."""
    if not screen.is_attached:
        return
    with contextlib.suppress(RuntimeError, NoMatches):  # the app closed meanwhile
        screen.app.call_from_thread(callback, *args, **kwargs)


#: What a dialog's hint line begins with while a part of it holds more than it shows.
SCROLL_HINT = "↑↓: scroll for more   "


class Dialog(ModalScreen[Answer], Generic[Answer]):
    """A dialog over the table: ``q`` or Ctrl+C quits the game from here too (it is saved after every action).

    A dialog too tall for the window scrolls a part of it; its hint line then begins with
    :data:`SCROLL_HINT`, and the part that holds more than it shows has the keys (↑↓ scroll it).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit_game", "quit"),
        Binding("ctrl+c", "copy_or_quit", "quit", show=False),
    ]

    async def action_copy_or_quit(self) -> None:
        """Ctrl+C: copy the text selected with the mouse, if any (as on every Textual screen); else quit as
        ``q`` does."""
        selection = self.get_selected_text()
        if selection is not None:
            self.app.copy_to_clipboard(selection)
        else:
            await self.app.run_action("quit_game")

    def on_mount(self) -> None:
        for sheet in self.query(".to-end").results(VerticalScroll):
            sheet.anchor()  # a score sheet shows its newest deal (and the score now) first
        self.call_after_refresh(self._show_overflow)

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_overflow)

    def _show_overflow(self) -> None:
        """Say in the hint whether anything is scrolled out of sight, and focus the first part that is."""
        if not self.is_attached:
            return
        hidden = [s for s in self.query(VerticalScroll) if s.max_scroll_y > 0]
        for hint in self.query(".hint").results(Label):
            text = str(hint.content)
            base = text.removeprefix(SCROLL_HINT)
            wanted = SCROLL_HINT + base if hidden else base
            if text != wanted:
                hint.update(wanted)
        if hidden and self.focused not in hidden:
            hidden[0].focus(scroll_visible=False)


class ConfirmScreen(Dialog[bool]):
    """Asks before an action that cannot be taken back (a claim, a close): True to go ahead."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog confirm", id="confirm"):
            yield Label(self.question, classes="title")
            if self.detail:
                yield Static(Text(self.detail, style="dim"))
            yield Label("y or Enter: yes   n or Esc: no", classes="hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ScoreSheetScreen(Dialog[None]):
    """The score sheet of the Bummerl so far (key ``s``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,s", "close", "close", key_display="Esc"),
    ]

    def __init__(self, events: Sequence[Event], names: tuple[str, str]) -> None:
        super().__init__()
        self.events = list(events)
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="score-sheet"):
            yield Label("Score sheet", classes="title")
            with VerticalScroll():
                if any(e.kind == "deal_over" for e in self.events):
                    yield Static(score_sheet(self.events, self.names))
                else:
                    yield Static(Text("No deal is finished yet.", style="dim"))
            yield Label("Esc: back to the game   q: quit", classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


def keys_text(rules: Rules) -> str:
    """Every key of the game under ``rules``, a line each (keys for what the rules never allow left out).

    >>> print(keys_text(Rules.preset("vu")).splitlines()[2])
    m          declare a marriage, then the number of its king or queen
    >>> keys = [row[:10].strip() for row in keys_text(Rules.preset("vu")).splitlines()]
    >>> "c" in keys, "g or 6" in keys, "c" in [row[:10].strip() for row in keys_text(Rules()).splitlines()]
    (False, False, True)
    """
    rows = [
        (card_keys(rules.hand_size), "play that card of your hand (from the left), or click it"),
        ("x", f"exchange the trump {rules.exchange_rank.english} for the face-up trump"),
        ("m", "declare a marriage, then the number of its king or queen"),
        *([("c", "close the talon (asks first)")] if rules.allow_close else []),
        *([("g or 6", "claim 66 (asks first)"), ("p", "pass after the last trick (asks first)")]
          if not rules.auto_claim else []),
        ("s", "the score sheet"),
        ("Enter, n", "the next deal, once a deal is over"),
        ("?", "analysis: what each of your choices is worth"),
        ("Esc", "cancel a marriage choice, close a dialog"),
        ("h, F1", "this list"),
        ("q, Ctrl+C", "quit (the game is saved after every move)"),
    ]
    return "\n".join(f"{key:<10} {what}" for key, what in rows)


def rules_brief(rules: Rules) -> str:
    """The rules in a few lines, for a newcomer, under ``rules`` (the numbers are the engine's own).

    >>> print(rules_brief(Rules.preset("standard")).splitlines()[1])
    Card points: A 11, 10 10, K 4, Q 3, J 2: 120 in the pack.
    >>> print(rules_brief(Rules.preset("sixty-six")).splitlines()[0].partition("; ")[2])
    if nobody does, the last trick counts 10 more and more points win (equal points: a draw).
    """
    ranks = [r for r in reversed(Rank) if rules.sixty_six or r is not Rank.NINE]
    values = ", ".join(f"{'10' if r is Rank.TEN else r.letter} {r.points}" for r in ranks)
    pack = sum(r.points for r in ranks) * 4
    win = "(they count at once)" if rules.auto_claim else "(claim them with g)"
    if rules.sixty_six:
        end = (f"if nobody does, the last trick counts {LAST_TRICK_POINTS} more and more points win "
               "(equal points: a draw)")
    else:
        end = "if nobody does, the last trick wins"
    when = "after you have won a trick" if rules.marriage_needs_trick else "as you lead"
    counted = ("once you win a trick after it" if rules.marriage_scoring == "next_trick"
               else "at once" if rules.marriage_needs_trick else "once you have won a trick")
    only_open = ", only while the talon is open" if rules.sixty_six else ""
    close = " or closed (c)" if rules.allow_close else ""
    low = rules.exchange_rank.english
    after_trick = ", once you have won a trick" if rules.exchange_needs_trick else ""
    half, one, two, three = HALF_POINTS, game_point_table(1, HALF_POINTS), game_point_table(1, 0), \
        game_point_table(0, 0)
    lines = [
        f"Win the deal: reach {WIN_POINTS} points {win}; {end}.",
        f"Card points: {values}: {pack} in the pack.",
        f"Marriage: holding a suit's king and queen, show them {when} and lead one: {MARRIAGE_POINTS}, in "
        f"trumps {TRUMP_MARRIAGE_POINTS}, counted {counted}{only_open}.",
        f"Exchange (x): the trump {low} in your hand for the face-up trump card, while the talon is open"
        f"{after_trick}.",
        f"While the talon is open any card may follow; once it is used up{close} you must follow suit, "
        "take the trick if you can, and trump if you cannot follow.",
    ]
    if rules.allow_close:
        lines.append(f"Closing (c): nobody draws any more, and the closer must reach {WIN_POINTS}, or the "
                     f"other side scores {two} game points ({three} if it had taken no trick at the close).")
    if not rules.auto_claim:
        lines.append(f"A wrong claim gives the other side {two} game points ({three} if it has taken no "
                     "trick)." if rules.false_claim == "fixed" else
                     "A wrong claim gives the other side what the claim would have scored.")
    lines += [
        f"A deal is worth {one} game point, {two} if the loser has under {half}, {three} if the loser took "
        f"no trick. The first to {TARGET} game points wins the Bummerl.",
        "The whole rules: bummerl serve, then its page /rules.",
    ]
    return "\n".join(lines)


class KeysScreen(Dialog[None]):
    """Every key of the game, and the rules in brief (key ``h`` or F1)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,h,f1", "close", "close", key_display="Esc"),
    ]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="keys"):
            yield Label("Keys", classes="title")
            with VerticalScroll(classes="sheet"):
                yield Static(keys_text(self.rules))
                yield Label("The rules in brief", classes="title")
                yield Static(rules_brief(self.rules))
            yield Label("Esc: back to the game", classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


def points_cell(view: View, events: Sequence[Event], seat: int) -> Text:
    """A seat's points in a deal's summary, with what they hold besides the cards taken: its marriages
    (and how much of them never counted) and Sixty-Six's 10 for the last trick.

    >>> from bummerl.bots.random_bot import RandomBot
    >>> from bummerl.rules import Rules
    >>> from bummerl.table import Seat, Table
    >>> table = Table(Rules.preset("vu"), (Seat("A", RandomBot(19)), Seat("B", RandomBot(20))), seed=19)
    >>> _ = table.run_bots()  # B declared 20, and won no trick after it (vu counts it only then)
    >>> points_cell(table.view(1), table.events, 1).plain
    '12 (20; 20 not counted)'
    """
    marriages = [str(e.data["value"]) for e in events if e.kind == "marry" and e.seat == seat]
    bonus = sum(e.data.get("bonus", 0) for e in events if e.kind == "trick" and e.seat == seat)
    notes = ["+".join(marriages)] if marriages else []
    if view.pending[seat]:
        notes.append(f"{view.pending[seat]} not counted")
    if bonus:
        notes.append(f"+{bonus} last trick")
    cell = Text(str(view.points[seat]))
    if notes:
        cell.append(f" ({'; '.join(notes)})", style="dim")
    return cell


#: What the deal's summary answers when you go back to the table instead of on to the next deal.
STAY = "stay"


class DealSummaryScreen(Dialog[str | None]):
    """Both sides' tricks and points, how the deal ended, the cards left in hand, and the score sheet.

    Drawn from your view of the finished deal (which then reveals both hands) and the table's events.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,n,space", "close", "continue", key_display="⏎"),
        Binding("escape", "stay", "back to the table", key_display="Esc"),
    ]

    def __init__(self, view: View, events: Sequence[Event], names: tuple[str, str], style: CardStyle, *,
                 saved: bool = True) -> None:
        super().__init__()
        self.saved = saved
        self.view = view
        self.events = list(events)
        self.names = names
        self.card_style: CardStyle = style

    def compose(self) -> ComposeResult:
        view = self.view
        names = self.names
        style = self.card_style
        over = [e for e in self.events if e.kind == "deal_over"]
        with Vertical(classes="dialog", id="summary"):
            if view.outcome is None or view.revealed_hands is None or not over:  # pragma: no cover
                yield Label("The deal is not over", classes="title")
                return
            number = over[-1].deal_number
            this_deal = [e for e in self.events if e.deal_number == number]
            data = over[-1].data
            winner = data["winner"]
            if winner is None:
                head = f"Deal {number} is a draw"
            else:
                s = "s" if data["game_points"] != 1 else ""
                who = _says(names[winner], "win", "wins")
                head = f"Deal {number}: {who} {data['game_points']} game point{s}"
            ended = [e for e in self.events if e.kind == "game_over"]
            if ended:  # in the title too: the score sheet below may not fit the window
                head += f" — {_says(names[ended[-1].data['winner']], 'win', 'wins')} the Bummerl"
            with Vertical(classes="head"):
                yield Label(head, classes="title")
            # The deal's details scroll; the score sheet below them keeps its place at the bottom, scrolled to
            # its newest row: the new score is in sight even when the details are not all.
            with VerticalScroll(classes="body"):
                yield Static(Text.assemble(("Why: ", "bold"), data["why"]))
                told = [e for e in this_deal if e.kind in ("claim", "pass")]
                if told:
                    yield Static(Text(told[-1].text, style="italic"))
                grid = RichTable(box=None, expand=True, padding=(0, 1))
                grid.add_column("", style="bold", no_wrap=True)
                grid.add_column("tricks", justify="right")
                grid.add_column("points", justify="right")
                grid.add_column("cards taken", ratio=1)
                for seat in (HUMAN, COMPUTER):
                    taken = [c for t in view.trick_log if t.winner == seat for c in (t.lead, t.follow)]
                    grid.add_row(names[seat], str(view.tricks_won[seat]), points_cell(view, this_deal, seat),
                                 _cards(taken, style))
                yield Static(grid)
                if any(view.revealed_hands):
                    yield Static(Text.assemble(
                        ("Still in hand: ", "dim"),
                        _cards(view.revealed_hands[COMPUTER], style), (f" ({names[COMPUTER]})  ", "dim"),
                        _cards(view.revealed_hands[HUMAN], style), (f" ({names[HUMAN]})", "dim"),
                    ))
                if view.closed_by >= 0:
                    yield Static(Text(f"{names[view.closed_by]} closed the talon.", style="dim"))
            with Vertical(classes="foot"):
                yield Label("Score sheet", classes="caption")
                with VerticalScroll(classes="sheet to-end"):
                    yield Static(score_sheet(self.events, names))
                if ended:
                    who = names[ended[-1].data["winner"]]
                    yield Static(Text(f"{_says(who, 'win', 'wins')} the Bummerl!", style="bold green"))
                saved = _SAVED if self.saved else _NOT_SAVED
                yield Label(f"Enter: continue   Esc: the table   q: quit{saved}", classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_stay(self) -> None:
        """Back to the finished deal's table and log (Enter shows this again, then the next deal)."""
        self.dismiss(STAY)


class AnalysisScreen(Dialog[None]):
    """What each of your legal actions is worth here, over the hidden cards consistent with what you saw."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,enter", "close", "close", key_display="Esc"),
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
            yield Label("Esc: back to the game   q: quit", classes="hint")

    def on_mount(self) -> None:
        self.run_worker(self._compute, thread=True, group="analysis")

    def _compute(self) -> None:
        try:
            ratings, note = rate(self.view, samples=self.samples, solver=self.solver)
            body: Text | Group = self._table(ratings, note)
        except ValueError as err:  # (an AnalysisError is one)
            body = Text(str(err), style="yellow")
        _from_thread(self, self._show, body)

    def _table(self, ratings: tuple[ActionStats, ...], note: str) -> Group:
        """The ratings under a title line of their own (a table's title wraps at the table's width)."""
        grid = RichTable(box=None, padding=(0, 2))
        grid.add_column("action")
        grid.add_column("mean", justify="right")
        grid.add_column("win share", justify="right")
        grid.add_column("worst", justify="right")
        chances = [r.bummerl_win for r in ratings if r.bummerl_win is not None]
        if chances:  # in a Bummerl: the chance to win it from this score after each action
            grid.add_column("Bummerl", justify="right")
        best = ratings[0].mean if ratings else 0.0
        for r in ratings:
            mark = "bold green" if abs(r.mean - best) < 1e-9 else ""
            cells: list[Text | str] = [
                action_text(str(r.action), self.card_style),
                Text(f"{r.mean:+.2f}", style=mark),
                f"{100 * r.win_share:.0f}%",
                f"{r.worst:+d}",
            ]
            if r.bummerl_win is not None:
                top = "bold green" if r.bummerl_win >= max(chances) - 1e-9 else ""
                cells.append(Text(f"{100 * r.bummerl_win:.1f}%", style=top))
            grid.add_row(*cells)
        lines: list[Text | RichTable] = [Text(f"Mean game points for you ({note})", style="italic"), grid]
        if chances:
            lines.append(Text("Bummerl: your chance to win the Bummerl from here", style="dim italic"))
        return Group(*lines)

    def _show(self, body: Text | Group) -> None:
        self.done = True
        if not self.is_attached:
            return
        self.query_one("#analysis-busy", LoadingIndicator).display = False
        self.query_one("#analysis-body", Static).update(body)

    def action_close(self) -> None:
        self.dismiss(None)


class GameOverScreen(Dialog[None]):
    """The end of the Bummerl: the score sheet, where you lost game points (your choices the analysis rated
    worst), and a new game if the app can start one."""

    BINDINGS: ClassVar[list[BindingType]] = [  # q quits (Dialog's); Esc does not: it means "back"
        Binding("n", "app.play_again", "play again"),
        Binding("s", "app.score_sheet", "score sheet"),
    ]

    def __init__(self, events: Sequence[Event], names: tuple[str, str], style: CardStyle,
                 decisions: Callable[[], Iterable[tuple[int, View, Action]]], *, samples: int = 8,
                 shown: int = 6, solver: Solver | None = None, play_again: bool = False,
                 saved: bool = True) -> None:
        super().__init__()
        self.saved = saved
        self.events = list(events)
        self.names = names
        self.card_style: CardStyle = style
        self.decisions = decisions
        self.samples = samples
        self.solver = solver
        self.shown = shown
        self.play_again = play_again
        self.done = False
        self.stopped = False
        self.mistakes: list[Mistake] = []

    def compose(self) -> ComposeResult:
        names = self.names
        ended = [e for e in self.events if e.kind == "game_over"]
        deals = [e for e in self.events if e.kind == "deal_over"]
        with Vertical(classes="dialog", id="game-over"):
            if not ended or not deals:  # pragma: no cover
                yield Label("The Bummerl is not over", classes="title")
                return
            winner = ended[-1].data["winner"]
            score = deals[-1].data["score"]
            who = _says(names[winner], "win", "wins")
            needed = f"{max(score[HUMAN], 0)} : {max(score[COMPUTER], 0)} still needed"
            won = sum(1 for e in deals if e.data["winner"] == HUMAN)
            with Vertical(classes="head"):
                yield Label(f"{who} the Bummerl ({needed})", classes="title")
                yield Static(f"{len(deals)} deals played, you won {won}.")
            # The score sheet scrolls (to its last deal); the review below it keeps its place at the bottom.
            with VerticalScroll(classes="body to-end"):
                yield Static(score_sheet(self.events, names))
            with Vertical(classes="foot"):
                yield Label("Where you lost game points", classes="caption")
                yield ProgressBar(total=None, show_eta=False, id="review-progress")
                yield Static(Text("Analysing your decisions…", style="dim"), id="review-body")
                again = "n: play again   " if self.play_again else ""
                yield Label(f"{again}q: quit{_SAVED if self.saved else _NOT_SAVED}", classes="hint")

    def on_mount(self) -> None:
        self.run_worker(self._compute, thread=True, group="review")

    def on_unmount(self) -> None:
        """Stop the review when the screen goes (play again, or quit): it must not think on in the
        background, nor hold up the exit."""
        self.stopped = True

    def _compute(self) -> None:
        decisions = list(self.decisions())
        bar = self.query_one("#review-progress", ProgressBar)
        _from_thread(self, bar.update, total=max(len(decisions), 1), progress=0)

        def progress(done: int, total: int) -> None:
            if self.stopped or not self.is_attached:
                raise _Stopped
            _from_thread(self, bar.update, progress=done)

        try:
            mistakes = review(decisions, self.samples, progress, solver=self.solver)
            body: Text | RichTable = self._table(mistakes)
        except _Stopped:
            return
        except ValueError as err:  # (an AnalysisError is one)
            body = Text(str(err), style="yellow")
            mistakes = []
        self.mistakes = mistakes
        _from_thread(self, self._show, body)

    def _table(self, mistakes: list[Mistake]) -> Text | RichTable:
        costly = [m for m in mistakes if m.loss >= 0.05][: self.shown]
        if not costly:
            return Text("No costly choices found: well played!", style="green")
        style = self.card_style
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
        if not self.is_attached:
            return
        self.query_one("#review-progress", ProgressBar).display = False
        self.query_one("#review-body", Static).update(body)
        self.call_after_refresh(self._show_overflow)  # the review may push the score sheet out of sight
