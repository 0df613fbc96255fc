"""Help while learning: the ? analysis and the end-of-game review, with a stand-in solver (fast, known)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.pilot import Pilot

from bummerl.actions import Action
from bummerl.analysis import rate, review
from bummerl.engine import Deal
from bummerl.rules import Rules
from bummerl.table import Seat, Table
from bummerl.tui.app import BummerlApp
from bummerl.tui.screens import AnalysisScreen
from helpers.tui import SCRIPTED_DECK, Script, press, session, settle, shown


def claims_win(deal: Deal) -> dict[Action, int]:
    """A stand-in open-card solver: claiming is worth 2, closing 1, anything else -1."""
    worth = {"claim": 2, "close": 1}
    return {a: worth.get(a.kind, -1) for a in deal.legal_actions()}


def scripted() -> Table:
    from helpers.dealkit import deck_of as deck

    return Table(Rules.preset("standard"), (Seat("You"), Seat("Computer", Script(["play JC", "play AC"]))),
                 seed=1, first_dealer=1, decks=[deck(SCRIPTED_DECK)])


def test_rate_lists_every_legal_action_best_first() -> None:
    table = scripted()
    stats, note = rate(table.view(0), samples=4, solver=claims_win)
    assert str(stats[0].action) == "close" and stats[0].mean == 1.0
    assert {str(s.action) for s in stats} == {str(a) for a in table.view(0).legal_actions}
    assert note.startswith("sampled 4 of")


def test_review_finds_the_choices_that_lost_game_points() -> None:
    table = scripted()
    table.act(0, "play AS")  # closing was worth 1, this -1: a loss of 2
    table.run_bots()
    table.act(0, "close")  # a claim was worth 2, closing 1: a loss of 1
    seen: list[tuple[int, int]] = []
    mistakes = review(table.decisions(0), samples=2, progress=lambda d, t: seen.append((d, t)),
                      solver=claims_win)
    assert [(str(m.chosen.action), str(m.best.action), m.loss) for m in mistakes] == [
        ("play AS", "close", 2.0), ("close", "claim", 1.0)]
    assert [(m.deal_number, m.trick_number) for m in mistakes] == [(1, 1), (1, 2)]
    assert seen == [(1, 2), (2, 2)]


def test_question_mark_shows_each_action_with_its_value(tmp_path: Path) -> None:
    app = BummerlApp(session(tmp_path), delay=0, analysis_samples=3, solver=claims_win)

    async def main() -> None:
        async with app.run_test(size=(110, 32)) as pilot:
            await settle(pilot, app)
            await pilot.press("question_mark")
            screen = app.screen
            assert isinstance(screen, AnalysisScreen)
            await _until(pilot, lambda: screen.done)
            text = shown(app)
            assert "Mean game points for you (sampled 3 of" in text
            assert "close" in text and "+1.00" in text and "exchange" in text and "-1.00" in text
            assert "play A♠" in text
            await press(pilot, app, "escape")
            assert not isinstance(app.screen, AnalysisScreen)
            assert app.session.table.deal.history == []  # looking changes nothing

    asyncio.run(main())


def test_question_mark_shows_each_actions_chance_to_win_the_bummerl(tmp_path: Path) -> None:
    from bummerl.match_equity import outcome_values

    app = BummerlApp(session(tmp_path), delay=0, analysis_samples=3, solver=claims_win)

    async def main() -> None:
        async with app.run_test(size=(110, 34)) as pilot:
            await settle(pilot, app)
            view = app.session.view()
            assert view.score == (7, 7)
            await pilot.press("question_mark")
            screen = app.screen
            assert isinstance(screen, AnalysisScreen)
            await _until(pilot, lambda: screen.done)
            text = shown(app)
            assert "your chance to win the Bummerl from here" in text
            worth = outcome_values(view.rules, view.score, view.seat, view.dealer)
            assert f"{100 * worth[3 + 1]:.1f}%" in text  # closing wins 1 game point in every world
            assert f"{100 * worth[3 - 1]:.1f}%" in text  # anything else loses 1

    asyncio.run(main())


def test_the_end_of_game_review_lists_the_costliest_choices(tmp_path: Path) -> None:
    from bummerl.session import PlaySession
    from bummerl.table import FirstLegal
    from bummerl.tui.screens import GameOverScreen

    s = PlaySession.new(Rules.preset("standard"), seed=3, first_dealer=1, home=tmp_path, bot=FirstLegal())
    app = BummerlApp(s, delay=0, review_samples=1, solver=claims_win, confirm=False)

    async def main() -> None:
        async with app.run_test(size=(96, 24)) as pilot:
            await settle(pilot, app)
            while not isinstance(app.screen, GameOverScreen):
                if s.table.phase != "playing":
                    await press(pilot, app, "enter", look=False)
                    continue
                legal = s.view().legal_actions
                key = "g" if Action.parse("claim") in legal else "1"  # claim when allowed, else card 1
                await press(pilot, app, key, look=False)
            screen = app.screen
            await _until(pilot, lambda: screen.done)
            text = shown(app)
            assert "Where you lost game points" in text
            assert "you chose" in text and "better" in text and "lost" in text
            assert "close" in text  # closing was "better" whenever you led with the talon open

    asyncio.run(main())


async def _until(pilot: Pilot[None], done: object) -> None:
    for _ in range(2000):
        if done():  # type: ignore[operator]
            return
        await pilot.pause(0.01)
    raise AssertionError("the analysis never finished")


def test_rules_that_hide_the_running_points_get_no_rated_claim() -> None:
    # Under sharp a claim row said whether you hold 66 (rules.md 6: interfaces must not show the points).
    from random import Random

    from bummerl.actions import CLAIM
    from bummerl.view import View

    for preset in ("sharp", "standard"):
        rng = Random(3)
        view = None
        while view is None:
            deal = Deal.random(Rules.preset(preset), rng.randrange(10**6))
            while not deal.is_over and CLAIM not in deal.legal_actions():
                deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind != "claim"]))
            if not deal.is_over:
                view = View.of(deal, deal.to_move)
        stats, note = rate(view, samples=4, solver=claims_win)
        rated = {s.action for s in stats}
        assert (CLAIM in rated) == (preset == "standard"), preset
        assert ("a claim is not rated under these rules" in note) == (preset == "sharp")
        assert rated | {CLAIM} == set(view.legal_actions) | {CLAIM}
