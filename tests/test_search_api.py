"""The solver's public functions: values in range, lines that replay through the engine, clear errors."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bummerl.search
from bummerl import Deal, Rules, Setup
from bummerl.actions import CLAIM
from bummerl.rules import PRESETS
from bummerl.search import BACKEND, Solution, principal_variation, solve, solve_actions, solve_full
from bummerl.search.reference import outcome_value


def played(preset: str, seed: int, steps: int) -> Deal:
    """A deal after ``steps`` random actions (never a claim), or earlier if it ends."""
    rng = random.Random(seed)
    deal = Deal.random(Rules.preset(preset), seed, dealer=seed % 2)
    for _ in range(steps):
        actions = [a for a in deal.legal_actions() if a is not CLAIM]
        if deal.outcome is not None or not actions:
            break
        deal.apply(rng.choice(actions))
    return deal


positions = st.builds(
    played,
    st.sampled_from(sorted(PRESETS)),
    st.integers(0, 10**6),
    st.integers(6, 24),
).filter(lambda d: d.outcome is None)


@settings(max_examples=40, deadline=None)
@given(positions)
def test_the_value_is_game_points_and_the_best_action_is_worth_it(deal: Deal) -> None:
    value = solve(deal)
    assert -3 <= value <= 3
    if not deal.rules.sixty_six:
        assert value != 0  # Schnapsen has no draws
    values = solve_actions(deal)
    assert list(values) == list(deal.legal_actions())
    assert max(values.values()) == value


@settings(max_examples=25, deadline=None)
@given(positions)
def test_the_principal_variation_replays_through_the_engine_to_the_value(deal: Deal) -> None:
    before = (list(deal.history), deal.hands[:], deal.points)
    value, mover = solve(deal), deal.to_move
    line = principal_variation(deal)
    assert (list(deal.history), deal.hands[:], deal.points) == before  # the deal itself is untouched
    for action in line:
        assert deal.is_legal(action)
        deal.apply(action)
    assert deal.outcome is not None
    assert outcome_value(deal.outcome, mover) == value


def test_a_whole_deal_has_a_full_solution() -> None:
    deal = Deal.random(Rules.preset("standard"), 4)
    sol = solve_full(deal)
    assert isinstance(sol, Solution)
    assert sol.value == solve(deal) == max(sol.actions.values())
    assert sol.actions == solve_actions(deal)
    assert sol.pv and sol.actions[sol.pv[0]] == sol.value
    assert sol.nodes > 0
    assert sol.backend == BACKEND in ("compiled", "python")


def test_a_correct_claim_is_taken_at_once() -> None:
    deal = Deal.from_setup(Setup.parse("standard SAT/SKQ - S 0 70/22 4/4"))
    assert solve(deal) == solve_actions(deal)[CLAIM] == 2  # the opponent has under 33
    assert principal_variation(deal) == [CLAIM]


def test_a_finished_deal_has_nothing_to_solve() -> None:
    deal = Deal.random(Rules.preset("standard"), 1)
    deal.apply(deal.legal_actions()[0])
    deal.apply(deal.legal_actions()[0])
    deal.apply("claim")
    for fn in (solve, solve_actions, principal_variation, solve_full):
        with pytest.raises(ValueError, match="the deal is over"):
            fn(deal)


def test_pure_python_can_be_forced_with_an_environment_variable() -> None:
    env = {**os.environ, "BUMMERL_PURE_PYTHON": "1"}
    code = "import bummerl.search as s; print(s.BACKEND)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "python"


def test_the_package_exports_the_solver() -> None:
    for name in ("solve", "solve_actions", "principal_variation", "solve_full", "Solution"):
        assert hasattr(bummerl.search, name)
