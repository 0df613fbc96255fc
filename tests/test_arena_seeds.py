"""The arena's seeds: decks and bot seeds from one root in separate keyed streams, so that no bot can
rebuild a deck from what it is told (issue 11, section 3)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bummerl import Rules
from bummerl.arena import ArenaConfig, run_arena
from bummerl.arena.match import deck_deal
from bummerl.arena.seeds import StreamRandom, bot_seeds, bummerl_random, deck_random, root_key
from helpers.arena_bots import GUESS_ROOTS, GUESSES, register_test_bots

STANDARD = Rules.preset("standard")


@pytest.fixture(autouse=True)
def _bots(monkeypatch: pytest.MonkeyPatch) -> None:
    register_test_bots(monkeypatch)


def hits(root: int) -> tuple[int, int, set[str]]:
    """Cards of the opponent's hand the guesser named, deals it guessed, and how it found its guesses."""
    truth: dict[int, int] = {}
    for pair in range(200):
        deal = deck_deal(STANDARD, root, pair)
        truth[deal.hands[0]] = deal.hands[1]
        truth[deal.hands[1]] = deal.hands[0]
    right = sum((predicted & truth[hand]).bit_count() for hand, predicted, _ in GUESSES)
    return right, len(GUESSES), {how for _, _, how in GUESSES}


def test_a_bot_trying_the_public_derivation_names_the_opponents_cards_no_better_than_chance() -> None:
    result = run_arena(ArenaConfig(("guesser", "random"), STANDARD, deals=400))
    right, deals, how = hits(result.seed)
    assert deals == 400 and "bot seed" not in how  # "own cards" may match a first deck by coincidence
    # chance: 5 named cards out of the 14 unseen, the opponent holds 5: hypergeometric per deal
    mean, var = 25 / 14, 5 * (5 / 14) * (9 / 14) * (9 / 13)
    z = (right - deals * mean) / math.sqrt(deals * var)
    assert z < 4.0, f"the guesser named {right} of the opponent's cards in {deals} deals (z = {z:.1f})"


@pytest.mark.parametrize("root", [17, GUESS_ROOTS])
def test_the_same_bot_reads_every_hand_when_the_root_is_guessable(root: int) -> None:
    """The attack works (so the test above can fail): a small --seed is public knowledge."""
    run_arena(ArenaConfig(("guesser", "random"), STANDARD, seed=root, deals=40))
    right, deals, how = hits(root)
    # every deal's hand found among the root's decks (now and then another deck has the same hand)
    assert deals == 40 and right >= 0.9 * 5 * deals and how == {"bot seed"}


def test_the_same_root_gives_the_same_decks_bot_seeds_and_numbers() -> None:
    assert deck_deal(STANDARD, 99, 3).deck == deck_deal(STANDARD, 99, 3).deck
    assert bot_seeds(99, 1, 2) == bot_seeds(99, 1, 2)
    a = run_arena(ArenaConfig(("random", "random"), STANDARD, seed=2**100 + 7, deals=40, workers=2))
    b = run_arena(ArenaConfig(("random", "random"), STANDARD, seed=2**100 + 7, deals=40))
    assert numbers(a) == numbers(b) and a.pairings[0].reasons == b.pairings[0].reasons


def numbers(result: Any) -> list[tuple[Any, ...]]:
    return [(x.won, x.lost, x.drawn, x.points_per_deal, x.bummerls_won) for x in result.pairings[0].lines]


def test_the_streams_are_separate() -> None:
    decks = {tuple(deck_deal(STANDARD, 5, j).deck) for j in range(50)}
    assert len(decks) == 50
    seeds = [s for c in range(50) for s in bot_seeds(5, 0, c)]
    assert len(set(seeds)) == 100 and all(0 <= s < 2**63 for s in seeds)
    assert deck_random(5, 0).getrandbits(64) != bummerl_random(5, 0).getrandbits(64)
    assert root_key(5) not in {s.to_bytes(8, "big") for s in seeds}


@given(st.binary(min_size=32, max_size=32), st.integers(0, 300))
def test_the_stream_generator_is_deterministic_and_uniform_in_range(key: bytes, n: int) -> None:
    a, b = StreamRandom(key), StreamRandom(key)
    draws = [a.randrange(n + 1) for _ in range(20)]
    assert draws == [b.randrange(n + 1) for _ in range(20)] and all(0 <= d <= n for d in draws)
    assert a.random() == b.random()


def test_the_stream_shuffle_deals_every_order_equally_often() -> None:
    counts: dict[tuple[int, ...], int] = {}
    for k in range(4800):
        cards = [0, 1, 2, 3]
        StreamRandom(root_key(k)).shuffle(cards)
        counts[tuple(cards)] = counts.get(tuple(cards), 0) + 1
    assert len(counts) == 24
    chi2 = sum((c - 200) ** 2 / 200 for c in counts.values())
    assert chi2 < 60  # 23 degrees of freedom: p < 0.0001 by chance


def test_the_stream_generator_has_no_visible_bias() -> None:
    rng = StreamRandom(root_key(3))
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randrange(6)] += 1
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts)
    assert chi2 < 25  # 5 degrees of freedom: p < 0.0002 by chance


def test_an_outside_bot_hears_only_its_bot_stream_seed(tmp_path: Path) -> None:
    log = tmp_path / "hello.jsonl"
    program = tmp_path / "bot.py"
    program.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['type'] == 'hello':\n"
        "        log.write(line); log.flush(); print('{}', flush=True)\n"
        "    elif msg['type'] == 'decide':\n"
        "        print(msg['legal'][0], flush=True)\n"
        "    elif msg['type'] == 'bye':\n"
        "        break\n")
    result = run_arena(ArenaConfig(("random", f"cmd:{sys.executable} {program}"), STANDARD, seed=2026,
                                   deals=4))
    hellos = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(hellos) == 2  # one chunk per deck pair here
    expected = {bot_seeds(result.seed, 0, chunk)[1] for chunk in range(2)}
    assert {h["seed"] for h in hellos} == expected
    assert all(h["seed"] != 2026 and str(2026) not in json.dumps(h) for h in hellos)
