#!/usr/bin/env python3
"""An outside bot for bummerl, in plain Python (standard library only): it plays a random legal action.

Run it against a built-in bot:

    bummerl arena random "cmd:python examples/random_bot.py" --deals 20 --seed 1

It speaks the JSON-lines protocol of ``bummerl.bots.external``: one JSON object per line on standard
input (``hello``, ``decide``, ``deal_end``, ``bye``), one answer line on standard output for ``hello``
and for each ``decide``. Anything printed for debugging must go to standard error.
"""

import json
import random
import sys


def main() -> int:
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            rng.seed(message.get("seed"))  # this bot's seed (never the decks'): the games are repeatable
            answer = {"name": "example random bot"}
        elif kind == "decide":  # echoing the id makes sure no stray line is taken for this answer
            answer = {"action": rng.choice(message["legal"]), "id": message.get("id")}
        elif kind == "bye":
            break
        else:  # deal_end and anything newer: no answer
            continue
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
