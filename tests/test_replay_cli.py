"""``bummerl replay FILE [--json]``: the contract's output (rules.md section 9), batches, stdin and errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import pytest
from typer.testing import CliRunner

from bummerl import Deal, Rules
from bummerl.cli import app
from bummerl.records import DealRecord, GameRecord
from bummerl.rules import PRESETS
from helpers.dealkit import finished_game

runner = CliRunner()

# The engine's doctest deal. Player 0 (non-dealer) holds QH TC AS KS TD, player 1 JD KD QS JH KH, trump AH.
# 1. Player 0 may close (talon 10) or play any card; no trump jack, no marriage, no claim before a trick.
# 2. The talon is open, so player 1 may follow with anything. AS beats QS: player 0 takes 11 + 3 = 14,
#    draws AD, player 1 draws JC.
# 3. Player 0 won the trick, so may claim; 14 < 66 is a false claim and player 1, who has no trick,
#    scores 3 (false_claim = fixed).
STANDARD = {
    "rules": "standard", "dealer": 1,
    "deck": "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD".split(),  # noqa: SIM905
    "actions": ["play AS", "play QS", "claim"],
}
STANDARD_OUT = (
    '{"steps": ['
    '{"to_move": 0, "legal": ["close", "play AS", "play KS", "play QH", "play TC", "play TD"], '
    '"action": "play AS"}, '
    '{"to_move": 1, "legal": ["play JD", "play JH", "play KD", "play KH", "play QS"], "action": "play QS"}, '
    '{"to_move": 0, "legal": ["claim", "close", "play AD", "play KS", "play QH", "play TC", "play TD"], '
    '"action": "claim"}], '
    '"result": {"winner": 1, "game_points": 3, "reason": "false_claim"}, "points": [14, 0], "tricks": [1, 0]}'
)

# Soft rules (no trick needed to marry). Player 0 holds JH KS QS AS TS, player 1 AC TC KC QC JC, trump AH.
# 1. exchange JH for AH; 2. marry S (20, counted once player 0 wins a trick; after it only KS, QS or claim);
# 3-4. KS, player 1 throws AC (talon open): player 0 takes 4 + 11 + the marriage's 20 = 35, draws KH,
# player 1 draws QH; 5. close; 6. AS: player 1 has no spade, so must trump with QH (3.2) and takes 11 + 3.
# The record stops there: an unfinished deal, result null.
SOFT = {
    "rules": "soft", "dealer": 1,
    "deck": "JH KS QS AC TC KC AH AS TS QC JC KH QH TH JS JD QD KD TD AD".split(),  # noqa: SIM905
    "actions": ["exchange", "marry S", "play KS", "play AC", "close", "play AS", "play QH"],
}
SOFT_OUT = (
    '{"steps": ['
    '{"to_move": 0, "legal": ["close", "exchange", "marry S", "play AS", "play JH", "play KS", "play QS", '
    '"play TS"], "action": "exchange"}, '
    '{"to_move": 0, "legal": ["close", "marry S", "play AH", "play AS", "play KS", "play QS", "play TS"], '
    '"action": "marry S"}, '
    '{"to_move": 0, "legal": ["claim", "play KS", "play QS"], "action": "play KS"}, '
    '{"to_move": 1, "legal": ["play AC", "play JC", "play KC", "play QC", "play TC"], "action": "play AC"}, '
    '{"to_move": 0, "legal": ["claim", "close", "play AH", "play AS", "play KH", "play QS", "play TS"], '
    '"action": "close"}, '
    '{"to_move": 0, "legal": ["play AH", "play AS", "play KH", "play QS", "play TS"], "action": "play AS"}, '
    '{"to_move": 1, "legal": ["play QH"], "action": "play QH"}], '
    '"result": null, "points": [35, 14], "tricks": [1, 1]}'
)


def run(*args: str, stdin: str | None = None) -> Any:
    return runner.invoke(app, ["replay", *args], input=stdin)


def write(tmp_path: Path, text: str, name: str = "r.json") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def assert_one_line_error(result: Any, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("error: ")
    assert "Traceback" not in result.output
    assert message in result.stderr, result.stderr


# ------------------------------------------------------------------------------------------ exact output


@pytest.mark.parametrize(
    ("record", "expected"), [(STANDARD, STANDARD_OUT), (SOFT, SOFT_OUT)], ids=["claim", "unfinished"]
)
def test_json_output_is_exactly_the_hand_checked_object(tmp_path: Path, record: Any, expected: str) -> None:
    result = run(write(tmp_path, json.dumps(record)), "--json")
    assert result.exit_code == 0, result.output
    assert result.stdout == expected + "\n"


def test_a_pretty_printed_record_gives_one_line(tmp_path: Path) -> None:
    result = run(write(tmp_path, json.dumps(SOFT, indent=4)), "--json")
    assert result.stdout == SOFT_OUT + "\n"


def test_dash_reads_standard_input() -> None:
    result = run("-", "--json", stdin=json.dumps(STANDARD) + "\n" + json.dumps(SOFT) + "\n")
    assert result.exit_code == 0
    assert result.stdout == STANDARD_OUT + "\n" + SOFT_OUT + "\n"


def test_json_lines_give_one_result_per_record_in_order_skipping_blank_lines(tmp_path: Path) -> None:
    text = "\n".join([json.dumps(SOFT), "", json.dumps(STANDARD), json.dumps(SOFT)]) + "\n\n"
    result = run(write(tmp_path, text, "batch.jsonl"), "--json")
    assert result.stdout.splitlines() == [SOFT_OUT, STANDARD_OUT, SOFT_OUT]


# ------------------------------------------------------------------------------------------ cross-check


def random_record(rng: Random, index: int) -> tuple[dict[str, Any], str]:
    """A seeded random legal deal from every preset (sometimes with flag overrides, sometimes unfinished),
    and the replay line expected from the engine's own state along the way."""
    preset = sorted(PRESETS)[index % len(PRESETS)]
    rules = Rules.preset(preset)
    if not rules.auto_claim and rng.random() < 0.4:
        rules = rules.replace(false_claim="mirror", closing_scoring=rng.choice(["viennese", "tournament"]))
    deal = Deal.random(rules, rng, dealer=rng.randrange(2))
    stop = rng.randrange(40) if rng.random() < 0.25 else None
    steps = []
    while not deal.is_over and (stop is None or len(deal.history) < stop):
        legal = deal.legal_actions()
        # Claim when it is correct, rarely otherwise: more deals reach the interesting endings.
        claims = [a for a in legal if str(a) == "claim"]
        if claims and deal.points[deal.to_move] >= 66:
            action = claims[0]
        else:
            others = [a for a in legal if str(a) != "claim"] or list(legal)
            action = rng.choice(list(legal) if rng.random() < 0.03 else others)
        steps.append({"to_move": deal.to_move, "legal": sorted(str(a) for a in legal), "action": str(action)})
        deal.apply(action)
    expected = {
        "steps": steps,
        "result": None if deal.outcome is None else {
            "winner": deal.outcome.winner,
            "game_points": deal.outcome.game_points,
            "reason": deal.outcome.reason,
        },
        "points": list(deal.points),
        "tricks": list(deal.tricks),
    }
    return DealRecord.from_deal(deal).to_json(), json.dumps(expected)


def test_replay_agrees_with_the_engine_on_300_random_records_from_every_preset(tmp_path: Path) -> None:
    rng = Random(2024)
    pairs = [random_record(rng, i) for i in range(300)]
    path = write(tmp_path, "".join(json.dumps(rec) + "\n" for rec, _ in pairs), "many.jsonl")
    result = run(path, "--json")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 300
    for line, (_, expected) in zip(lines, pairs, strict=True):
        assert line == expected
    outs = [json.loads(line) for line in lines]
    assert all(s["legal"] == sorted(s["legal"]) for o in outs for s in o["steps"])
    reasons = {o["result"]["reason"] for o in outs if o["result"]}
    assert {"claim", "false_claim", "closer_failed", "last_trick"} <= reasons
    assert any(o["result"] is None for o in outs)


# ------------------------------------------------------------------------------------------ errors

DECK = STANDARD["deck"]
ERRORS = [
    ("bad JSON", '{"rules": "standard", "dealer": 1,', "error: bad JSON at line 1 column 35: Expecting"),
    ("missing field", json.dumps({"rules": "vu", "dealer": 1, "deck": DECK}), "missing field 'actions'"),
    ("bad card", json.dumps({**STANDARD, "deck": ["QX", *DECK[1:]]}), "error: deck[0]: not a card: 'QX'"),
    ("not a full pack", json.dumps({**STANDARD, "deck": DECK[:19]}), "error: deck: missing QD (a schnapsen"),
    ("unknown preset", json.dumps({**STANDARD, "rules": "blitz"}), "error: rules: unknown rules preset 'bl"),
    ("unknown flag", json.dumps({**STANDARD, "rules": {"preset": "vu", "x": 1}}), "unknown rule flag 'x'"),
    ("not an action", json.dumps({**STANDARD, "actions": ["play AS", "jump"]}), "error: step 2: not an act"),
    (
        "illegal action",
        json.dumps({**STANDARD, "actions": ["play AS", "play QS", "play QS"]}),
        "error: step 3: play QS is not legal: player 0 does not hold QS (legal: claim, close, play AD,",
    ),
    ("empty", "", "error: the input holds no record"),
]


@pytest.mark.parametrize(("text", "message"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_every_error_exits_2_with_one_line_naming_the_reason(tmp_path: Path, text: str, message: str) -> None:
    for args in (["--json"], []):
        assert_one_line_error(run(write(tmp_path, text), *args), message)


def test_a_bad_record_in_a_batch_stops_there_after_the_good_ones_are_printed(tmp_path: Path) -> None:
    bad = json.dumps({**SOFT, "actions": ["exchange", "exchange"]})
    text = "\n".join([json.dumps(STANDARD), json.dumps(SOFT), "", bad, json.dumps(SOFT)]) + "\n"
    result = run(write(tmp_path, text), "--json")
    assert result.stdout.splitlines() == [STANDARD_OUT, SOFT_OUT]
    assert_one_line_error(result, "error: line 4: step 2: exchange is not legal")


def test_bad_json_on_a_later_line_names_the_line(tmp_path: Path) -> None:
    result = run(write(tmp_path, json.dumps(SOFT) + "\n" + '{"rules": "soft",\n'), "--json")
    assert result.stdout.splitlines() == [SOFT_OUT]
    assert_one_line_error(result, "error: line 2: bad JSON at column 18: Expecting property name")


def test_a_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    assert_one_line_error(run(str(tmp_path / "nope.json")), "cannot read")


def test_a_binary_file_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert_one_line_error(run(str(path)), "not UTF-8 text")


def test_the_real_command_keeps_errors_on_stderr_without_traceback(tmp_path: Path) -> None:
    bad = json.dumps({**STANDARD, "deck": [*DECK[:-1], "QS"]})
    proc = subprocess.run(
        [sys.executable, "-c", "from bummerl.cli import main; main()", "replay", "-", "--json"],
        input=json.dumps(STANDARD) + "\n" + bad + "\n",
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == STANDARD_OUT + "\n"
    assert proc.stderr == (
        "error: line 2: deck[19]: QS appears twice (a schnapsen deck is the full pack of 20 cards)\n"
    )


# ------------------------------------------------------------------------------------------ for people


def test_the_readable_replay_shows_hands_trump_tricks_and_result(tmp_path: Path) -> None:
    result = run(write(tmp_path, json.dumps(STANDARD)))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "rules standard, dealer 1, player 0 leads" in out
    assert "Trump card  AH (hearts)" in out
    assert "Player 0 holds  TC TD QH KS AS\nPlayer 1 holds  JD KD JH KH QS\n" in out
    assert "Talon, top first  AD JC QC TH KC AC JS TS QD, then AH face up" in out
    assert "Trick 1  0 leads AS, 1 plays QS: 0 wins, points 14–0; 0 draws AD, 1 draws JC" in out
    assert "Player 0 claims with 14 points" in out
    assert "Result: player 1 wins 3 game points (a false claim)" in out
    assert "Points 14–0, tricks 1–0" in out


def test_the_readable_replay_of_an_unfinished_deal_says_who_is_to_move(tmp_path: Path) -> None:
    out = run(write(tmp_path, json.dumps(SOFT))).stdout
    assert "0 exchanges JH for AH" in out and "0 marries S" in out and "0 closes the talon" in out
    assert "Unfinished: player 1 to move" in out


# ------------------------------------------------------------------------------------------ game records


def test_a_game_record_replays_every_deal_and_the_score(tmp_path: Path) -> None:
    game = finished_game("standard", 3)
    result = run(write(tmp_path, GameRecord.from_game(game).dumps()), "--json")
    assert result.exit_code == 0, result.output
    [line] = result.stdout.splitlines()
    body = json.loads(line)
    assert body["scores"] == [list(s.score_after) for s in game.finished]
    assert body["winner"] == game.winner
    assert [d["result"] for d in body["deals"]] == [s.outcome.to_json() for s in game.finished]
    actions = [[s["action"] for s in d["steps"]] for d in body["deals"]]
    assert actions == [list(s.actions) for s in game.finished]


def test_the_readable_game_replay_gives_each_deal_and_the_winner(tmp_path: Path) -> None:
    game = finished_game("standard", 4)
    out = run(write(tmp_path, GameRecord.from_game(game).dumps())).stdout
    needed = [max(s, 0) for s in game.score]  # still needed, as the games list and the game show it
    assert f"Player {game.winner} wins the Bummerl, score {needed[0]} : {needed[1]}" in out
    for summary in game.finished:  # standard rules: no draws
        o = summary.outcome
        assert f"{o.winner} wins {o.game_points}: {o.reason.replace('_', ' ')}" in out
        assert f"{summary.score_after[0]} : {summary.score_after[1]}" in out


def test_a_game_record_with_a_wrong_score_is_an_error(tmp_path: Path) -> None:
    body = json.loads(GameRecord.from_game(finished_game("standard", 5)).dumps())
    body["scores"][0] = [7, 7]
    result = run(write(tmp_path, json.dumps(body)), "--json")
    assert_one_line_error(result, "error: deal 1: the record gives the score [7, 7] after this deal")
