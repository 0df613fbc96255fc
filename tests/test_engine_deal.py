"""rules.md section 2 (the deal from a deck order) and 3.3's drawing from the talon."""

from __future__ import annotations

import pytest

from bummerl import Card, Deal
from bummerl.cards import full_pack, parse_cards
from helpers.dealkit import SIXTY_SIX, STANDARD, arrange, cards, deck_for, hand, run

DECK20 = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD"
DECK24 = "QH TC AS JD KD QS AH KS TD 9C JH KH AD 9H JC QC TH KC AC JS TS QD 9D 9S"


def codes(text: str, indexes: range | list[int]) -> str:
    deck = text.split()
    return cards(hand(" ".join(deck[i] for i in indexes)))


@pytest.mark.parametrize("dealer", [0, 1])
def test_schnapsen_deals_three_then_two_around_the_turned_up_trump(dealer: int) -> None:
    deal = Deal.from_deck(STANDARD, DECK20, dealer=dealer)
    non_dealer = 1 - dealer
    assert cards(deal.hands[non_dealer]) == codes(DECK20, [0, 1, 2, 7, 8])
    assert cards(deal.hands[dealer]) == codes(DECK20, [3, 4, 5, 9, 10])
    assert str(deal.face_up_trump) == DECK20.split()[6] == "AH"
    assert deal.trump_suit == Card.parse("AH").suit
    assert [str(c) for c in deal.talon] == DECK20.split()[11:20]
    assert deal.talon_size == 10  # nine face down plus the face-up trump card
    assert deal.to_move == deal.leader == non_dealer  # the non-dealer leads to the first trick
    assert deal.dealer == dealer


@pytest.mark.parametrize("dealer", [0, 1])
def test_sixty_six_deals_three_then_three(dealer: int) -> None:
    deal = Deal.from_deck(SIXTY_SIX, DECK24, dealer=dealer)
    non_dealer = 1 - dealer
    assert cards(deal.hands[non_dealer]) == codes(DECK24, [0, 1, 2, 7, 8, 9])
    assert cards(deal.hands[dealer]) == codes(DECK24, [3, 4, 5, 10, 11, 12])
    assert str(deal.face_up_trump) == "AH"
    assert [str(c) for c in deal.talon] == DECK24.split()[13:24]
    assert deal.talon_size == 12
    assert deal.to_move == non_dealer


def test_the_test_helper_lays_out_decks_the_way_the_engine_reads_them() -> None:
    deck = deck_for(STANDARD, "AS TS KS QS JS", "AH TH KH QH JH", "AC", "TC KC")
    deal = Deal(STANDARD, deck, dealer=1)
    assert cards(deal.hands[0]) == cards(hand("AS TS KS QS JS"))
    assert cards(deal.hands[1]) == cards(hand("AH TH KH QH JH"))
    assert [str(c) for c in deal.talon[:2]] == ["TC", "KC"]


def test_a_deck_that_is_not_exactly_one_pack_is_refused() -> None:
    from bummerl import DeckError

    with pytest.raises(DeckError, match="twice: AS"):
        Deal.from_deck(STANDARD, DECK20.replace("QD", "AS"))
    with pytest.raises(DeckError, match="not in the pack: 9C"):
        Deal.from_deck(STANDARD, DECK24.replace(" 9D 9S", "").replace(" 9H", "").replace("QD", "9C"))
    with pytest.raises(DeckError, match="got 24"):
        Deal.from_deck(STANDARD, DECK24)
    with pytest.raises(DeckError, match="got 20"):
        Deal.from_deck(SIXTY_SIX, DECK20)
    with pytest.raises(DeckError, match="bad card in deck"):
        Deal.from_deck(STANDARD, DECK20.replace("QD", "XD"))
    with pytest.raises(DeckError, match="not a card"):
        Deal(STANDARD, [-1] * 20)
    with pytest.raises(DeckError, match="dealer must be player 0 or 1"):
        Deal.from_deck(STANDARD, DECK20, dealer=2)


def test_from_deck_reads_codes_in_any_case_a_list_or_card_indexes() -> None:
    a = Deal.from_deck(STANDARD, DECK20.lower())
    b = Deal.from_deck(STANDARD, DECK20.split())
    c = Deal.from_deck(STANDARD, [int(x) for x in parse_cards(DECK20)])
    assert a.deck == b.deck == c.deck == tuple(parse_cards(DECK20))


def test_random_deals_are_repeatable_from_a_seed_and_use_the_right_pack() -> None:
    assert Deal.random(STANDARD, 5).deck == Deal.random(STANDARD, 5).deck
    assert sorted(Deal.random(STANDARD, 5).deck) == full_pack()
    assert sorted(Deal.random(SIXTY_SIX, 5).deck) == full_pack(sixty_six=True)


# --------------------------------------------------------------------------- 3.3 drawing


def test_the_trick_winner_draws_the_top_talon_card_then_the_loser_the_next() -> None:
    deal = arrange(STANDARD, "AS JC JD QC QD", "KS KC KD TC TD", "JH", "QH KH")
    run(deal, "play AS; play KS")  # player 0 (non-dealer) wins
    assert deal.tricks == (1, 0)
    assert deal.hands[0] >> Card.parse("QH") & 1 and deal.hands[1] >> Card.parse("KH") & 1
    assert deal.talon_size == 8


def test_a_follower_who_wins_the_trick_draws_first() -> None:
    deal = arrange(STANDARD, "KS JC JD QC QD", "AS KC KD TC TD", "JH", "QH KH")
    run(deal, "play KS; play AS")  # the dealer (player 1) wins
    assert deal.tricks == (0, 1)
    assert deal.hands[1] >> Card.parse("QH") & 1 and deal.hands[0] >> Card.parse("KH") & 1
    assert deal.to_move == deal.leader == 1  # the winner leads next


def test_the_last_face_down_card_goes_to_the_winner_and_the_face_up_trump_to_the_loser() -> None:
    # Non-dealer leads four low clubs/diamonds the dealer beats; then trick 5 empties the talon.
    deal = arrange(
        STANDARD, "JC QC JD QD JS", "KC TC KD TD AC", "AH", "JH QH KH TH AD KS QS TS AS"
    )
    run(deal, "play JC; play KC")  # dealer wins and leads from here on
    while deal.talon_size > 2:
        lead = max(deal.legal_actions(), key=lambda a: a.code if a.kind == "play" else -1)
        deal.apply(lead)
        deal.apply(deal.legal_actions()[0])
    assert deal.talon_size == 2 and len(deal.talon) == 1
    last_face_down = deal.talon[0]
    trump_card = deal.face_up_trump
    assert trump_card == Card.parse("AH")
    deal.apply(deal.legal_actions()[0])
    deal.apply(deal.legal_actions()[0])
    winner = deal.trick_log[-1].winner
    assert deal.hands[winner] >> last_face_down & 1
    assert deal.hands[1 - winner] >> trump_card & 1
    assert deal.talon_size == 0 and deal.talon == [] and deal.face_up_trump is None
    assert not deal.talon_open
    assert deal.hands[0].bit_count() == deal.hands[1].bit_count() == 5


def test_sixty_six_draws_the_same_way_down_to_the_turned_up_trump() -> None:
    deal = Deal.from_deck(SIXTY_SIX, DECK24, dealer=1)
    draws = 0
    while deal.talon_size:
        before = deal.talon_size
        deal.apply(next(a for a in deal.legal_actions() if a.kind == "play"))
        deal.apply(deal.legal_actions()[0])
        assert deal.talon_size == before - 2
        draws += 1
    assert draws == 6
    assert deal.hands[0].bit_count() == deal.hands[1].bit_count() == 6


def test_a_closed_talon_is_never_drawn_from() -> None:
    deal = arrange(STANDARD, "AS JC JD QC QD", "KS KC KD TC TD", "JH", "QH KH")
    run(deal, "close; play AS; play KS")
    assert deal.talon_size == 10
    assert deal.hands[0].bit_count() == deal.hands[1].bit_count() == 4
    assert [str(c) for c in deal.talon[:2]] == ["QH", "KH"]
    assert deal.face_up_trump is None  # turned down
