"""Deal and game records (rules.md section 9): JSON in, JSON out, replayed through the engine.

A :class:`DealRecord` is the rules, the dealer, the deck order and the actions of one deal; a
:class:`GameRecord` is a whole Bummerl (the rules, the first dealer, its deals and the score after
each). Loading checks everything a hand-written or damaged file can get wrong and raises
:class:`RecordError` with a one-line message naming the field or the step; legality is decided by the
engine alone, by replaying the actions.

>>> deck = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD".split()
>>> text = '{"rules": "standard", "dealer": 1, "deck": %s, "actions": ["play AS", "play QS", "claim"]}'
>>> record = DealRecord.loads(text % json.dumps(deck))
>>> deal = record.replay()
>>> deal.outcome, deal.points
(Outcome(winner=1, game_points=3, reason='false_claim'), (14, 0))
>>> DealRecord.from_deal(deal) == record
True
>>> DealRecord.loads((text % json.dumps(deck)).replace('"claim"', '"play QS"')).replay()  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.records.RecordError: step 3: play QS is not legal: player 0 does not hold QS (legal: ...)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Any, NamedTuple

from bummerl import jsonio
from bummerl.actions import Action, ActionParseError
from bummerl.cards import Card, CardParseError, full_pack, is_index
from bummerl.engine import Deal, DeckError, IllegalActionError
from bummerl.errors import BummerlError, quote
from bummerl.game import TARGET, Bummerl
from bummerl.jsonio import InputError
from bummerl.rules import Rules, RulesError

if TYPE_CHECKING:
    from bummerl.game import DealSummary

__all__ = [
    "DealRecord",
    "DealReplay",
    "GameRecord",
    "GameReplay",
    "Loaded",
    "RecordError",
    "Step",
    "load_record",
    "read_records",
]

_DEAL_FIELDS = ("rules", "dealer", "deck", "actions")
_GAME_DEAL_FIELDS = ("dealer", "deck", "actions")
_GAME_FIELDS = ("rules", "first_dealer", "target", "deals", "scores")
#: The largest target a game record may give (a Bummerl is played to 7).
_MOST_TARGET = 1000


class RecordError(BummerlError):
    """A record that cannot be read or replayed; the message is one line naming the field or step."""


# ---------------------------------------------------------------------------------------------- replay


@dataclass(frozen=True, slots=True)
class Step:
    """One replayed action: its number (from 1), who moved, every legal action then, and the action."""

    number: int
    to_move: int
    #: The legal action strings before the action, sorted as plain strings.
    legal: tuple[str, ...]
    action: str

    def to_json(self) -> dict[str, Any]:
        """The contract's step object: ``{"to_move": p, "legal": [...], "action": a}``."""
        return {"to_move": self.to_move, "legal": list(self.legal), "action": self.action}


@dataclass(frozen=True, slots=True)
class DealReplay:
    """A replayed deal: the deal as it stands after the last action, and every step."""

    deal: Deal
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        """The contract's replay object: ``steps``, ``result`` (None if unfinished), ``points``,
        ``tricks``."""
        outcome = self.deal.outcome
        return {
            "steps": [s.to_json() for s in self.steps],
            "result": outcome.to_json() if outcome is not None else None,
            "points": list(self.deal.points),
            "tricks": list(self.deal.tricks),
        }


@dataclass(frozen=True, slots=True)
class GameReplay:
    """A replayed Bummerl: the live game (it can be played on) and each deal's replay."""

    game: Bummerl
    deals: tuple[DealReplay, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"deals": [replay objects], "scores": [[a, b] after each finished deal], "winner": p}``
        (``winner`` None while nobody has won)."""
        return {
            "deals": [d.to_json() for d in self.deals],
            "scores": [list(s.score_after) for s in self.game.finished],
            "winner": self.game.winner,
        }


def _steps(deal: Deal, actions: Sequence[str], apply: Callable[[Action], None], where: str) -> Iterator[Step]:
    """Apply actions one by one through ``apply``, yielding each step; errors name the step."""
    for number, text in enumerate(actions, 1):
        try:
            action = Action.parse(text)
        except ActionParseError as err:
            raise RecordError(f"{where}step {number}: {err}") from None
        legal = tuple(sorted(str(a) for a in deal.legal_actions()))
        to_move = deal.to_move
        try:
            apply(action)
        except IllegalActionError as err:
            raise RecordError(f"{where}step {number}: {err}") from None
        yield Step(number, to_move, legal, str(action))


# ---------------------------------------------------------------------------------------------- deals


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal: the rules, the dealer, the deck order (top card first) and the actions so far.

    >>> record = DealRecord.from_deal(Deal.random(Rules.preset("vu"), 4, dealer=0))
    >>> record.to_json()["rules"], record.dealer, len(record.deck), record.actions
    ('vu', 0, 20, ())
    """

    rules: Rules
    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[str, ...] = ()

    @staticmethod
    def from_deal(deal: Deal) -> DealRecord:
        """The record of a deal dealt from a deck (not of a set-up position), with its actions so far."""
        if not deal.deck:
            raise RecordError("a position set up without a deck order cannot be recorded as a deal record")
        return DealRecord(deal.rules, deal.dealer, tuple(deal.deck), tuple(str(a) for a in deal.history))

    @staticmethod
    def from_json(value: Any) -> DealRecord:
        """Read the contract's JSON object (already parsed); raises :class:`RecordError`."""
        body = _object(value, "a deal record", _DEAL_FIELDS)
        rules = _rules(body["rules"])
        return _deal_body(body, rules)

    @staticmethod
    def loads(text: str) -> DealRecord:
        """Read a record from JSON text; raises :class:`RecordError` (bad JSON included)."""
        return DealRecord.from_json(_loads(text))

    def to_json(self, with_rules: bool = True) -> dict[str, Any]:
        """The contract's JSON object (without ``rules`` inside a game record)."""
        out: dict[str, Any] = {"rules": self.rules.to_json()} if with_rules else {}
        out["dealer"] = self.dealer
        out["deck"] = [str(c) for c in self.deck]
        out["actions"] = list(self.actions)
        return out

    def dumps(self) -> str:
        """The record as one line of JSON (``json.dumps`` default separators, contract key order)."""
        return json.dumps(self.to_json())

    def start(self) -> Deal:
        """The deal as dealt, before any action."""
        try:
            return Deal(self.rules, [int(c) for c in self.deck], self.dealer)
        except DeckError as err:
            raise RecordError(str(err)) from None

    def walk(self) -> Iterator[tuple[Step, Deal]]:
        """Replay action by action, yielding each step with the deal after it (the same live object)."""
        deal = self.start()
        for step in _steps(deal, self.actions, deal.apply, ""):
            yield step, deal

    def trace(self) -> DealReplay:
        """Replay every action, keeping each step (legal actions included) for ``bummerl replay``."""
        deal = self.start()
        steps = tuple(_steps(deal, self.actions, deal.apply, ""))
        return DealReplay(deal, steps)

    def replay(self) -> Deal:
        """Replay every action through the engine; an illegal one raises ``RecordError("step N: ...")``."""
        return self.trace().deal


# ---------------------------------------------------------------------------------------------- games


class _RecordedDecks(Random):
    """A generator for :class:`Bummerl` that deals the recorded decks in order, then shuffles at random."""

    def __init__(self, decks: Sequence[Sequence[int]], seed: int | None) -> None:
        super().__init__(seed)
        self._decks = list(decks)[::-1]

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        if self._decks:
            x[:] = [int(c) for c in self._decks.pop()]
        else:
            super().shuffle(x)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole Bummerl: rules, first dealer, target, every deal (the last may be unfinished) and the
    score after each finished deal (game points each player still needs, as :attr:`Bummerl.score`).

    ``scores`` None means not recorded (then replay does not check them).

    >>> game = Bummerl(Rules.preset("tompa"), seed=2, first_dealer=0)
    >>> while not game.is_over:
    ...     _ = game.next_deal() if game.deal.is_over else game.apply(game.deal.legal_actions()[-1])
    >>> record = GameRecord.loads(GameRecord.from_game(game).dumps())
    >>> again = record.replay()
    >>> again.score == game.score and again.winner == game.winner
    True
    """

    rules: Rules
    first_dealer: int
    deals: tuple[DealRecord, ...]
    scores: tuple[tuple[int, int], ...] | None = None
    target: int = TARGET

    @staticmethod
    def from_game(game: Bummerl) -> GameRecord:
        """The record of a game so far: its finished deals and, if unfinished, the current one."""
        summaries: list[DealSummary] = list(game.finished)
        deals = [
            DealRecord(game.rules, s.dealer, tuple(Card.from_index(c) for c in s.deck), s.actions)
            for s in summaries
        ]
        if game.deal.outcome is None:
            deals.append(DealRecord.from_deal(game.deal))
        scores = tuple(s.score_after for s in summaries)
        return GameRecord(game.rules, game.first_dealer, tuple(deals), scores, game.target)

    @staticmethod
    def from_json(value: Any) -> GameRecord:
        """Read a game record object (already parsed); raises :class:`RecordError`."""
        body = _object(value, "a game record", _GAME_FIELDS, optional=("target", "scores"))
        rules = _rules(body["rules"])
        first = _dealer(body["first_dealer"], "first_dealer")
        target = body.get("target", TARGET)
        if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= _MOST_TARGET:
            raise RecordError(
                f"target must be a whole number of game points from 1 to {_MOST_TARGET}, not {quote(target)}"
            )
        raw_deals = body["deals"]
        if not isinstance(raw_deals, list) or not raw_deals:
            raise RecordError("deals must be a non-empty list of deal objects")
        deals = []
        for i, raw in enumerate(raw_deals, 1):
            try:
                deals.append(_deal_body(_object(raw, "a deal in a game record", _GAME_DEAL_FIELDS), rules))
            except RecordError as err:
                raise RecordError(f"deal {i}: {err}") from None
        scores = _scores(body["scores"]) if "scores" in body else None
        return GameRecord(rules, first, tuple(deals), scores, target)

    @staticmethod
    def loads(text: str) -> GameRecord:
        """Read a game record from JSON text; raises :class:`RecordError`."""
        return GameRecord.from_json(_loads(text))

    def to_json(self) -> dict[str, Any]:
        """``{"rules", "first_dealer", "target", "deals": [{"dealer", "deck", "actions"}], "scores"}``."""
        out: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "first_dealer": self.first_dealer,
            "target": self.target,
            "deals": [d.to_json(with_rules=False) for d in self.deals],
        }
        if self.scores is not None:
            out["scores"] = [list(s) for s in self.scores]
        return out

    def dumps(self) -> str:
        """The record as one line of JSON (``json.dumps`` default separators)."""
        return json.dumps(self.to_json())

    def trace(self, rng: int | None = None) -> GameReplay:
        """Replay every deal through a :class:`Bummerl`, which recomputes the scores and the winner.

        The dealer of each deal, the order of finished deals and any recorded score must agree with
        the replay. Deals after the recorded ones (if the game is played on) are shuffled from ``rng``.
        """
        try:
            game = Bummerl(
                self.rules,
                seed=_RecordedDecks([d.deck for d in self.deals], rng),
                first_dealer=self.first_dealer,
                target=self.target,
            )
        except DeckError as err:
            raise RecordError(f"deal 1: {err}") from None
        replays: list[DealReplay] = []
        for i, record in enumerate(self.deals, 1):
            where = f"deal {i}: "
            if i > 1:
                if game.deal.outcome is None:
                    raise RecordError(f"deal {i - 1}: the deal is unfinished but another deal follows it")
                if game.is_over:
                    raise RecordError(f"{where}the Bummerl was already won after deal {i - 1}")
                try:
                    game.next_deal()
                except DeckError as err:
                    raise RecordError(f"{where}{err}") from None
            deal = game.deal
            if deal.dealer != record.dealer:
                raise RecordError(
                    f"{where}the dealer must be {deal.dealer}, not {record.dealer} "
                    f"(player {self.first_dealer} deals first, then the dealer alternates)"
                )
            if deal.deck != tuple(record.deck):  # pragma: no cover - a bug, not a user error
                raise RuntimeError("Bummerl did not deal the recorded deck")
            steps = tuple(_steps(deal, record.actions, game.apply, where))
            replays.append(DealReplay(deal, steps))
            if deal.outcome is not None and self.scores is not None:
                done = len(game.finished)
                if done <= len(self.scores) and tuple(self.scores[done - 1]) != game.score:
                    raise RecordError(
                        f"{where}the record gives the score {list(self.scores[done - 1])} after this deal "
                        f"but the replay gives {list(game.score)}"
                    )
        if self.scores is not None and len(self.scores) != len(game.finished):
            raise RecordError(
                f"the record gives {len(self.scores)} scores but {len(game.finished)} deals are finished"
            )
        return GameReplay(game, tuple(replays))

    def replay(self, rng: int | None = None) -> Bummerl:
        """Replay the game; the returned :class:`Bummerl` stands where the record ends and can go on."""
        return self.trace(rng).game


# ---------------------------------------------------------------------------------------------- reading


def load_record(value: Any) -> DealRecord | GameRecord:
    """A deal record, or a game record if the object has ``deals``; raises :class:`RecordError`.

    >>> load_record({"rules": "soft"})
    Traceback (most recent call last):
    ...
    bummerl.records.RecordError: missing field 'dealer' in a deal record
    """
    if isinstance(value, dict) and "deals" in value:
        return GameRecord.from_json(value)
    return DealRecord.from_json(value)


class Loaded(NamedTuple):
    """A record read by :func:`read_records` and where it came from."""

    #: Its line in a JSON Lines input; None when the input holds a single record.
    line: int | None
    record: DealRecord | GameRecord

    @property
    def where(self) -> str:
        """The prefix for messages about this record: ``"line 3: "`` or ``""``."""
        return f"line {self.line}: " if self.line is not None else ""


def _document(head: list[str], rest: Iterator[str]) -> str:
    """The lines read so far and the rest, as one text of at most :data:`bummerl.jsonio.MOST_LINE_CHARS`
    characters (each line is bounded by its reader, the whole here: ``{`` and endless lines would fill
    memory)."""
    most = jsonio.MOST_LINE_CHARS
    parts = list(head)
    size = sum(map(len, parts))
    for line in rest:
        size += len(line)
        if size > most:
            raise RecordError(f"a record over several lines is longer than {most} characters")
        parts.append(line)
    return "".join(parts)


def read_records(lines: str | Iterable[str]) -> Iterator[Loaded]:
    """Read one record (possibly pretty-printed over many lines) or JSON Lines (one record per line).

    The rule: if the first non-blank line is a complete JSON value, the input is JSON Lines (blank lines
    are skipped); otherwise the whole input is one JSON document. Records are yielded as they are read,
    so a bad line only stops the reading there. ``lines`` is a text or lines with their line ends.
    JSON is read by :func:`bummerl.jsonio.loads` (no duplicate keys, no huge numbers, no deep nesting).

    >>> deck = json.dumps([str(c) for c in full_pack()])
    >>> text = '{"rules": "tompa", "dealer": 0, "deck": %s, "actions": []}' % deck
    >>> two = text + "\\n\\n" + text.replace('0', '1', 1)
    >>> [(item.line, item.record.dealer) for item in read_records(two)]
    [(1, 0), (3, 1)]
    >>> list(read_records(text + "\\n[1,"))
    Traceback (most recent call last):
    ...
    bummerl.records.RecordError: line 2: bad JSON at column 4: Expecting value
    """
    it = iter(lines.splitlines(keepends=True) if isinstance(lines, str) else lines)
    head: list[str] = []
    lineno = 0
    for raw in it:
        lineno += 1
        if lineno == 1:
            raw = raw.removeprefix("\ufeff")  # a byte-order mark some editors write
        head.append(raw)
        if raw.strip():
            break
    else:
        raise RecordError("the input holds no record")
    try:
        current = _Line(lineno, jsonio.loads(raw))
    except InputError as err:
        if err.lineno is not None:  # not one complete value: one document over several lines
            yield Loaded(None, load_record(_loads(_document(head, it))))
            return
        current = _Line(lineno, None, str(err))
    several = False
    while True:
        try:
            raw = next(it)
        except StopIteration:
            break
        except UnicodeDecodeError:  # a line that is no text: the records before it come first
            yield current.load(True)
            raise
        lineno += 1
        if not raw.strip():
            continue
        several = True
        yield current.load(True)
        try:
            current = _Line(lineno, jsonio.loads(raw.rstrip("\r\n")))
        except InputError as err:
            if err.lineno is not None:
                raise RecordError(f"line {lineno}: bad JSON at column {err.colno}: {err.msg}") from None
            raise RecordError(f"line {lineno}: {err}") from None
    yield current.load(several)


class _Line(NamedTuple):
    """The JSON value of one line of JSON Lines (or why it could not be read)."""

    number: int
    value: Any
    error: str = ""

    def load(self, numbered: bool) -> Loaded:
        where = f"line {self.number}: " if numbered else ""
        if self.error:
            raise RecordError(where + self.error)
        try:
            return Loaded(self.number if numbered else None, load_record(self.value))
        except RecordError as err:
            raise RecordError(f"{where}{err}") from None


# ---------------------------------------------------------------------------------------------- fields


def _loads(text: str) -> Any:
    try:
        return jsonio.loads(text)
    except InputError as err:
        hint = " (a file holds one record, or one record per line)" if err.msg == "Extra data" else ""
        raise RecordError(f"{err}{hint}") from None


_JSON_TYPES = {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}


def _kind(value: Any) -> str:
    return _JSON_TYPES.get(type(value), "a number")


def _shown(value: Any) -> str:
    """A JSON value as written in the record, cut like :func:`~bummerl.errors.quote`."""
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _object(value: Any, what: str, fields: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{what} must be a JSON object, not {_kind(value)}")
    for name in fields:
        if name not in value and name not in optional:
            raise RecordError(f"missing field {name!r} in {what}")
    for name in value:
        if name not in fields:
            raise RecordError(f"unknown field {quote(name)} in {what} (fields: {', '.join(fields)})")
    return value


def _rules(value: Any) -> Rules:
    if not isinstance(value, str | dict):
        raise RecordError(f"rules: must be a preset name or an object naming a preset, not {_kind(value)}")
    try:
        return Rules.from_json(value)
    except (RulesError, TypeError) as err:
        raise RecordError(f"rules: {err}") from None


def _dealer(value: Any, name: str) -> int:
    if not is_index(value, 2):
        raise RecordError(f"{name} must be 0 or 1, not {_shown(value)}")
    return int(value)


def _deal_body(body: dict[str, Any], rules: Rules) -> DealRecord:
    dealer = _dealer(body["dealer"], "dealer")
    deck = _deck(body["deck"], rules)
    raw = body["actions"]
    if not isinstance(raw, list):
        raise RecordError(f"actions must be a list of action strings, not {_kind(raw)}")
    actions = []
    for number, text in enumerate(raw, 1):
        if not isinstance(text, str):
            raise RecordError(f"step {number}: an action must be a string, not {_kind(text)}")
        try:
            actions.append(str(Action.parse(text)))
        except ActionParseError as err:
            raise RecordError(f"step {number}: {err}") from None
    return DealRecord(rules, dealer, deck, tuple(actions))


def _deck(value: Any, rules: Rules) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RecordError(f"deck must be a list of card codes, not {_kind(value)}")
    cards: list[Card] = []
    for i, code in enumerate(value):
        if not isinstance(code, str):
            raise RecordError(f"deck[{i}]: a card code must be a string, not {_kind(code)}")
        try:
            cards.append(Card.parse(code))
        except CardParseError as err:
            raise RecordError(f"deck[{i}]: {err}") from None
    pack = full_pack(rules.sixty_six)
    size = f"a {rules.game} deck is the full pack of {len(pack)} cards"
    seen: set[Card] = set()
    for i, card in enumerate(cards):
        if card not in pack:
            raise RecordError(f"deck[{i}]: {card} is not in the {rules.game} pack ({size})")
        if card in seen:
            raise RecordError(f"deck[{i}]: {card} appears twice ({size})")
        seen.add(card)
    missing = [str(c) for c in pack if c not in seen]
    if missing:
        raise RecordError(f"deck: missing {' '.join(missing)} ({size})")
    return tuple(cards)


def _scores(value: Any) -> tuple[tuple[int, int], ...]:
    bad = RecordError("scores must be a list of [a, b] pairs of whole numbers, one after each finished deal")
    if not isinstance(value, list):
        raise bad
    out = []
    for pair in value:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or any(isinstance(x, bool) or not isinstance(x, int) for x in pair)
        ):
            raise bad
        out.append((pair[0], pair[1]))
    return tuple(out)
