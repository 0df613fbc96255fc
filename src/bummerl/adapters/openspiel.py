"""OpenSpiel: one deal of any preset as the Python game ``python_schnapsen``, registered with ``pyspiel``.

Importing this module registers the game; ``pyspiel.load_game("python_schnapsen(rules=sixty-six)")``
loads a preset (default ``standard``). The game is sequential, imperfect-information, zero-sum, with
explicit chance nodes: the first picks the dealer (outcome 0 or 1), then one per card, top of the deck
first, each uniform over the cards not dealt yet (outcome = the card's index). Player actions are the
32 indexes of :mod:`bummerl.adapters.encoding` (the engine's action codes); returns are game points.

Observations come from the same encoding: the observation tensor is the seat's encoded
:class:`~bummerl.view.View` (769 values); the information-state tensor adds the perfect-recall block of
:class:`~bummerl.adapters.encoding.History` (when each card was drawn, when the exchange, the close and the
marriages came), 1129 values. The strings say the same in text. The true state holds the
:class:`~bummerl.engine.Deal` (the only place that sees both hands); ``resample_from_infostate`` deals a
new world the player cannot tell apart, so ISMCTS runs on it.

>>> import pyspiel
>>> game = pyspiel.load_game("python_schnapsen(rules=vu)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 2)
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()][:2]
(1, ['play JC', 'play QC'])
>>> len(state.observation_tensor(0)), len(state.information_state_tensor(1))
(769, 1129)
"""

from __future__ import annotations

from random import Random
from typing import Any

from bummerl.adapters import rl_missing

try:
    import numpy as np
    import pyspiel
except ImportError as _missing:
    raise rl_missing(_missing) from None

from bummerl.adapters.encoding import (
    HISTORY_SIZE,
    MAX_TRICKS,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    History,
    action_of,
    encode,
    shown_points,
)
from bummerl.adapters.episode import rules_of
from bummerl.bots.base import Bot
from bummerl.cards import CARDS, SUITS, cards_in, full_pack
from bummerl.engine import Deal, IllegalActionError
from bummerl.rules import Rules
from bummerl.scoring import FORFEIT_POINTS
from bummerl.view import View

__all__ = ["GAME_NAME", "SchnapsenGame", "SchnapsenObserver", "SchnapsenState", "play_deal"]

#: The short name registered with ``pyspiel``.
GAME_NAME = "python_schnapsen"
#: Most player actions in a deal: 24 cards, an exchange, a close, four marriages, a claim or a pass.
MAX_GAME_LENGTH = 24 + 1 + 1 + 4 + 1
#: How many reshuffles :meth:`SchnapsenState.resample_from_infostate` tries before it keeps the true deck.
RESAMPLE_TRIES = 500

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Schnapsen and Sixty-Six (bummerl)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "standard"},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=NUM_ACTIONS,
    max_chance_outcomes=24,
    num_players=2,
    min_utility=-float(FORFEIT_POINTS),
    max_utility=float(FORFEIT_POINTS),
    utility_sum=0.0,
    max_game_length=MAX_GAME_LENGTH,
)


class SchnapsenGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """The game; ``params`` may name the preset: ``{"rules": "sharp"}``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})
        self.rules: Rules = rules_of(str(self.get_parameters()["rules"]))

    def new_initial_state(self) -> SchnapsenState:
        """The start: the chance node that picks the dealer."""
        return SchnapsenState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SchnapsenObserver:
        """The observer of seats' views (``perfect_recall`` adds the history block)."""
        return SchnapsenObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class SchnapsenState(pyspiel.State):  # type: ignore[misc]
    """A deal being dealt (chance nodes) or played; :attr:`deal` is the true deal once dealt."""

    def __init__(self, game: SchnapsenGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.dealer = -1
        self.deck: list[int] = []
        self.deal: Deal | None = None
        self.histories: tuple[History, History] = (History(), History())

    # ------------------------------------------------------------- the OpenSpiel API

    def current_player(self) -> int:
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.deal.outcome is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.deal.to_move

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None and player == self.deal.to_move
        return sorted(a.code for a in self.deal.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealer < 0:
            return [(0, 0.5), (1, 0.5)]
        left = sorted(set(full_pack(self.rules.sixty_six)) - set(self.deck))
        return [(int(c), 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        # Everything is checked before anything changes: a refused action or outcome leaves the state as
        # it was (a negative id must not pick an action from the end, a card must not be dealt twice).
        if self.deal is not None:
            self.deal.apply(action_of(action))
            self._see()
        elif action not in [a for a, _ in self.chance_outcomes()]:
            what = "dealer" if self.dealer < 0 else "card to deal"
            raise IllegalActionError(f"{action!r} is not a chance outcome here (the {what})")
        elif self.dealer < 0:
            self.dealer = int(action)
        else:
            self.deck.append(int(action))
            if len(self.deck) == self.rules.pack_size:
                self.deal = Deal(self.rules, self.deck, self.dealer)
                self._see()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"dealer {action}" if self.dealer < 0 else f"deal {CARDS[action]}"
        return str(action_of(action))

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.outcome is not None

    def returns(self) -> list[float]:
        outcome = None if self.deal is None else self.deal.outcome
        if outcome is None:
            return [0.0, 0.0]
        return [float(outcome.value_for(0)), float(outcome.value_for(1))]

    def __str__(self) -> str:
        if self.deal is None:
            cards = " ".join(str(CARDS[c]) for c in self.deck)
            return f"dealing: dealer {self.dealer} deck {cards}".rstrip()
        return repr(self.deal)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SchnapsenState:
        """A state the player cannot tell from this one: the cards it has not seen (the opponent's hidden
        cards and the face-down talon) reshuffled among their places in the deck, kept when the same
        actions replay legally. After :data:`RESAMPLE_TRIES` failed reshuffles the true deck is kept (a
        world the player cannot tell apart too; the tests measure how rarely that happens)."""
        deal = self.deal
        if deal is None:
            same: SchnapsenState = self.clone()
            return same
        rng = Random(float(probability_sampler()))
        view = View.of(deal, player_id)
        hidden = [int(c) for c in cards_in(view.unseen_mask)]
        deck = [int(c) for c in deal.deck]
        for _ in range(RESAMPLE_TRIES):
            shuffled = hidden[:]
            rng.shuffle(shuffled)
            swap = dict(zip(hidden, shuffled, strict=True))
            candidate = [swap.get(c, c) for c in deck]
            if _replays(deal, candidate):
                deck = candidate
                break
        twin: SchnapsenState = self.get_game().new_initial_state()
        twin.apply_action(deal.dealer)
        for card in deck:
            twin.apply_action(card)
        for action in deal.history:
            twin.apply_action(action.code)
        return twin

    # --------------------------------------------------------------------- views

    def view(self, player: int) -> View | None:
        """The player's view, None while dealing."""
        return None if self.deal is None else View.of(self.deal, player)

    def _see(self) -> None:
        assert self.deal is not None
        for seat in (0, 1):
            self.histories[seat].see(View.of(self.deal, seat))


def play_deal(game: SchnapsenGame, players: tuple[Any, Any], seed: int) -> SchnapsenState:
    """Deal from ``seed`` (the chance outcomes drawn by ``Random(seed)``) and play to the end; ``players[s]``
    at seat ``s`` is an OpenSpiel bot (``step(state) -> action``) or a bummerl bot (handed its view).

    >>> from bummerl.bots import make_bot
    >>> game = pyspiel.load_game(GAME_NAME)
    >>> uniform = pyspiel.make_uniform_random_bot(0, 7)
    >>> end = play_deal(game, (uniform, make_bot("heuristic", 1)), seed=3)
    >>> end.is_terminal(), sum(end.returns())
    (True, 0.0)
    """
    rng = Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        seat = state.current_player()
        player = players[seat]
        if isinstance(player, Bot):
            view = state.view(seat)
            assert view is not None
            state.apply_action(player.choose(view).code)
        else:
            state.apply_action(player.step(state))
    return state


def _replays(deal: Deal, deck: list[int]) -> bool:
    """Whether ``deal``'s actions are legal, in order, on a deal of ``deck``."""
    twin = Deal(deal.rules, deck, deal.dealer)
    try:
        for action in deal.history:
            twin.apply(action)
    except IllegalActionError:
        return False
    return True


class SchnapsenObserver:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``) over the
    encoding."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("python_schnapsen observes one seat's public and private information only")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = OBSERVATION_SIZE + (HISTORY_SIZE if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor[:OBSERVATION_SIZE]}
        if self.perfect_recall:
            self.dict["history"] = self.tensor[OBSERVATION_SIZE:]

    def set_from(self, state: SchnapsenState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state`` (all 0 but the seat while
        dealing)."""
        view = state.view(player)
        if view is None:
            self.tensor.fill(0.0)
            self.tensor[player] = 1.0  # the encoding's seat field
            return
        encode(view, out=self.dict["view"])
        if self.perfect_recall:
            self.dict["history"][:] = state.histories[player].vector

    def string_from(self, state: SchnapsenState, player: int) -> str:
        """``player``'s observation of ``state`` as text."""
        view = state.view(player)
        if view is None:
            return f"p{player} dealing"
        text = _view_text(view)
        if self.perfect_recall:
            text += " | " + _history_text(state.histories[player].vector)
        return text


def _view_text(view: View) -> str:
    me, opp = view.seat, 1 - view.seat
    tricks = " ".join(f"{t.lead}{t.follow}{t.winner}" for t in view.tricks)
    points, pending, snapshot = shown_points(view)
    parts = [
        f"p{me} dealer {view.dealer} to_move {view.to_move}",
        f"hand {' '.join(str(c) for c in view.hand)}",
        f"trump {view.trump_suit.letter} {view.last_trump_card or '-'} talon {view.talon_size}"
        f" closed_by {view.closed_by} at {snapshot[0]}/{snapshot[1]}",
        f"lead {view.lead_card or '-'} married {SUITS[view.married].letter if view.married >= 0 else '-'}",
        f"tricks {tricks or '-'}",
        "marriages " + (" ".join(f"{p}{SUITS[s].letter}" for p, s in view.marriages) or "-"),
        "exchanged " + ("-" if view.exchanged is None else f"{view.exchanged[0]}{view.exchanged[2]}"),
        f"points {points[me]}-{points[opp]} pending {pending[me]}-{pending[opp]}"
        f" tricks_won {view.tricks_won[me]}-{view.tricks_won[opp]} opponent_cards {view.opponent_hand_size}",
    ]
    return " | ".join(parts)


def _history_text(vector: np.ndarray[Any, Any]) -> str:
    slots = []
    for t in range(MAX_TRICKS):
        block = vector[t * 30:(t + 1) * 30]
        if not block.any():
            continue
        words = [f"drew {CARDS[int(i)]}" for i in block[:24].nonzero()[0]]
        words += ["exchange"] * int(block[24]) + ["close"] * int(block[25])
        words += [f"marry {SUITS[int(i)].letter}" for i in block[26:30].nonzero()[0]]
        slots.append(f"t{t}: {', '.join(words)}")
    return "; ".join(slots) or "-"


pyspiel.register_game(_GAME_TYPE, SchnapsenGame)
