"""The learned opponent model: card probabilities over the legal cards, the opponent's hands at its earlier
plays, the world weight, the checked JSON file, and the ModelExpert that uses them."""

from __future__ import annotations

import json
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl.bots.expert import ExpertBot
from bummerl.bots.opponent_model import (
    FEATURES,
    FORMAT,
    ModelExpert,
    OpponentModel,
    OpponentModelError,
    default_model,
    hands_then,
    legal_cards,
    load_model,
    model_weight,
    opponent_plays,
)
from bummerl.bots.random_bot import RandomBot
from bummerl.cards import Card, parse_cards
from bummerl.engine import Deal
from bummerl.errors import BummerlError
from bummerl.rules import Rules
from bummerl.view import View

STANDARD = Rules.preset("standard")
PRESETS = ("standard", "sixty-six", "sharp", "vu", "soft")


def random_deal(preset: str, seed: int, steps: int) -> tuple[Deal, dict[tuple[int, int], int]]:
    """A deal played ``steps`` actions by random bots, and each player's true hand at each of its plays
    (by trick number)."""
    deal = Deal.random(Rules.preset(preset), seed)
    bots = (RandomBot(seed), RandomBot(seed + 1))
    hands: dict[tuple[int, int], int] = {}
    for _ in range(steps):
        if deal.outcome is not None:
            break
        action = bots[deal.to_move].choose(View.of(deal, deal.to_move))
        if action.kind == "play":
            hands[(deal.to_move, len(deal.trick_log))] = deal.hands[deal.to_move]
        deal.apply(action)
    return deal, hands


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(0, 10_000), st.integers(0, 30), st.integers(0, 1))
def test_probabilities_sum_to_one_over_the_legal_cards(preset: str, seed: int, steps: int, me: int) -> None:
    deal, truth = random_deal(preset, seed, steps)
    ops = opponent_plays(View.of(deal, me))
    model = default_model()
    for play in ops.plays:
        hand = truth[(1 - me, play.trick)]
        probs = model.probabilities(ops, play, hand)
        assert set(probs) == {c for c in range(24) if legal_cards(ops, play, hand) >> c & 1}
        assert sum(probs.values()) == pytest.approx(1.0)
        assert all(0 < p <= 1 for p in probs.values())
        if not play.marriage:
            assert model.likelihood(ops, play, hand) > 0  # what it did was legal


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(0, 10_000), st.integers(0, 30), st.integers(0, 1),
       st.integers(0, 99))
def test_the_hands_then_are_consistent_with_the_truth(preset: str, seed: int, steps: int, me: int,
                                                      draw_seed: int) -> None:
    """From the opponent's true hand now, every sampled draw order gives hands of the true sizes that
    held each card played, and the engine allows each play from it."""
    deal, truth = random_deal(preset, seed, steps)
    ops = opponent_plays(View.of(deal, me))
    hands = hands_then(ops, deal.hands[1 - me], Random(draw_seed))
    assert hands is not None
    for play, hand in zip(ops.plays, hands, strict=True):
        assert hand >> play.card & 1
        assert hand.bit_count() == truth[(1 - me, play.trick)].bit_count()
        if not play.marriage:
            assert legal_cards(ops, play, hand) >> play.card & 1


def test_the_true_draw_order_is_among_those_sampled() -> None:
    deal, truth = random_deal("standard", 12, 9)
    ops = opponent_plays(View.of(deal, 0))
    assert -2 in ops.draws  # a hidden draw to guess
    true = [truth[(1, p.trick)] for p in ops.plays]
    samples = [hands_then(ops, deal.hands[1], Random(s)) for s in range(3000)]
    assert true in samples
    assert any(s != true for s in samples)


def test_known_draws_give_the_true_hands() -> None:
    """After a close no card is drawn: the hands then are certain."""
    deal = Deal.random(STANDARD, 3)
    deal.apply("close")
    truth: dict[int, int] = {}
    bots = (RandomBot(1), RandomBot(2))
    for _ in range(6):
        if deal.outcome is not None:
            break
        if deal.to_move == 1:
            truth[len(deal.trick_log)] = deal.hands[1]
        deal.apply(bots[deal.to_move].choose(View.of(deal, deal.to_move)))
    ops = opponent_plays(View.of(deal, 0))
    assert set(ops.draws) <= {-1}
    assert hands_then(ops, deal.hands[1], Random(0)) == [truth[p.trick] for p in ops.plays]


def _deck(opponent_has: str, stock: str) -> list[Card]:
    """Standard deck: I (forehand) hold TH KC QC JD KD, the opponent ``opponent_has`` (5 cards, JC first),
    the trump card AS, then ``stock``."""
    mine, theirs = parse_cards("TH KC QC JD KD"), parse_cards(opponent_has)
    return [*mine[:3], *theirs[:3], Card.parse("AS"), *mine[3:], *theirs[3:], *parse_cards(stock)]


def test_a_world_where_the_play_is_likely_outweighs_one_where_it_is_not() -> None:
    """I lead the ten of hearts and the opponent throws the jack of clubs. A world where it held the ace
    of hearts (and would have taken 21 points) weighs less than one where it held no card to win with."""
    worlds = []
    for theirs, stock in (("JC QH JH TD AD", "TC AC QD KH AH JS QS KS TS"),
                          ("JC AH JH TD AD", "TC AC QD KH QH JS QS KS TS")):
        deal = Deal.from_deck(STANDARD, _deck(theirs, stock))
        deal.apply("play TH")
        deal.apply("play JC")
        worlds.append(deal)
    view = View.of(worlds[0], 0)
    assert view.hand_mask == View.of(worlds[1], 0).hand_mask and view.to_move == 0
    ops = opponent_plays(view)
    no_ace = sum(1 << c for c in parse_cards("JC QH JH TD AD"))
    ace = sum(1 << c for c in parse_cards("JC AH JH TD AD"))
    model = default_model()
    assert model.likelihood(ops, ops.plays[0], no_ace) > model.likelihood(ops, ops.plays[0], ace)
    weigh = model_weight(view, model, seed=1, orders=200)
    likely, unlikely = weigh(worlds[0]), weigh(worlds[1])
    assert likely > 1.2 * unlikely > 0


def test_nothing_played_weighs_every_world_alike() -> None:
    deal = Deal.random(STANDARD, 2)
    assert model_weight(View.of(deal, 0), default_model(), seed=1)(deal) == 1.0


def _model_json() -> dict[str, object]:
    return OpponentModel(tuple(0.5 for _ in FEATURES), {"note": "test"}).to_json()


def test_the_model_round_trips_through_json() -> None:
    model = load_model(json.dumps(_model_json()))
    assert model.weights == tuple(0.5 for _ in FEATURES) and model.fit == {"note": "test"}


@pytest.mark.parametrize("damage", [
    lambda d: "{" + json.dumps(d)[1:-20],  # cut short
    lambda d: json.dumps({**d, "format": "bummerl opponent model 0"}),
    lambda d: json.dumps({**d, "features": d["features"][:-1]}),  # type: ignore[index]
    lambda d: json.dumps({**d, "features": list(reversed(d["features"]))}),  # type: ignore[call-overload]
    lambda d: json.dumps({**d, "weights": d["weights"][:-1]}),  # type: ignore[index]
    lambda d: json.dumps({**d, "weights": ["1"] * len(FEATURES)}),
    lambda d: json.dumps({**d, "weights": [1e6] * len(FEATURES)}),
    lambda d: json.dumps({**d, "weights": [True] * len(FEATURES)}),
    lambda d: json.dumps(d).replace("0.5", "NaN", 1),
    lambda d: json.dumps([d]),
    lambda d: json.dumps({**d, "fit": []}),
    lambda d: '{"format": 1, "format": 2}',
])
def test_the_loader_refuses_a_damaged_file_in_one_line(damage) -> None:  # type: ignore[no-untyped-def]
    text = damage(_model_json())
    with pytest.raises(BummerlError) as err:
        load_model(text)
    assert "\n" not in str(err.value) and str(err.value)


def test_the_shipped_model_is_fitted() -> None:
    model = default_model()
    assert len(model.weights) == len(FEATURES) and any(model.weights)
    data = json.loads(
        __import__("importlib.resources").resources.files("bummerl").joinpath("data", "opponent_model.json")
        .read_text("utf-8"))
    assert data["format"] == FORMAT
    held = [v for k, v in model.fit.items() if k.startswith("held_out_")]
    assert held and all(h["model"] > h["uniform"] for h in held)  # the fit beats uniform on held-out deals


def _midgame(seed: int = 7, steps: int = 9) -> View:
    deal, _ = random_deal("standard", seed, steps)
    assert deal.outcome is None
    return View.of(deal, deal.to_move)


def test_model_expert_is_the_expert_with_its_worlds_reweighted() -> None:
    view = _midgame()
    assert opponent_plays(view).plays
    expert = ExpertBot(7, samples=20, early_samples=20, lookahead=20, sixty_six_early=None)
    candidate = ModelExpert(7, samples=20, early_samples=20, lookahead=20)
    deals, weights = expert.sample(view)
    mdeals, mweights = candidate.sample(view)
    assert [d.hands for d in mdeals] == [d.hands for d in deals]
    assert mweights != weights and all(m <= w for m, w in zip(mweights, weights, strict=True))
    off = ModelExpert(7, samples=20, early_samples=20, lookahead=20, temper=0)
    odeals, oweights = off.sample(view)
    assert [d.hands for d in odeals] == [d.hands for d in deals] and oweights == weights


def test_the_decision_is_a_function_of_the_seed_and_the_view() -> None:
    view = _midgame(11, 9)
    first = ModelExpert(3, samples=24, early_samples=24, lookahead=24)
    again = ModelExpert(3, samples=24, early_samples=24, lookahead=24)
    assert first.sample(view)[1] == again.sample(view)[1]
    assert first.choose(view) == again.choose(view) == first.choose(view)
    assert first.choose(view) in view.legal_actions


def test_the_damaged_model_file_is_an_opponent_model_error() -> None:
    with pytest.raises(OpponentModelError, match=r"^opponent model: the format"):
        load_model('{"format": "x"}')


def test_the_fit_recovers_planted_weights() -> None:
    """Decisions drawn from a known conditional logit: Newton's maximum likelihood finds its weights."""
    np = pytest.importorskip("numpy")
    from helpers.scripts import load

    script = load("fit_opponent_model")
    rng = np.random.default_rng(5)
    planted = rng.normal(0, 1, len(FEATURES))
    x = rng.normal(0, 1, (3000, 5, len(FEATURES)))
    p = np.exp(x @ planted)
    p /= p.sum(axis=1, keepdims=True)
    chosen = (p.cumsum(axis=1) > rng.random((len(p), 1))).argmax(axis=1)
    rows = np.arange(len(x))
    first = x[rows, 0].copy()
    x[rows, 0] = x[rows, chosen]  # the card played first, as the script keeps it
    x[rows, chosen] = first
    mask = np.ones((3000, 5), dtype=bool)
    fitted = script.fit(x, mask, ridge=0.0)
    assert np.abs(fitted - planted).max() < 0.25


def test_the_fit_script_runs_end_to_end(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("numpy")
    from helpers.scripts import load

    script = load("fit_opponent_model")
    out = tmp_path / "model.json"
    script.main(["--bots", "pimc:2", "--seed", "900", "--games", str(tmp_path / "games.json"),
                 "--belief", "pimc", "--out", str(out)])
    printed = capsys.readouterr().out
    assert "held out, pimc" in printed and "today's inference" in printed
    model = load_model(out.read_text())
    assert model.fit["bots"] == "pimc:2" and "held_out_pimc" in model.fit
