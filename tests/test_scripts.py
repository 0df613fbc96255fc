"""The measuring scripts run end to end on a few deals and write what they say."""

from __future__ import annotations

import json
import math
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bummerl import Deal, Rules, View
from bummerl.bots import make_bot
from bummerl.errors import BummerlError
from helpers.scripts import load


def test_make_bummerl_values_keeps_the_presets_it_did_not_measure(tmp_path: Path) -> None:
    out = tmp_path / "values.json"
    out.write_text(json.dumps({"presets": {"vu": {"bot": "older", "deals": 1}}}), encoding="utf-8")
    load("make_bummerl_values").main(["--bot", "random", "--deals", "4", "--presets", "standard",
                                      "--out", str(out)])
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["presets"]["vu"] == {"bot": "older", "deals": 1}
    standard = data["presets"]["standard"]
    assert standard["bot"] == "random" and standard["deals"] == 4
    assert abs(sum(standard["forehand_outcomes"].values()) - 1.0) < 1e-9


def test_fit_inference_prints_the_rates_and_a_tilt_per_context(capsys: pytest.CaptureFixture[str]) -> None:
    script = load("fit_inference")
    script.main(["--deals", "2", "--samples", "4", "--seed", "7"])
    out = capsys.readouterr().out
    assert out.startswith("exchanged at ")
    assert "talon open, earlier" in out and "tilt" in out


def test_the_fit_finds_a_tilt_that_was_planted() -> None:
    script = load("fit_inference")
    # Sampled worlds value 1 or -1 equally; the true deal is -1 three times in four: tilt log(1/3)/2.
    records = [("x", -1 if i % 4 else 1, [1, -1], [1.0, 1.0]) for i in range(400)]
    tilt, low, high = script.fit(records)
    assert low <= -0.54 <= high and abs(tilt + 0.55) <= 0.04


def test_measure_pimc_bias_branches_the_decisions_where_closing_is_legal(
        capsys: pytest.CaptureFixture[str]) -> None:
    script = load("measure_pimc_bias")
    records = script.play((70001, 1))
    assert records and all("play" in r and len(r) >= 2 for r in records)
    for r in records:
        for est, fused, real in r.values():
            assert -3 <= est <= 3 and -3 <= fused <= 3 and -3 <= real <= 3
    script.main(["--deals", "1", "--playouts", "1", "--seed", "70001"])
    assert "against playing on: PIMC" in capsys.readouterr().out


def test_measure_pimc_bias_scores_each_pick_with_an_estimate_that_did_not_pick_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    script = load("measure_pimc_bias")

    class Marked(script.PimcBot):  # type: ignore[name-defined,misc]
        """Values every action +1 for the playing bots and -1 for the scoring estimate."""

        def evaluate(self, view: View) -> dict[Any, float]:
            scoring = self.seed >= script.SCORE_SEED
            return dict.fromkeys(view.legal_actions, -1.0 if scoring else 1.0)

    monkeypatch.setattr(script, "PimcBot", Marked)
    records = script.play((70001, 1))
    assert records and all(r["play"][0] == -1.0 for r in records)
    assert all(r[k][0] == -1.0 for r in records for k in script.KINDS if k in r)


def test_compare_bots_plays_both_versions_on_common_seeds(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    script = load("compare_bots")
    tiny = "expert:samples=3,early_samples=2,lookahead=0"
    cache = tmp_path / "cache.json"
    common = ["--opponent", "pimc:samples=3,early_samples=2", "--pairs", "3", "--workers", "1",
              "--seed", "5", "--cache", str(cache)]
    script.main([tiny, tiny, *common])  # the same version twice: every deal alike
    out = capsys.readouterr().out
    assert "variant - base: +0.000" in out and "0/6 deals played differently" in out
    script.main([tiny, "random", *common])  # the base comes from the cache, the variant is new
    captured = capsys.readouterr()
    assert "3 deck pairs to play" in captured.err and tiny not in captured.err
    assert "0/6 deals played differently" not in captured.out
    kept = json.loads(cache.read_text(encoding="utf-8"))
    assert len(kept) == 3 and len(kept["fingerprints"]) == 2
    # Another version under the same spec (its fingerprint differs): its deals are played again.
    key = next(k for k in kept["fingerprints"] if k.startswith("random|"))
    kept["fingerprints"][key] = "0" * 16
    cache.write_text(json.dumps(kept), encoding="utf-8")
    script.main([tiny, "random", *common])
    again = capsys.readouterr().err
    assert "random: the cached deals were played by another version" in again
    assert "random: 3 deck pairs to play" in again
    assert tiny + ": 3 deck pairs" not in again
    # The same spec against an opponent that changed under its spec: played again as well.
    kept = json.loads(cache.read_text(encoding="utf-8"))
    mine, _ = kept["fingerprints"][key].split("/")
    kept["fingerprints"][key] = mine + "/" + "0" * 16
    cache.write_text(json.dumps(kept), encoding="utf-8")
    script.main([tiny, "random", *common])
    assert "random: 3 deck pairs to play" in capsys.readouterr().err


def test_a_fingerprint_tells_versions_apart_and_asks_a_cheater_as_the_arena_does() -> None:
    from bummerl.bots.cheater import PhaseCheaterBot
    from bummerl.bots.heuristic import HeuristicBot
    from bummerl.rules import Rules

    jobs = load("selfplay_jobs")
    rules = Rules.preset("standard")
    heuristic = jobs.fingerprint(HeuristicBot, rules)
    assert heuristic == jobs.fingerprint(HeuristicBot, rules)
    cheat = jobs.fingerprint(lambda seed: PhaseCheaterBot(seed, base="heuristic", phase="follow"), rules)
    assert cheat not in (heuristic, jobs.fingerprint(lambda seed: PhaseCheaterBot(seed, base="heuristic",
                                                                                  phase="all"), rules))


def test_a_deciding_match_in_chunks_equals_the_arena_run(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from bummerl.arena.runner import ArenaConfig, run_arena
    from bummerl.rules import Rules

    script = load("deciding_match")
    folder = tmp_path / "match"
    script.main(["plan", str(folder), "--bots", "medium", "easy", "--bummerls", "8", "--seed", "9"])
    script.main(["run", str(folder), "--workers", "1"])
    whole = capsys.readouterr().out
    arena = run_arena(ArenaConfig(("medium", "easy"), Rules.preset("standard"), seed=9, bummerls=8))
    won = arena.pairings[0].lines[0].bummerls_won
    assert f"medium       Bummerls {won:5d}" in whole and "decision: medium wins" in whole
    chunks = sorted(folder.glob("chunk_*.json"))
    chunks[1].unlink()  # a chunk cut short: the report says interim, the next run plays it again
    script.main(["report", str(folder)])
    interim = capsys.readouterr().out
    assert "INTERIM, 1 of 4 chunks in play order (2 later ones done): not the decision" in interim
    script.main(["run", str(folder), "--workers", "1"])
    assert f"medium       Bummerls {won:5d}" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="planned once"):
        script.main(["plan", str(folder), "--bots", "medium", "easy", "--seed", "9"])


def test_edge_to_bummerls_equals_the_binomial_race_and_rises_with_the_edge() -> None:
    script = load("edge_to_bummerls")
    from math import comb

    # Only +-1 results, won with p: the game to 7 is won with at least 7 of 13 deals.
    p = 0.55
    probs = (0.0, 0.0, 1 - p, 0.0, p, 0.0, 0.0)
    race = sum(comb(13, k) * p**k * (1 - p) ** (13 - k) for k in range(7, 14))
    assert abs(script.bummerl_share(probs) - race) < 1e-12
    from bummerl.match_equity import deal_odds

    odds = deal_odds("standard").probs
    shares = [script.bummerl_share(script.tilted(odds, e)) for e in (0.0, 0.05, 0.1, 0.2)]
    assert abs(shares[0] - 0.5) < 1e-9 and shares == sorted(shares) and shares[-1] > 0.55
    assert abs(script.bummerl_share(script.tilted(odds, script.edge_for(odds, 0.58))) - 0.58) < 1e-6


def test_peek_information_scores_known_cards_in_the_belief_checks_units(
        capsys: pytest.CaptureFixture[str]) -> None:
    script = load("peek_information")
    h = 5 / 14
    entropy = -(h * math.log(h) + (1 - h) * math.log(1 - h))
    assert abs(script.per_card_loss(14, 5, 0) - entropy) < 1e-12  # nothing told: the binary entropy
    assert abs(script.per_card_loss(14, 5, 5) - script.loss(1.0, True)) < 1e-12  # all told: only the clip
    losses = [script.per_card_loss(14, 5, k) for k in range(6)]
    assert losses == sorted(losses, reverse=True)
    script.main(["--deals", "2", "--bot", "random", "--cards", "0", "1"])
    out = capsys.readouterr().out
    assert "0 cards told" in out and "1 cards told" in out


def test_last_lead_regret_values_every_card_lead_against_the_real_and_the_omniscient_answer() -> None:
    script = load("last_lead_regret")
    rng = Random(3)
    checked = 0
    while checked < 5:
        deal = Deal.random(Rules.preset("standard"), rng.randrange(10**6))
        while deal.outcome is None and not (deal.talon_open and deal.talon_size == 2
                                            and deal.lead_card is None):
            deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind in ("play", "exchange")]))
        if deal.outcome is not None:
            continue
        view = View.of(deal, deal.to_move)
        values = script.last_lead(view, make_bot("random", 1))
        assert set(values) == {a for a in view.legal_actions if a.kind == "play"}
        # No answer is better for the opponent than its open-card best, and the rest is solved exactly.
        assert all(real >= omniscient - 1e-9 for real, omniscient in values.values())
        checked += 1


def test_compare_bots_makes_registered_bots_with_their_options_as_the_arena_does() -> None:
    # The README's candidates (expert-think:think=0.5, ...) were refused: "takes no options here".
    script = load("compare_bots")
    assert script.make("expert-think:think=0.5", 1).think == 0.5
    assert script.make("bummerl.bots.expert.ExpertBot:close_bias=0.35", 1).close_bias == 0.35
    with pytest.raises(BummerlError, match="has no option 'speed'"):
        script.make("expert-think:speed=1", 1)
    with pytest.raises(BummerlError, match=r"cannot make the bot 'bummerl\.bots\.expert\.ExpertBot:speed=1'"):
        script.make("bummerl.bots.expert.ExpertBot:speed=1", 1)
