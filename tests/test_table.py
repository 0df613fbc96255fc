"""The table: a Bummerl between seats, its turn order, its events and its explanations."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bummerl.bots.random_bot import RandomBot
from bummerl.cards import Card, parse_cards
from bummerl.records import GameRecord
from bummerl.rules import Rules
from bummerl.table import FirstLegal, IllegalMove, Seat, Table, card_name
from helpers.arena_bots import NeverClaims, Script

# Human (seat 0, forehand) gets JH KH QH + AS TS; the computer JC QC KC + TC AC; trump AH face up.
SCRIPTED_DECK = "JH KH QH JC QC KC AH AS TS TC AC JD QD KD TD AD TH JS QS KS"


def deck(codes: str) -> list[int]:
    return [int(c) for c in parse_cards(codes)]


def scripted_table(computer: Sequence[str] = ("play JC", "play AC"), rules: str = "standard") -> Table:
    return Table(Rules.preset(rules), (Seat("You"), Seat("Computer", Script(computer))), seed=1,
                 first_dealer=1, decks=[deck(SCRIPTED_DECK)])


def texts(events: Sequence[object]) -> list[str]:
    return [e.text for e in events]  # type: ignore[attr-defined]


def test_a_new_table_deals_the_given_deck_and_the_non_dealer_leads() -> None:
    table = scripted_table()
    assert [str(c) for c in table.deal.deck] == SCRIPTED_DECK.split()
    assert table.deal.dealer == 1 and table.waiting_for == 0 and table.human_to_move
    assert table.events[0].kind == "deal"
    assert table.events[0].text == "Deal 1: Computer deals. Trump is ♥ (A♥ face up)."


def test_exchange_close_marriage_and_claim_are_told_as_events() -> None:
    table = scripted_table()
    assert texts(table.act(0, "exchange")) == ["You exchange J♥ for the trump card A♥"]
    table.act(0, "play AS")
    assert texts(table.run_bots()) == ["Computer plays J♣", "You take the trick (+13)"]
    assert texts(table.act(0, "close")) == ["You close the talon"]
    assert texts(table.act(0, "marry H")) == ["You declare 40 (K♥ Q♥)"]
    table.act(0, "play KH")
    assert texts(table.run_bots())[-1] == "You take the trick (+15)"
    events = table.act(0, "claim")
    assert events[0].text == "You claim 66 — correct (68 points), 3 game points"
    assert events[1].kind == "deal_over" and "You win 3 game points" in events[1].text
    assert table.phase == "deal_over" and table.score == (4, 7)


def test_a_wrong_claim_names_the_points_and_what_the_opponent_scores() -> None:
    table = scripted_table()
    table.act(0, "play AS")
    table.run_bots()
    events = table.act(0, "claim")
    # The computer has no trick yet, so the fixed penalty is 3 (rules.md 4.2).
    assert events[0].text == "You claim 66 — wrong, only 13 points: Computer scores 3 game points"
    assert table.score == (7, 4)


def test_the_computers_declarations_read_in_the_third_person() -> None:
    # Swap the hands: the computer (now forehand, seat 1 as non-dealer) exchanges, closes and marries.
    rules = Rules.preset("standard")
    bot = Script(["exchange", "play AS", "close", "marry H", "play KH", "claim"])
    table = Table(rules, (Seat("You", Script(["play JC", "play AC"])), Seat("Computer", bot)), seed=1,
                  first_dealer=0, decks=[deck(SCRIPTED_DECK)])
    table.run_bots()
    said = [e.text for e in table.events]
    assert "Computer exchanges J♥ for the trump card A♥" in said
    assert "Computer closes the talon" in said
    assert "Computer declares 40 (K♥ Q♥)" in said
    assert "Computer claims 66 — correct (68 points), 3 game points" in said


def test_a_marriage_before_any_trick_is_declared_but_counts_later_when_the_rules_say_so() -> None:
    table = Table(Rules.preset("soft"), (Seat("You"), Seat("Computer", FirstLegal())), seed=1, first_dealer=1,
                  decks=[deck(SCRIPTED_DECK)])
    assert texts(table.act(0, "marry H")) == ["You declare 40 (K♥ Q♥) (counts once a trick is won)"]


@pytest.mark.parametrize(("preset", "why"), [("sixty-six", "66 reached (claimed automatically)"),
                                              ("standard", "a correct claim of 66")])
def test_a_deal_won_by_reaching_66_says_claimed_only_where_someone_claimed(preset: str, why: str) -> None:
    # Under automatic claims it said "a correct claim of 66", though nobody claimed (session 15's audit).
    for seed in range(50):
        table = Table(Rules.preset(preset), (Seat("You"), Seat("Computer", FirstLegal())), seed=seed,
                      first_dealer=1)
        while table.phase == "playing":
            events = table.act(0, table.view(0).legal_actions[0]) if table.human_to_move else table.run_bots()
            over = [e for e in events if e.kind == "deal_over"]
            if over and over[0].data["reason"] == "claim":
                assert over[0].data["why"] == why and f" — {why}. " in over[0].text
                return
    raise AssertionError("no deal ended in a claim")


def test_under_vu_a_marriage_by_a_player_who_has_tricks_counts_once_another_trick_is_won() -> None:
    # vu's next_trick: a marriage counts only after its declarer wins a trick after declaring it; the log
    # said "once a trick is won" to a player who had won several (session 11's audit).
    for seed in range(100):
        table = Table(Rules.preset("vu"), (Seat("You"), Seat("Computer", FirstLegal())), seed=seed,
                      first_dealer=1)
        while table.phase == "playing":
            if table.human_to_move:
                legal = table.view(0).legal_actions
                marry = [a for a in legal if a.kind == "marry"]
                if marry and table.deal.tricks[0]:
                    said = texts(table.act(0, marry[0]))
                    assert said[0].endswith("(counts once another trick is won)"), said
                    return
                table.act(0, legal[-1])
            else:
                table.run_bots()
    raise AssertionError("no marriage after a won trick in 100 deals")


def test_only_the_seat_to_move_may_act_and_illegal_actions_are_explained() -> None:
    table = scripted_table()
    with pytest.raises(IllegalMove, match="it is You's turn"):
        table.act(1, "play JC")
    with pytest.raises(IllegalMove, match="you must win a trick before you may declare a marriage"):
        table.act(0, "marry H")
    with pytest.raises(IllegalMove, match="you do not hold"):
        table.act(0, "play AC")
    with pytest.raises(IllegalMove, match="only right after winning a trick"):
        table.act(0, "claim")
    with pytest.raises(IllegalMove, match="only after the last trick"):
        table.act(0, "pass")
    with pytest.raises(IllegalMove, match="not an action"):
        table.act(0, "dance")


def test_following_a_closed_talon_is_explained_with_the_cards_that_may_be_played() -> None:
    # The computer (forehand: you deal) closes and leads J♥; you hold Q♥ K♥ and must head the trick.
    bot = Script(["close", "play JH"])
    table = Table(Rules.preset("standard"), (Seat("You"), Seat("Computer", bot)), seed=1, first_dealer=0,
                  decks=[deck("JH AS TS QH KH JC AH TC AC QC KC JD QD KD TD AD TH JS QS KS")])
    table.run_bots()
    assert table.deal.lead_card == Card.parse("JH")
    rule = "with the talon closed you must follow suit: Q♥, K♥"  # both beat it
    with pytest.raises(IllegalMove, match=rule):
        table.act(0, "play JC")


@pytest.mark.parametrize(("card", "rule"), [("JC", "follow suit and beat the card"),
                                            ("JH", "beat the card, since you can")])
def test_a_follower_who_must_beat_the_card_is_told_so_only_then(card: str, rule: str) -> None:
    # The computer closes and leads Q♥; you hold J♥ K♥: only K♥ may be played. (It said "follow suit, and
    # beat the card if you can" also to a player who could not beat it, session 15's audit.)
    bot = Script(["close", "play QH"])
    table = Table(Rules.preset("standard"), (Seat("You"), Seat("Computer", bot)), seed=1, first_dealer=0,
                  decks=[deck("QH AS TS JH KH JC AH TC AC QC KC JD QD KD TD AD TH JS QS KS")])
    table.run_bots()
    with pytest.raises(IllegalMove, match=f"with the talon closed you must {rule}: K♥$"):
        table.act(0, f"play {card}")


def test_exchange_and_close_explanations_name_the_missing_condition() -> None:
    seats = (Seat("You"), Seat("Computer", FirstLegal()))
    table = Table(Rules.preset("standard"), seats, seed=1, first_dealer=1,
                  decks=[deck("QS KH QH JC QC KC AH AS TS TC AC JD QD KD TD AD TH JS JH KS")])
    with pytest.raises(IllegalMove, match=r"you need the trump jack \(J♥\) to exchange"):
        table.act(0, "exchange")
    no_close = Table(Rules.preset("vu"), seats, seed=1, first_dealer=1)
    with pytest.raises(IllegalMove, match="do not allow closing"):
        no_close.act(0, "close")


def test_sharp_rules_keep_trick_points_out_of_the_events() -> None:
    table = scripted_table(rules="sharp")
    table.act(0, "play AS")
    assert texts(table.run_bots()) == ["Computer plays J♣", "You take the trick"]


def test_automatic_claims_are_announced() -> None:
    table = Table(Rules.preset("tompa"), (Seat("You", RandomBot(2)), Seat("Computer", RandomBot(3))), seed=5)
    while table.phase == "playing":
        table.run_bots()
    kinds = [e.kind for e in table.events]
    assert "deal_over" in kinds
    if table.deal.outcome is not None and table.deal.outcome.reason == "claim":
        assert any(e.kind == "claim" and e.data.get("auto") and " 66 (" in e.text for e in table.events)


@pytest.mark.parametrize("preset", ["standard", "sharp", "tompa", "sixty-six"])
def test_a_whole_bummerl_between_bots_counts_down_to_a_winner(preset: str) -> None:
    table = Table(Rules.preset(preset), (Seat("A", RandomBot(1)), Seat("B", RandomBot(2))), seed=7)
    while table.phase != "game_over":
        table.run_bots()
        if table.phase == "deal_over":
            table.next_deal()
    needed = [7, 7]
    for s in table.game.finished:
        if s.outcome.winner is not None:
            needed[s.outcome.winner] -= s.outcome.game_points
    assert tuple(needed) == table.score and min(needed) <= 0
    assert table.events[-1].kind == "game_over"
    assert sum(e.kind == "deal" for e in table.events) == len(table.game.finished)
    with pytest.raises(IllegalMove, match="Bummerl is over"):
        table.next_deal()


def test_next_deal_waits_for_the_deal_to_end() -> None:
    table = scripted_table()
    with pytest.raises(IllegalMove, match="not over yet"):
        table.next_deal()


def test_replaying_the_deal_records_restores_the_same_position() -> None:
    seats = (Seat("You", RandomBot(4)), Seat("Computer", RandomBot(5)))
    table = Table(Rules.preset("standard"), seats, seed=9)
    for _ in range(3):
        while table.phase == "playing":
            table.run_bots()
        if table.phase == "deal_over":
            table.next_deal()
    for _ in range(3):
        table.step_bot()
    again = Table(Rules.preset("standard"), (Seat("You"), Seat("Computer")), seed=9)
    again.replay(GameRecord.loads(table.record().dumps()))
    assert again.score == table.score
    assert again.deal.history == table.deal.history and again.deal.hands == table.deal.hands
    assert again.deal_number == table.deal_number


def test_replay_refuses_a_record_of_another_deck() -> None:
    table = Table(Rules.preset("standard"), (Seat("You"), Seat("Computer")), seed=9)
    other = Table(Rules.preset("standard"), (Seat("You"), Seat("Computer")), seed=10)
    with pytest.raises(ValueError, match="does not match"):
        table.replay(other.record())


def test_decisions_are_the_choices_with_more_than_one_legal_action() -> None:
    table = scripted_table()
    table.act(0, "exchange")
    table.act(0, "play AS")
    table.run_bots()
    decisions = list(table.decisions(0))
    assert [str(a) for _, _, a in decisions] == ["exchange", "play AS"]
    assert all(v.seat == 0 and len(v.legal_actions) > 1 for _, v, _ in decisions)
    assert decisions[0][1].score == (7, 7)


def test_german_card_names() -> None:
    assert card_name(Card.parse("AS"), "german") == "Laub Sau"
    table = Table(Rules.preset("standard"), (Seat("You"), Seat("Computer")), seed=1, first_dealer=1,
                  decks=[deck(SCRIPTED_DECK)], card_style="german")
    assert table.events[0].text == "Deal 1: Computer deals. Trump is Herz (Herz Sau face up)."


def test_the_readme_example_of_the_table_runs() -> None:
    import doctest
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Playing in the terminal", 1)[1].split("\n## ", 1)[0]
    example = section.split("```python", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(example, {}, "README: Playing in the terminal", "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0 and test.examples


def test_passing_after_the_last_trick_gives_the_last_trick_its_game_point() -> None:
    seats = (Seat("You", NeverClaims()), Seat("Computer", NeverClaims()))
    table = Table(Rules.preset("standard"), seats, seed=2, first_dealer=1)
    table.run_bots()
    outcome = table.deal.outcome
    assert outcome is not None and outcome.reason == "last_trick" and outcome.game_points == 1
    passed = [e for e in table.events if e.kind == "pass"]
    assert len(passed) == 1 and passed[0].seat == outcome.winner
    assert passed[0].text in ("You pass", "Computer passes")
    assert table.events[-1].text.startswith(f"Deal 1: {table.name(outcome.winner)} win")
    assert "all cards were played; the last trick wins" in table.events[-1].text


def test_the_exchange_explanation_when_the_face_up_card_is_the_trump_jack_itself() -> None:
    # "you need the trump jack (J♣)" named a card nobody can ever hold (session 11's audit).
    seats = (Seat("You"), Seat("Computer", FirstLegal()))
    table = Table(Rules.preset("standard"), seats, seed=1, first_dealer=1,
                  decks=[deck("QS KH QH JC QC KC JH AS TS TC AC JD QD KD TD AD TH JS AH KS")])
    face_up = r"^the trump jack \(J♥\) is the face-up card: nothing to exchange$"
    with pytest.raises(IllegalMove, match=face_up):
        table.act(0, "exchange")


def test_sixty_sixs_last_trick_tells_its_ten_points() -> None:
    # The log said "+15" while the points rose by 25 (session 11's audit).
    rules = Rules.preset("sixty-six").replace(auto_claim=False)
    told = []
    for seed in range(40):
        table = Table(rules, (Seat("A", NeverClaims()), Seat("B", NeverClaims())), seed=seed)
        table.run_bots()
        deal = table.deal
        if deal.closed_by >= 0 or deal.talon_size or deal.hands[0] or deal.hands[1]:
            continue  # closed, or ended before the last trick
        last = [e for e in table.events if e.kind == "trick"][-1]
        points = last.data["points"]
        assert last.data["bonus"] == 10
        assert last.text.endswith(f"the trick (+{points}, +10 for the last trick)")
        assert all("bonus" not in e.data for e in table.events if e.kind == "trick" and e is not last)
        told.append(seed)
    assert told  # the case was met


@pytest.mark.parametrize("seed", range(12))
def test_a_table_built_again_from_its_record_deals_the_later_deals_as_the_first_one_would(seed: int) -> None:
    # A game brought back from the store (the web puts idle games away; the terminal resumes) is built with
    # the first dealer it stored, and the decks it dealt: with the first dealer drawn from the game's own
    # generator, its later deals came out otherwise (148 of 300 seeds) than in the table that stayed.
    rules = Rules.preset("standard")
    live = Table(rules, (Seat("A", RandomBot(seed)), Seat("B", RandomBot(seed + 1))), seed=seed)
    live.run_bots()
    again = Table(rules, (Seat("A"), Seat("B")), seed=seed, first_dealer=live.first_dealer,
                  decks=[d.deck for d in live.record().deals])
    again.replay(live.record())
    for table in (live, again):
        table.next_deal()
    assert again.deal.setup() == live.deal.setup()


@pytest.mark.parametrize("preset", ["standard", "sixty-six"])
def test_the_drawn_first_dealer_tells_nothing_of_the_first_deals_hidden_cards(preset: str) -> None:
    # Both players see who deals first. Drawn as the first number of the stream that then shuffled deal 1,
    # it fixed the bottom talon card's half of the pack: with dealer 0 it was never a heart or JS, TD, AD
    # (a reviewer's 40,000 seeds; 300 games through the web server). Now every card comes under either.
    rules = Rules.preset(preset)
    bottoms: dict[int, set[int]] = {0: set(), 1: set()}
    for seed in range(1200):
        table = Table(rules, (Seat("A"), Seat("B")), seed=seed)
        bottoms[table.first_dealer].add(int(table.deal.deck[-1]))
    pack = {int(c) for c in table.deal.deck}
    assert len(pack) == rules.pack_size and bottoms[0] == bottoms[1] == pack


@pytest.mark.parametrize("rules", [Rules.preset("standard"), Rules.preset("soft"),
                                   Rules.preset("sixty-six").replace(auto_claim=False),
                                   Rules.preset("sixty-six").replace(auto_claim=False, open_tricks=False)],
                         ids=["standard", "soft", "sixty-six", "sixty-six without open tricks"])
def test_what_a_pass_would_do_is_said_from_the_engines_outcome(rules: Rules) -> None:
    # A browser play-test: "claim 66 (g) if you have it, or pass (p)" never said that a pass wins the deal
    # by the last trick (or, after one's own close, loses it).
    import random

    said = set()
    for seed in range(60):
        table = Table(rules, (Seat("You"), Seat("Computer")), seed=seed)
        deal, rng = table.deal, random.Random(seed)
        while not deal.is_legal("pass") and deal.outcome is None:
            assert table.pass_words(deal.to_move) is None
            deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind != "claim"]))
        if deal.outcome is not None:
            continue
        seat = deal.to_move
        words = table.pass_words(seat)
        assert words is not None and table.pass_words(1 - seat) is None
        deal.apply("pass")
        outcome = deal.outcome
        assert outcome is not None
        if rules.sixty_six and not rules.open_tricks and outcome.reason != "closer_failed":  # (points)
            assert words == "pass (p): the last trick counts 10 more and more points win"
        elif outcome.winner is None:
            assert words == f"pass (p): a draw ({outcome.reason.short})"
        else:
            who = "you win" if outcome.winner == seat else f"{table.name(outcome.winner)} wins"
            assert words.startswith(f"pass (p): {who} the deal, {outcome.game_points} game point")
            assert words.endswith(f"({outcome.reason.short})")
        said.add(outcome.reason)
    assert said  # the case was met
