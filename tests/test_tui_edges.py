"""The terminal game's rough edges, played through Textual's pilot (issue 11, section 6): the keys of
Sixty-Six, the trump line, the log at 80x24, q on every screen, confirmations, the score sheet, play again,
the log without open tricks, German card names, and a UI that reads only views and events."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot

from bummerl.actions import Action
from bummerl.cards import CARDS, Card
from bummerl.rules import Rules
from bummerl.table import FirstLegal, card_name
from bummerl.tui.app import SIXTH_CARD_KEY, BummerlApp, sorted_hand
from bummerl.tui.eventlog import EventLog
from bummerl.tui.screens import (
    AnalysisScreen,
    ConfirmScreen,
    DealSummaryScreen,
    GameOverScreen,
    ScoreSheetScreen,
)
from bummerl.tui.widgets import card_face
from helpers.arena_bots import Script
from helpers.tui import press, run, screen_text, session, settle

SRC = Path(__file__).resolve().parent.parent / "src" / "bummerl"
SMALL = (80, 24)
# Sixty-Six, you lead (the computer deals): you hold K♠ 10♠ A♠ K♥ 10♥ A♥, the computer 9♦ J♦ Q♦ 9♥ J♥ Q♥;
# the trump card is A♣; the talon starts 9♣ J♣.
SIXTY_SIX_DECK = "AS TS KS 9D JD QD AC AH TH KH 9H JH QH 9C JC QC KC TC 9S JS QS TD KD AD"
SIXTY_SIX_BY_HAND = Rules.preset("sixty-six").replace(auto_claim=False)


def status(app: BummerlApp) -> str:
    return str(app.query_one("#status").content)  # type: ignore[attr-defined]


def history(app: BummerlApp) -> list[str]:
    return [str(a) for a in app.session.table.deal.history]


def footer_line(app: BummerlApp) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


def sixty_six(tmp_path: Path, rules: Rules = SIXTY_SIX_BY_HAND, cards: str = "french") -> BummerlApp:
    s = session(tmp_path, decks=[SIXTY_SIX_DECK], rules=rules, cards=cards, bot=Script(["play 9D"]))
    return BummerlApp(s, delay=0)


# ----------------------------------------------------------------------------- keys 6 and 0


def test_in_sixty_six_key_0_plays_the_sixth_card_and_6_claims(tmp_path: Path) -> None:
    app = sixty_six(tmp_path)

    async def body(pilot: Pilot[None]) -> None:
        assert [str(c) for c in sorted_hand(app.session.view())][5] == "AH"
        footer = footer_line(app)
        assert f"1-5,{SIXTH_CARD_KEY} play" in footer and "g claim" not in footer  # no claim before a trick
        assert app.query_one("#hand-5").border_title == SIXTH_CARD_KEY  # the card shows its key
        await press(pilot, app, "7")
        assert f"7 plays no card: your cards are keys 1-5, {SIXTH_CARD_KEY}" in status(app)
        await press(pilot, app, "6")  # not a card: a claim, which is not allowed before a trick is won
        assert history(app) == []
        assert "Not allowed: you may claim only right after winning a trick" in status(app)
        await press(pilot, app, SIXTH_CARD_KEY)  # A♥; the computer throws 9♦ and you take the trick
        assert history(app)[:2] == ["play AH", "play 9D"]
        assert "g claim" in footer_line(app)  # now you may claim: the footer says so
        await press(pilot, app, "6")
        assert isinstance(app.screen, ConfirmScreen) and "Claim 66 now?" in screen_text(app)
        await press(pilot, app, "n")
        assert not isinstance(app.screen, ConfirmScreen) and history(app)[-1] == "play 9D"

    run(app, body)


def test_in_schnapsen_the_footer_offers_1_to_5_and_key_0_says_why_it_plays_nothing(tmp_path: Path) -> None:
    app = BummerlApp(session(tmp_path), delay=0)

    async def body(pilot: Pilot[None]) -> None:
        footer = footer_line(app)
        assert "1-5 play" in footer and f"1-5,{SIXTH_CARD_KEY}" not in footer and "c close" in footer
        await press(pilot, app, SIXTH_CARD_KEY)
        assert history(app) == [] and "only Sixty-Six deals six" in status(app)
        for key in "789":  # said like 0, not ignored
            await press(pilot, app, key)
            assert history(app) == [] and f"{key} plays no card: your cards are keys 1-5" in status(app)
        await press(pilot, app, "6")
        assert history(app) == [] and "Not allowed" in status(app)
        await press(pilot, app, "enter")  # the summary comes once the deal is over (it said nothing)
        assert history(app) == [] and "once the deal is over" in status(app)

    run(app, body)


def test_the_footer_offers_exchange_marriage_and_claim_only_while_you_may_and_the_keys_say_why_not(
        tmp_path: Path) -> None:
    # The footer listed "x exchange ... g claim" at all times, after the exchange too.
    app = BummerlApp(session(tmp_path), delay=0, confirm=False)  # you hold J♥ K♥ Q♥ A♠ 10♠, trump A♥

    async def body(pilot: Pilot[None]) -> None:
        footer = footer_line(app)
        assert "x exchange" in footer and "c close" in footer
        assert "m marry" not in footer and "g claim" not in footer and "p pass" not in footer
        await press(pilot, app, "x")
        footer = footer_line(app)
        assert "x exchange" not in footer and "c close" in footer
        await press(pilot, app, "x")  # still live: says why not
        assert history(app) == ["exchange"] and "Not allowed" in status(app)
        await press(pilot, app, "5")  # A♠ takes the trick: now a marriage and a claim are possible
        footer = footer_line(app)
        assert "m marry" in footer and "g claim" in footer and "x exchange" not in footer
        await press(pilot, app, "m")  # trumps: 40 at once; then you must lead its king or queen
        assert "m marry" not in footer_line(app)

    run(app, body)


def test_the_footer_offers_close_and_claim_only_where_the_rules_allow_them_and_the_keys_say_why_not(
        tmp_path: Path) -> None:
    app = BummerlApp(session(tmp_path, rules=Rules.preset("vu")), delay=0)  # no closing, claims by itself

    async def body(pilot: Pilot[None]) -> None:
        footer = footer_line(app)
        assert "c close" not in footer and "g claim" not in footer and "x exchange" in footer
        await press(pilot, app, "c")
        assert history(app) == [] and "these rules do not allow closing the talon" in status(app)
        await press(pilot, app, "g")
        assert history(app) == [] and "66 is claimed automatically" in status(app)

    run(app, body)


# ----------------------------------------------------------------------------- the trump line


@pytest.mark.parametrize("cards", ["french", "german"])
def test_the_trump_suit_stays_on_screen_open_closed_and_used_up(tmp_path: Path, cards: str) -> None:
    s = session(tmp_path, decks=[SIXTY_SIX_DECK], rules="sixty-six", cards=cards, bot=FirstLegal())
    app = BummerlApp(s, delay=0, confirm=False)
    trump = "Trump ♣" if cards == "french" else "Trump Eichel"

    def table_area() -> str:  # the table only (left of the side panel): not the log's "Trump is ..."
        return "\n".join(line[:56] for line in screen_text(app).splitlines())

    async def body(pilot: Pilot[None]) -> None:
        assert "Talon 12" in table_area() and trump in table_area()
        await press(pilot, app, "1")
        await press(pilot, app, "c")  # you won the trick: close
        assert "Closed by You" in table_area() and trump in table_area()

    run(app, body, size=SMALL)

    s = session(tmp_path / "2", decks=[SIXTY_SIX_DECK], rules="sixty-six", cards=cards, bot=FirstLegal())
    app = BummerlApp(s, delay=0, confirm=False)

    async def used_up(pilot: Pilot[None]) -> None:
        while s.view().talon_size > 0:
            card = next(a for a in s.view().legal_actions if a.kind == "play")
            await press(pilot, app, *_keys(app, card), look=False)
        assert "Talon used up" in table_area() and trump in table_area()

    run(app, used_up, size=SMALL)


def _keys(app: BummerlApp, action: Action) -> list[str]:
    assert action.card is not None
    slot = sorted_hand(app.session.view()).index(action.card)
    return [str(slot + 1) if slot < 5 else SIXTH_CARD_KEY]


# ----------------------------------------------------------------------------- the log


def _log_lines(app: BummerlApp) -> list[str]:
    return [line.text for line in app.query_one("#log", EventLog).lines]


def _words(text: str) -> list[str]:
    return text.split()


def _check_log_fits(app: BummerlApp) -> None:
    log = app.query_one("#log", EventLog)
    width = log.scrollable_content_region.width
    lines = _log_lines(app)
    assert lines and all(len(line.rstrip()) <= width for line in lines), (width, lines)
    # Every word of every event, in order: nothing cut off.
    shown = _words(" ".join(lines))
    expected = _words(" ".join(e.plain for e in log.entries))
    assert shown == expected


def test_the_event_log_at_80x24_loses_no_letters_and_rewraps_on_resize(tmp_path: Path) -> None:
    s = session(tmp_path, decks=[SIXTY_SIX_DECK], rules="sixty-six", cards="german", bot=FirstLegal())
    app = BummerlApp(s, delay=0, confirm=False)

    async def body(pilot: Pilot[None]) -> None:
        while not s.view().is_over:  # a whole deal: far more lines than the log has rows
            action = next(a for a in s.view().legal_actions if a.kind == "play")
            await press(pilot, app, *_keys(app, action), look=False)
        await press(pilot, app, "enter", look=False)  # the summary; the next deal begins
        assert len(_log_lines(app)) > 20  # the log scrolls
        _check_log_fits(app)
        narrow = app.query_one("#log", EventLog).scrollable_content_region.width
        await pilot.resize_terminal(120, 30)
        await settle(pilot, app)
        await pilot.pause(0.1)
        assert app.query_one("#log", EventLog).scrollable_content_region.width > narrow
        _check_log_fits(app)
        await pilot.resize_terminal(*SMALL)
        await settle(pilot, app)
        await pilot.pause(0.1)
        _check_log_fits(app)

    run(app, body, size=SMALL)


def test_without_open_tricks_the_log_drops_a_tricks_cards_once_the_next_trick_begins(tmp_path: Path) -> None:
    # Sharp rules (open_tricks off). You lead A♠, the computer answers J♣; then you lead again.
    app = BummerlApp(session(tmp_path, rules="sharp", bot=Script(["play JC", "play QC"])), delay=0)

    async def body(pilot: Pilot[None]) -> None:
        await press(pilot, app, "5")  # A♠
        log = " ".join(_log_lines(app))
        assert "You play A♠" in log and "Computer plays J♣" in log and "You take the trick" in log
        await press(pilot, app, "4")  # 10♠ begins the next trick
        log = " ".join(_log_lines(app))
        assert "You take the trick" in log and "You play 10♠" in log
        assert "A♠" not in log and "J♣" not in log

    run(app, body)


def test_with_open_tricks_the_log_keeps_every_card(tmp_path: Path) -> None:
    app = BummerlApp(session(tmp_path, bot=Script(["play JC", "play QC"])), delay=0)

    async def body(pilot: Pilot[None]) -> None:
        await press(pilot, app, "5", "4")
        log = " ".join(_log_lines(app))
        assert "You play A♠" in log and "Computer plays J♣" in log and "You play 10♠" in log

    run(app, body)


# ----------------------------------------------------------------------------- q everywhere


async def _open(pilot: Pilot[None], app: BummerlApp, where: str) -> None:
    """Bring up one of the app's screens."""
    if where == "confirm":
        await press(pilot, app, "c")
    elif where == "scores":
        await press(pilot, app, "s")
    elif where == "analysis":
        await press(pilot, app, "question_mark")
    elif where == "summary":
        await press(pilot, app, "x", "5", "c", "y", "m", "2", "g", "y")


SCREENS = {"table": None, "confirm": ConfirmScreen, "scores": ScoreSheetScreen, "analysis": AnalysisScreen,
           "summary": DealSummaryScreen}


@pytest.mark.parametrize("key", ["q", "ctrl+c"])
@pytest.mark.parametrize("where", list(SCREENS))
def test_q_and_ctrl_c_quit_from_every_screen(tmp_path: Path, where: str, key: str) -> None:
    # Ctrl+C said "Do you want to quit? Press ctrl+q to quit the app" (Textual's), not that the game is saved.
    app = BummerlApp(session(tmp_path), delay=0, analysis_samples=2)

    async def body(pilot: Pilot[None]) -> None:
        await _open(pilot, app, where)
        kind = SCREENS[where]
        assert kind is None or isinstance(app.screen, kind)
        assert app.return_code is None
        await pilot.press(key)
        await pilot.pause()
        assert app.return_code == 0

    run(app, body)


# ----------------------------------------------------------------------------- confirmations


def test_a_close_and_a_claim_ask_first_and_no_keeps_the_game_as_it_was(tmp_path: Path) -> None:
    app = BummerlApp(session(tmp_path), delay=0)

    async def body(pilot: Pilot[None]) -> None:
        await press(pilot, app, "x", "5")
        before = history(app)
        screen = await press(pilot, app, "c")
        assert isinstance(app.screen, ConfirmScreen) and "Close the talon?" in screen
        await press(pilot, app, "escape")
        assert history(app) == before and "No close" in status(app)
        await press(pilot, app, "c", "y")
        assert history(app) == [*before, "close"]
        await press(pilot, app, "m", "2")
        await press(pilot, app, "g")
        assert isinstance(app.screen, ConfirmScreen) and "Claim 66 now?" in screen_text(app)
        await press(pilot, app, "y")
        assert history(app)[-1] == "claim" and isinstance(app.screen, DealSummaryScreen)

    run(app, body)


def test_without_confirmation_a_close_happens_at_once_and_an_illegal_claim_is_only_explained(
    tmp_path: Path,
) -> None:
    app = BummerlApp(session(tmp_path), delay=0, confirm=False)

    async def body(pilot: Pilot[None]) -> None:
        await press(pilot, app, "g")  # not allowed now: explained, nothing asked
        assert not isinstance(app.screen, ConfirmScreen) and "Not allowed" in status(app)
        await press(pilot, app, "c")
        assert history(app) == ["close"] and not isinstance(app.screen, ConfirmScreen)

    run(app, body)


# ----------------------------------------------------------------------------- the score sheet


def test_the_score_sheet_lists_each_deal_with_its_winner_points_and_reason(tmp_path: Path) -> None:
    app = BummerlApp(session(tmp_path), delay=0, confirm=False)

    async def body(pilot: Pilot[None]) -> None:
        screen = await press(pilot, app, "s")
        assert isinstance(app.screen, ScoreSheetScreen) and "No deal is finished yet." in screen
        await press(pilot, app, "escape")
        await press(pilot, app, "x", "5", "c", "m", "2", "g")
        screen = screen_text(app)  # the summary at the end of the deal holds the sheet
        assert isinstance(app.screen, DealSummaryScreen)
        row = re.compile(r"1\s+Computer\s+You\s+3\s+a correct claim of 66\s+4 : 7")
        assert "Score sheet" in screen and row.search(screen)
        # Both hands, as the finished deal's view reveals them (and no view showed them before).
        assert "Still in hand: Q♣ K♣ 10♣ Q♦ (Computer)  J♦ Q♥ A♥ 10♠ (You)" in screen
        await press(pilot, app, "enter", "s")
        screen = screen_text(app)
        assert isinstance(app.screen, ScoreSheetScreen) and row.search(screen)

    run(app, body)


# ----------------------------------------------------------------------------- play again


def _claims_win(deal: object) -> dict[Action, int]:
    return {a: 0 for a in deal.legal_actions()}  # type: ignore[attr-defined]


async def _play_to_the_end(pilot: Pilot[None], app: BummerlApp) -> None:
    """Play (first legal card, a claim whenever allowed) until the end-of-Bummerl screen is up."""
    steps = 0
    while app.session.table.phase != "game_over" or isinstance(app.screen, DealSummaryScreen):
        steps += 1
        assert steps < 600
        if isinstance(app.screen, DealSummaryScreen):
            await press(pilot, app, "enter", look=False)
            continue
        legal = app.session.view().legal_actions
        claims = [a for a in legal if a.kind == "claim"]
        action = claims[0] if claims else next(a for a in legal if a.kind == "play")
        await press(pilot, app, *(["g"] if claims else _keys(app, action)), look=False)
    assert isinstance(app.screen, GameOverScreen)


def test_play_again_at_the_end_starts_a_fresh_game(tmp_path: Path) -> None:
    from bummerl.session import PlaySession

    made: list[PlaySession] = []

    def new_game() -> PlaySession:
        made.append(PlaySession.new(Rules.preset("standard"), level="medium", seed=9, first_dealer=0,
                                    home=tmp_path, bot=FirstLegal()))
        return made[-1]

    first = PlaySession.new(Rules.preset("standard"), level="medium", seed=5, home=tmp_path, bot=FirstLegal())
    app = BummerlApp(first, delay=0, confirm=False, review_samples=1, solver=_claims_win, new_game=new_game)

    async def body(pilot: Pilot[None]) -> None:
        await _play_to_the_end(pilot, app)
        for _ in range(3000):
            if app.screen.done:  # type: ignore[attr-defined]
                break
            await pilot.pause(0.01)
        screen = screen_text(app)
        assert "n: play again" in screen and "deal  dealer" in screen  # and the score sheet
        await press(pilot, app, "n")
        assert made and app.session is made[0] and app.session is not first
        assert not isinstance(app.screen, GameOverScreen) and len(app.screen_stack) == 1
        assert app.session.table.deal_number == 1 and app.session.view().score == (7, 7)
        log = " ".join(_log_lines(app))
        assert log.startswith("Deal 1: You deal.")  # a fresh log

    run(app, body)


def _closing_pays(deal: object) -> dict[Action, int]:
    """A stand-in solver: a claim is worth 2, a close 1, anything else -1 (so the review finds much)."""
    worth = {"claim": 2, "close": 1}
    return {a: worth.get(a.kind, -1) for a in deal.legal_actions()}  # type: ignore[attr-defined]


def _in_sight_or_said(app: BummerlApp) -> None:
    """A dialog holding more than it shows says so in its hint."""
    hidden = any(part.max_scroll_y > 0 for part in app.screen.query(VerticalScroll))
    assert ("↑↓: scroll for more" in screen_text(app)) == hidden


def test_at_80x24_the_summary_shows_the_new_score_and_the_end_the_whole_review(tmp_path: Path) -> None:
    # The player-tester's report: at 80x24 the summary of deal 2 showed deal 1's row and the old score (deal
    # 2's row only after pressing Down, with a small scroll bar as the only hint), and the end of the Bummerl
    # showed 3 of the review's 6 rows.
    from bummerl.session import PlaySession

    first = PlaySession.new(Rules.preset("standard"), level="medium", seed=5, home=tmp_path, bot=FirstLegal(),
                            cards="german")
    app = BummerlApp(first, delay=0, confirm=False, review_samples=1, solver=_closing_pays)
    seen: list[int] = []

    def look() -> None:
        over = [e for e in app.session.table.events if e.kind == "deal_over"][-1]
        need = " : ".join(str(max(n, 0)) for n in over.data["score"])
        row = re.compile(rf"\b{over.deal_number}\s+(You|Computer)\s+(You|Computer|draw)\s+\d+\s.*\s{need}\b")
        screen = screen_text(app)
        assert row.search(screen), screen
        _in_sight_or_said(app)
        seen.append(over.deal_number)

    async def body(pilot: Pilot[None]) -> None:
        # Whole deals: the first legal card, a claim only with 66 (long summaries, many reviewed choices).
        for _ in range(800):
            if isinstance(app.screen, GameOverScreen):
                break
            if isinstance(app.screen, DealSummaryScreen):
                look()
                await press(pilot, app, "enter", look=False)
                continue
            view = app.session.view()
            if view.points[0] >= 66 and Action.parse("claim") in view.legal_actions:
                await press(pilot, app, "g", look=False)
            elif not view.hand:
                await press(pilot, app, "p", look=False)
            else:
                action = next(a for a in view.legal_actions if a.kind == "play")
                await press(pilot, app, *_keys(app, action), look=False)
        screen = app.screen
        assert isinstance(screen, GameOverScreen)
        for _ in range(3000):
            if screen.done:
                break
            await pilot.pause(0.01)
        await pilot.pause(0.1)
        text = screen_text(app)
        rows = [line for line in text.splitlines()
                if re.search(r"^\W*\d+\s+\d+\s+(play|close|marry|exchange|claim|pass)\b", line)]
        costly = [m for m in screen.mistakes if m.loss >= 0.05]
        assert len(costly) >= 6 and len(rows) == 6, text  # the review, whole
        assert "Computer wins the Bummerl" in text or "You win the Bummerl" in text
        _in_sight_or_said(app)

    run(app, body, size=SMALL)
    assert len(seen) >= 3


class SlowSolver:
    """A stand-in solver that takes its time and counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, deal: object) -> dict[Action, int]:
        import time

        self.calls += 1
        time.sleep(0.2)
        return _claims_win(deal)


@pytest.mark.parametrize("key", ["n", "q"])
def test_leaving_the_end_screen_stops_its_review(tmp_path: Path, key: str) -> None:
    import time

    from bummerl.session import PlaySession

    solver = SlowSolver()
    first = PlaySession.new(Rules.preset("standard"), level="medium", seed=5, home=tmp_path, bot=FirstLegal())
    app = BummerlApp(first, delay=0, confirm=False, review_samples=3, solver=solver,
                     new_game=lambda: PlaySession.new(Rules.preset("standard"), seed=9, home=tmp_path,
                                                      bot=FirstLegal()))

    async def body(pilot: Pilot[None]) -> None:
        await _play_to_the_end(pilot, app)
        for _ in range(3000):
            if solver.calls >= 2:  # the review has begun
                break
            await pilot.pause(0.01)
        await pilot.press(key)
        await pilot.pause()

    run(app, body)
    stopped_at = solver.calls
    time.sleep(1.0)  # a review still running would make about five more calls meanwhile
    assert solver.calls <= stopped_at + 3  # it stops after the decision it was working on (3 worlds)
    assert solver.calls < 3 * len(list(first.table.decisions(0)))  # the review never finished


def test_without_a_factory_the_end_offers_only_quit(tmp_path: Path) -> None:
    app = BummerlApp(session(tmp_path), delay=0)
    assert app.new_game is None

    async def body(pilot: Pilot[None]) -> None:
        await press(pilot, app, "n")  # "next deal" while playing: nothing happens
        assert app.session.table.deal_number == 1 and history(app) == []

    run(app, body)


# ----------------------------------------------------------------------------- German cards


def test_german_faces_say_sau_and_spell_schellen_one_way() -> None:
    for card in CARDS:
        face = card_face(card, "german").plain
        assert card.suit.german in face  # Schellen in full: the face is wide enough
        assert ("Sau" in face) == (card.rank.name == "ACE")
    assert card_name(Card.parse("AD"), "german") == "Schellen Sau"
    spellings = set()
    for path in SRC.rglob("*.py"):
        spellings |= set(re.findall(r"Schel+e?n\w*", path.read_text(encoding="utf-8")))
    assert spellings == {"Schellen"}


def test_german_sixty_six_fits_80_columns_with_six_cards(tmp_path: Path) -> None:
    app = sixty_six(tmp_path, cards="german")

    async def body(pilot: Pilot[None]) -> None:
        screen = screen_text(app)
        lines = screen.splitlines()
        hand_row = next(line for line in lines if "─ 1 ─" in line)
        assert f"─ {SIXTH_CARD_KEY} ─" in hand_row.split("▊")[0]  # the sixth card is inside the table
        assert "Sau" in screen and "Herz" in screen and "Laub" in screen
        assert "Trump Eichel" in screen
        footer = footer_line(app)
        assert footer.startswith(f"1-5,{SIXTH_CARD_KEY} play") and "q quit" in footer  # every key fits

    run(app, body, size=SMALL)


def test_five_german_cards_keep_their_borders_and_gaps(tmp_path: Path) -> None:
    # The session-11 audit: at 80 columns every German card but the last lost its right border, five too.
    s = session(tmp_path, cards="german")
    app = BummerlApp(s, delay=0)

    async def body(pilot: Pilot[None]) -> None:
        hand_row = next(line for line in screen_text(app).splitlines() if "─ 1 ─" in line).split("▊")[0]
        assert hand_row.count("╮") == 5 and "╮ ╭" in hand_row  # five whole cards, a gap between them

    run(app, body, size=SMALL)


def _hand_frames(app: BummerlApp) -> list[str]:
    """The top border of each card in your hand, as the screen shows it (table part only)."""
    rows = screen_text(app).splitlines()
    top = next(line for line in rows if re.search(r"[─━] 1 [─━]", line)).split("▊")[0]
    return re.findall(r"[╭┏][^╭┏╮┓]*[╮┓]?", top)


# You hold Q♠ K♠ A♠ K♥ Q♥ A♥ (two marriages), the computer 9♦ J♦ Q♦ 9♥ J♥ 10♥; the trump card is A♣; the
# talon starts K♦ J♣.
TWO_MARRIAGES_DECK = "QS KS AS 9D JD QD AC KH QH AH 9H JH TH KD JC QC KC TC 9S JS TS 9C TD AD"


def test_six_german_cards_at_80_columns_each_keep_their_whole_frame(tmp_path: Path) -> None:
    # The player-tester's report: at 80x24 each German card's right edge was covered by the next card, the
    # marked (heavy) frames too. Six German cards are now a column narrower there ("Schell.") and whole.
    s = session(tmp_path, decks=[TWO_MARRIAGES_DECK], rules=SIXTY_SIX_BY_HAND, cards="german",
                bot=Script(["play 9D"]))
    app = BummerlApp(s, delay=0, confirm=False)

    def frames() -> list[str]:
        """Each card of your hand as its top border shows it (in the table, left of the side panel)."""
        hand = [app.query_one(f"#hand-{i}").region for i in range(6)]
        table = app.query_one("#table").content_region
        for left, right in itertools.pairwise(hand):
            assert left.right <= right.x, (left, right)  # side by side, never one over the other
        assert hand[0].x >= table.x and hand[-1].right <= table.right
        top = next(line for line in screen_text(app).splitlines() if re.search(r"[─━] 1 [─━]", line))
        return re.findall(r"[╭┏][^╭┏]*", top.split("▊")[0].rstrip())

    async def body(pilot: Pilot[None]) -> None:
        await press(pilot, app, *_keys(app, Action.parse("play AS")))  # you take the trick, and draw K♦
        assert len(s.view().hand) == 6 and "Schell." in screen_text(app)  # Schellen, a column short
        await press(pilot, app, "m")  # two marriages: their kings and queens are marked (heavy frames)
        assert app.marry_mode
        tops = frames()
        assert len(tops) == 6 and all(len(t) == 9 and t[-1] in "╮┓" for t in tops), tops
        assert sum(t.startswith("┏") for t in tops) == 4  # Laub O, K and Herz K, O: each frame whole
        await press(pilot, app, *_keys(app, Action.parse("play KH")))  # declares 20 in Herz
        tops = frames()
        assert sum(t.startswith("┏") for t in tops) == 2 and all(t[-1] in "╮┓" for t in tops), tops
        await pilot.resize_terminal(110, 32)  # wide enough for the full names and gaps again
        await settle(pilot, app)
        await pilot.pause(0.1)
        hand_rows = [line.split("▊")[0] for line in screen_text(app).splitlines()]
        assert "Schell." not in screen_text(app) and any("│Schellen│" in row for row in hand_rows)
        await pilot.resize_terminal(*SMALL)
        await settle(pilot, app)
        await pilot.pause(0.1)
        assert all(len(t) == 9 for t in frames())

    run(app, body, size=SMALL)


def test_a_window_below_80x24_is_told_so_and_the_note_goes_when_it_grows(tmp_path: Path) -> None:
    app = BummerlApp(session(tmp_path), delay=0)

    async def body(pilot: Pilot[None]) -> None:
        top = screen_text(app).splitlines()[0].strip()
        assert top.startswith("The window is 60x20: make it at least 80x24")
        await pilot.resize_terminal(*SMALL)
        await settle(pilot, app)
        await pilot.pause(0.1)
        assert "The window is" not in screen_text(app) and "Schnapsen" in screen_text(app).splitlines()[0]

    run(app, body, size=(60, 20))


# ----------------------------------------------------------------------------- a resumed game's note


def test_a_resumed_games_note_shows_in_the_game_as_the_newest_log_line_and_a_notification(
    tmp_path: Path,
) -> None:
    # "bummerl play --resume --level expert" said on standard error that --level is ignored, and the game
    # covered it at once; the note was the log's first line, scrolled out of sight at 80x24.
    s = session(tmp_path, bot=Script(["play JC", "play QC", "play KC"]))
    s.act("play AS")
    s.apply_bot(s.bot_choice())
    s.act("play TS")
    s.apply_bot(s.bot_choice())
    s.note = ("--resume keeps game 1234's own level (medium), rules (standard), cards (french) and seed; "
              "ignored: --level")
    app = BummerlApp(s, delay=0)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.pause(0.1)
        screen = screen_text(app)
        assert "Resumed game" in screen and "ignored: --level" in screen  # the notification
        log = app.query_one("#log", EventLog)
        assert log.entries[-1].plain == s.note  # after the resumed events: the newest line, in sight
        assert log.scroll_y == log.max_scroll_y > 0
        assert "--level" in "".join(line.split("▊")[-1] for line in screen.splitlines()[-6:])
        await press(pilot, app, "5")  # play goes on below the note
        assert log.entries[-1].plain != s.note and any(e.plain == s.note for e in log.entries)

    run(app, body, size=SMALL, notifications=True)


def test_a_remark_on_unfinished_games_is_a_log_line_and_covers_no_card(tmp_path: Path) -> None:
    # Its toast covered the last two cards and the status line for 8 s (a tmux play-test).
    s = session(tmp_path, bot=Script(["play JC"]))
    s.note_title = "Unfinished games"
    s.note = "you have 1 unfinished game: bummerl play --resume continues the last one"
    app = BummerlApp(s, delay=0)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.pause(0.1)
        assert "Unfinished games" not in screen_text(app) and not app._notifications  # no toast
        assert app.query_one("#log", EventLog).entries[-1].plain == s.note

    run(app, body, size=SMALL, notifications=True)


# ----------------------------------------------------------------------------- views and events only


def test_the_terminal_ui_reads_views_and_events_never_the_deal() -> None:
    for path in sorted((SRC / "tui").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"table\.deal\b(?!_number)|\.deal\.|\.game\.deal", text), path.name


# ----------------------------------------------------------------------------- a failed save


def test_a_failed_save_is_said_on_screen_and_nothing_claims_the_game_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bummerl.store import StoreError

    s = session(tmp_path)
    app = BummerlApp(s, delay=0, confirm=False)

    def broken(*args: object, **kwargs: object) -> None:
        raise StoreError("disk full")

    async def body(pilot: Pilot[None]) -> None:
        monkeypatch.setattr(s.store, "sync", broken)
        screen = await press(pilot, app, "x")
        assert "could not be saved" in status(app) and "disk full" in status(app)
        assert app.query_one("#status").has_class("error")
        assert "The game could not be saved: disk full" in screen
        await press(pilot, app, "5", "c", "m", "2", "g")
        screen = screen_text(app)
        assert isinstance(app.screen, DealSummaryScreen)
        assert "could NOT be saved" in screen and "the game is saved" not in screen

    run(app, body)


def test_the_summary_points_tell_the_last_tricks_ten_and_marriages_that_never_counted() -> None:
    # 68 points sat next to cards worth 58, and a marriage that never counted looked counted (session 11).
    from bummerl.table import Seat, Table
    from bummerl.tui.screens import points_cell
    from helpers.arena_bots import NeverClaims

    table = Table(Rules.preset("sixty-six").replace(auto_claim=False), (Seat("A", NeverClaims()),
                  Seat("B", NeverClaims())), seed=0)
    table.run_bots()
    winner = [e for e in table.events if e.kind == "trick"][-1].seat
    assert winner is not None
    view = table.view(winner)
    taken = sum(c.points for t in view.tricks if t.winner == winner for c in (t.lead, t.follow))
    assert not any(e.kind == "marry" for e in table.events)  # this deal: cards and the last trick's 10
    assert points_cell(view, table.events, winner).plain == f"{taken + 10} (+10 last trick)"
    assert view.points[winner] == taken + 10


def test_under_marriage_leads_king_the_status_asks_for_the_king_alone(tmp_path: Path) -> None:
    # It said "the king or queen" where only the king may be led (session 11's audit).
    rules = Rules.preset("soft").replace(marriage_leads_king=True)  # soft: a marriage before any trick
    app = BummerlApp(session(tmp_path, rules=rules), delay=0)

    async def body(pilot: Pilot[None]) -> None:
        await press(pilot, app, "m")  # K♥ Q♥, trumps: 40
        assert "Lead the king of your marriage" in status(app)
        await press(pilot, app, "2")  # Q♥
        assert "after declaring a marriage you must lead K♥" in status(app) and "or Q♥" not in status(app)

    run(app, body)


def test_a_long_score_sheet_leaves_the_deals_own_summary_in_sight_at_80x24(tmp_path: Path) -> None:
    # A review of the three-part summary: with its height in vh, the bottom part was as tall as the whole
    # score sheet (19 rows at deal 7 of Sixty-Six) and covered the deal's own lines (why, the tricks table).
    from bummerl.session import PlaySession

    for seed in range(200):  # a Bummerl still going after its 7th deal
        s = PlaySession.new(Rules.preset("sixty-six"), level="easy", seed=seed, first_dealer=0,
                            home=tmp_path / str(seed), bot=FirstLegal())
        deals = 0
        while s.table.phase != "game_over" and deals < 7:
            if s.table.phase == "deal_over":
                deals += 1
                if deals < 7:
                    s.next_deal()
            elif s.table.human_to_move:
                s.act(s.view().legal_actions[0])
            else:
                s.apply_bot(s.bot_choice())
        if deals == 7 and s.table.phase == "deal_over":
            break
    app = BummerlApp(s, delay=0, confirm=False, review_samples=1)

    async def body(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, DealSummaryScreen)
        middle, foot = screen.query_one(".body").region, screen.query_one(".foot").region
        assert middle.height >= 4 and foot.y >= middle.bottom, (middle, foot)
        text = screen_text(app)
        assert "Why:" in text and "tricks" in text and "Score sheet" in text, text

    run(app, body, size=(80, 24))
