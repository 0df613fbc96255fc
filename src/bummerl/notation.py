"""A compact one-line position notation, like chess FEN, for full-information positions and for puzzles.

Seven space-separated fields, then optional ``key=value`` extras::

    rules  hands  talon  trump  turn  points  tricks  [closed=P@T/Q] [married=S] [claim=yes|no]

- ``rules``: a preset name, or a preset and overridden flags: ``standard:false_claim=mirror,open_tricks=no``.
- ``hands``: ``player0/player1``. A hand is written by suit: each suit letter followed by its ranks high to
  low, suits in the order C D H S joined by dots, so ``CTK.DAK.HQ`` is TC KC AD KD QH; ``-`` is no card.
  In a puzzle the second hand is ``KNOWN?UNSEEN``: the cards the opponent is known to hold (may be empty),
  ``?``, then every card "me" has not seen (opponent's hand and face-down talon; ``-`` if none).
- ``talon``: the face-down talon cards, top first, joined by commas (``JD,QC,AS``), ``-`` if none;
  in a puzzle only their number (``1``).
- ``trump``: the card under the talon (face up, or turned down once closed) while there is a talon, else
  the trump suit's letter.
- ``turn``: who is to move, ``0`` or ``1``; ``1:AS`` = player 1 follows the ace of spades led by player 0.
- ``points``: both players' points (card points and counted marriages), ``28/27``; marriage points
  declared but not yet counted follow a plus sign: ``0+20/12``.
- ``tricks``: tricks won by each player, ``2/2``.
- ``closed=0@1/20``: the talon was closed by player 0 when player 1 had 1 trick and 20 points.
- ``married=H``: the player to move has declared the marriage in hearts and must lead its king or queen.
- ``claim=no`` / ``claim=yes``: only where the claim right differs from the usual one (the leader, who won
  the last trick, may claim until they exchange or close).

In a puzzle, player 0 is "me" and player 1 the opponent. ``parse(str(x)) == x`` for every position.

A full position reads as a :class:`~bummerl.setup.Setup` (``Position`` is its old name here), a puzzle as
a :class:`~bummerl.puzzle.Puzzle`; ``str()`` of either writes its line. This module only reads and
writes: what a line may say is checked by the value it becomes (the grammar is :mod:`bummerl.grammar`).

>>> pos = parse("tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2")
>>> isinstance(pos, Setup), str(pos)
(True, 'tompa CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2')
>>> from bummerl import Deal
>>> sorted(str(a) for a in Deal.from_setup(pos).legal_actions())
['close', 'play AD', 'play KC', 'play KD', 'play QH', 'play TC']
>>> str(parse("tompa HQ.CTK.DAK/?HT.CQJ.DTQJ 1 QS 0 28/27 2/2"))
'tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2'
>>> parse("standard CTK/CQJ - S 0 60/40 4/4 closed=1@2/30")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.grammar.NotationError: bad position '...': closed=... needs a talon (a trump card in field 4)
"""

from __future__ import annotations

from bummerl.grammar import NotationError, format_hand, parse_hand
from bummerl.puzzle import Puzzle
from bummerl.setup import Setup

__all__ = [
    "NotationError",
    "Position",
    "format_hand",
    "format_position",
    "format_puzzle",
    "parse",
    "parse_hand",
    "parse_position",
    "parse_puzzle",
]

#: The old name of a full position read from the notation: it is a :class:`~bummerl.setup.Setup`.
Position = Setup


def parse_position(text: str) -> Setup:
    """Read a full-information position; raises :class:`NotationError`."""
    return Setup.parse(text)


def parse_puzzle(text: str) -> Puzzle:
    """Read a puzzle (one seat's view, player 0 is "me"); raises :class:`NotationError`."""
    return Puzzle.parse(text)


def format_position(setup: Setup) -> str:
    """The notation of a full-information position (``str(setup)``)."""
    return str(setup)


def format_puzzle(puzzle: Puzzle) -> str:
    """The notation of a puzzle (``str(puzzle)``; player 0 is "me")."""
    return str(puzzle)


def parse(text: str) -> Setup | Puzzle:
    """Read either kind: a puzzle when the second field holds a ``?`` (unseen cards), else a position.

    >>> [type(parse(line)).__name__ for line in ("standard CA.DT/CT.DA - H 0 40/38 4/4",
    ...                                          "standard CA.DT/?CT.DA 0 H 0 40/38 4/4")]
    ['Setup', 'Puzzle']
    """
    words = text.split()
    if len(words) > 1 and "?" in words[1]:
        return Puzzle.parse(text)
    return Setup.parse(text)
