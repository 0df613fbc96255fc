"""A game against the computer (bummerl.session): the computer's random choices tell nothing of the cards
hidden from the player."""

from __future__ import annotations

from collections import defaultdict

import pytest

from bummerl.bots import make_bot
from bummerl.rules import Rules
from bummerl.session import computer_bot
from bummerl.table import Seat, Table


@pytest.mark.parametrize("level", ["random", "easy"])
def test_the_computers_first_lead_tells_nothing_of_the_bottom_talon_card(level: str) -> None:
    # The computer was seeded with the game's seed, which also shuffles the first deal: its first lead, drawn
    # from the stream's first number, told which cards could lie at the bottom of the talon (at level random
    # 6 or 7 of the 20 for the first two of its choices; at easy, whether it threw a random card). Grouped by
    # the lead's place among its choices (random) or by whether it differs from the heuristic's (easy),
    # every card now comes in every group.
    rules = Rules.preset("standard")
    bottoms: dict[object, set[int]] = defaultdict(set)
    seen: dict[object, int] = defaultdict(int)
    for seed in range(2000):
        table = Table(rules, (Seat("You"), Seat("Computer")), seed=seed, first_dealer=0)  # the computer leads
        view = table.view(1)
        lead = computer_bot(level, seed).choose(view)
        group = (view.legal_actions.index(lead) if level == "random"
                 else lead != make_bot("medium", seed).choose(view))
        bottoms[group].add(int(table.deal.deck[-1]))
        seen[group] += 1
    pack = {int(c) for c in table.deal.deck}
    assert len([g for g in seen if seen[g] >= 150]) >= 2, dict(seen)
    assert all(bottoms[g] == pack for g in seen if seen[g] >= 150), {g: len(bottoms[g]) for g in seen}
