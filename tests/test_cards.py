"""rules.md section 1: the cards, their codes and their points."""

from __future__ import annotations

import pickle

import pytest

from bummerl.cards import (
    CARDS,
    PACK_MASKS,
    POINTS,
    SUIT_MASKS,
    Card,
    CardParseError,
    Rank,
    Suit,
    card_points,
    cards_in,
    cards_str,
    full_pack,
    mask_of,
    parse_cards,
)


def test_schnapsen_uses_twenty_cards_jack_to_ace_in_four_suits() -> None:
    pack = full_pack()
    assert len(pack) == 20
    assert {c.rank for c in pack} == {Rank.JACK, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE}
    assert {c.suit for c in pack} == set(Suit)
    assert len(set(pack)) == 20


def test_sixty_six_adds_the_four_nines() -> None:
    pack = full_pack(sixty_six=True)
    assert len(pack) == 24
    assert sorted(str(c) for c in set(pack) - set(full_pack())) == ["9C", "9D", "9H", "9S"]


@pytest.mark.parametrize(
    ("rank", "points"),
    [(Rank.NINE, 0), (Rank.JACK, 2), (Rank.QUEEN, 3), (Rank.KING, 4), (Rank.TEN, 10), (Rank.ACE, 11)],
)
def test_card_points_by_rank(rank: Rank, points: int) -> None:
    assert rank.points == points
    for suit in Suit:
        assert Card.of(rank, suit).points == points == POINTS[Card.of(rank, suit)]


def test_the_pack_holds_120_card_points_with_or_without_nines() -> None:
    assert sum(c.points for c in full_pack()) == 120
    assert sum(c.points for c in full_pack(sixty_six=True)) == 120
    assert card_points(PACK_MASKS[0]) == card_points(PACK_MASKS[1]) == 120


def test_ranks_run_low_to_high_nine_jack_queen_king_ten_ace() -> None:
    assert [r.letter for r in sorted(Rank)] == ["9", "J", "Q", "K", "T", "A"]
    # Within a suit a higher index is a higher card: the ten beats the king.
    assert Card.parse("TH") > Card.parse("KH") > Card.parse("QH") > Card.parse("JH") > Card.parse("9H")
    assert Card.parse("AH") > Card.parse("TH")


def test_a_card_is_written_rank_then_suit() -> None:
    assert [str(c) for c in CARDS[:6]] == ["9C", "JC", "QC", "KC", "TC", "AC"]
    assert str(Card.of(Rank.QUEEN, Suit.H)) == "QH"
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("QH", "QH"), ("qh", "QH"), ("Qh", "QH"), (" tc ", "TC"), ("10H", "TH"), ("10h", "TH"),
        ("Q♥", "QH"), ("a♠", "AS"), ("9♦", "9D"), ("K♣", "KC"),
        ("Herz Ober", "QH"), ("Schellen Unter", "JD"), ("Eichel Sau", "AC"), ("Laub Zehner", "TS"),
        ("Grün König", "KS"), ("eichel daus", "AC"), ("ace spades", "AS"), ("queen hearts", "QH"),
    ],
)
def test_input_accepts_codes_any_case_symbols_and_german_names(text: str, code: str) -> None:
    assert str(Card.parse(text)) == code


@pytest.mark.parametrize("text", ["", "X", "XH", "QX", "Q", "QHH", "11H", "Herz", "Ober Ober", "1H"])
def test_a_text_that_names_no_card_is_refused_with_a_one_line_message(text: str) -> None:
    with pytest.raises(CardParseError) as err:
        Card.parse(text)
    assert "\n" not in str(err.value)
    assert repr(text) in str(err.value)


def test_suits_parse_from_letters_symbols_and_names() -> None:
    assert Suit.parse("h") is Suit.H
    assert Suit.parse("♠") is Suit.S
    assert Suit.parse("Schellen") is Suit.D
    assert Suit.parse("Eichel") is Suit.C
    assert Suit.parse("Laub") is Suit.S
    assert Suit.parse("hearts") is Suit.H
    with pytest.raises(CardParseError):
        Suit.parse("Q")


def test_symbols_and_german_names_round_trip() -> None:
    for c in full_pack(sixty_six=True):
        assert Card.parse(c.symbol) is c
        assert Card.parse(c.german) is c
        assert Card.parse(str(c).lower()) is c


def test_repr_pastes_back_and_cards_are_shared_values() -> None:
    for c in CARDS:
        assert eval(repr(c)) is c  # the repr is documented to paste back
        assert Card.from_index(int(c)) is c
        assert pickle.loads(pickle.dumps(c)) is c
        assert Card.of(c.rank, c.suit) is c
        assert int(c) == c.suit * 6 + c.rank


def test_card_sets_are_bitmasks() -> None:
    cards = parse_cards("AS, TS QH")
    mask = mask_of(cards)
    assert mask == (1 << Card.parse("AS")) | (1 << Card.parse("TS")) | (1 << Card.parse("QH"))
    assert list(cards_in(mask)) == sorted(cards)
    assert cards_str(mask) == "QH TS AS"
    assert card_points(mask) == 24
    assert cards_str(0) == ""
    assert Card.parse("KD").bit == 1 << 9


def test_suit_masks_hold_exactly_their_suit() -> None:
    for s in Suit:
        assert {c.suit for c in cards_in(SUIT_MASKS[s])} == {s}
        assert SUIT_MASKS[s].bit_count() == 6
    assert PACK_MASKS[0].bit_count() == 20
    assert PACK_MASKS[1].bit_count() == 24


def test_parse_cards_takes_a_list_of_codes_too() -> None:
    assert parse_cards(["qh", "10c"]) == [Card.parse("QH"), Card.parse("TC")]
    with pytest.raises(CardParseError):
        parse_cards("QH ZZ")
