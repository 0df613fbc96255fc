"""What the spectators of a friend game may see, as the players agreed when it started.

The inviter chooses when creating the invitation; whoever takes the free seat is shown the choice first,
and taking the seat is agreeing to it:

- ``public`` (the default): spectators get the public view of the deal being played (``/ws/watch``:
  what both players were shown, never a hand or the talon), nothing more while the Bummerl goes on.
- ``delayed``: the same public view, and besides every deal of the Bummerl that is over may be replayed
  with all its cards (both hands, the talon order). Nothing of the deal in progress is ever shown beyond
  the public view: the delay is one whole deal.

Once a Bummerl is over its record is public either way (``/api/games/{id}/record``), so its replay is too.

>>> from bummerl.records import GameRecord
>>> from bummerl.game import Bummerl
>>> from bummerl.rules import Rules
>>> game = Bummerl(Rules.preset("standard"), seed=5, first_dealer=0)
>>> while len(game.finished) < 2:
...     _ = game.next_deal() if game.deal.is_over else game.apply(game.deal.legal_actions()[0])
>>> _ = game.next_deal(); game.apply(game.deal.legal_actions()[0])  # the third deal has begun
>>> record = GameRecord.from_game(game)
>>> len(record.deals), len(shown_record(record, "delayed", finished=False).deals)
(3, 2)
>>> shown_record(record, "public", finished=False) is None
True
>>> check_spectators("secret")
Traceback (most recent call last):
...
bummerl.errors.BummerlError: spectators must be "public" or "delayed", not 'secret'
"""

from __future__ import annotations

from typing import Any

from bummerl.errors import BummerlError
from bummerl.records import GameRecord

__all__ = ["CHOICES", "SPECTATORS", "check_spectators", "shown_record", "watch_message"]

#: The choices, the default first.
SPECTATORS: tuple[str, ...] = ("public", "delayed")
#: Each choice in one sentence, for the invitation and the page of whoever takes the free seat.
CHOICES: dict[str, str] = {
    "public": "Spectators see only what both players have been shown: never a hand or the talon.",
    "delayed": "Spectators see what both players have been shown and may replay, with all cards, every deal "
               "of this Bummerl that is over; never anything hidden of the deal in progress.",
}


def check_spectators(value: object) -> str:
    """A valid spectators choice, or :class:`~bummerl.errors.BummerlError` saying what is allowed."""
    if value not in SPECTATORS:
        raise BummerlError(f'spectators must be "public" or "delayed", not {value!r}')
    return str(value)


def watch_message(game_id: str, spectators: str) -> dict[str, Any]:
    """What a spectator is told first about the players' choice: ``{"type": "spectators", "spectators",
    "text", "replay"}`` (``replay``: the replay page of the deals that are over, None for ``public``).

    >>> watch_message("abc", "delayed")["replay"], watch_message("abc", "public")["replay"]
    ('/replay/abc', None)
    """
    return {"type": "spectators", "spectators": spectators, "text": CHOICES.get(spectators, ""),
            "replay": f"/replay/{game_id}" if spectators == "delayed" else None}


def shown_record(record: GameRecord, spectators: str, *, finished: bool) -> GameRecord | None:
    """The part of a game's record that anyone may replay with all cards: the whole record once the Bummerl
    is over; the deals that are over while it goes on and its spectators are ``delayed``; else None."""
    if finished:
        return record
    if spectators != "delayed":
        return None
    scores = record.scores or ()
    over = len(scores)  # one score per finished deal; the deal in progress (if any) comes after them
    return GameRecord(record.rules, record.first_dealer, record.deals[:over], scores[:over], record.target)
