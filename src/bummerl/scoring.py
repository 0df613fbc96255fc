"""The numbers and words of scoring, written once (rules.md section 4): marriages, the last trick, the
game-point table and the reasons a deal ends.

The engine scores with these; bots, the solver, positions and front ends read them from here instead of
writing 20, 40, 10, 33 or a reason's words again.

>>> marriage_points(2, trump=2), marriage_points(0, trump=2), LAST_TRICK_POINTS, WIN_POINTS
(40, 20, 10, 66)
>>> game_point_table(0, 0), game_point_table(2, 32), game_point_table(2, 33)
(3, 2, 1)
>>> closer_failed_points(0), closer_failed_points(1), FORFEIT_POINTS
(3, 2, 3)
>>> Reason("closer_failed").sentence, Reason.CLOSER_FAILED.short, Reason.CLOSER_FAILED.label
('the player who closed the talon did not reach 66', 'the closer did not reach 66', 'closer failed')
>>> import json
>>> Reason.CLAIM, Reason.CLAIM == "claim", json.dumps({"reason": Reason.CLAIM})
('claim', True, '{"reason": "claim"}')
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "FORFEIT_POINTS",
    "HALF_POINTS",
    "LAST_TRICK_POINTS",
    "MARRIAGE_POINTS",
    "MOST_MARRIAGE_POINTS",
    "TRUMP_MARRIAGE_POINTS",
    "WIN_POINTS",
    "Reason",
    "closer_failed_points",
    "game_point_table",
    "marriage_points",
]

#: A marriage (king and queen of a suit declared together) in a plain suit (rules.md 4.1).
MARRIAGE_POINTS = 20
#: The marriage in trumps.
TRUMP_MARRIAGE_POINTS = 40
#: Every marriage one player can declare in a deal: three plain ones and the trump one.
MOST_MARRIAGE_POINTS = 3 * MARRIAGE_POINTS + TRUMP_MARRIAGE_POINTS
#: Sixty-Six's points for the last trick when nobody closed (rules.md 4.4).
LAST_TRICK_POINTS = 10
#: The points a player needs to win a deal.
WIN_POINTS = 66
#: Below this many points the loser (with a trick) gives up 2 game points instead of 1.
HALF_POINTS = 33
#: Game points the other side scores when a bot forfeits a deal (the arena, the environments).
FORFEIT_POINTS = 3


def marriage_points(suit: int, trump: int) -> int:
    """What a marriage in ``suit`` counts when ``trump`` is the trump suit: 40 in trumps, else 20."""
    return TRUMP_MARRIAGE_POINTS if suit == trump else MARRIAGE_POINTS


def game_point_table(loser_tricks: int, loser_points: int) -> int:
    """The game-point table of rules.md 4.2: 3 if the loser has no trick, 2 under 33 points, else 1."""
    if loser_tricks == 0:
        return 3
    return 2 if loser_points < HALF_POINTS else 1


def closer_failed_points(winner_tricks: int) -> int:
    """The table of a closing gone wrong (rules.md 4.2, 4.4): 3 if the winner had won no trick when the
    talon was closed, else 2. A closer who fails to reach 66, or claims wrongly, gives this to the other
    player; a correct claim against the closer scores it by the claimant's tricks at closing. A wrong claim
    with ``false_claim="fixed"`` scores the same table by the opponent's tricks now.
    """
    return 3 if winner_tricks == 0 else 2


class Reason(StrEnum):
    """Why a deal ended: the ``reason`` of an outcome. The values are the strings of records and JSON.

    ``claim`` (a correct claim, by hand or automatic), ``false_claim``, ``closer_failed`` (all cards
    played after closing), ``last_trick`` (Schnapsen, talon exhausted), ``more_points`` and ``draw``
    (Sixty-Six, talon exhausted). ``forfeit`` is never the engine's: the arena and the environments give
    it when a bot breaks a rule or fails to answer.
    """

    CLAIM = "claim"
    FALSE_CLAIM = "false_claim"
    CLOSER_FAILED = "closer_failed"
    LAST_TRICK = "last_trick"
    MORE_POINTS = "more_points"
    DRAW = "draw"
    FORFEIT = "forfeit"

    def __repr__(self) -> str:
        """The record's string, so an outcome prints as it always did and pastes back into ``Outcome``."""
        return repr(self.value)

    @property
    def sentence(self) -> str:
        """Why the deal ended, as a clause of a sentence (the game's log and score sheet)."""
        return _WORDS[self][0]

    @property
    def short(self) -> str:
        """The same, short (``bummerl replay``'s result line)."""
        return _WORDS[self][1]

    @property
    def label(self) -> str:
        """The value with spaces (``false claim``), for tables."""
        return self.value.replace("_", " ")


#: The one table of words for the reasons: (sentence, short).
_WORDS: dict[Reason, tuple[str, str]] = {
    Reason.CLAIM: ("a correct claim of 66", "a correct claim"),
    Reason.FALSE_CLAIM: ("a wrong claim of 66", "a false claim"),
    Reason.CLOSER_FAILED: ("the player who closed the talon did not reach 66", "the closer did not reach 66"),
    Reason.LAST_TRICK: ("all cards were played; the last trick wins", "the last trick"),
    Reason.MORE_POINTS: ("all cards were played; more points win", "more points"),
    Reason.DRAW: ("all cards were played with equal points", "equal points"),
    Reason.FORFEIT: ("a forfeit: the other side broke a rule or did not answer", "a forfeit"),
}
