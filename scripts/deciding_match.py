"""A deciding match planned once and played in chunks that outlive a sitting (issue 16's 2000 Bummerls).

The match is exactly ``bummerl arena A B --bummerls N --seed S --rules R``: the same chunks, the same bot
seeds, the same games. But every finished chunk is written to its own JSON file in the match's folder, so
the hours the match needs can be spread over several sittings; a chunk cut short (Ctrl-C, the end of a
session) is played again from its start next time.

Everything is fixed in ``plan.json`` before the first game: the bots, rules, Bummerls, seed, the decision
rule, and a fingerprint of each bot's play (its choices on a few seeded positions). A chunk is only played
by bots whose fingerprint matches the plan: a changed expert would be another match.

    python scripts/deciding_match.py plan DIR --bots expert expert-v1 --bummerls 2000 --seed 2026
    python scripts/deciding_match.py run DIR --workers 2 --hours 2.5
    python scripts/deciding_match.py report DIR

``report`` before every chunk is in prints the numbers so far, marked *interim*: the decision is taken on
the whole match only, never on a good or bad start.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from selfplay_jobs import fingerprint as play_fingerprint

from bummerl import jsonio
from bummerl.arena.match import ChunkResult, Fault, Task, play_chunk
from bummerl.arena.results import PairingRecord, labels_for, summarize
from bummerl.arena.runner import ArenaConfig, add_chunk, chunks
from bummerl.bots.registry import make_bot
from bummerl.rules import Rules
from bummerl.scripting import positive
from bummerl.scripting import run as run_script

PLAN = "plan.json"


def fingerprint(name: str, rules: Rules) -> str:
    """A short hash of what bot ``name`` (seed 1) plays on a few seeded positions."""
    return play_fingerprint(lambda seed: make_bot(name, seed), rules)


def _config(plan: dict[str, Any]) -> ArenaConfig:
    return ArenaConfig(tuple(plan["bots"]), Rules.preset(plan["rules"]), seed=plan["seed"],
                       bummerls=plan["bummerls"])


def _chunk_file(folder: Path, task: Task) -> Path:
    return folder / f"chunk_{task.pairing}_{task.chunk:03d}.json"


def _to_json(plan_id: str, task: Task, result: ChunkResult) -> dict[str, Any]:
    return {
        "plan": plan_id, "pairing": task.pairing, "chunk": task.chunk, "first": task.first,
        "count": task.count, "points": result.points, "reasons": dict(result.reasons),
        "faults": [[f.bot, f.deal, f.reason] for f in result.faults], "fault_counts": result.fault_counts,
        "winners": result.winners, "lengths": result.lengths, "decisions": result.decisions,
        "times": [{str(k): v for k, v in h.items()} for h in result.times], "seconds": result.seconds,
    }


def _from_json(body: dict[str, Any]) -> ChunkResult:
    return ChunkResult(
        pairing=int(body["pairing"]), first=int(body["first"]), points=[int(p) for p in body["points"]],
        reasons=Counter({str(k): int(v) for k, v in body["reasons"].items()}),
        faults=[Fault(int(b), int(d), str(r)) for b, d, r in body["faults"]],
        fault_counts=[int(c) for c in body["fault_counts"]], winners=[int(w) for w in body["winners"]],
        lengths=[int(n) for n in body["lengths"]], decisions=[int(n) for n in body["decisions"]],
        times=tuple({int(k): int(v) for k, v in h.items()} for h in body["times"]),  # type: ignore[arg-type]
        seconds=float(body["seconds"]),
    )


def _read(path: Path) -> dict[str, Any]:
    body = jsonio.loads(path.read_bytes())
    if not isinstance(body, dict):
        raise SystemExit(f"{path}: not a JSON object")
    return body


def _plan_id(plan: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(plan, sort_keys=True).encode()).hexdigest()[:16]


def make_plan(args: argparse.Namespace) -> None:
    folder: Path = args.folder
    if (folder / PLAN).exists():
        raise SystemExit(f"{folder / PLAN} exists: a match is planned once")
    if args.bummerls < 2 or args.bummerls % 2:  # as the arena: twins on the same decks, seats swapped
        raise SystemExit(f"error: --bummerls must be even and at least 2, not {args.bummerls}")
    rules = Rules.preset(args.rules)
    plan = {
        "bots": args.bots, "rules": args.rules, "bummerls": args.bummerls, "seed": args.seed,
        "target_share": args.target, "interval_above": args.above,
        "fingerprints": {name: fingerprint(name, rules) for name in args.bots},
        "planned": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "command": f"bummerl arena {' '.join(args.bots)} --bummerls {args.bummerls} --seed {args.seed} "
                   f"--rules {args.rules}",
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / PLAN).write_text(json.dumps(plan, indent=1) + "\n")
    print(f"planned: {plan['command']}; fingerprints {plan['fingerprints']}")


def run(args: argparse.Namespace) -> None:
    folder: Path = args.folder
    plan = _read(folder / PLAN)
    rules = Rules.preset(plan["rules"])
    for name, expected in plan["fingerprints"].items():
        if (now := fingerprint(name, rules)) != expected:
            raise SystemExit(f"{name} plays differently from when the match was planned "
                             f"(fingerprint {now}, planned {expected}): this would be another match")
    plan_id = _plan_id(plan)
    todo = [t for t in chunks(_config(plan), plan["seed"]) if not _chunk_file(folder, t).exists()]
    deadline = time.monotonic() + args.hours * 3600 if args.hours else None
    print(f"{len(todo)} chunks to play", file=sys.stderr)
    started = time.monotonic()
    done = 0
    with ProcessPoolExecutor(args.workers) as pool:
        running: dict[Future[ChunkResult], Task] = {}
        while todo or running:
            while todo and len(running) < args.workers and (deadline is None or time.monotonic() < deadline):
                task = todo.pop(0)
                running[pool.submit(play_chunk, task)] = task
            if not running:
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                task = running.pop(future)
                path = _chunk_file(folder, task)
                temp = path.with_suffix(".tmp")
                temp.write_text(json.dumps(_to_json(plan_id, task, future.result())) + "\n")
                os.replace(temp, path)
                done += 1
                print(f"chunk {task.chunk} done ({done} this sitting, {time.monotonic() - started:.0f} s)",
                      file=sys.stderr)
    report(args)


def report(args: argparse.Namespace) -> None:
    folder: Path = args.folder
    plan = _read(folder / PLAN)
    plan_id = _plan_id(plan)
    config = _config(plan)
    labels = labels_for(config.bots)
    record = PairingRecord(0, (labels[0], labels[1]), (config.bots[0], config.bots[1]), "bummerls")
    tasks = list(chunks(config, plan["seed"]))
    played = 0
    for task in tasks:  # in play order; the report stops at the first chunk not played yet
        path = _chunk_file(folder, task)
        if not path.exists():
            break
        body = _read(path)
        if body.get("plan") != plan_id:
            raise SystemExit(f"{path} belongs to another plan")
        add_chunk(record, _from_json(body))
        played += 1
    later = sum(_chunk_file(folder, t).exists() for t in tasks[played:])
    complete = played == len(tasks)
    summary = summarize(record)
    a, b = summary.lines
    state = "the whole match" if complete else (
        f"INTERIM, {played} of {len(tasks)} chunks in play order ({later} later ones done): not the decision")
    print(f"{plan['command']}: {state}")
    for line in (a, b):
        s = line.bummerl_share
        net = line.net_per_deal
        print(f"  {line.label:12s} Bummerls {line.bummerls_won:5d} = {s.value:.1%} "
              f"[{s.low:.1%}, {s.high:.1%}]  game pts/deal {net.value:+.3f} [{net.low:+.3f}, "
              f"{net.high:+.3f}]  deals {line.deals}  time median {line.median_ms:.1f} ms, "
              f"p95 {line.p95_ms:.1f} ms  faults {line.faults}")
    if complete:
        s = a.bummerl_share
        met = s.value >= plan["target_share"] and s.low > plan["interval_above"]
        print(f"decision: {a.label} wins {s.value:.1%} of {a.bummerls_won + a.bummerls_lost} Bummerls, "
              f"interval low {s.low:.1%}; target >= {plan['target_share']:.0%} with the interval above "
              f"{plan['interval_above']:.0%}: {'MET' if met else 'NOT met'}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = parser.add_subparsers(dest="verb", required=True)
    p = verbs.add_parser("plan", help="fix the match before the first game")
    p.add_argument("folder", type=Path)
    p.add_argument("--bots", nargs=2, required=True, metavar=("NEW", "BASELINE"))
    p.add_argument("--bummerls", type=positive, default=2000)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--rules", default="standard")
    p.add_argument("--target", type=float, default=0.58, help="Bummerl share the new bot must reach")
    p.add_argument("--above", type=float, default=0.55, help="its interval's low end must exceed this")
    r = verbs.add_parser("run", help="play the chunks not played yet")
    r.add_argument("folder", type=Path)
    r.add_argument("--workers", type=positive, default=os.cpu_count() or 1)
    r.add_argument("--hours", type=float, help="start no chunk after this many hours")
    q = verbs.add_parser("report", help="the numbers so far (interim) or the decision")
    q.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    {"plan": make_plan, "run": run, "report": report}[args.verb](args)


if __name__ == "__main__":
    run_script(main)
