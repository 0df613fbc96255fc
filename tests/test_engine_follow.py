"""rules.md 3.2 (what the follower may play) and 3.3 (who wins a trick and what it is worth)."""

from __future__ import annotations

import pytest

from bummerl import Card, Deal, IllegalActionError
from helpers.dealkit import STANDARD, arrange, legal, position, run

# Spades are trumps. Player 0 has led; player 1 follows. The talon is exhausted (strict play).


def strict(lead: str, follower: str, leader_rest: str = "JD QD KD TD") -> Deal:
    return position(STANDARD, (leader_rest, follower), trump_suit="S", tricks=(3, 2), lead=Card.parse(lead))


def plays(deal: Deal) -> list[str]:
    return legal(deal)


def test_a_closed_or_exhausted_talon_forces_the_follower_to_head_the_trick() -> None:
    deal = strict("KH", "TH AH JH JC QS")
    assert plays(deal) == ["play AH", "play TH"]


def test_without_a_higher_card_the_follower_must_still_follow_suit() -> None:
    assert plays(strict("TH", "JH QH JC QS AC")) == ["play JH", "play QH"]


def test_without_the_led_suit_the_follower_must_trump() -> None:
    assert plays(strict("KH", "JC QS KS AC TC")) == ["play KS", "play QS"]


def test_without_the_led_suit_or_a_trump_the_follower_may_play_anything() -> None:
    assert plays(strict("KH", "JC QC KC AC TC")) == ["play AC", "play JC", "play KC", "play QC", "play TC"]


def test_a_trump_lead_must_be_beaten_by_a_higher_trump() -> None:
    assert plays(strict("KS", "AS QS JH AH TC", "JD QD KD TD")) == ["play AS"]


def test_a_trump_lead_without_a_higher_trump_takes_a_lower_trump() -> None:
    assert plays(strict("KS", "QS JS AH TH TC", "JD QD KD TD")) == ["play JS", "play QS"]


def test_a_trump_lead_without_trumps_allows_any_card() -> None:
    assert plays(strict("KS", "AH TH JC QC TC", "JD QD KD TD")) == [
        "play AH", "play JC", "play QC", "play TC", "play TH",
    ]


def test_a_closed_talon_makes_play_strict_too() -> None:
    deal = position(
        STANDARD, ("JD QD KD TD", "TH AH JH JS QS"), talon="JC QC KC", trump="TC", closed_by=1,
        close_snapshot=(2, 0), tricks=(2, 1), lead=Card.parse("KH"),
    )
    assert deal.talon_size == 4 and not deal.talon_open
    assert plays(deal) == ["play AH", "play TH"]


def test_a_follower_breaking_the_strict_rules_gets_a_clear_refusal() -> None:
    deal = strict("KH", "TH AH JH JC QS")
    with pytest.raises(IllegalActionError, match="must follow the lead KH") as err:
        deal.apply("play JH")
    assert "legal: play AH, play TH" in str(err.value)
    with pytest.raises(IllegalActionError, match="does not hold KC"):
        deal.apply("play KC")


def test_while_the_talon_is_open_the_follower_may_play_any_card() -> None:
    deal = arrange(STANDARD, "KH JC QC JD QD", "TH AH JH QS KS", "AS")
    run(deal, "play KH")
    assert plays(deal) == ["play AH", "play JH", "play KS", "play QS", "play TH"]


def test_after_closing_the_leader_may_still_lead_any_card() -> None:
    deal = arrange(STANDARD, "KH JC QC JD QD", "TH AH JH QS KS", "AS")
    run(deal, "close")
    assert [a for a in plays(deal) if a.startswith("play")] == [
        "play JC", "play JD", "play KH", "play QC", "play QD",
    ]


# --------------------------------------------------------------------------- 3.3 who wins


@pytest.mark.parametrize(
    ("lead", "follow", "winner"),
    [
        ("KH", "TH", 1),  # the higher card of the led suit wins: the ten beats the king
        ("TH", "KH", 0),
        ("AH", "TH", 0),
        ("JH", "QH", 1),
        ("JC", "AD", 0),  # a higher card of another plain suit does not win
        ("AH", "JS", 1),  # a trump beats any plain card
        ("JS", "AH", 0),  # a trump lead beats a plain follow
        ("QS", "KS", 1),  # trump against trump: the higher trump
        ("AS", "TS", 0),
    ],
)
def test_the_higher_trump_wins_else_the_higher_card_of_the_led_suit(
    lead: str, follow: str, winner: int
) -> None:
    rest0 = [c for c in ["JD", "QD", "KD", "TD", "QC", "KC"] if c not in (lead, follow)][:4]
    rest1 = [c for c in ["KH", "QH", "JC", "QS", "KS", "TC"] if c not in (lead, follow)][:4]
    used = {lead, follow, *rest0, *rest1}
    trump = next(c for c in ("JS", "AS", "TS") if c not in used)  # spades are trumps
    deal = arrange(STANDARD, " ".join([lead, *rest0]), " ".join([follow, *rest1]), trump)
    run(deal, f"play {lead}; play {follow}")
    trick = deal.trick_log[-1]
    assert (str(trick.lead), str(trick.follow), trick.leader, trick.winner) == (lead, follow, 0, winner)
    assert deal.tricks[winner] == 1 and deal.tricks[1 - winner] == 0
    expected = Card.parse(lead).points + Card.parse(follow).points
    assert deal.points[winner] == expected and deal.points[1 - winner] == 0
    assert deal.to_move == deal.leader == winner  # the winner leads next
