"""rules.md section 4: points (4.1), claims (4.2), automatic claims (4.3) and deals played out (4.4)."""

from __future__ import annotations

from typing import Any

import pytest

from bummerl import Card, Deal, Outcome, Rules
from bummerl.engine import game_point_table
from helpers.dealkit import SIXTY_SIX, SOFT, STANDARD, TOMPA, VU, arrange, legal, position, run

MIRROR = STANDARD.replace(false_claim="mirror")
TOURNAMENT = STANDARD.replace(closing_scoring="tournament")


def result(deal: Deal) -> tuple[int | None, int, str]:
    assert deal.outcome is not None, "the deal should be over"
    return (deal.outcome.winner, deal.outcome.game_points, deal.outcome.reason)


def claim_now(rules: Rules, tricks: tuple[int, int], points0: int, **more: Any) -> Deal:
    """Player 0 (who won the last trick, nobody closed, talon exhausted, spades trumps) claims.

    The hands hold the four jacks, so the 16 played cards are worth 112 points: player 1 has 112 - points0.
    """
    deal = position(rules, ("JC JD", "JH JS"), trump_suit="S", tricks=tricks, points0=points0, **more)
    assert deal.legal_actions()[-1].kind == "claim"
    deal.apply("claim")
    return deal


# --------------------------------------------------------------------------- 4.1 points


def test_points_are_card_points_in_tricks_plus_counted_marriages() -> None:
    deal = arrange(STANDARD, "KS QS AC TC JD", "KC QD JC TD KD", "AH")
    run(deal, "play AC; play JC")
    assert deal.points == (13, 0)
    deal.apply("marry S")
    assert deal.points == (33, 0)  # a plain marriage is worth 20, counted at once: the declarer has a trick


def test_a_marriage_in_trumps_is_worth_40() -> None:
    deal = arrange(STANDARD, "KH QH AC TC JD", "KC QD JC TD KD", "AH")
    run(deal, "play AC; play JC; marry H")
    assert deal.points == (53, 0)
    assert deal.marriages == ((0, 2),)


def test_a_marriage_declared_before_any_trick_counts_once_its_declarer_wins_one() -> None:
    deal = arrange(SOFT, "KS QS AC TC JD", "JH KC QD JC TD", "AH")
    run(deal, "marry S; play QS; play JH")  # the dealer trumps the queen
    assert deal.points == (0, 5) and deal.pending == [20, 0]
    run(deal, "play KC; play AC")  # the first trick the declarer wins, one trick later
    assert deal.points == (15 + 20, 5) and deal.pending == [0, 0]


def test_a_marriage_whose_declarer_never_wins_a_trick_never_counts() -> None:
    deal = position(SOFT, ("JD", "AD"), trump_suit="S", tricks=(0, 9), leader=1, points0=0, pending=(20, 0))
    run(deal, "play AD; play JD")
    assert deal.points == (0, 120) and deal.pending == [20, 0]


def test_next_trick_scoring_waits_for_a_trick_won_after_declaring() -> None:
    deal = position(
        VU, ("KS QS AC TC JD", "JH KC QD JC TD"), talon="QH KH TH AS TS", trump="AH", tricks=(1, 1),
        points0=13,
    )
    deal.apply("marry S")
    assert deal.points == (13, 7) and deal.pending == [20, 0]  # the declarer's earlier trick is not enough
    run(deal, "play KS; play JH")  # the opponent trumps the king
    assert deal.points == (13, 13) and deal.pending == [20, 0]
    run(deal, "play KC; play AC")  # the declarer's next trick
    assert deal.points == (13 + 15 + 20, 13) and deal.pending == [0, 0]


def test_trick_scoring_counts_a_marriage_at_once_when_the_declarer_already_has_a_trick() -> None:
    rules = VU.replace(marriage_scoring="trick")
    deal = position(
        rules, ("KS QS AC TC JD", "JH KC QD JC TD"), talon="QH KH TH AS TS", trump="AH", tricks=(1, 1),
        points0=13,
    )
    deal.apply("marry S")
    assert deal.points == (33, 7)
    run(deal, "play KS; play JH")
    assert deal.points == (33, 13)  # losing the marriage trick does not take it back


# --------------------------------------------------------------------------- 4.2 claims, nobody closed


def test_game_point_table_three_for_no_trick_two_under_33_else_one() -> None:
    table = [game_point_table(0, 0), game_point_table(1, 0), game_point_table(1, 32), game_point_table(1, 33)]
    assert table == [3, 2, 2, 1]


def test_a_correct_claim_scores_3_when_the_opponent_has_no_trick() -> None:
    assert result(claim_now(STANDARD, (8, 0), 112)) == (0, 3, "claim")


def test_a_correct_claim_scores_2_when_the_opponent_has_32_points() -> None:
    deal = claim_now(STANDARD, (7, 1), 80)
    assert deal.points == (80, 32) and result(deal) == (0, 2, "claim")


def test_a_correct_claim_scores_1_when_the_opponent_has_exactly_33_points() -> None:
    deal = claim_now(STANDARD, (7, 1), 79)
    assert deal.points == (79, 33) and result(deal) == (0, 1, "claim")


def test_the_opponents_counted_marriages_count_toward_the_33() -> None:
    deal = claim_now(STANDARD, (7, 1), 99, marriage_points=(0, 20))
    assert deal.points == (99, 33) and result(deal) == (0, 1, "claim")
    deal = claim_now(STANDARD, (7, 1), 100, marriage_points=(0, 20))
    assert deal.points == (100, 32) and result(deal) == (0, 2, "claim")


def test_a_claim_with_exactly_66_is_correct_and_with_65_is_false() -> None:
    assert result(claim_now(STANDARD, (6, 2), 66)) == (0, 1, "claim")
    assert result(claim_now(STANDARD, (6, 2), 65)) == (1, 2, "false_claim")


def test_the_claimers_marriages_count_toward_66() -> None:
    assert result(claim_now(STANDARD, (6, 2), 46, marriage_points=(20, 0))) == (0, 1, "claim")


def test_a_declared_marriage_not_yet_counted_does_not_count_toward_66() -> None:
    rules = STANDARD.replace(marriage_scoring="next_trick")
    assert result(claim_now(rules, (6, 2), 50, pending=(20, 0))) == (1, 2, "false_claim")


# --------------------------------------------------------------------------- 4.2 false claims


@pytest.mark.parametrize(
    ("points0", "fixed", "mirror"),
    [
        (5, 2, 1),  # the opponent has 52 points: fixed 2; mirror what the claim would have won, 1
        (35, 2, 2),  # the opponent has 22 points: 2 either way
    ],
)
def test_a_false_claim_scores_fixed_or_mirror(points0: int, fixed: int, mirror: int) -> None:
    for rules, expected in ((STANDARD, fixed), (MIRROR, mirror)):
        deal = position(rules, ("AC TC AD", "TD AH TH"), trump_suit="S", tricks=(5, 2), points0=points0)
        assert deal.points == (points0, 57 - points0)
        deal.apply("claim")
        assert result(deal) == (1, expected, "false_claim")


def short_claim(rules: Rules) -> Deal:
    """Player 0 has won the first trick (13 points) and claims at once; player 1 has no trick."""
    deal = arrange(rules, "AC JS QS KS TS", "JC QD JD TD KD", "AH")
    run(deal, "play AC; play JC; claim")
    return deal


@pytest.mark.parametrize("rules", [STANDARD, MIRROR], ids=["fixed", "mirror"])
def test_a_false_claim_against_an_opponent_without_a_trick_scores_3(rules: Rules) -> None:
    assert result(short_claim(rules)) == (1, 3, "false_claim")


def test_mirror_gives_the_opponent_what_the_table_would_give_the_claimer() -> None:
    # The opponent has one trick and 52 points: a correct claim would have won 1; so does the false one.
    deal = claim_now(MIRROR, (7, 1), 60)
    assert deal.points == (60, 52)
    assert result(deal) == (1, game_point_table(1, 52), "false_claim") == (1, 1, "false_claim")


# --------------------------------------------------------------------------- 4.2 closing


def closing_position(rules: Rules) -> Deal:
    """Player 0 has 3 tricks (41 points), player 1 none; player 0 is about to close. Spades are trumps.

    Then: close; play KH; play TH (player 1 heads the trick and wins 14); play AC; play QS (player 0 must
    trump and wins 14: 55); play AS; play JH (player 0: 68).
    """
    deal = position(
        rules, ("AS TS KS QS KH", "TH JH QH TC AC"), talon="JC QC KC", trump="JS", tricks=(3, 0), points0=41
    )
    assert deal.points == (41, 0) and deal.talon_size == 4
    return deal


def test_closing_records_the_opponents_tricks_and_points_at_that_moment() -> None:
    deal = closing_position(STANDARD)
    run(deal, "close")
    assert deal.closed_by == 0 and deal.close_snapshot == (0, 0)
    run(deal, "play KH; play TH")
    assert deal.tricks == (3, 1) and deal.points == (41, 14)
    assert deal.close_snapshot == (0, 0)


def test_correct_claim_by_the_closer_scores_the_opponent_as_at_closing_viennese() -> None:
    deal = run(closing_position(STANDARD), "close; play KH; play TH; play AC; play QS; play AS; play JH")
    assert deal.points == (68, 14) and deal.tricks == (5, 1)
    deal.apply("claim")
    assert result(deal) == (0, 3, "claim")  # the opponent had no trick when the talon was closed


def test_correct_claim_by_the_closer_under_tournament_scores_the_opponent_now() -> None:
    deal = run(closing_position(TOURNAMENT), "close; play KH; play TH; play AC; play QS; play AS; play JH")
    deal.apply("claim")
    assert result(deal) == (0, 2, "claim")  # one trick, 14 points now


@pytest.mark.parametrize("rules", [STANDARD, MIRROR, TOURNAMENT], ids=["fixed", "mirror", "tournament"])
def test_a_false_claim_by_the_closer_scores_3_when_the_opponent_had_no_trick_at_closing(rules: Rules) -> None:
    deal = run(closing_position(rules), "close; play KH; play TH; play AC; play QS")
    assert deal.points == (55, 14) and deal.tricks == (4, 1)
    deal.apply("claim")
    assert result(deal) == (1, 3, "false_claim")


@pytest.mark.parametrize("rules", [STANDARD, TOURNAMENT, MIRROR], ids=["standard", "tournament", "mirror"])
def test_a_false_claim_by_the_closer_scores_2_when_the_opponent_had_a_trick_at_closing(rules: Rules) -> None:
    deal = position(
        rules, ("AS TS KS QS KH", "TH JH QH TC AC"), talon="JC QC KC", trump="JS", tricks=(2, 1), points0=27
    )
    run(deal, "close; play KH; play TH; play AC; play QS")
    assert deal.close_snapshot == (1, 14) and deal.points == (41, 28) and deal.tricks == (3, 2)
    deal.apply("claim")
    assert result(deal) == (1, 2, "false_claim")  # 2, not 3: the opponent had a trick when it was closed


@pytest.mark.parametrize(("rules", "points"), [(STANDARD, 2), (MIRROR, 1)], ids=["fixed", "mirror"])
def test_a_false_claim_against_the_closer_counts_as_wrong_otherwise(rules: Rules, points: int) -> None:
    deal = run(closing_position(rules), "close; play KH; play TH")
    deal.apply("claim")  # player 1 has 14 points
    assert result(deal) == (0, points, "false_claim")  # the closer has 3 tricks and 41 points


def closed_by_opponent(rules: Rules, snapshot: tuple[int, int], points0: int = 70) -> Deal:
    """Player 1 closed earlier; player 0 won the last trick and has ``points0`` points."""
    return position(
        rules, ("JD QD", "JH QH"), talon="JC QC KC", trump="TC", closed_by=1, close_snapshot=snapshot,
        tricks=(3, 3), points0=points0,
    )


@pytest.mark.parametrize("rules", [STANDARD, TOURNAMENT, MIRROR], ids=["standard", "tournament", "mirror"])
def test_a_correct_claim_against_the_closer_scores_3_if_the_claimer_had_no_trick_at_closing(
    rules: Rules,
) -> None:
    deal = closed_by_opponent(rules, (0, 0))
    deal.apply("claim")
    assert result(deal) == (0, 3, "claim")


@pytest.mark.parametrize("rules", [STANDARD, TOURNAMENT, MIRROR], ids=["standard", "tournament", "mirror"])
def test_a_correct_claim_against_the_closer_scores_2_if_the_claimer_had_a_trick_at_closing(
    rules: Rules,
) -> None:
    deal = closed_by_opponent(rules, (1, 40))
    deal.apply("claim")
    assert result(deal) == (0, 2, "claim")  # not 1, though the closer has 21 points now


@pytest.mark.parametrize(
    ("rules", "snapshot", "points"),
    [(STANDARD, (2, 30), 2), (STANDARD, (2, 33), 1), (TOURNAMENT, (2, 30), 1), (STANDARD, (0, 0), 3)],
    ids=["viennese-30", "viennese-33", "tournament", "viennese-no-trick"],
)
def test_the_closers_claim_uses_the_opponents_tricks_and_points_at_closing(
    rules: Rules, snapshot: tuple[int, int], points: int
) -> None:
    deal = position(
        rules, ("JD JH", "QD QH"), talon="JC QC JS", trump="KC", closed_by=0, close_snapshot=snapshot,
        tricks=(4, 2), points0=66,
    )
    assert deal.points == (66, 33)
    deal.apply("claim")
    assert result(deal) == (0, points, "claim")


def test_a_player_with_66_who_plays_on_may_be_beaten_by_the_opponents_claim() -> None:
    deal = position(
        STANDARD, ("JC JD", "AC TC"), trump_suit="S", tricks=(5, 3), points0=40, marriage_points=(40, 0)
    )
    assert deal.points == (80, 55) and "claim" in legal(deal)
    run(deal, "play JC; play AC")  # player 0 does not claim and loses the trick
    assert deal.points == (80, 68) and deal.to_move == 1
    deal.apply("claim")
    assert result(deal) == (1, 1, "claim")  # the first correct claim wins, whatever the other had


# --------------------------------------------------------------------------- 4.3 automatic claims


def test_auto_claim_ends_the_deal_when_the_trick_winner_reaches_66() -> None:
    deal = position(TOMPA, ("AS JD", "KS JH"), trump_suit="S", tricks=(4, 4), points0=60)
    run(deal, "play AS; play KS")  # the follower must take a lower trump
    assert deal.points == (75, 41)
    assert result(deal) == (0, 1, "claim") and deal.legal_actions() == ()


def test_auto_claim_ends_the_deal_right_after_a_marriage_that_reaches_66() -> None:
    deal = position(TOMPA, ("KH QH JD", "JC QC KC"), trump_suit="S", tricks=(4, 3), points0=50)
    deal.apply("marry H")
    assert deal.points == (70, 52)
    assert result(deal) == (0, 1, "claim")


def test_auto_claim_can_claim_for_the_follower_who_wins_the_trick() -> None:
    deal = position(TOMPA, ("KS JD", "AS JH"), trump_suit="S", tricks=(4, 4), leader=0, points0=40)
    assert deal.points == (40, 61)
    run(deal, "play KS; play AS")
    assert result(deal) == (1, 1, "claim")


def test_next_trick_marriages_trigger_the_automatic_claim_only_when_they_count() -> None:
    deal = position(VU, ("KH QH JD", "JC QC KC"), trump_suit="S", tricks=(4, 3), points0=50)
    deal.apply("marry H")
    assert deal.outcome is None and deal.points == (50, 52)
    run(deal, "play KH; play JC")
    assert deal.points == (76, 52) and result(deal) == (0, 1, "claim")


def test_auto_claim_never_claims_below_66() -> None:
    deal = position(TOMPA, ("AS JD", "KS JH"), trump_suit="S", tricks=(4, 4), points0=50)
    run(deal, "play AS; play KS")
    assert deal.points == (65, 51) and deal.outcome is None


def test_auto_claim_refuses_a_set_up_position_where_someone_already_has_66() -> None:
    from bummerl.setup import PositionError

    with pytest.raises(PositionError, match="with automatic claims the deal is already over"):
        position(TOMPA, ("AS JD", "KS JH"), trump_suit="S", tricks=(4, 4), points0=70)


# --------------------------------------------------------------------------- 4.4 all cards played


def last_trick(rules: Rules, points0: int, **more: Any) -> Deal:
    """One card each left, spades trumps, the talon exhausted unless ``more`` closes it; player 0 leads
    the ace of spades and wins the last trick (11 + 2 points)."""
    deal = position(rules, ("AS", "JD"), trump_suit="S", tricks=(5, 4), points0=points0, **more)
    run(deal, "play AS; play JD")
    return deal


def test_after_the_last_trick_its_winner_may_claim_or_pass() -> None:
    deal = last_trick(STANDARD, 30)
    assert deal.to_move == 0 and legal(deal) == ["claim", "pass"]


def test_schnapsen_played_out_gives_the_last_trick_1_point_whatever_the_points() -> None:
    deal = last_trick(STANDARD, 20)
    assert deal.points == (33, 87)  # the opponent had 66 and more but never claimed
    deal.apply("pass")
    assert result(deal) == (0, 1, "last_trick")


def test_a_claim_at_the_last_trick_is_judged_like_any_claim() -> None:
    deal = last_trick(STANDARD, 60)
    deal.apply("claim")
    assert result(deal) == (0, 1, "claim")
    deal = last_trick(STANDARD, 20)
    deal.apply("claim")
    assert result(deal) == (1, 2, "false_claim")


def test_auto_claim_plays_out_schnapsen_to_the_last_trick_point() -> None:
    deal = last_trick(TOMPA, 50)
    assert deal.points == (63, 57) and result(deal) == (0, 1, "last_trick")


@pytest.mark.parametrize(("snapshot", "points"), [((0, 0), 3), ((1, 10), 2)])
def test_a_closer_who_passes_at_the_end_has_failed(snapshot: tuple[int, int], points: int) -> None:
    deal = position(
        STANDARD, ("AS", "JD"), talon="JC QC KC", trump="TC", closed_by=0, close_snapshot=snapshot,
        tricks=(4, 3), points0=40,
    )
    run(deal, "play AS; play JD")
    assert legal(deal) == ["claim", "pass"]
    deal.apply("pass")
    assert result(deal) == (1, points, "closer_failed")


def test_a_closer_short_of_66_fails_automatically_with_auto_claim() -> None:
    deal = position(
        TOMPA, ("AS", "JD"), talon="JC QC KC", trump="TC", closed_by=0, close_snapshot=(2, 20),
        tricks=(4, 3), points0=40,
    )
    run(deal, "play AS; play JD")
    assert result(deal) == (1, 2, "closer_failed")


@pytest.mark.parametrize(("points0", "expected"), [(40, (1, 2, "closer_failed")), (30, (1, 2, "claim"))])
def test_the_opponent_of_the_closer_may_claim_or_pass_after_taking_the_last_trick(
    points0: int, expected: tuple[int, int, str]
) -> None:
    deal = position(
        STANDARD, ("JD", "AD"), talon="JC QC KC", trump="TC", closed_by=0, close_snapshot=(2, 20),
        tricks=(4, 3), points0=points0,
    )
    run(deal, "play JD; play AD")
    assert deal.to_move == 1 and legal(deal) == ["claim", "pass"]
    deal.apply("claim" if expected[2] == "claim" else "pass")
    assert result(deal) == expected  # 2 either way: the opponent had tricks when the talon was closed


def sixty_six_last(rules: Rules, points0: int, **more: Any) -> Deal:
    """Sixty-Six, one nine each left; player 0 leads the nine of clubs, player 1 throws the nine of
    diamonds (spades are trumps), so player 0 takes the last trick: no card points, but 10 for it."""
    deal = position(rules, ("9C", "9D"), trump_suit="S", tricks=(6, 5), points0=points0, **more)
    run(deal, "play 9C; play 9D")
    return deal


def test_sixty_six_last_trick_is_worth_10_and_counts_toward_an_automatic_claim() -> None:
    deal = sixty_six_last(SIXTY_SIX, 56)
    assert deal.points == (66, 64) and result(deal) == (0, 1, "claim")


def test_sixty_six_played_out_with_equal_points_is_a_draw() -> None:
    deal = sixty_six_last(SIXTY_SIX, 55)
    assert deal.points == (65, 65)
    assert deal.outcome == Outcome(None, 0, "draw")


def test_sixty_six_without_auto_claim_the_last_trick_10_counts_in_a_claim() -> None:
    deal = sixty_six_last(SIXTY_SIX.replace(auto_claim=False), 56)
    assert legal(deal) == ["claim", "pass"]
    deal.apply("claim")
    assert result(deal) == (0, 1, "claim")


@pytest.mark.parametrize(("points0", "expected"), [(60, (0, 1, "more_points")), (40, (1, 1, "more_points"))])
def test_sixty_six_played_out_without_a_claim_goes_to_the_player_with_more_points(
    points0: int, expected: tuple[int, int, str]
) -> None:
    deal = sixty_six_last(SIXTY_SIX.replace(auto_claim=False), points0)
    deal.apply("pass")
    assert result(deal) == expected


def test_sixty_six_more_points_are_scored_by_the_table() -> None:
    deal = sixty_six_last(SIXTY_SIX.replace(auto_claim=False), 100)
    assert deal.points == (110, 20)
    deal.apply("pass")
    assert result(deal) == (0, 2, "more_points")


def test_sixty_six_closed_talon_gets_no_last_trick_10() -> None:
    deal = position(
        SIXTY_SIX, ("9C", "9D"), talon="JC QC KC", trump="TC", closed_by=0, close_snapshot=(2, 20),
        tricks=(5, 4), points0=56,
    )
    run(deal, "play 9C; play 9D")
    assert deal.points[0] == 56 and result(deal) == (1, 2, "closer_failed")


def test_a_card_of_the_pack_is_worth_what_section_1_says_in_a_trick() -> None:
    deal = arrange(STANDARD, "AS JC QC JD QD", "TS KC KD TC TD", "JH")
    run(deal, "play AS; play TS")
    assert deal.points == (Card.parse("AS").points + Card.parse("TS").points, 0) == (21, 0)
