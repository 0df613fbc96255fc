"""Clauses of rules.md that a mutation audit of the engine found no test would defend (session 18: 570
mutants of the rules modules, these few survived every test or were caught only by accident, by a pinned
bot game or a store test). Each test states its clause and plays the smallest deal that tells the rule from
its mutant."""

from __future__ import annotations

import random

import pytest

from bummerl import Deal, Rules
from bummerl.actions import ACTIONS
from bummerl.engine import IllegalActionError
from bummerl.game import Bummerl
from helpers.dealkit import arrange

STANDARD = Rules.preset("standard")


def steps(text: str) -> list[str]:
    """Actions written one after another, separated by semicolons."""
    return [a.strip() for a in text.split(";")]


@pytest.mark.parametrize("suit", "CDHS")
def test_after_a_marriage_only_its_king_or_queen_and_a_claim_are_legal(suit: str) -> None:
    # rules.md 3.1: after `marry S` the only legal actions are `play KS`, `play QS` (or only the king) and
    # `claim`. A mutant accepted `exchange` after a clubs marriage (is_legal disagreed with legal_actions).
    rng = random.Random(suit)
    checked = 0
    for _ in range(3000):
        deal = Deal.random(Rules.preset(rng.choice(["soft", "standard", "sixty-six"])), rng)
        while deal.outcome is None and f"marry {suit}" not in map(str, deal.legal_actions()):
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.outcome is not None:
            continue
        deal.apply(f"marry {suit}")
        legal = set(deal.legal_actions())
        assert {str(a) for a in legal} <= {f"play K{suit}", f"play Q{suit}", "claim"}
        for action in ACTIONS:
            assert deal.is_legal(action) == (action in legal), action
            if action not in legal:
                with pytest.raises(IllegalActionError):
                    deal.copy().apply(action)
        checked += 1
        if checked == 4:
            return
    pytest.fail(f"no marriage in {suit} came up")


def test_no_exchange_after_a_marriage_even_holding_the_trump_jack() -> None:
    # The mutant's own case (rules.md 3.1): clubs marriage (suit 0) and the trump jack in hand, soft rules.
    deal = Deal.from_deck(Rules.preset("soft"), "KC QC JH JC QD JD AH AS TS TD KD TC AC AD QH KH TH JS QS KS",
                          dealer=1)
    assert deal.is_legal("exchange")
    deal.apply("marry C")
    assert not deal.is_legal("exchange") and deal.illegal_reason("exchange") == "marriage_declared"
    with pytest.raises(IllegalActionError):
        deal.apply("exchange")


def test_the_follower_never_has_the_claim_right_in_the_middle_of_a_trick() -> None:
    # rules.md 3.1: a claim is the first action of the turn of the player who won the previous trick. A
    # mutant kept the leader's right after its lead, and the position (Setup, notation) said the follower
    # might claim.
    rng = random.Random(31)
    for _ in range(300):
        deal = Deal.random(Rules.preset(rng.choice(["standard", "vu", "sixty-six", "tompa"])), rng)
        while deal.outcome is None:
            deal.apply(rng.choice(deal.legal_actions()))
            if deal.outcome is None and deal.lead >= 0:  # a card led: the follower is to move
                assert deal.claim_ok is False and not deal.setup().may_claim


def test_sixty_six_played_out_with_no_trick_for_the_loser_scores_three() -> None:
    # rules.md 4.4: in Sixty-Six the player with more points wins by the table of 4.2, 3 game points if the
    # loser won no trick (a mutant read the winner's tricks). Reachable without automatic claims.
    rules = Rules.preset("sixty-six").replace(auto_claim="no")
    deal = Deal.from_deck(rules, "KC AS QC JD 9D QH 9C 9S KH AC QS JS 9H TH AD JC QD JH KD KS TS TC TD AH",
                          dealer=1)
    for action in steps("play AS; play JD; play 9S; play AD; play KH; play QH; play JH; play JS; play JC; "
                        "play TS; play TH; play QS; play TC; play 9C; play AC; play 9D; play QC; play QD; "
                        "play KS; play TD; play AH; play 9H; play KC; play KD; pass"):
        deal.apply(action)
    assert deal.points == (130, 0) and deal.tricks == (12, 0)
    assert deal.outcome is not None
    assert (deal.outcome.winner, deal.outcome.game_points, deal.outcome.reason) == (0, 3, "more_points")


def test_without_automatic_claims_a_marriage_to_66_waits_for_the_claim() -> None:
    # rules.md 4.2/4.3: only under auto_claim does reaching 66 end the deal by itself; otherwise the player
    # must claim (a mutant ended it at the marriage, scoring 3).
    deal = arrange(STANDARD, "AC TC KH QH JD", "JC QC KC TD KD", "AH")
    for action in ("play AC", "play QC", "play TC", "play KC", "marry H"):
        deal.apply(action)
    assert deal.points[0] >= 66 and deal.outcome is None
    assert sorted(str(a) for a in deal.legal_actions()) == ["claim", "play KH", "play QH"]


def test_a_failed_sixty_six_close_counts_the_tricks_not_the_points_at_closing() -> None:
    # rules.md 4.4: 3 game points if the other player had won no trick when the talon was closed, else 2.
    # In Sixty-Six a trick of two nines is a trick worth 0 points (a mutant read the points, 0, and gave 3).
    deal = Deal.from_deck(Rules.preset("sixty-six"),
                          "9C 9S JC 9H AS KC JD QC JS QS TC KS TS AC 9D QD KD TD AD JH QH KH TH AH", dealer=1)
    for action in steps("play 9C; play 9H; play 9S; play AS; close; play QD; play KD; play JC; play TC; "
                        "play TS; play QS; play 9D; play AC; play KS; play JS; play KC; play QC"):
        deal.apply(action)
    assert deal.outcome is not None
    assert (deal.outcome.winner, deal.outcome.game_points, deal.outcome.reason) == (0, 2, "closer_failed")


def test_either_player_may_win_the_bummerl_and_it_ends_at_once() -> None:
    # rules.md 5: the first player to count down to 0 wins the Bummerl (a mutant looked at player 0 only).
    wins = set()
    for seed in range(40):
        game, rng = Bummerl(STANDARD, seed=seed, first_dealer=0), random.Random(seed)
        while not game.is_over:
            if game.deal.outcome is not None:
                game.next_deal()
            game.apply(rng.choice(game.deal.legal_actions()))
        winner = game.winner
        assert winner is not None and game.score[winner] <= 0 < game.score[1 - winner]
        assert game.deal.outcome is not None  # it ended with the deal that took the winner to 0
        wins.add(winner)
    assert wins == {0, 1}
