"""Shared checks for the built-in bots' tests: random positions of every preset, and views of the same
public information over a different deal (the hidden cards swapped)."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

from bummerl.actions import Action
from bummerl.cards import cards_in
from bummerl.engine import Deal, IllegalActionError
from bummerl.rules import PRESETS, Rules
from bummerl.view import View


def random_positions(rules: Rules, count: int, seed: int) -> Iterator[Deal]:
    """``count`` positions reached by random legal play (never a claim) from random deals."""
    rng = Random(seed)
    made = 0
    while made < count:
        deal = Deal.random(rules, rng, dealer=rng.randrange(2))
        stop = rng.randrange(1, 30)
        for _ in range(stop):
            if deal.is_over:
                break
            legal = [a for a in deal.legal_actions() if a.kind != "claim"] or list(deal.legal_actions())
            deal.apply(rng.choice(legal))
        if not deal.is_over:
            made += 1
            yield deal


def all_preset_positions(per_preset: int, seed: int) -> Iterator[tuple[str, Deal]]:
    """Random positions of every preset."""
    for i, name in enumerate(PRESETS):
        for deal in random_positions(PRESETS[name], per_preset, seed + 1000 * i):
            yield name, deal


def hidden_twin(deal: Deal, seat: int, rng: Random) -> Deal | None:
    """The same actions replayed on a deck whose cards hidden from ``seat`` (the opponent's unknown cards
    and the face-down talon) are permuted; None if the replay breaks a rule (the permutation contradicts
    what the opponent's plays showed) or nothing is hidden."""
    view = View.of(deal, seat)
    hidden = [int(c) for c in cards_in(view.unseen_mask)]
    if len(hidden) < 2:
        return None
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))
    deck = [swap.get(int(c), int(c)) for c in deal.deck]
    twin = Deal(deal.rules, deck, deal.dealer)
    try:
        for action in deal.history:
            twin.apply(action)
    except IllegalActionError:
        return None
    if twin.hands[seat] != deal.hands[seat]:
        return None
    return twin


def public_equal(a: View, b: View) -> bool:
    """Two views show the same public information (legal actions included)."""
    fields = ("seat", "to_move", "legal_actions", "hand_mask", "trump_card", "talon_size", "closed_by",
              "lead_card", "tricks", "marriages", "exchanged", "points", "tricks_won", "pending", "score")
    return all(getattr(a, f) == getattr(b, f) for f in fields) and a.unseen_mask == b.unseen_mask


def same_choice_on_twins(make_bot: object, positions: list[Deal], seed: int) -> int:
    """Check that a bot (made fresh, same seed, for each view) picks the same action on a position and
    on its hidden twin; return how many twins differing from their position were compared."""
    rng = Random(seed)
    compared = 0
    for deal in positions:
        seat = deal.to_move
        twin = hidden_twin(deal, seat, rng)
        if twin is None or (twin.hands[1 - seat] == deal.hands[1 - seat] and twin.talon == deal.talon):
            continue
        va, vb = View.of(deal, seat), View.of(twin, seat)
        assert public_equal(va, vb)
        a: Action = make_bot(seed).choose(va)  # type: ignore[operator]
        b: Action = make_bot(seed).choose(vb)  # type: ignore[operator]
        assert a == b, f"{a} on {deal!r} but {b} on its twin {twin!r} (seat {seat})"
        compared += 1
    return compared


#: Tompa's first puzzle (me to move, one face-down card: six worlds); the played cards in tricks that fit.
TOMPA_1 = "tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2"
_TOMPA_1_TRICKS = ((0, "AC", "JS", 1), (1, "TS", "KS", 1), (1, "KH", "AH", 0), (0, "AS", "JH", 0))


def tompa_1_deal(world: int = 0) -> Deal:
    """One world of Tompa's first puzzle as a deal with a trick history (so views of it are whole)."""
    from bummerl.cards import Card
    from bummerl.engine import Trick
    from bummerl.puzzle import Puzzle
    from bummerl.search.worlds import world_at

    puzzle = Puzzle.parse(TOMPA_1)
    bare = world_at(puzzle, world)
    tricks = []
    for leader, lead, follow, winner in _TOMPA_1_TRICKS:
        tricks.append(Trick(leader, Card.parse(lead), Card.parse(follow), winner))
    return puzzle.world(bare.hands[1], bare.talon, seat=0, dealer=1, trick_log=tuple(tricks))
