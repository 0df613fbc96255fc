"""``bummerl serve`` with bugs planted, for the log tests: run as ``python -m helpers.crashing_server serve
--port P`` (with ``tests`` on ``PYTHONPATH``). Each planted error carries the whole deal, both hands and a
view in its message, as a careless error message would:

- the action ``"crash"`` raises out of the game's socket (uvicorn logs "Exception in ASGI application"),
  after a warning of our own that names the deal;
- an ``analyse`` request raises in its background task (asyncio logs "Task exception was never
  retrieved" once the task is gone);
- the computer's every decision raises (the game tells the player the computer failed to move).
"""

from __future__ import annotations

import logging
from typing import Any

from bummerl.cards import cards_in
from bummerl.server import games, thinker
from bummerl.view import View

__all__ = ["CRASH", "MARKER"]

#: The action that raises, and the text every planted error starts with.
CRASH = "crash"
MARKER = "planted bug"

_act = games.LiveGame.act


def _secrets(game: games.LiveGame) -> str:
    deal = game.table.deal
    hands = [" ".join(str(c) for c in cards_in(h)) for h in deal.hands]
    return f"{deal!r} hands {hands} views {[game.table.view(s).to_json() for s in (0, 1)]}"


async def _crashing_act(self: games.LiveGame, seat: int, action: str) -> None:
    if action == CRASH:
        logging.getLogger("bummerl.server.games").warning("%s: about to fail in %s", MARKER, _secrets(self))
        raise RuntimeError(f"{MARKER} in act: {_secrets(self)}")
    await _act(self, seat, action)


async def _crashing_analyse(self: games.LiveGame, seat: int) -> dict[str, Any]:
    raise RuntimeError(f"{MARKER} in analyse: {_secrets(self)}")


async def _crashing_decide(self: thinker.Thinker, level: str, seed: int, view: View) -> Any:
    raise RuntimeError(f"{MARKER} in the computer: {view.to_json()}")


def main() -> None:
    games.LiveGame.act = _crashing_act  # type: ignore[method-assign]
    games.LiveGame.analyse = _crashing_analyse  # type: ignore[method-assign]
    thinker.Thinker.decide = _crashing_decide  # type: ignore[method-assign]
    from bummerl.cli import main as cli

    cli()


if __name__ == "__main__":
    main()
