"""The terminal game through Textual's test pilot: keys and clicks in, the screen checked after each."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from bummerl.actions import Action
from bummerl.cards import parse_cards
from bummerl.rules import Rules
from bummerl.session import PlaySession
from bummerl.store import GameStore
from bummerl.table import FirstLegal
from bummerl.tui.app import BummerlApp, sorted_hand
from bummerl.tui.screens import ConfirmScreen, DealSummaryScreen, GameOverScreen
from helpers.arena_bots import Script
from helpers.tui import press, run, screen_text, session, settle, shown


def status(app: BummerlApp) -> str:
    return str(app.query_one("#status").content)  # type: ignore[attr-defined]


def hand(app: BummerlApp) -> list[str]:
    return [str(c) for c in sorted_hand(app.session.view())]


def test_a_full_deal_by_keys_with_exchange_close_marriage_and_claim(tmp_path: Path) -> None:
    s = session(tmp_path)
    app = BummerlApp(s, delay=0)

    async def body(pilot: Pilot[None]) -> None:
        screen = shown(app)
        assert "Talon 10" in screen and "Your hand" in screen
        assert "Deal 1: Computer deals. Trump is ♥ (A♥ face up)." in screen
        assert "x exchange" in screen and "c close" in screen  # the footer shows the keys
        assert hand(app) == ["JH", "QH", "KH", "TS", "AS"]
        assert "Your lead" in status(app)

        # No marriage before a trick under the standard rules: explained, nothing happens.
        await press(pilot, app, "m")
        assert "you must win a trick before you may declare a marriage" in status(app)
        assert s.table.deal.history == []

        screen = await press(pilot, app, "x")
        assert "You exchange J♥ for the trump card A♥" in screen
        assert hand(app) == ["QH", "KH", "AH", "TS", "AS"]
        assert s.table.deal.face_up_trump is not None and str(s.table.deal.face_up_trump) == "JH"

        screen = await press(pilot, app, "5")  # A♠; the computer answers J♣
        assert "Computer plays J♣" in screen and "You take the trick (+13)" in screen
        assert "Last trick → You" in screen
        assert "Your tricks: 1" in screen and "Your points: 13" in screen
        assert hand(app) == ["QH", "KH", "AH", "TS", "JD"]

        screen = await press(pilot, app, "c", "y")  # close, and yes when asked
        assert "You close the talon" in screen and "Closed by You" in screen

        screen = await press(pilot, app, "m")  # one marriage: declared at once
        assert "You declare 40 (K♥ Q♥)" in screen
        assert "Lead the king or queen of your marriage" in status(app)
        assert "Your points: 53" in screen

        await press(pilot, app, "4")  # 10♠ is not allowed now
        assert "after declaring a marriage you must lead K♥ or Q♥" in status(app)

        screen = await press(pilot, app, "2")  # K♥; the computer throws A♣
        assert "You take the trick (+15)" in screen and "Your points: 68" in screen

        await press(pilot, app, "g", "enter")  # claim 66, and Enter confirms
        assert isinstance(app.screen, DealSummaryScreen)
        screen = shown(app)
        assert "You claim 66 — correct (68 points), 3 game points" in screen
        assert "Deal 1: You win 3 game points" in screen and "a correct claim of 66" in screen
        assert "Score sheet" in screen and "You : Computer" in screen
        assert "1  Computer  You       3  a correct claim of 66      4 : 7" in screen

        await press(pilot, app, "escape")  # back to the finished deal (a play-test: Esc went on to the next)
        assert not isinstance(app.screen, DealSummaryScreen) and s.table.deal_number == 1
        assert "press Enter for the summary and the next deal" in status(app)
        await press(pilot, app, "enter")  # the summary again
        assert isinstance(app.screen, DealSummaryScreen)
        screen = await press(pilot, app, "enter")
        assert not isinstance(app.screen, DealSummaryScreen)
        assert "Deal 2: You deal." in screen and s.table.deal_number == 2
        assert s.table.score == (4, 7)
        with GameStore.open(tmp_path) as store:
            saved = store.load(s.id)
        assert [o.to_json() for o in saved.outcomes] == [{"winner": 0, "game_points": 3, "reason": "claim"}]
        assert saved.record.deals[0].actions[:2] == ("exchange", "play AS")
        assert saved.record.scores == ((4, 7),)

    run(app, body)


def test_clicks_exchange_close_declare_and_play(tmp_path: Path) -> None:
    s = session(tmp_path)
    app = BummerlApp(s, delay=0)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.click("#trump")  # exchange J♥ for the face-up A♥
        await settle(pilot, app)
        assert [str(a) for a in s.table.deal.history] == ["exchange"]
        await pilot.click("#hand-4")  # A♠
        await settle(pilot, app)
        assert [str(a) for a in s.table.deal.history[1:3]] == ["play AS", "play JC"]
        await pilot.click("#talon")  # close: asked first
        await settle(pilot, app)
        await press(pilot, app, "y", look=False)
        assert str(s.table.deal.history[-1]) == "close" and "Closed by You" in shown(app)
        assert hand(app)[1] == "KH"
        await pilot.click("#hand-1")  # K♥ of the trump marriage: declares 40
        await settle(pilot, app)
        assert str(s.table.deal.history[-1]) == "marry H"
        assert "You declare 40" in shown(app)
        await pilot.click("#hand-1")  # now it is led
        await settle(pilot, app)
        assert str(s.table.deal.history[5]) == "play KH"

    run(app, body)


def test_m_then_a_card_chooses_between_two_marriages(tmp_path: Path) -> None:
    # Soft rules: marriages need no trick. You hold K♥ Q♥ K♠ Q♠ (and A♠).
    s = session(tmp_path, decks=["KH QH KS JC QC KC AH QS AS TC AC JD QD KD TD AD TH JS TS JH"], rules="soft")
    app = BummerlApp(s, delay=0)

    async def body(pilot: Pilot[None]) -> None:
        assert hand(app) == ["QH", "KH", "QS", "KS", "AS"]
        await press(pilot, app, "m")
        assert "Which marriage?" in status(app) and app.marry_mode
        await press(pilot, app, "escape")
        assert not app.marry_mode and s.table.deal.history == []
        await press(pilot, app, "m", "3")  # Q♠: the marriage in spades
        assert [str(a) for a in s.table.deal.history] == ["marry S"]
        assert "You declare 20 (K♠ Q♠) (counts once a trick is won)" in shown(app)

    run(app, body)


def test_following_a_closed_talon_marks_the_playable_cards(tmp_path: Path) -> None:
    # You deal; the computer leads, closes and plays J♥: you must head it with Q♥ or K♥.
    s = PlaySession.new(Rules.preset("standard"), level="medium", seed=1, first_dealer=0, home=tmp_path,
                        decks=[[int(c) for c in parse_cards(
                            "JH AS TS QH KH JC AH TC AC QC KC JD QD KD TD AD TH JS QS KS")]],
                        bot=Script(["close", "play JH"]))  # type: ignore[arg-type]
    app = BummerlApp(s, delay=0)

    async def body(pilot: Pilot[None]) -> None:
        screen = shown(app)
        assert "Computer closes the talon" in screen and "Computer plays J♥" in screen
        assert "the marked cards may be played" in screen
        assert hand(app) == ["QH", "KH", "JC", "QC", "KC"]
        marks = [app.query_one(f"#hand-{i}").has_class("playable") for i in range(5)]
        assert marks == [True, True, False, False, False]
        await press(pilot, app, "3")
        assert "Not allowed: with the talon closed you must follow suit" in status(app)
        await press(pilot, app, "x")
        assert "Not allowed: you can exchange only when you lead" in status(app)
        await press(pilot, app, "1")
        assert str(s.table.deal.history[-1]) == "play QH"

    run(app, body)


def test_german_cards_show_german_suit_names(tmp_path: Path) -> None:
    app = BummerlApp(session(tmp_path, cards="german"), delay=0)

    async def body(pilot: Pilot[None]) -> None:
        screen = shown(app)
        assert "Trump is Herz (Herz Sau face up)" in screen
        assert "Herz" in screen and "Laub" in screen and "Trump Herz" in screen

    run(app, body)


def test_sharp_rules_show_no_running_points(tmp_path: Path) -> None:
    app = BummerlApp(session(tmp_path, rules="sharp"), delay=0)

    async def body(pilot: Pilot[None]) -> None:
        screen = await press(pilot, app, "5")
        assert "You take the trick" in screen and "(+13)" not in screen
        assert "points:" not in screen and "no running points" in screen

    run(app, body)


def _key_for(app: BummerlApp, action: Action) -> list[str]:
    """The keys a person presses for an action."""
    if action.card is not None:
        slot = [str(c) for c in sorted_hand(app.session.view())].index(str(action.card))
        return [str(slot + 1)]
    if action.kind == "marry":
        options = [a for a in app.session.view().legal_actions if a.kind == "marry"]
        if len(options) == 1:
            return ["m"]
        king = [str(c) for c in sorted_hand(app.session.view())].index(f"K{action.suit.letter}")  # type: ignore[union-attr]
        return ["m", str(king + 1)]
    return {"exchange": ["x"], "close": ["c", "y"], "claim": ["g", "y"], "pass": ["p", "y"]}[action.kind]


def test_a_whole_bummerl_by_keys_ends_with_the_review(tmp_path: Path) -> None:
    s = PlaySession.new(Rules.preset("standard"), level="medium", seed=5, first_dealer=None, home=tmp_path,
                        bot=FirstLegal())
    app = BummerlApp(s, delay=0, review_samples=1)

    async def body(pilot: Pilot[None]) -> None:
        steps = 0
        while s.table.phase != "game_over":
            steps += 1
            assert steps < 500
            if isinstance(app.screen, DealSummaryScreen):
                await press(pilot, app, "enter", look=False)
                continue
            legal = s.view().legal_actions
            assert legal, "the app waits for you only when you have a move"
            # Varied choices, but a claim whenever one is allowed: right or wrong, it keeps deals short.
            claims = [a for a in legal if a.kind == "claim"]
            choice = claims[0] if claims else legal[steps % len(legal)]
            before = len(s.table.deal.history)
            await press(pilot, app, *_key_for(app, choice), look=False)
            assert len(s.table.deal.history) > before or s.table.deal.is_over or s.table.deal_number > 1
        await settle(pilot, app)
        assert isinstance(app.screen, DealSummaryScreen)
        assert "the Bummerl!" in shown(app)
        # The end of the Bummerl is in the title too: at 80x24 the score sheet's last lines may not fit.
        title = next(line for line in screen_text(app).splitlines() if f"Deal {s.table.deal_number}:" in line)
        assert "the Bummerl" in title, title
        await press(pilot, app, "enter")
        assert isinstance(app.screen, GameOverScreen)
        await press(pilot, app, "escape")  # Esc means "back" everywhere: here it no longer quits
        assert isinstance(app.screen, GameOverScreen) and app.is_running
        for _ in range(3000):
            if app.screen.done:
                break
            await pilot.pause(0.01)
        screen = screen_text(app)
        assert "Where you lost game points" in screen
        assert "wins the Bummerl" in screen or "win the Bummerl" in screen
        with GameStore.open(tmp_path) as store:
            saved = store.load(s.id)
        assert saved.finished and saved.winner == s.table.game.winner
        await pilot.press("q")

    run(app, body)


def test_question_mark_opens_the_analysis_and_escape_closes_it(tmp_path: Path) -> None:
    from bummerl.tui.screens import AnalysisScreen

    app = BummerlApp(session(tmp_path), delay=0, analysis_samples=2)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, AnalysisScreen)
        for _ in range(3000):
            if app.screen.done:
                break
            await pilot.pause(0.01)
        screen = screen_text(app)
        assert "Analysis of your position" in screen
        assert "Mean game points" in screen or "not available" in screen
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, AnalysisScreen)

    run(app, body)


@pytest.mark.parametrize("delay", [0.01])
def test_the_computer_moves_after_the_delay(tmp_path: Path, delay: float) -> None:
    s = PlaySession.new(Rules.preset("standard"), level="medium", seed=2, first_dealer=0, home=tmp_path,
                        bot=FirstLegal())
    app = BummerlApp(s, delay=delay)

    async def body(pilot: Pilot[None]) -> None:
        assert s.table.human_to_move  # the computer led after the delay
        assert len(s.table.deal.history) >= 1

    run(app, body)


def test_pass_after_the_last_trick_by_key(tmp_path: Path) -> None:
    from helpers.arena_bots import NeverClaims

    # Seed 3: playing the first legal card each time, you take the last trick (test_table checks the same).
    s = PlaySession.new(Rules.preset("standard"), seed=3, first_dealer=1, home=tmp_path, bot=NeverClaims())
    app = BummerlApp(s, delay=0)

    async def body(pilot: Pilot[None]) -> None:
        while not s.table.deal.is_over:
            if s.table.deal.ending:
                assert "claim 66 (g) if you have it, or pass (p)" in status(app)
                await press(pilot, app, "p", look=False)  # a pass asks first, as a claim does
                assert isinstance(app.screen, ConfirmScreen) and "Pass without claiming?" in shown(app)
                await press(pilot, app, "n", look=False)
                assert not s.table.deal.is_over and "No pass: your move" in status(app)
                await press(pilot, app, "p", "y", look=False)
                continue
            card = next(a.card for a in s.view().legal_actions if a.card is not None)
            await press(pilot, app, *_key_for(app, Action.play(card)), look=False)  # type: ignore[arg-type]
        screen = shown(app)
        assert isinstance(app.screen, DealSummaryScreen)
        assert "all cards were played; the last trick wins" in screen
        assert "You pass" in screen and str(s.table.deal.history[-1]) == "pass"

    run(app, body)


@pytest.mark.parametrize("preset", ["standard", "vu"])
def test_h_lists_every_key_the_rules_allow_and_the_status_counts_the_cards(tmp_path: Path,
                                                                            preset: str) -> None:
    from bummerl.tui.screens import KeysScreen

    s = PlaySession.new(Rules.preset(preset), seed=4, first_dealer=1, home=tmp_path, bot=FirstLegal())
    app = BummerlApp(s, delay=0)

    async def body(pilot: Pilot[None]) -> None:
        await press(pilot, app, "h", look=False)
        assert isinstance(app.screen, KeysScreen)
        text = screen_text(app)
        assert "score sheet" in text and "next deal" in text and "this list" in text
        assert ("close the talon" in text) == (preset == "standard")  # vu allows no close
        assert ("claim 66" in text) == (preset == "standard")  # vu claims automatically
        await press(pilot, app, "escape", look=False)
        assert not isinstance(app.screen, KeysScreen)
        assert "(1-5 or click)" in status(app)
        if preset == "standard":  # closed: nobody draws, and the status names only the keys of the cards left
            assert s.table.human_to_move and s.view().talon_open
            await press(pilot, app, "c", "y", look=False)
            card = next(a for a in s.view().legal_actions if a.kind == "play")
            await press(pilot, app, *_key_for(app, card), look=False)
            while not s.table.human_to_move:
                await pilot.pause(0.01)
            assert len(s.view().hand) == 4 and "(1-4 or click)" in status(app), status(app)

    run(app, body)


@pytest.mark.parametrize("preset", ["standard", "vu", "sixty-six"])
def test_the_keys_dialog_tells_a_newcomer_the_rules_under_the_game_s_own_preset(preset: str) -> None:
    # A newcomer's first-run audit: h listed keys only; no card values, no 66, nothing on following suit.
    from bummerl.cards import POINTS
    from bummerl.tui.screens import rules_brief

    rules = Rules.preset(preset)
    text = rules_brief(rules)
    assert f": {sum(POINTS[c] for c in range(24) if rules.sixty_six or c % 6)} in the pack" in text  # 120
    assert ("9 0" in text) == rules.sixty_six and ("counts 10 more" in text) == rules.sixty_six
    assert ("claim them with g" in text) != rules.auto_claim and ("closed (c)" in text) == rules.allow_close
    assert "follow suit" in text and "first to 7 game points" in text
    # A play-test: Sixty-Six's last trick does not win the deal, and its marriages need the talon open.
    six = rules.sixty_six
    assert ("the last trick wins" in text) != six and ("equal points: a draw" in text) == six
    assert ("only while the talon is open" in text) == six
    assert ("the closer must reach 66" in text) == rules.allow_close
    assert ("wrong claim" in text) != rules.auto_claim
