"""The full-screen game: one Bummerl of you against the computer, by keyboard and mouse.

Run it with ``bummerl play``. The app is a thin skin over :class:`~bummerl.session.PlaySession`
(a :class:`~bummerl.table.Table` that saves itself): every key or click becomes one action for the table,
and the screen is redrawn from your :class:`~bummerl.view.View` after each event.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.widgets import Footer, Header, Label, Static

from bummerl.actions import CLAIM, CLOSE, EXCHANGE, PASS, Action
from bummerl.cards import MARRIAGE_PAIRS, Card, Rank, cards_in
from bummerl.errors import BummerlError
from bummerl.session import COMPUTER, HUMAN, PlaySession
from bummerl.table import CardStyle, Event, IllegalMove
from bummerl.tui.eventlog import EventLog, visible_events
from bummerl.tui.screens import (
    STAY,
    AnalysisScreen,
    ConfirmScreen,
    DealSummaryScreen,
    GameOverScreen,
    KeysScreen,
    ScoreSheetScreen,
)
from bummerl.tui.styles import APP_CSS
from bummerl.tui.widgets import SIXTH_CARD_KEY, CardWidget, card_keys, card_text, hand_marks, suit_text
from bummerl.view import View

if TYPE_CHECKING:
    from bummerl.analysis import Solver

__all__ = ["MIN_SIZE", "SIXTH_CARD_KEY", "BummerlApp", "sorted_hand"]

#: The smallest window the whole table fits in (columns, rows); a smaller one gets a line saying so.
MIN_SIZE = (80, 24)


def sorted_hand(view: View) -> list[Card]:
    """Your hand as it is shown: trumps first, then the other suits alternating colours, low to high.

    >>> from bummerl import Deal, Rules
    >>> v = View.of(Deal.from_deck(Rules.preset("standard"),
    ...     "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD", dealer=1), 0)
    >>> [str(c) for c in sorted_hand(v)]
    ['QH', 'KS', 'AS', 'TC', 'TD']
    """
    trump = int(view.trump_suit)
    order = [trump] + [s for s in (3, 2, 0, 1) if s != trump]  # ♠ ♥ ♣ ♦ after the trumps
    return sorted(view.hand, key=lambda c: (order.index(int(c.suit)), int(c.rank)))


class BummerlApp(App[None]):
    """Schnapsen against the computer in the terminal."""

    TITLE = "bummerl"
    ENABLE_COMMAND_PALETTE = False
    #: Below 100 columns the table and the side panel get narrower (the screen class ``-narrow``).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012 (an instance variable in App)
    #: From 32 rows the dialogs' score sheet may take more of them (the screen class ``-tall``).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # noqa: RUF012 (an instance variable in App)
    CSS = APP_CSS
    #: Keys 1-5 play the cards in hand; Sixty-Six's sixth card is key 0 (``SIXTH_CARD_KEY``), since key 6
    #: claims 66 (as does g).
    BINDINGS: ClassVar[list[BindingType]] = [
        # Key 1 is bound twice, for the footer: "1-5 play" in Schnapsen, "1-5,0 play" in Sixty-Six.
        Binding("1", "play(0)", "play", key_display="1-5"),
        Binding("1", "play_card(0)", "play", key_display=f"1-5,{SIXTH_CARD_KEY}"),
        *[Binding(str(i + 1), f"play({i})", "play", show=False) for i in range(1, 5)],
        Binding(SIXTH_CARD_KEY, "play(5)", "play", show=False),
        *[Binding(str(key), f"no_card({key})", show=False) for key in (7, 8, 9)],
        # Exchange, close, marriage, claim and pass are bound twice: shown in the footer only while you may
        # do them (see ``_TWINS``), live either way (the hidden twin explains why not).
        Binding("x", "exchange", "exchange"),
        Binding("x", "exchange(0)", "exchange", show=False),
        Binding("c", "close", "close"),
        Binding("c", "close(0)", "close", show=False),
        Binding("m", "marry", "marry"),
        Binding("m", "marry(0)", "marry", show=False),
        Binding("g,6", "claim", "claim", key_display="g"),
        Binding("g,6", "claim(0)", "claim", show=False),
        Binding("p", "pass_", "pass"),
        Binding("p", "pass_(0)", "pass", show=False),
        Binding("s", "score_sheet", "scores"),
        Binding("enter,n", "next", "next deal", key_display="⏎", show=False),
        Binding("question_mark", "analysis", "analysis", key_display="?"),
        Binding("escape", "cancel", "cancel", show=False),
        Binding("h,f1", "keys", "keys", key_display="h"),
        Binding("q", "quit_game", "quit"),
    ]

    def __init__(self, session: PlaySession, *, delay: float = 0.7, analysis_samples: int | None = 100,
                 review_samples: int = 24, solver: Solver | None = None, confirm: bool = True,
                 new_game: Callable[[], PlaySession] | None = None) -> None:
        """``delay``: seconds before each computer move; ``analysis_samples``: worlds sampled for ``?`` (all
        of them when there are fewer; None: the analysis' default); ``review_samples``: worlds per decision
        in the end-of-game review; ``solver`` replaces the analysis' open-card solver (for tests);
        ``confirm``: ask before a claim or a close; ``new_game`` makes a fresh session when you choose to play
        again at the end (None: no "play again")."""
        super().__init__()
        self.session = session
        self.solver = solver
        self.delay = delay
        self.analysis_samples = analysis_samples
        self.review_samples = review_samples
        self.confirm = confirm
        self.new_game = new_game
        self.marry_mode = False
        self.bot_pending = False
        self._summary_for = 0
        self._legal: frozenset[Action] = frozenset()  # your legal actions as last drawn (for the footer)
        self._note_at = 0  # where the session's note goes in the log: the events before it were resumed

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="too-small")
        with Horizontal(id="main"):
            with Vertical(id="table"):
                with Horizontal(id="opponent-row"):
                    for i in range(6):
                        yield Static(Text("░░", style="blue"), classes="mini-back", id=f"opp-{i}")
                    yield Static(id="opponent")
                with Horizontal(id="middle"):
                    with Vertical(id="talon-box"):
                        yield Label("Talon", id="talon-caption", classes="caption")
                        with Horizontal(id="talon-row"):
                            yield CardWidget(id="talon")
                            yield CardWidget(id="trump")
                        yield Label("", id="trump-caption", classes="caption")
                    with Vertical(id="trick-box"):
                        yield Label("Trick", id="trick-caption", classes="caption")
                        with Horizontal():
                            with Vertical(classes="seat-column"):
                                yield CardWidget(id="trick-0")
                                yield Label("", id="trick-label-0", classes="seat-label")
                            with Vertical(classes="seat-column"):
                                yield CardWidget(id="trick-1")
                                yield Label("", id="trick-label-1", classes="seat-label")
                yield Label("Your hand", id="hand-caption", classes="caption")
                with Horizontal(id="hand"):
                    for i in range(6):
                        yield CardWidget(i, id=f"hand-{i}")
                yield Static(id="status")
            with Vertical(id="side"):
                yield Static(id="score")
                yield Static(id="points")
                yield EventLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#log", EventLog).border_title = "Events"
        self._fit_window(*self.size)
        self.start()

    def on_resize(self, event: Resize) -> None:
        """Below 100 columns the footer packs its keys closer, so all of them fit in 80; below 80x24 a line
        at the top says the window is too small."""
        self._fit_window(event.size.width, event.size.height)

    def _fit_window(self, width: int, height: int) -> None:
        self.query_one(Footer).compact = width < 100
        note = self.query_one("#too-small", Static)
        note.display = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        note.update(f"The window is {width}x{height}: make it at least {MIN_SIZE[0]}x{MIN_SIZE[1]}, "
                    "or parts of the table are cut off.")

    def start(self) -> None:
        """Show the session's game from its current state (at the start, and after "play again")."""
        table = self.session.table
        self.title = "Sixty-Six" if table.rules.sixty_six else "Schnapsen"
        self.sub_title = f"computer: {self.session.saved.level} · rules: {table.rules.describe()}"
        self.marry_mode = False
        self.bot_pending = False
        self._summary_for = 0
        self._note_at = len(table.events)
        # The note is a line of the log (draw_log). Options given with --resume that the resumed game ignores
        # are also a warning over the table; a plain remark (unfinished games elsewhere) is not: its toast
        # covered the last two cards and the status line for 8 s (a play-test).
        if self.session.note and self.session.note_title == "Resumed game":
            self.call_after_refresh(self.notify, self.session.note, title=self.session.note_title,
                                    severity="warning", timeout=8)
        self.after_change()

    # ------------------------------------------------------------------ drawing

    @property
    def card_style(self) -> CardStyle:
        """French or German card faces."""
        return self.session.table.card_style

    def status(self, message: str | Text, *, error: bool = False) -> None:
        """Show a one-line message under the hand (red for an illegal choice)."""
        widget = self.query_one("#status", Static)
        widget.set_class(error, "error")
        widget.update(message)

    def refresh_table(self) -> None:
        """Redraw everything from your view."""
        table = self.session.table
        view = self.session.view()
        style = self.card_style
        over = view.is_over
        # opponent
        for i in range(6):
            self.query_one(f"#opp-{i}").display = i < view.opponent_hand_size
        n_tricks = view.tricks_won[COMPUTER]
        opp = Text.assemble((f"{table.name(COMPUTER)}", "bold"),
                            (f" · {n_tricks} trick{'s' if n_tricks != 1 else ''}", "dim"))
        known = list(cards_in(view.opponent_known_mask))
        line2 = Text()
        if known:
            line2.append("shown: ", "dim")
            gap = Text(", " if style == "german" else " ")
            line2.append_text(gap.join(card_text(c, style) for c in known))
            line2.append(" ")
        marriages = [s for p, s in view.marriages if p == COMPUTER]
        if marriages:
            line2.append("  declared: " if known else "declared: ", "dim")
            line2.append_text(Text(" ").join(suit_text(s, style) for s in marriages))
        self.query_one("#opponent", Static).update(Text.assemble(opp, "\n", line2))
        # talon and trump
        talon = self.query_one("#talon", CardWidget)
        trump = self.query_one("#trump", CardWidget)
        caption = self.query_one("#talon-caption", Label)
        if view.talon_open:
            talon.show_card(None, style, back=True)
            trump.show_card(view.trump_card, style)
            caption.update(Text.assemble("Talon ", (f"{view.talon_size}", "bold")))
        elif view.closed_by >= 0 and view.talon_size > 0:
            talon.show_card(None, style, back=True, label="shut")
            trump.show_card(view.turned_down_trump, style)
            trump.add_class("faded")
            caption.update(f"Closed by {table.name(view.closed_by)}")
        else:
            talon.show_card(None, style, label="empty")
            trump.show_card(None, style)
            caption.update("Talon used up")
        # The trump suit has a line of its own: it never leaves the screen, whatever the caption says.
        self.query_one("#trump-caption", Label).update(
            Text.assemble("Trump ", suit_text(view.trump_suit, style)))
        if view.talon_open or view.closed_by < 0:
            trump.remove_class("faded")
        # trick in progress, or the last trick until the next card is played
        trick_caption = self.query_one("#trick-caption", Label)
        slots = [self.query_one("#trick-0", CardWidget), self.query_one("#trick-1", CardWidget)]
        labels = [self.query_one("#trick-label-0", Label), self.query_one("#trick-label-1", Label)]
        if view.lead_card is not None:
            leader = 1 - view.to_move
            slots[0].show_card(view.lead_card, style)
            slots[1].show_card(None, style, label="?" if not over else "")
            labels[0].update(table.name(leader))
            labels[1].update(table.name(1 - leader))
            trick_caption.update("Trick")
            for s in slots:
                s.remove_class("faded")
        elif view.trick_log:
            last = view.trick_log[-1]
            slots[0].show_card(last.lead, style)
            slots[1].show_card(last.follow, style)
            labels[0].update(table.name(last.leader))
            labels[1].update(table.name(1 - last.leader))
            trick_caption.update(Text.assemble("Last trick → ", (table.name(last.winner), "bold")))
            for s in slots:
                s.add_class("faded")
        else:
            for s in slots:
                s.show_card(None, style)
                s.remove_class("faded")
            for lab in labels:
                lab.update("")
            trick_caption.update("Trick")
        # your hand
        hand = sorted_hand(view)
        self.query_one("#hand").set_class(style == "german", "german")
        self.query_one("#hand").set_class(len(hand) == 6, "six")
        self.query_one("#table").set_class(style == "german", "german")
        playable = 0
        for a in view.legal_actions:
            if a.card is not None:
                playable |= a.card.bit
        marks = hand_marks(hand, playable) if view.legal_actions else [None] * len(hand)
        for i in range(6):
            w = self.query_one(f"#hand-{i}", CardWidget)
            w.remove_class("playable", "unplayable", "chosen")
            if i < len(hand):
                w.display = True
                w.show_card(hand[i], style)
                w.border_title = str(i + 1) if i < 5 else SIXTH_CARD_KEY
                if marks[i] is True:
                    w.add_class("playable")
                elif marks[i] is False:
                    w.add_class("unplayable")
                if self.marry_mode and hand[i].rank in (Rank.KING, Rank.QUEEN) and \
                        Action.marry(hand[i].suit) in view.legal_actions:
                    w.add_class("chosen")
            else:
                w.display = False
        self.query_one("#hand-caption", Label).update(
            "Your hand — the marked cards may be played" if any(m is not None for m in marks) else "Your hand"
        )
        self.query_one("#score", Static).update(self._score_text(view))
        self.query_one("#points", Static).update(self._points_text(view))
        self._legal = frozenset(view.legal_actions)
        self.refresh_bindings()

    def _score_text(self, view: View) -> Text:
        table = self.session.table
        target = table.game.target
        score = view.score or (target, target)
        out = Text("Bummerl: still needed\n", style="bold")
        for seat in (HUMAN, COMPUTER):
            need = score[seat]
            pips = "●" * max(need, 0) + "○" * (target - max(need, 0))
            out.append(f"{table.name(seat):<9}", style="bold" if seat == HUMAN else "")
            out.append(f" {pips} ", style="green" if seat == HUMAN else "yellow")
            out.append(f"{max(need, 0)}\n", style="bold")
        out.append(f"Deal {table.deal_number}, dealt by {table.name(view.dealer)}", style="dim")
        return out

    def _points_text(self, view: View) -> Text:
        rules = self.session.table.rules
        out = Text()
        tricks = view.tricks_won[HUMAN]
        out.append(f"Your tricks: {tricks}", style="bold")
        if rules.open_tricks or view.is_over:
            out.append(f"\nYour points: {view.points[HUMAN]}", style="bold")
            if view.pending[HUMAN]:
                out.append(f"\n(+{view.pending[HUMAN]} marriage, counts after a trick)", style="dim")
        else:
            out.append("\n(no running points under these rules: count them yourself)", style="dim")
        return out

    def log_entries(self) -> list[Text]:
        """The log panel's lines: the events you may still read (rules.md section 6), in colour."""
        table = self.session.table
        events = visible_events(table.events, open_tricks=table.rules.open_tricks)
        if self.session.note:  # said when the game was resumed: after what happened before, then newest
            resumed = {id(e) for e in table.events[:self._note_at]}
            at = sum(1 for e in events if id(e) in resumed)
            events = [*events[:at], Event("note", self.session.note), *events[at:]]
        out: list[Text] = []
        for e in events:
            if e.kind == "save_failed":
                style = "bold red"
            elif e.kind == "note":
                style = "italic yellow"
            elif e.kind in ("deal_over", "game_over"):
                style = "bold green" if e.seat == HUMAN else ("bold red" if e.seat == COMPUTER else "bold")
            elif e.kind == "deal":
                style = "bold"
            elif e.seat == COMPUTER:
                style = "yellow"
            elif e.seat == HUMAN:
                style = "cyan"
            else:
                style = "dim"
            out.append(Text(e.text, style=style))
        return out

    # ------------------------------------------------------------------ the flow of play

    @property
    def busy(self) -> bool:
        """True while the computer is about to move or thinking."""
        return self.bot_pending

    def after_change(self) -> None:
        """Redraw, then hand the turn on: to the computer, to a deal summary, or to you."""
        table = self.session.table
        self.query_one("#log", EventLog).show(self.log_entries())
        self.refresh_table()
        if table.phase in ("deal_over", "game_over"):
            self.marry_mode = False
            if self._summary_for != table.deal_number:
                self._summary_for = table.deal_number
                self.status("The deal is over — press Enter for the summary and the next deal")
                self.push_screen(self._summary(), self._summary_closed)
        elif table.bot_to_move:
            self.status(f"{table.name(COMPUTER)} is thinking…")
            self.schedule_bot()
        else:
            self.prompt()
        if self.save_error is not None:
            self.status(f"The game could not be saved ({self.save_error}); play goes on, unsaved", error=True)

    @property
    def save_error(self) -> str | None:
        """Why the session's last save failed, or None when everything is stored."""
        error = getattr(self.session, "save_error", None)
        return None if error is None else str(error)

    def prompt(self) -> None:
        """Tell you what to do now."""
        view = self.session.view()
        table = self.session.table
        if not view.legal_actions:
            return
        if not view.hand:  # all cards are played: only a claim or a pass is left
            self.status(f"All cards are played: claim 66 (g) if you have it, or "
                        f"{table.pass_words(view.seat) or 'pass (p)'}")
        elif view.married >= 0:
            due = " or ".join(r.english for r in reversed(table.rules.marriage_lead_ranks))
            self.status(Text.assemble(f"Lead the {due} of your marriage (",
                                      suit_text(view.married, self.card_style), ")",
                                      " — or claim 66 with g" if CLAIM in view.legal_actions else ""))
        elif view.lead_card is not None:
            led = card_text(view.lead_card, self.card_style)
            keys = self._card_keys
            self.status(Text.assemble(f"{table.name(COMPUTER)} led ", led, f": your card ({keys})"))
        else:
            extras = [k for k, a in (("x exchange", EXCHANGE), ("c close", CLOSE), ("g claim 66", CLAIM))
                      if a in view.legal_actions]
            if any(a.kind == "marry" for a in view.legal_actions):
                extras.append("m marriage")
            more = f" — or {', '.join(extras)}" if extras else ""
            self.status(f"Your lead: play a card ({self._card_keys}){more}")

    @property
    def _card_keys(self) -> str:
        """How to play a card, for the status line: the keys of the cards in hand ("1-3 or click")."""
        return card_keys(len(self.session.view().hand)) + " or click"

    def schedule_bot(self) -> None:
        """Let the computer move after the configured delay (its thinking runs off the UI thread)."""
        if self.bot_pending:
            return
        self.bot_pending = True
        if self.delay > 0:
            self.set_timer(self.delay, self._start_bot)
        else:
            self.call_later(self._start_bot)

    def _start_bot(self) -> None:
        self.run_worker(self._bot_think, thread=True, exclusive=True, group="bot")

    def _bot_think(self) -> None:
        try:
            action = self.session.bot_choice()
        except Exception as err:  # a broken bot (e.g. an outside program) must not end the game
            self._from_thread(self._bot_failed, err)
            return
        self._from_thread(self._bot_done, action)

    def _from_thread(self, callback: Callable[[Any], None], value: Any) -> None:
        """Run ``callback(value)`` on the UI thread, unless the app has quit meanwhile."""
        if self.is_running:
            with contextlib.suppress(RuntimeError):
                self.call_from_thread(callback, value)

    def _bot_failed(self, err: Exception) -> None:
        self.bot_pending = False
        saved = "the game is saved" if self.save_error is None else "the game could NOT be saved"
        self.status(f"The computer failed to move ({type(err).__name__}: {err}); press q to quit — {saved}",
                    error=True)

    def _bot_done(self, action: Action) -> None:
        self.bot_pending = False
        try:
            self.session.apply_bot(action)
        except IllegalMove as err:  # a broken bot must not crash the game
            self.status(f"the computer tried an illegal move: {err}", error=True)
            return
        self.after_change()

    @property
    def names(self) -> tuple[str, str]:
        """The seats' names: (you, the computer)."""
        table = self.session.table
        return table.name(HUMAN), table.name(COMPUTER)

    def _summary(self) -> DealSummaryScreen:
        return DealSummaryScreen(self.session.view(), self.session.table.events, self.names, self.card_style,
                                 saved=self.save_error is None)

    def _summary_closed(self, result: object = None) -> None:
        table = self.session.table
        if result == STAY:  # Esc: a look at the finished deal first (a play-test found Esc went on)
            then = "the Bummerl's end" if table.phase == "game_over" else "the next deal"
            self.status(f"The deal is over — press Enter for the summary and {then}")
            return
        if table.phase == "game_over":
            again = " — n plays again" if self.new_game is not None else ""
            self.status(f"The Bummerl is over — q quits{again}")
            self.push_screen(GameOverScreen(
                table.events, self.names, self.card_style, lambda: table.decisions(HUMAN),
                samples=self.review_samples, solver=self.solver, play_again=self.new_game is not None,
                saved=self.save_error is None,
            ))
            return
        self.session.next_deal()
        self.after_change()

    #: What the confirmation asks before an action that cannot be taken back.
    QUESTIONS: ClassVar[dict[str, tuple[str, str]]] = {
        "claim": ("Claim 66 now?", "The deal ends at once; a wrong claim gives the other side game points."),
        "close": ("Close the talon?", "Nobody draws any more, and you must reach 66 or lose the deal."),
        "pass": ("Pass without claiming?", "The deal is scored without a claim (by the last trick, or "
                                           "against whoever closed). With 66 or more, a claim scores at "
                                           "least as much, and if you closed, passing loses the deal."),
    }

    def human_act(self, action: Action, *, confirmed: bool = False) -> None:
        """Try your action (asking first for a claim, a close or a pass, unless ``confirm`` is off); explain
        in the status line if it is not allowed."""
        table = self.session.table
        if self.bot_pending or table.bot_to_move:
            self.status(f"Wait — it is {table.name(COMPUTER)}'s turn", error=True)
            return
        if table.phase != "playing":
            self.status("The deal is over — press Enter to continue", error=True)
            return
        question = self.QUESTIONS.get(action.kind)
        if self.confirm and not confirmed and question and action in self.session.view().legal_actions:
            def answered(yes: bool | None) -> None:
                if yes:
                    self.human_act(action, confirmed=True)
                else:
                    self.status(f"No {action.kind}: your move")

            self.push_screen(ConfirmScreen(*question), answered)
            return
        try:
            self.session.act(action)
        except IllegalMove as err:
            self.status(f"Not allowed: {err}", error=True)
            return
        self.marry_mode = False
        self.after_change()

    # ------------------------------------------------------------------ keys and clicks

    #: The actions bound twice: the footer shows the binding without parameters while you may take the action
    #: (the marriage: declare any); the hidden twin (parameter 0) takes the key otherwise, to say why not.
    _TWINS: ClassVar[dict[str, Action | None]] = {"exchange": EXCHANGE, "close": CLOSE, "claim": CLAIM,
                                                  "pass_": PASS, "marry": None}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Every key stays live (an illegal one is explained in the status line); of a key bound twice, the
        binding the footer should show: "1-5" or "1-5,0" under these rules, exchange, close, marriage, claim
        and pass only while you may take them."""
        sixty_six = self.session.table.rules.sixty_six
        if action == "play" and parameters == (0,):  # the footer's "1-5"
            return not sixty_six
        if action == "play_card":  # the footer's "1-5,0"
            return sixty_six
        if action in self._TWINS:
            wanted = self._TWINS[action]
            allowed = (any(a.kind == "marry" for a in self._legal) if wanted is None
                       else wanted in self._legal)
            return allowed == (parameters == ())
        return True

    def _hand(self) -> list[Card]:
        return sorted_hand(self.session.view())

    def action_play(self, slot: int) -> None:
        """Play the card in a hand position (or choose it for a marriage)."""
        hand = self._hand()
        if slot == 5 and not self.session.table.rules.sixty_six:
            self.status(f"{SIXTH_CARD_KEY} plays a sixth card: only Sixty-Six deals six", error=True)
            return
        if slot >= len(hand):
            self.status(f"You have no card {slot + 1 if slot < 5 else 'in place 6'}", error=True)
            return
        self.choose_card(hand[slot])

    def action_play_card(self, slot: int) -> None:
        """The same as :meth:`action_play` (key 1 in Sixty-Six, shown in the footer as "1-5,0")."""
        self.action_play(slot)

    def action_no_card(self, key: int) -> None:
        """Keys 7-9 play nothing: say which keys do."""
        keys = card_keys(self.session.table.rules.hand_size)
        self.status(f"{key} plays no card: your cards are keys {keys}, from the left", error=True)

    def choose_card(self, card: Card) -> None:
        """A card picked by key or click: declares its marriage if it is the king or queen of one you may
        declare, else plays it."""
        view = self.session.view()
        marry = Action.marry(card.suit)
        is_pair_card = card.rank in (Rank.KING, Rank.QUEEN)
        if is_pair_card and marry in view.legal_actions:
            self.human_act(marry)
            return
        if self.marry_mode:
            self.status("Choose the king or queen of a marriage (Esc cancels)", error=True)
            return
        self.human_act(Action.play(card))

    @on(CardWidget.Clicked)
    def card_clicked(self, message: CardWidget.Clicked) -> None:
        """A click on one of your cards plays it (or declares its marriage); a click on the talon closes
        it, on the face-up trump card exchanges it."""
        if message.widget_id == "talon":
            self.human_act(CLOSE)
        elif message.widget_id == "trump":
            self.human_act(EXCHANGE)
        elif message.card is not None and message.slot >= 0:  # your hand's cards (slots 0-5)
            self.choose_card(message.card)

    def action_exchange(self, _shown: int = 1) -> None:
        """Exchange the trump jack (nine) for the face-up trump card."""
        self.human_act(EXCHANGE)

    def action_close(self, _shown: int = 1) -> None:
        """Close the talon."""
        self.human_act(CLOSE)

    def action_claim(self, _shown: int = 1) -> None:
        """Claim 66."""
        self.human_act(CLAIM)

    def action_pass_(self, _shown: int = 1) -> None:
        """Pass after the last trick."""
        self.human_act(PASS)

    def action_marry(self, _shown: int = 1) -> None:
        """Declare a marriage: at once when there is one, else choose its king or queen."""
        view = self.session.view()
        options = [a for a in view.legal_actions if a.kind == "marry"]
        if not options:
            self.human_act(Action.marry(self._marriage_suit_hint(view)))
            return
        if len(options) == 1:
            self.human_act(options[0])
            return
        self.marry_mode = True
        self.refresh_table()
        self.status("Which marriage? Press the number of its king or queen, or click it (Esc cancels)")

    def _marriage_suit_hint(self, view: View) -> int:
        for s in range(4):
            if view.hand_mask & MARRIAGE_PAIRS[s] == MARRIAGE_PAIRS[s]:
                return s
        return int(view.trump_suit)

    def action_cancel(self) -> None:
        """Leave the marriage choice."""
        if self.marry_mode:
            self.marry_mode = False
            self.refresh_table()
            self.prompt()

    def action_next(self) -> None:
        """Show the summary of a finished deal (the next deal follows it)."""
        table = self.session.table
        if table.phase == "playing":
            self.status("Enter shows the deal's summary once the deal is over", error=True)
            return
        self.push_screen(self._summary(), self._summary_closed)

    def action_analysis(self) -> None:
        """Show what each of your actions is worth here, over the hidden cards you cannot see."""
        view = self.session.view()
        if not view.legal_actions:
            self.status("The analysis is for your turn", error=True)
            return
        self.push_screen(AnalysisScreen(view, self.card_style, samples=self.analysis_samples,
                                        solver=self.solver))

    def action_keys(self) -> None:
        """Show every key of the game under its rules."""
        self.push_screen(KeysScreen(self.session.table.rules))

    def action_score_sheet(self) -> None:
        """Show the score sheet: every finished deal, who won it, its game points and why."""
        self.push_screen(ScoreSheetScreen(self.session.table.events, self.names))

    def action_play_again(self) -> None:
        """At the end of the Bummerl: start a new one (when the app was given a way to make one)."""
        if self.new_game is None:
            self.status("This game cannot start another one: run bummerl play again", error=True)
            return
        if self.session.table.phase != "game_over":
            return
        try:
            fresh = self.new_game()
        except BummerlError as err:  # e.g. the store cannot be written any more
            self.status(f"Cannot start a new game: {err}", error=True)
            self.notify(f"Cannot start a new game: {err}", severity="error")  # seen over the end screen
            return
        self.session = fresh
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.start()

    def action_quit_game(self) -> None:
        """Quit (from any screen); the game is saved and ``bummerl play --resume`` continues it."""
        self.exit()

    def action_help_quit(self) -> None:
        """Ctrl+C (unless it copies selected text) quits as q does, rather than Textual's "press ctrl+q"."""
        self.action_quit_game()
