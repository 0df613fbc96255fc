"""The heuristic bot: legal, reads only its view, claims exactly at 66, plays the seed strategy's basics."""

from __future__ import annotations

from random import Random

from bummerl.actions import CLAIM, CLOSE, EXCHANGE, Action
from bummerl.bots.heuristic import HeuristicBot, follower_wins
from bummerl.cards import Card, Suit, mask_of, parse_cards
from bummerl.engine import Deal
from bummerl.rules import PRESETS, Rules
from bummerl.setup import Setup
from bummerl.view import View
from helpers.bot_checks import all_preset_positions, random_positions, same_choice_on_twins

STANDARD = Rules.preset("standard")


def hand(text: str) -> int:
    return mask_of(parse_cards(text))


def test_always_returns_a_legal_action_in_random_positions_of_every_preset() -> None:
    bot = HeuristicBot(seed=1)
    for _name, deal in all_preset_positions(40, seed=11):
        view = View.of(deal, deal.to_move)
        assert bot.choose(view) in view.legal_actions


def test_an_easy_heuristic_with_blunders_stays_legal() -> None:
    bot = HeuristicBot(seed=2, blunder=0.5)
    for _name, deal in all_preset_positions(15, seed=12):
        view = View.of(deal, deal.to_move)
        assert bot.choose(view) in view.legal_actions


def test_hidden_cards_do_not_change_its_choice() -> None:
    positions = [*random_positions(STANDARD, 60, seed=3), *random_positions(PRESETS["sixty-six"], 30, 4)]
    assert same_choice_on_twins(lambda seed: HeuristicBot(seed), positions, seed=5) >= 40


def test_claims_exactly_when_it_has_66_and_never_falsely() -> None:
    claims = 0
    for name in ("standard", "soft", "sharp"):
        rng = Random(7)
        for _ in range(60):
            deal = Deal.random(PRESETS[name], rng, dealer=rng.randrange(2))
            bots = [HeuristicBot(1), HeuristicBot(2)]
            while not deal.is_over:
                p = deal.to_move
                view = View.of(deal, p)
                action = bots[p].choose(view)
                if CLAIM in view.legal_actions:
                    assert (action == CLAIM) == (view.points[p] >= 66)
                deal.apply(action)
            assert deal.outcome is not None and deal.outcome.reason != "false_claim"
            claims += deal.outcome.reason == "claim"
    assert claims > 100


def test_exchanges_the_trump_jack_before_leading() -> None:
    deal = Deal.from_deck(STANDARD, "JH QS KS AC TC AH TH QH KC QD JS JC KH JD TD AD TS AS QC KD")
    assert HeuristicBot().choose(View.of(deal, 0)) == EXCHANGE


def rest(*groups: str) -> tuple[Card, ...]:
    """The Schnapsen cards not named in ``groups`` (to fill a talon), in pack order."""
    used = hand(" ".join(groups))
    pack = parse_cards("JC QC KC TC AC JD QD KD TD AD JH QH KH TH AH JS QS KS TS AS")
    return tuple(c for c in pack if not used >> c & 1)


def test_declares_a_marriage_once_it_has_a_trick() -> None:
    mine, theirs = "KS QS JC JD AH", "TC QC KD TD AC"
    deal = Deal.from_setup(Setup(
        rules=STANDARD, hands=(hand(mine), hand(theirs)), talon=rest(mine, theirs, "AS JS TH"),
        trump=Suit.H, trump_card=Card.parse("TH"), tricks=(1, 0), points=(13, 0), to_move=0,
    ))
    assert HeuristicBot().choose(View.of(deal, 0)) == Action.parse("marry S")


def test_closes_with_a_sure_66_and_then_cashes_a_master_card() -> None:
    # 30 points, the two top trumps and the ace of clubs: 32 more and at least 7 from the opponent.
    mine, theirs, played = "AH TH AC QD JD", "QC KC JC TD AD", "TC KD AS TS KS JS"
    deal = Deal.from_setup(Setup(
        rules=STANDARD, hands=(hand(mine), hand(theirs)), talon=rest(mine, theirs, played, "KH"),
        trump=Suit.H, trump_card=Card.parse("KH"), tricks=(2, 1), points=(30, 11), to_move=0,
    ))
    bot = HeuristicBot()
    assert bot.choose(View.of(deal, 0)) == CLOSE
    deal.apply(CLOSE)
    assert str(bot.choose(View.of(deal, 0))) in ("play AH", "play TH", "play AC")


def test_does_not_close_without_a_sure_66() -> None:
    mine, theirs, played = "JH QD JC KD QC", "AH TH AC TD AD", "JD KC JS QS"
    deal = Deal.from_setup(Setup(
        rules=STANDARD, hands=(hand(mine), hand(theirs)), talon=rest(mine, theirs, played, "TS"),
        trump=Suit.S, trump_card=Card.parse("TS"), tricks=(1, 1), points=(6, 5), to_move=0,
    ))
    assert HeuristicBot().choose(View.of(deal, 0)) != CLOSE


def test_takes_a_led_ten_with_the_ace_of_its_suit() -> None:
    mine, theirs = "AC JC QD KD JH", "TC KC KS QS AD"
    deal = Deal.from_setup(Setup(
        rules=STANDARD, hands=(hand(mine), hand(theirs)), talon=rest(mine, theirs, "TS"),
        trump=Suit.S, trump_card=Card.parse("TS"), to_move=1, dealer=0,
    ))
    deal.apply("play TC")
    assert HeuristicBot().choose(View.of(deal, 0)) == Action.parse("play AC")


def test_follower_wins_reads_like_the_trick_rule() -> None:
    c = Card.parse
    assert follower_wins(c("KH"), c("TH"), trump=0)
    assert not follower_wins(c("TH"), c("KH"), trump=0)
    assert follower_wins(c("AH"), c("JC"), trump=0)
    assert not follower_wins(c("JH"), c("AS"), trump=0)
