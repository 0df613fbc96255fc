"""Outside bots over JSON lines: the messages, the answers accepted, and every way a program can fail."""

from __future__ import annotations

import json
import select
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from bummerl import Deal, Rules, View
from bummerl.actions import Action
from bummerl.arena import ArenaConfig, run_arena
from bummerl.bots.external import (
    STDERR_TAIL,
    ExternalBot,
    ExternalBotError,
    parse_answer,
    parse_reply,
    view_to_json,
)

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "random_bot.py"
DECK = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD"


def write_bot(tmp_path: Path, on_decide: str, on_hello: str = "answer({'name': 'test'})",
              name: str = "bot.py") -> str:
    """A bot program; ``on_decide`` runs with ``msg`` (the decide message) and ``answer(obj)`` at hand.

    Every message received is appended to ``log.jsonl`` beside it.
    """
    code = textwrap.dedent(f"""\
        import json, sys, time
        log = open({str(tmp_path / 'log.jsonl')!r}, 'a')
        def answer(obj):
            sys.stdout.write((obj if isinstance(obj, str) else json.dumps(obj)) + '\\n')
            sys.stdout.flush()
        for line in sys.stdin:
            log.write(line); log.flush()
            msg = json.loads(line)
            if msg['type'] == 'hello':
                {on_hello}
            elif msg['type'] == 'decide':
                {on_decide}
            elif msg['type'] == 'bye':
                break
        """)
    path = tmp_path / name
    path.write_text(code)
    return f"cmd:{sys.executable} {path}"


def logged(tmp_path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]


def arena(spec: str, deals: int = 2, timeout: float | None = None, seed: int = 1) -> Any:
    return run_arena(ArenaConfig(("random", spec), Rules.preset("standard"), seed=seed, deals=deals,
                                 timeout=timeout))


def test_the_decide_message_describes_the_view() -> None:
    deal = Deal.from_deck(Rules.preset("standard"), DECK, dealer=1)
    deal.apply("play AS")
    msg = view_to_json(View.of(deal, 1, score=(7, 5)))
    assert msg["type"] == "decide" and msg["seat"] == 1 and msg["to_move"] == 1 and msg["dealer"] == 1
    assert msg["rules"] == "standard" and msg["trump"] == "H" and msg["trump_card"] == "AH"
    assert msg["lead"] == "AS" and msg["talon_size"] == 10 and msg["talon_open"] is True
    assert msg["hand"] == ["JD", "KD", "JH", "KH", "QS"]
    assert msg["score"] == [7, 5] and msg["legal"] == sorted(msg["legal"]) and "play QS" in msg["legal"]
    assert msg["closed_by"] is None and msg["tricks"] == [] and msg["opponent_hand_size"] == 4
    json.dumps(msg)


def test_the_decide_message_after_tricks_marriages_and_closing() -> None:
    deal = Deal.from_deck(Rules.preset("soft"),
                          "JH KS QS AC TC KC AH AS TS QC JC KH QH TH JS JD QD KD TD AD", dealer=1)
    for action in ("exchange", "marry S", "play KS", "play AC", "close"):
        deal.apply(action)
    msg = view_to_json(View.of(deal, 0))
    assert msg["exchanged"] == {"player": 0, "gave": "JH", "took": "AH"}
    assert msg["marriages"] == [{"player": 0, "suit": "S"}]
    assert msg["tricks"] == [{"leader": 0, "lead": "KS", "follow": "AC", "winner": 0}]
    assert msg["closed_by"] == 0 and msg["close_snapshot"] == [0, 0] and msg["trump_card"] is None
    assert msg["bottom_card"] == "JH" and msg["talon_open"] is False


@pytest.mark.parametrize(
    ("line", "action"),
    [("play QH", "play QH"), ("  play qh \r", "play QH"), ('"marry H"', "marry H"),
     ('{"action": "claim"}', "claim"), ('{"action": "exchange", "note": "hi"}', "exchange")],
)
def test_answers_may_be_bare_json_strings_or_objects(line: str, action: str) -> None:
    assert parse_reply(line) is Action.parse(action)


@pytest.mark.parametrize(
    ("line", "message"),
    [("{nope", "malformed JSON answer"), ('"play QH', "malformed JSON answer"),
     ('{"act": "claim"}', 'no "action" string'), ('{"action": 3}', 'no "action" string'),
     ("dance", "unknown action in answer"), ("", "unknown action in answer")],
)
def test_bad_answers_are_refused_with_a_reason(line: str, message: str) -> None:
    with pytest.raises(ExternalBotError, match=message):
        parse_reply(line)


def test_the_example_bot_plays_a_clean_reproducible_match() -> None:
    spec = f"cmd:{sys.executable} {EXAMPLE}"
    first = arena(spec, deals=8)
    second = arena(spec, deals=8)
    lines = first.pairings[0].lines
    assert lines[0].faults == lines[1].faults == 0 and lines[1].decisions > 0
    assert [x.won for x in lines] == [x.won for x in second.pairings[0].lines]
    assert first.pairings[0].reasons == second.pairings[0].reasons


def test_the_protocol_runs_hello_decide_deal_end_bye(tmp_path: Path) -> None:
    spec = write_bot(tmp_path, "answer({'action': msg['legal'][0]})")
    arena(spec, deals=2, seed=9)
    messages = logged(tmp_path)
    kinds = [m["type"] for m in messages]
    assert kinds[0] == "hello" and kinds[-1] == "bye" and kinds.count("hello") == 1
    assert kinds.count("deal_end") == 2 and "decide" in kinds
    hello = messages[0]
    assert hello["protocol"] == 1 and isinstance(hello["seed"], int) and hello["timeout"] == 10.0
    end = next(m for m in messages if m["type"] == "deal_end")
    assert end["result"]["reason"] and end["fault"] is None and end["seat"] in (0, 1)


def test_malformed_json_is_that_bots_fault(tmp_path: Path) -> None:
    result = arena(write_bot(tmp_path, "answer('{\"action\": ')"))
    line, pairing = result.pairings[0].lines[1], result.pairings[0]
    assert line.faults == 2 and line.won == 0
    assert "malformed JSON answer" in pairing.faults[0].reason
    assert pairing.faults[0].reason.startswith("raised ExternalBotError: ")


def test_unknown_actions_are_that_bots_fault(tmp_path: Path) -> None:
    result = arena(write_bot(tmp_path, "answer('dance')"))
    assert result.pairings[0].lines[1].faults == 2
    assert "unknown action in answer: not an action: 'dance'" in result.pairings[0].faults[0].reason


def test_illegal_actions_are_that_bots_fault_and_it_hears_why(tmp_path: Path) -> None:
    result = arena(write_bot(tmp_path, "answer('pass')"))
    assert result.pairings[0].lines[1].faults == 2
    assert "illegal action 'pass' (legal: " in result.pairings[0].faults[0].reason
    ends = [m for m in logged(tmp_path) if m["type"] == "deal_end"]
    assert len(ends) == 2 and all("illegal action 'pass'" in m["fault"] for m in ends)


def test_a_slow_bot_times_out_and_is_restarted_for_the_next_deal(tmp_path: Path) -> None:
    result = arena(write_bot(tmp_path, "time.sleep(3); answer(msg['legal'][0])"), deals=2, timeout=0.2)
    line, pairing = result.pairings[0].lines[1], result.pairings[0]
    assert line.faults == 2
    assert "no answer to decide within 0.2 s (timeout)" in pairing.faults[0].reason
    assert sum(1 for m in logged(tmp_path) if m["type"] == "hello") == 2  # restarted once


def test_a_bot_that_crashes_is_reported_with_its_last_error_line(tmp_path: Path) -> None:
    spec = write_bot(tmp_path, "sys.stderr.write('Traceback...\\nZeroDivisionError: oops\\n'); sys.exit(3)")
    result = arena(spec, deals=2)
    reasons = [f.reason for f in result.pairings[0].faults]
    assert result.pairings[0].lines[1].faults == 2
    assert "the bot program exited (code 3)" in reasons[0] and "ZeroDivisionError: oops" in reasons[0]


def test_a_crash_quotes_the_line_that_names_the_error_not_a_closing_banner(tmp_path: Path) -> None:
    # Node.js ends a crash with its version: an audit's fault read "its last error output: 'Node.js v20...'"
    crash = ("x.js:12\\n    a.b\\n      ^\\nTypeError: Cannot read b\\n    at f (x.js:12:5)\\n\\n"
             "Node.js v20.20.2\\n")
    result = arena(write_bot(tmp_path, f"sys.stderr.write('{crash}'); sys.exit(1)"), deals=2)
    assert "its last error output: 'TypeError: Cannot read b'" in result.pairings[0].faults[0].reason


def test_a_stray_line_costs_one_deal_not_the_next_one_too(tmp_path: Path) -> None:
    # a debug print once before the first answer: the program is started afresh, its answer never read late
    marker = tmp_path / "said"
    spec = write_bot(tmp_path, f"if not __import__('os').path.exists({str(marker)!r}): "
                               f"open({str(marker)!r}, 'w'); answer('debug line')\n"
                               "                answer(msg['legal'][0])")
    result = arena(spec, deals=4)
    reasons = [f.reason for f in result.pairings[0].faults]
    assert len(reasons) == 1 and "'debug line'" in reasons[0]  # was two: the next deal read the old answer


def test_a_crashing_bot_is_restarted_at_most_max_restarts_times(tmp_path: Path) -> None:
    spec = write_bot(tmp_path, "sys.exit(1)")
    bot = ExternalBot(spec[4:], max_restarts=2)
    deal = Deal.random(Rules.preset("standard"), 1)
    view = View.of(deal, deal.to_move)
    for _ in range(5):
        bot.new_deal(view)
        with pytest.raises(ExternalBotError, match="exited"):
            bot.choose(view)
    bot.close()
    assert sum(1 for m in logged(tmp_path) if m["type"] == "hello") == 3  # the start and 2 restarts


@pytest.mark.parametrize("on_hello", ["time.sleep(30)", "sys.exit(2)", "answer('hi')"])
def test_a_program_that_never_answered_hello_is_not_started_again(tmp_path: Path, on_hello: str) -> None:
    # (it would fail so again: a silent one cost the startup timeout at every deal)
    bot = ExternalBot(write_bot(tmp_path, "answer(msg['legal'][0])", on_hello=on_hello)[4:],
                      startup_timeout=0.3)
    deal = Deal.random(Rules.preset("standard"), 1)
    view = View.of(deal, deal.to_move)
    started = time.monotonic()
    for _ in range(4):
        bot.new_deal(view)
        with pytest.raises(ExternalBotError, match="hello"):
            bot.choose(view)
    bot.close()
    assert sum(1 for m in logged(tmp_path) if m["type"] == "hello") == 1 and bot.restarts == 0
    assert time.monotonic() - started < 30


def test_every_deal_of_a_crashing_bot_is_forfeited(tmp_path: Path) -> None:
    result = arena(write_bot(tmp_path, "sys.exit(1)"), deals=12)
    assert result.pairings[0].lines[1].faults == 12 and result.pairings[0].lines[0].won == 12


def test_a_bad_hello_answer_is_refused(tmp_path: Path) -> None:
    spec = write_bot(tmp_path, "answer(msg['legal'][0])", on_hello="answer('hi there')")
    result = arena(spec)
    assert "bad hello answer 'hi there' (expected a JSON object)" in result.pairings[0].faults[0].reason


def test_a_program_that_cannot_start_is_that_bots_fault() -> None:
    bot = ExternalBot(["/nonexistent/program"])
    deal = Deal.random(Rules.preset("standard"), 1)
    with pytest.raises(ExternalBotError, match="cannot start"):
        bot.choose(View.of(deal, deal.to_move))
    bot.close()


def test_the_program_starts_at_new_deal_so_its_start_is_not_timed_as_a_decision(tmp_path: Path) -> None:
    # The arena times choose() alone: a program started there had its start and hello in the time column.
    spec = write_bot(tmp_path, "answer(msg['legal'][0])")
    bot = ExternalBot(spec[4:])
    deal = Deal.random(Rules.preset("standard"), 1)
    bot.new_deal(View.of(deal, 0))
    assert bot.hello == {"name": "test"} and [m["type"] for m in logged(tmp_path)] == ["hello"]
    bot.close()
    gone = ExternalBot(["/nonexistent/program"])
    gone.new_deal(View.of(deal, 0))  # a failed start is not new_deal's error ...
    with pytest.raises(ExternalBotError, match="cannot start"):  # ... but the first decision's
        gone.choose(View.of(deal, deal.to_move))
    gone.close()


def test_close_lets_the_program_exit(tmp_path: Path) -> None:
    spec = write_bot(tmp_path, "answer(msg['legal'][0])")
    bot = ExternalBot(spec[4:], seed=3)
    deal = Deal.random(Rules.preset("standard"), 1)
    view = View.of(deal, deal.to_move)
    assert bot.choose(view) in view.legal_actions
    assert bot.hello == {"name": "test"}
    proc = bot._proc
    bot.close()
    assert proc is not None and proc.returncode == 0
    assert [m["type"] for m in logged(tmp_path)] == ["hello", "decide", "bye"]


def test_a_second_line_with_the_answer_is_that_bots_fault_and_never_an_answer(tmp_path: Path) -> None:
    # one write, so the extra line arrives with the answer
    spec = write_bot(tmp_path, "answer(msg['legal'][0] + '\\n' + msg['legal'][0])")
    result = arena(spec, deals=2)
    line, reasons = result.pairings[0].lines[1], [f.reason for f in result.pairings[0].faults]
    assert line.faults == 2 and reasons
    assert all("unexpected output '" in r and "after the answer" in r and "standard error" in r
               for r in reasons)


def test_output_before_the_decide_message_is_that_bots_fault(tmp_path: Path) -> None:
    spec = write_bot(tmp_path, "answer(msg['legal'][0])",
                     on_hello="answer({'name': 'x'}); time.sleep(0.3); answer('debug: ready')")
    bot = ExternalBot(spec[4:])
    deal = Deal.random(Rules.preset("standard"), 1)
    view = View.of(deal, deal.to_move)
    bot._ensure()
    assert bot._proc is not None and bot._proc.stdout is not None  # the stray line is there before the
    assert select.select([bot._proc.stdout], [], [], 30)[0]  # first decide message (30 s on any machine)
    with pytest.raises(ExternalBotError, match="unexpected output 'debug: ready' before the decide message"):
        bot.choose(view)
    bot.close()


def test_a_late_stray_answer_is_refused_by_its_id(tmp_path: Path) -> None:
    """A bot that echoes ids is never credited with a line meant for an earlier decide message, however
    late it comes."""
    spec = write_bot(tmp_path, textwrap.dedent("""\
        answer({'action': msg['legal'][0], 'id': msg['id']})
                        if msg['id'] == 1:
                            time.sleep(0.2)
                            answer({'action': msg['legal'][0], 'id': msg['id']})"""))
    bot = ExternalBot(spec[4:])
    deal = Deal.random(Rules.preset("standard"), 1)
    view = View.of(deal, deal.to_move)
    assert bot.choose(view) in view.legal_actions  # decide 1, answered at once
    with pytest.raises(ExternalBotError, match=r"is for decide 1, not for decide 2|before the decide"):
        bot.choose(view)  # sent before the stray line comes: the stray line is read, and refused
    bot.close()
    decides = [m for m in logged(tmp_path) if m["type"] == "decide"]
    assert [m["id"] for m in decides] == [1, 2][: len(decides)]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


SPAWN = ("child = __import__('subprocess').Popen([sys.executable, '-c', 'import time; time.sleep(120)'], "
         "stdin=-3, stdout=-3, stderr=-3); open({pids!r}, 'a').write(str(child.pid) + '\\n')")


@pytest.mark.parametrize("hang", [False, True], ids=["at the end", "on a timeout"])
def test_whatever_a_bot_started_is_killed_with_it(tmp_path: Path, hang: bool) -> None:
    pids = tmp_path / "pids"
    spawn = SPAWN.format(pids=str(pids))
    on_decide = "time.sleep(30)" if hang else "answer(msg['legal'][0])"
    spec = write_bot(tmp_path, on_decide, on_hello=f"{spawn}; answer({{'name': 'spawner'}})")
    result = arena(spec, deals=2, timeout=0.5 if hang else None)
    children = [int(x) for x in pids.read_text().split()]
    assert children and all(_gone(pid) for pid in children)
    assert result.pairings[0].lines[1].faults == (2 if hang else 0)


def spawner(tmp_path: Path) -> tuple[ExternalBot, int]:
    """A bot that started a child of its own when it said hello, after one decision: (it, the child's pid)."""
    pids = tmp_path / "pids"
    spec = write_bot(tmp_path, "answer(msg['legal'][0])",
                     on_hello=f"{SPAWN.format(pids=str(pids))}; answer({{'name': 'x'}})")
    bot = ExternalBot(spec[4:])
    deal = Deal.random(Rules.preset("standard"), 1)
    bot.choose(View.of(deal, deal.to_move))
    return bot, int(pids.read_text().split()[0])


def test_close_kills_a_child_left_behind_by_a_program_that_exits(tmp_path: Path) -> None:
    bot, child = spawner(tmp_path)
    assert _alive(child)
    bot.close()  # the program exits on bye; its child would live on for two minutes
    assert _gone(child)


def test_standard_error_is_kept_to_a_bounded_tail(tmp_path: Path) -> None:
    spec = write_bot(tmp_path, "sys.stderr.write('x' * 999 + '\\n'); answer(msg['legal'][0])",
                     on_hello="sys.stderr.write('e' * 3_000_000 + '\\nLAST LINE\\n'); answer({})")
    bot = ExternalBot(spec[4:])
    deal = Deal.random(Rules.preset("standard"), 1)
    view = View.of(deal, deal.to_move)
    for _ in range(100):
        bot.choose(view)
    tail = bot.stderr_tail
    assert len(tail.encode()) <= STDERR_TAIL and tail.endswith("x" * 999 + "\n")
    bot.kill()


def test_a_crash_quotes_the_last_line_of_a_long_error_output(tmp_path: Path) -> None:
    spec = write_bot(tmp_path, "sys.stderr.write('e' * 2_000_000 + '\\nValueError: late\\n'); sys.exit(2)")
    result = arena(spec, deals=2)
    reason = result.pairings[0].faults[0].reason
    assert "exited (code 2)" in reason and "ValueError: late" in reason and len(reason) < 400


@pytest.mark.parametrize("timeout", [0.0, -1.0, float("nan"), float("inf")])
def test_the_timeout_must_be_a_finite_positive_number(timeout: float) -> None:
    with pytest.raises(ValueError, match="finite positive number of seconds"):
        ExternalBot(["true"], timeout=timeout)


@pytest.mark.parametrize(("answer", "why"), [
    ('{"action": "claim", "id": ' + "1" * 5000 + "}", "a number of 5000 characters"),
    ('{"action": "claim", "action": "play QH"}', "the key 'action' appears twice"),
    ('{"action": "claim", "id": 1e999}', "1e999"),
    ('{"a": ' * 5000 + "1" + "}" * 5000, "nested too deeply"),
], ids=["long-number", "key-twice", "infinity", "deep"])
def test_an_answer_the_hardened_json_reader_refuses_is_one_clear_error(answer: str, why: str) -> None:
    """A 5000-digit id was a bare ValueError from Python's int limit; a doubled key was read as the last."""
    with pytest.raises(ExternalBotError, match="malformed JSON answer") as err:
        parse_answer(answer)
    assert why in str(err.value)


def test_a_stop_while_waiting_for_the_program_to_exit_still_kills_its_group(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C in an arena worker arrived during close's second of grace, before the group was killed, and
    # a bot that takes its time after bye outlived the arena (session 11's audit).
    import bummerl.bots.external as external

    bot, child = spawner(tmp_path)
    proc = bot._proc
    assert proc is not None

    def stopped(pid: int, grace: float) -> None:
        raise KeyboardInterrupt  # as the worker's signal handler raises its stop

    monkeypatch.setattr(external, "_wait_exit", stopped)
    with pytest.raises(KeyboardInterrupt):
        bot.close()
    assert _gone(proc.pid) and _gone(child) and bot._proc is None


def test_a_chunk_stopped_while_closing_one_bot_still_stops_the_other() -> None:
    from bummerl.arena import match

    closed: list[str] = []

    class Slow:
        def close(self) -> None:
            closed.append("a close")
            raise KeyboardInterrupt

        def kill(self) -> None:
            closed.append("a kill")

    class Other:
        def close(self) -> None:
            closed.append("b close")

        def kill(self) -> None:
            closed.append("b kill")

    with pytest.raises(KeyboardInterrupt):
        match.close_bots((Slow(), Other()), done=True)
    assert closed == ["a close", "b kill"]  # the other at once, as when the chunk is stopped


def test_a_bot_given_longer_to_think_may_take_as_long_to_start() -> None:
    # The start was held to 10 s whatever --timeout said, so a bot that loads a model for 12 s forfeited
    # every deal under --timeout 30 (session 11's audit).
    assert ExternalBot("python x.py", timeout=30).startup_timeout == 30
    assert ExternalBot("python x.py", timeout=0.5).startup_timeout == 10
    assert ExternalBot("python x.py", timeout=30, startup_timeout=2).startup_timeout == 2


def test_a_lone_bad_answer_costs_its_deal_and_the_program_plays_on(tmp_path: Path) -> None:
    # A review: stopping the program at every bad answer spent the restarts, then forfeited the chunk.
    bot = ExternalBot(write_bot(tmp_path, "answer('play ZZ' if msg['id'] == 1 else msg['legal'][0])")[4:])
    deal = Deal.random(Rules.preset("standard"), 1)
    view = View.of(deal, deal.to_move)
    bot.new_deal(view)
    assert bot._proc is not None
    pid = bot._proc.pid
    with pytest.raises(ExternalBotError, match="unknown action"):
        bot.choose(view)
    assert bot.choose(view) in view.legal_actions  # the same program answers the next decide
    assert bot._proc is not None and bot._proc.pid == pid and bot.restarts == 0
    bot.close()
