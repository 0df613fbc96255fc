"""Every bad input refused in one line (issue 11 §4): the loaders raise a BummerlError with a short message,
and ``bummerl replay``, ``solve`` and ``analyse`` print one line on stderr and exit 2, without a traceback.

Each case below is an input the standard library lets through or turns into a bare ``ValueError``,
``RecursionError`` or a hang: integers over 4,300 digits, deep nesting, duplicate keys, bytes that are
not UTF-8, rules objects without a preset, whitespace-only and odd-unicode cards, non-ASCII digits and
absurd point values.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import pytest
from typer.testing import CliRunner

from bummerl.actions import Action
from bummerl.cards import Card, Suit, parse_cards
from bummerl.cli import app
from bummerl.errors import BummerlError, quote
from bummerl.jsonio import MOST_DEPTH, InputError, decode, loads
from bummerl.records import DealRecord, GameRecord, RecordError, read_records
from bummerl.rules import Rules, RulesError

runner = CliRunner()
#: The ``bummerl`` command in a real process (the entry point of the installed console script).
BUMMERL = [sys.executable, "-c", "from bummerl.cli import main; main()"]

DECK = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD".split()  # noqa: SIM905
RECORD: dict[str, Any] = {"rules": "standard", "dealer": 1, "deck": DECK, "actions": ["play AS", "play QS"]}
POSITION = "tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2"
PUZZLE = "tompa HQ.CTK.DAK/?HT.CQJ.DTQJ 1 QS 0 28/27 2/2"
#: The longest error line we accept: a message's own words (a list of flags can be 200 characters) and
#: at most ~80 characters of each bad value it quotes.
LONGEST_LINE = 500


def record_text(**changes: Any) -> str:
    return json.dumps({**RECORD, **changes}, ensure_ascii=False)


def with_card(i: int, code: str) -> str:
    deck = list(DECK)
    deck[i] = code
    return record_text(deck=deck)


HUGE = "7" * 5000
#: Texts that are not records, each with a word of the message that refuses it.
BAD_RECORDS = {
    "int over 4300 digits": (record_text().replace('"dealer": 1', f'"dealer": {HUGE}'), "far too long"),
    "long float": (record_text().replace('"dealer": 1', f'"dealer": 1.{HUGE}'), "far too long"),
    "1e999": (record_text().replace('"dealer": 1', '"dealer": 1e999'), "out of range"),
    "NaN": (record_text().replace('"dealer": 1', '"dealer": NaN'), "NaN is not a JSON value"),
    "deep list": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "deep in a field": (record_text().replace('"play AS"', "[" * 40 + "1" + "]" * 40), "nested too deeply"),
    "duplicate key": (record_text().replace('"dealer": 1', '"dealer": 1, "dealer": 0'), "appears twice"),
    "rules without preset": (record_text(rules={"open_tricks": "no"}), "names its preset"),
    "empty rules object": (record_text(rules={}), "names its preset"),
    "whitespace card": (with_card(0, "   "), "not a card"),
    "fullwidth card": (with_card(0, "ＱＨ"), "not a card"),
    "combining mark": (with_card(0, "Q\u0301H"), "not a card"),
    "zero-width space": (with_card(0, "\u200bQH"), "not a card"),
    "no-break space": (with_card(0, "\u00a0QH"), "not a card"),
    "kelvin sign": (with_card(10, "\u212aH"), "not a card"),
    "long s": (with_card(5, "Q\u017f"), "not a card"),
    "non-ASCII digit card": (with_card(0, "١٠H"), "not a card"),
    "odd-unicode action": (record_text(actions=["play\u3000AS"]), "not an action"),
    "Arabic-Indic digit": (record_text().replace('"dealer": 1', '"dealer": \u0661'), "bad JSON"),
    "huge target": (json.dumps({"rules": "standard", "first_dealer": 0, "target": 10**12,
                                "deals": [{k: v for k, v in RECORD.items() if k != "rules"}]}), "target"),
    "long bad value": (with_card(0, "X" * 10_000), "not a card"),
}


def check_message(err: BaseException) -> None:
    text = str(err)
    assert "\n" not in text and len(text) <= LONGEST_LINE, text[:500]
    assert "X" * 100 not in text and "7" * 100 not in text


@pytest.mark.parametrize("text", [t for t, _ in BAD_RECORDS.values()], ids=list(BAD_RECORDS))
def test_every_record_loader_refuses_with_one_short_line(text: str) -> None:
    message = BAD_RECORDS[next(k for k, v in BAD_RECORDS.items() if v[0] == text)][1]
    for load in (DealRecord.loads, GameRecord.loads, lambda t: list(read_records(t))):
        with pytest.raises(RecordError) as info:
            load(text)
        check_message(info.value)
    with pytest.raises(RecordError, match=message):
        list(read_records(text))


def test_a_bad_line_of_json_lines_is_named_by_its_number() -> None:
    good = record_text()
    bad = record_text().replace('"dealer": 1', '"dealer": 1, "dealer": 1')
    with pytest.raises(RecordError, match=r"^line 3: bad JSON: the key 'dealer' appears twice"):
        list(read_records(good + "\n\n" + bad + "\n"))
    with pytest.raises(RecordError, match=r"^line 1: bad JSON: a number of"):
        list(read_records(record_text().replace('"dealer": 1', f'"dealer": {HUGE}') + "\n" + good))


def test_jsonio_refuses_what_json_loads_lets_through() -> None:
    assert loads('{"a": [1, 2.5, "x"], "b": null}') == {"a": [1, 2.5, "x"], "b": None}
    assert loads(b'{"a": "\xe2\x99\xa5"}') == {"a": "♥"}
    nested_ok = "[" * MOST_DEPTH + "]" * MOST_DEPTH
    assert loads(nested_ok) is not None
    bad: list[str | bytes] = ['{"a": 1, "a": 1}', "[" * (MOST_DEPTH + 1) + "]" * (MOST_DEPTH + 1), "Infinity",
                              "-Infinity", "1" * 41, "1e999", b"\xff", b'"\xc3"', "[1,", "\u0661"]
    for text in bad:
        with pytest.raises(InputError) as info:
            loads(text)
        check_message(info.value)
    # brackets inside strings do not count as nesting
    assert loads(json.dumps("[" * 10_000)) == "[" * 10_000


def test_the_nesting_check_is_linear_on_a_string_never_closed() -> None:
    # Its pattern failed from every quote of such a string: 64 KB took 17 s, and the web server reads
    # 64 KB bodies on its event loop (session 15's audit).
    text = '{"a":' + "[" * (MOST_DEPTH + 1) + '"' + '\\"' * 20_000
    start = time.process_time()
    with pytest.raises(InputError, match="nested too deeply"):
        loads(text)
    assert time.process_time() - start < 0.5  # 0.1 ms; quadratic, this took 6 s
    assert loads('["' + "[" * 40 + '\\"]"]') == ["[" * 40 + '"]']  # an escaped quote does not end it


def test_a_control_character_in_a_string_is_said_once() -> None:
    with pytest.raises(InputError) as info:
        loads('{"a": "x\x00"}')
    assert str(info.value) == "bad JSON at line 1 column 9: Invalid control character"  # not "... at"


def test_a_record_over_several_lines_is_bounded_as_a_whole() -> None:
    from bummerl.jsonio import MOST_LINE_CHARS

    endless = iter(["{\n"] + ["1,\n"] * (MOST_LINE_CHARS // 3 + 10))  # each line short, the whole not
    with pytest.raises(RecordError, match=f"^a record over several lines is longer than {MOST_LINE_CHARS}"):
        list(read_records(endless))


def test_decode_says_where_the_bad_byte_is() -> None:
    message = r"^cannot read x\.json: not UTF-8 text \(invalid start byte at byte 2\)$"
    with pytest.raises(InputError, match=message):
        decode(b"{ \xff }", "x.json")


@pytest.mark.parametrize(
    "text", ["", "   ", "\t", "ＱＨ", "Q\u0301H", "\u200bQH", "\u00a0QH", "\u212aH", "Q\u017f", "١٠H", "QH\n",
             "Q\x00H", "X" * 100_000],
)
def test_card_suit_and_action_parsing_refuse_blank_and_odd_unicode(text: str) -> None:
    for parse in (Card.parse, Suit.parse, lambda t: Action.parse("play " + t), lambda t: Action.parse(t)):
        with pytest.raises(BummerlError) as info:
            parse(text)
        check_message(info.value)


def test_the_usual_spellings_still_parse() -> None:
    assert [str(c) for c in parse_cards("qh, 10s Q♥ laub-sau")] == ["QH", "TS", "QH", "AS"]
    assert str(Card.parse(" Herz König ")) == "KH"
    assert Suit.parse(" Schellen ") == Suit.D
    assert str(Action.parse("  PLAY  q♠ ")) == "play QS"


def test_a_rules_object_must_name_its_preset() -> None:
    assert Rules.from_json({"preset": "sharp"}) == Rules.preset("sharp")
    for value in [{}, {"open_tricks": "no"}, {"preset": None}, {"preset": "\u212aa"}, ["standard"], 7,
                  {"preset": "standard", "marriage_scoring": "tric\u212a"}, {"preset": "x" * 5000}]:
        with pytest.raises(RulesError) as info:
            Rules.from_json(value)
        check_message(info.value)


def test_quote_cuts_a_long_value_to_80_characters() -> None:
    assert quote("QX") == "'QX'"
    long = quote("y" * 1000)
    assert len(long) == 80 and long.startswith("'yyy") and long.endswith("...'")
    assert len(quote(list(range(10_000)))) == 80


# --------------------------------------------------------------------------------------------- positions

#: Notation lines and puzzle diagrams with numbers that are absurd or not ASCII digits.
BAD_POSITIONS = [
    POSITION.replace("28/27", "1000000000000/27"),
    POSITION.replace("28/27", "1000000000028/1000000000027"),
    POSITION.replace("2/2", "2/" + "2" * 5000),
    POSITION.replace("2/2", "2/²"),
    POSITION.replace("2/2", "2/\u0662"),
    POSITION.replace("28/27", "28+" + "20" * 3000 + "/27"),
    PUZZLE.replace("28/27", "20000000000000028/27"),
    PUZZLE.replace(" 1 QS", " \u0661 QS"),
    PUZZLE.replace(" 1 QS", " " + "1" * 5000 + " QS"),
    POSITION.replace("CTK", "C\u212aT"),
    POSITION.replace("CTK", "\u017fTK"),
]


@pytest.mark.parametrize("text", BAD_POSITIONS, ids=range(len(BAD_POSITIONS)))
def test_notation_refuses_absurd_and_non_ascii_numbers_at_once(text: str) -> None:
    from bummerl.notation import parse

    start = time.perf_counter()
    with pytest.raises(BummerlError) as info:
        parse(text)
    assert time.perf_counter() - start < 5  # no loop runs on the number (10**12 points once took hours)
    check_message(info.value)


def test_a_puzzle_diagram_with_absurd_points_is_refused_at_once() -> None:
    from bummerl.puzzle import Puzzle

    body = {"rules": "tompa", "hand": ["QH", "TC", "KC", "AD", "KD"],
            "unseen": ["TH", "QC", "JC", "TD", "QD", "JD"], "trump_card": "QS", "facedown": 1,
            "points": {"me": 10**12 + 28, "opponent": 27}, "tricks": {"me": 2, "opponent": 2}}
    for points in ({"me": 10**12 + 28, "opponent": 27}, {"me": 10**12 + 19, "opponent": 5}, [10**15, 10**15]):
        start = time.perf_counter()
        with pytest.raises(BummerlError) as info:
            Puzzle.from_json({**body, "points": points})
        assert time.perf_counter() - start < 5
        check_message(info.value)


# --------------------------------------------------------------------------------------------- the CLI


def assert_one_line_error(code: int, stderr: str, output: str = "") -> None:
    shown = (code, stderr[:500], output[:500])
    assert code == 2, shown
    assert stderr.startswith("error: ") and stderr.count("\n") == 1, shown
    assert len(stderr) <= LONGEST_LINE + len("error: line 1: "), shown
    assert "Traceback" not in stderr + output


CLI_CASES = {
    **{name: text for name, (text, _) in BAD_RECORDS.items()},
    "notation points 10**12": POSITION.replace("28/27", "1000000000000/27"),
    "notation non-ASCII digit": POSITION.replace("2/2", "2/\u0662"),
    "notation superscript digit": POSITION.replace("2/2", "2/²"),
    "notation huge number": POSITION.replace("2/2", "2/" + "2" * 5000),
}


@pytest.mark.parametrize("command", ["replay", "solve", "analyse"])
@pytest.mark.parametrize("text", list(CLI_CASES.values()), ids=list(CLI_CASES))
def test_every_command_refuses_bad_input_in_one_line(command: str, text: str) -> None:
    if command == "replay" and text.startswith("tompa"):
        text = json.dumps({"rules": "standard", "dealer": 1, "deck": text.split(), "actions": []})
    result = runner.invoke(app, [command, "-"], input=text)
    assert_one_line_error(result.exit_code, result.stderr, result.stdout)


@pytest.mark.parametrize("command", ["replay", "solve", "analyse"])
def test_non_utf8_standard_input_is_one_line_from_a_real_process(command: str) -> None:
    data = record_text().encode().replace(b'"QH"', b'"Q\xe9"')
    proc = subprocess.run(
        [*BUMMERL, command, "-"], input=data, capture_output=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "LC_ALL": "C", "PYTHONIOENCODING": ""},
    )
    stderr = proc.stderr.decode()
    assert_one_line_error(proc.returncode, stderr)
    assert "not UTF-8 text" in stderr


def test_non_utf8_standard_input_under_a_latin1_locale_is_not_read_as_latin1() -> None:
    """Standard input is read as UTF-8 whatever the locale says, so the bad byte is refused, not decoded."""
    data = record_text().encode().replace(b'"QH"', b'"Q\xc8"')
    proc = subprocess.run(
        [*BUMMERL, "replay", "-"], input=data, capture_output=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "latin-1", "PYTHONUTF8": "0"},
    )
    assert_one_line_error(proc.returncode, proc.stderr.decode("latin-1"))
    assert b"not UTF-8 text" in proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a disk that is always full)")
@pytest.mark.parametrize("args", [["--help"], ["games"], ["stats"], ["solve", "-"], ["analyse", "-"],
                                  ["replay", "-"], ["replay", "--json", "-"]])
def test_output_that_cannot_be_written_is_one_line(tmp_path: Any, args: list[str]) -> None:
    # A full disk under `bummerl games export ID > backup.json` ended in a traceback of 36-59 lines, and
    # replay blamed its input file (session 15's audit).
    text = record_text() if args[0] == "replay" else POSITION
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*BUMMERL, *args], input=text, stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=120, env={**os.environ, "BUMMERL_HOME": str(tmp_path)})
    assert (proc.returncode, proc.stderr) == (2, "error: cannot write the output: No space left on device\n")


def test_analyse_refuses_an_absurd_sample_count_in_one_line() -> None:
    result = runner.invoke(app, ["analyse", "--samples", str(10**12), "-"], input=PUZZLE)
    assert_one_line_error(result.exit_code, result.stderr, result.stdout)
    assert "--samples must be from 1 to" in result.stderr


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_a_line_that_is_not_utf8_after_many_good_ones_is_named_by_line_and_byte_after_they_are_replayed(
        tmp_path: Any, source: str) -> None:
    # Text was decoded 8 KiB ahead: the good records of that block were lost and the byte was counted
    # from the block's start, without the line (session 11's audit).
    good = (record_text() + "\n").encode()
    data = good * 100 + b'{"rules": "standard\xff"}\n' + good
    at = data.index(b"\xff")
    path = tmp_path / "late.jsonl"
    path.write_bytes(data)
    args = ["-"] if source == "stdin" else [str(path)]
    proc = subprocess.run([*BUMMERL, "replay", "--json", *args], input=data if source == "stdin" else None,
                          capture_output=True, timeout=120)
    stderr = proc.stderr.decode()
    assert_one_line_error(proc.returncode, stderr)
    assert stderr.strip().endswith(f": line 101: not UTF-8 text (invalid start byte at byte {at})"), stderr
    assert len(proc.stdout.decode().splitlines()) == 100  # every record before it, replayed


def test_the_utf8_reader_cuts_an_overlong_line_without_reading_it_all() -> None:
    import io

    from bummerl.jsonio import MOST_LINE_CHARS, Utf8Reader, lines

    ace = "\N{PLAYING CARD ACE OF SPADES}".encode()  # 4 bytes
    reader = Utf8Reader(io.BytesIO(ace * (MOST_LINE_CHARS + 5)))
    with pytest.raises(InputError, match=f"^x: line 1 is longer than {MOST_LINE_CHARS} characters$"):
        list(lines(reader, "x: "))
    assert reader.raw.tell() == 4 * (MOST_LINE_CHARS + 1)  # a bound in bytes: at most 4 per character


@pytest.mark.parametrize(("args", "words"), [
    (["solv"], "No such command 'solv'. Did you mean 'solve'? (see 'bummerl -h')"),
    (["play", "--bogus"], "No such option: --bogus (see 'bummerl play -h')"),
    (["arena", "--deals", "x"], "Invalid value for '--deals'"),
    (["games", "export"], "Missing argument 'ID'. (see 'bummerl games export -h')"),
    # a missing value: Click raises it without the command's context
    (["play", "--level"], "Option '--level' requires an argument. (see 'bummerl play -h')"),
    (["arena", "--rules"], "Option '--rules' requires an argument. (see 'bummerl arena -h')"),
])
def test_a_mistake_on_the_command_line_is_one_line_not_a_box(args: list[str], words: str) -> None:
    # Typer drew a five-line box (usage, a hint and the error framed in rules) for these.
    proc = subprocess.run([*BUMMERL, *args], capture_output=True, text=True, timeout=120)
    assert_one_line_error(proc.returncode, proc.stderr)
    assert proc.stderr.startswith("error: ") and words in proc.stderr, proc.stderr
    assert proc.stdout == ""


def test_no_command_still_shows_the_help() -> None:
    proc = subprocess.run(BUMMERL, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "Commands" in proc.stdout + proc.stderr and "play" in proc.stdout + proc.stderr
