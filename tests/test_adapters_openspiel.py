"""bummerl.adapters.openspiel: python_schnapsen passes OpenSpiel's random simulation test, observes through
the encoding, resamples worlds the player cannot tell apart, and ISMCTS plays it."""

from __future__ import annotations

from random import Random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is in the rl extra: pip install 'bummerl[rl]'")

import numpy as np  # noqa: E402

from bummerl import Rules, RulesError, View  # noqa: E402
from bummerl.adapters.encoding import HISTORY_SIZE, OBSERVATION_SIZE, action_index, encode  # noqa: E402
from bummerl.adapters.openspiel import GAME_NAME, SchnapsenState, play_deal  # noqa: E402
from bummerl.bots import make_bot  # noqa: E402
from bummerl.cards import cards_in, parse_cards  # noqa: E402
from bummerl.rules import PRESETS  # noqa: E402


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_passes_openspiels_random_simulation_test(preset: str) -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(rules={preset})")
    assert game.rules == PRESETS[preset]
    pyspiel.random_sim_test(game, num_sims=8, serialize=True, verbose=False)


def test_the_default_preset_is_standard_and_the_game_type_is_imperfect_information() -> None:
    game = pyspiel.load_game(GAME_NAME)
    assert game.rules == Rules.preset("standard")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == 32 and game.max_chance_outcomes() == 24
    assert game.observation_tensor_size() == OBSERVATION_SIZE
    assert game.information_state_tensor_size() == OBSERVATION_SIZE + HISTORY_SIZE
    with pytest.raises(RulesError, match="unknown rules preset 'nope'"):
        pyspiel.load_game(f"{GAME_NAME}(rules=nope)")


def dealt(preset: str, seed: int, steps: int) -> SchnapsenState:
    """A state after the shuffle and ``steps`` random actions (fewer if the deal ends)."""
    rng = Random(seed)
    state = pyspiel.load_game(f"{GAME_NAME}(rules={preset})").new_initial_state()
    while not state.is_terminal() and (state.is_chance_node() or steps > 0):
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(weights) - 1.0) < 1e-9
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            steps -= 1
    return state


def test_the_shuffle_is_a_chance_node_per_card_after_one_for_the_dealer() -> None:
    state = pyspiel.load_game(f"{GAME_NAME}(rules=sixty-six)").new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == [0, 1]
    state.apply_action(1)
    cards = []
    for _ in range(24):
        outcomes = [a for a, _ in state.chance_outcomes()]
        assert len(outcomes) == 24 - len(cards) and not set(outcomes) & set(cards)
        cards.append(outcomes[-1])
        state.apply_action(outcomes[-1])
    assert state.deal is not None and state.deal.dealer == 1
    assert [int(c) for c in state.deal.deck] == cards and state.current_player() == 0


def test_the_tensors_are_the_encoding_of_each_seats_view() -> None:
    for seed in range(10):
        state = dealt("standard", seed, steps=seed)
        for player in (0, 1):
            view = state.view(player)
            assert view is not None
            obs = np.asarray(state.observation_tensor(player), dtype=np.float32)
            info = np.asarray(state.information_state_tensor(player), dtype=np.float32)
            assert (obs == encode(view)).all() and (info[:OBSERVATION_SIZE] == obs).all()
            assert info[OBSERVATION_SIZE:].any() == bool(state.deal and state.deal.trick_log)
        if not state.is_terminal():
            assert state.legal_actions() == sorted(a.code for a in state.deal.legal_actions())


def test_a_resampled_world_has_the_players_information_state_and_other_hidden_cards() -> None:
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = compared = 0
    for seed in range(30):
        preset = list(PRESETS)[seed % len(PRESETS)]
        state = dealt(preset, seed, steps=Random(seed).randrange(1, 14))
        if state.is_terminal():
            continue
        player = state.current_player()
        hidden = len(list(cards_in(View.of(state.deal, player).unseen_mask)))
        for _ in range(5):
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.history()[:1] == state.history()[:1]  # the dealer
            if hidden >= 4:
                compared += 1
                changed += world.deal.deck != state.deal.deck
    assert compared >= 50 and changed >= 0.9 * compared, (changed, compared)


def test_the_information_state_remembers_when_a_card_was_drawn() -> None:
    state = pyspiel.load_game(GAME_NAME).new_initial_state()
    state.apply_action(1)  # dealer
    for card in parse_cards("QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD"):
        state.apply_action(int(card))
    for action in ("play AS", "play QS"):
        state.apply_action(action_index(action))
    text = state.information_state_string(0)
    assert text == state.observation_string(0) + " | t0: drew AD"
    assert state.information_state_string(1) == state.observation_string(1) + " | t0: drew JC"


def test_ismcts_from_openspiel_plays_the_bummerl_random_bot() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(f"{GAME_NAME}(rules=standard)")
    results = []
    for deal in range(4):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(deal))
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=30,
                               random_state=np.random.RandomState(deal))
        seat = deal % 2
        players = (bot, make_bot("random", deal)) if seat == 0 else (make_bot("random", deal), bot)
        end = play_deal(game, players, seed=deal)
        assert end.is_terminal() and sum(end.returns()) == 0
        results.append(end.returns()[seat])
    assert all(r != 0 for r in results)  # Schnapsen has no draws
