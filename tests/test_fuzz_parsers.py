"""Fuzzing every parser (issue 11 §4): any text, bytes or JSON value in gives either a value or a
:class:`~bummerl.errors.BummerlError` with a one-line message of bounded length, never another exception
and never a hang.

Bounded for CI: each property runs a fixed, derandomized set of examples (a few seconds in all), and each
call must finish within :data:`PATIENCE` seconds (a hang fails the test instead of stalling the run);
``BUMMERL_FUZZ_EXAMPLES=20000 python -m pytest tests/test_fuzz_parsers.py`` searches longer, at random.
Besides random text, the strategies mutate valid records, notation lines and puzzle diagrams with the
inputs that used to slip through: huge and non-ASCII numbers, odd unicode, blank strings, deep nesting.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bummerl.actions import Action
from bummerl.cards import Card, Suit, parse_cards
from bummerl.errors import BummerlError
from bummerl.jsonio import decode, loads
from bummerl.notation import parse, parse_hand, parse_position, parse_puzzle
from bummerl.puzzle import Puzzle
from bummerl.records import DealRecord, GameRecord, load_record, read_records
from bummerl.rules import Rules
from bummerl.setup import Setup

#: Seconds one parser call may take before it counts as a hang (generous: a loaded 2-core machine).
PATIENCE = 10
#: The longest message accepted: its own words (a list of flags is 200 characters) and at most ~80
#: characters of each bad value it quotes.
LONGEST = 500

#: Examples per property: a fixed derandomized 150 in CI; ``BUMMERL_FUZZ_EXAMPLES=20000`` runs a longer,
#: random search by hand.
EXAMPLES = int(os.environ.get("BUMMERL_FUZZ_EXAMPLES", "0"))
FUZZ = settings(
    max_examples=EXAMPLES or 150, deadline=None, derandomize=not EXAMPLES, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)

DECK = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD".split()  # noqa: SIM905
RECORD: dict[str, Any] = {"rules": "standard", "dealer": 1, "deck": DECK,
                          "actions": ["play AS", "play QS", "claim"]}
GAME: dict[str, Any] = {"rules": "standard", "first_dealer": 1, "target": 7,
                        "deals": [{k: v for k, v in RECORD.items() if k != "rules"}], "scores": [[7, 4]]}
POSITIONS = [
    "tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2",
    "soft CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2 closed=0@2/27",
    "tompa HQ.CTK.DAK/?HT.CQJ.DTQJ 1 QS 0 28/27 2/2",
    "soft:false_claim=mirror,open_tricks=no CKQ.DA.SAJ/?CATJ.DTQJ.HATKQJ.SK 7 QS 0 34/0 1/0 married=C",
    "soft:false_claim=mirror,open_tricks=no HJ.SATKJ/?CATK.DKQ.HTKQ.SQ 5 JD 0:JC 0/35 0/2",
]
PUZZLE: dict[str, Any] = {
    "rules": "tompa", "hand": ["QH", "TC", "KC", "AD", "KD"], "unseen": ["TH", "QC", "JC", "TD", "QD", "JD"],
    "trump_card": "QS", "talon": "open", "facedown": 1, "points": {"me": 28, "opponent": 27},
    "tricks": {"me": 2, "opponent": 2}, "to_move": "me", "lead": None, "opponent_has": [],
}

#: Tokens that once slipped through a parser or broke it.
NASTY = [
    "", " ", "\t", "\u00a0", "\u200b", "\u3000", "7" * 5000, "1" + "0" * 12, "²", "\u0662", "\u0661\u0660",
    "ＱＨ", "Q\u0301H", "\u212aH", "Q\u017f", "NaN", "-1", "1e999", "[" * 200, "{", "?", "/", "+", ":", "@",
    "\ud800", "\x00", "x" * 10_000, "10**12", "-", ".", "CTK.", "H", "66",
]
nasty = st.sampled_from(NASTY)
texts = st.one_of(st.text(), st.text(alphabet=st.characters(codec="utf-8")), nasty,
                  st.text(alphabet="[]{}\",:0123456789eE.-+ \n\\u", max_size=200))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | texts
    | st.integers(min_value=10**11, max_value=10**50),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(texts, inner, max_size=5),
    max_leaves=20,
)


@contextmanager
def patience(seconds: float = PATIENCE) -> Iterator[None]:
    """Fail (with TimeoutError) a call that runs longer than ``seconds``: a hang, not a slow machine."""
    if threading.current_thread() is not threading.main_thread():  # pragma: no cover - no signals there
        yield
        return

    def timeout(signum: int, frame: object) -> None:
        raise TimeoutError(f"a parser ran for more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, timeout)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def value_or_bummerl_error(parse_it: Callable[[Any], object], value: Any) -> None:
    """The property: a value, or a BummerlError with one short line; anything else fails the test."""
    with patience():
        try:
            parse_it(value)
        except BummerlError as err:
            message = str(err)
            assert message and "\n" not in message and len(message) <= LONGEST, (type(err), message[:400])


TEXT_PARSERS: dict[str, Callable[[str], object]] = {
    "jsonio.loads": loads,
    "DealRecord.loads": lambda t: DealRecord.loads(t).replay(),
    "GameRecord.loads": lambda t: GameRecord.loads(t).replay(),
    "read_records": lambda t: [item.record.trace() for item in read_records(t)],
    "Rules.preset": Rules.preset,
    "Card.parse": Card.parse,
    "Suit.parse": Suit.parse,
    "parse_cards": parse_cards,
    "Action.parse": Action.parse,
    "notation.parse": parse,
    "parse_position": parse_position,
    "parse_puzzle": parse_puzzle,
    "parse_hand": parse_hand,
    "Puzzle.parse": Puzzle.parse,
    "Setup.parse": Setup.parse,
}
VALUE_PARSERS: dict[str, Callable[[Any], object]] = {
    "load_record": lambda v: load_record(v).trace(),
    "DealRecord.from_json": DealRecord.from_json,
    "GameRecord.from_json": GameRecord.from_json,
    "Rules.from_json": Rules.from_json,
    "Puzzle.from_json": Puzzle.from_json,
}


@FUZZ
@given(st.sampled_from(sorted(TEXT_PARSERS)), texts)
def test_any_text_gives_a_value_or_a_bummerl_error(name: str, text: str) -> None:
    value_or_bummerl_error(TEXT_PARSERS[name], text)


@FUZZ
@given(st.sampled_from(sorted(VALUE_PARSERS)), json_values)
def test_any_json_value_gives_a_value_or_a_bummerl_error(name: str, value: Any) -> None:
    value_or_bummerl_error(VALUE_PARSERS[name], value)


@FUZZ
@given(st.binary() | st.sampled_from([b"\xff", b"\xc3", b'{"a": "\xed\xa0\x80"}', json.dumps(RECORD).encode()
                                      ]))
def test_any_bytes_give_a_value_or_a_bummerl_error(data: bytes) -> None:
    value_or_bummerl_error(loads, data)
    value_or_bummerl_error(decode, data)


def _replace_word(text: str, index: int, word: str) -> str:
    words = text.split(" ")
    words[index % len(words)] = word
    return " ".join(words)


@FUZZ
@given(st.sampled_from(POSITIONS), st.integers(0, 20), st.integers(0, 20), nasty | st.text(max_size=20),
       st.sampled_from(["replace", "insert", "in-word"]))
def test_mutated_notation_gives_a_value_or_a_bummerl_error(
    line: str, index: int, at: int, token: str, how: str
) -> None:
    words = line.split(" ")
    i = index % len(words)
    if how == "replace":
        words[i] = token
    elif how == "insert":
        words.insert(i, token)
    else:  # inside a word: a number, a hand, a card
        word = words[i]
        cut = at % (len(word) + 1)
        words[i] = word[:cut] + token + word[cut + 1:]
    mutated = " ".join(words)
    for name in ("notation.parse", "parse_position", "parse_puzzle", "Puzzle.parse", "Setup.parse"):
        value_or_bummerl_error(TEXT_PARSERS[name], mutated)


def _mutate(value: Any, path: list[int], new: Any) -> Any:
    """``value`` with the element ``path`` leads to (indexes into lists and sorted keys) replaced."""
    if not path or not isinstance(value, dict | list) or not value:
        return new
    if isinstance(value, dict):
        key = sorted(value)[path[0] % len(value)]
        return {**value, key: _mutate(value[key], path[1:], new)}
    i = path[0] % len(value)
    return [*value[:i], _mutate(value[i], path[1:], new), *value[i + 1:]]


@FUZZ
@given(st.sampled_from(["record", "game", "puzzle"]), st.lists(st.integers(0, 30), min_size=1, max_size=4),
       json_values | nasty | st.integers(min_value=-(10**15), max_value=10**15))
def test_mutated_records_and_diagrams_give_a_value_or_a_bummerl_error(
    kind: str, path: list[int], new: Any
) -> None:
    base = {"record": RECORD, "game": GAME, "puzzle": PUZZLE}[kind]
    value = _mutate(base, path, new)
    if kind == "puzzle":
        value_or_bummerl_error(VALUE_PARSERS["Puzzle.from_json"], value)
    else:
        value_or_bummerl_error(VALUE_PARSERS["load_record"], value)
    text = json.dumps(value, ensure_ascii=False)
    value_or_bummerl_error(TEXT_PARSERS["read_records" if kind != "puzzle" else "jsonio.loads"], text)


def test_the_seed_inputs_are_valid() -> None:
    """The mutations start from valid inputs (else the mutation tests would only test refusals)."""
    assert DealRecord.from_json(RECORD).replay().outcome is not None
    assert GameRecord.from_json(GAME).replay().score == (7, 4)
    assert Puzzle.from_json(PUZZLE).facedown == 1
    for line in POSITIONS:
        assert str(parse(line)) in (line, str(parse(str(parse(line)))))
