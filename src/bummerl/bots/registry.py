"""The bot registry: every bot by name, made with a seed.

Built-in bots are registered *lazily*, by a ``"module:callable"`` path: the module is imported only when
:func:`make_bot` asks for that bot, so importing the registry never imports the solver.

A name may also be a spec for an outside program, ``cmd:COMMAND``: the command line (split like a shell
would, a leading ``python``/``python3`` meaning this interpreter) is started and spoken to in JSON lines,
see :mod:`bummerl.bots.external`.

>>> "random" in bot_names()
True
>>> bot = make_bot("random", seed=1)
>>> bot.name
'random'
>>> make_bot("nobody")
Traceback (most recent call last):
...
bummerl.bots.registry.UnknownBotError: unknown bot 'nobody' (known bots: ...; or cmd:COMMAND for an ...)
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass

from bummerl.bots.base import Bot
from bummerl.errors import BummerlError

__all__ = [
    "CMD_PREFIX", "BotEntry", "BotFactory", "UnknownBotError", "bot_names", "describe_bots", "is_outside",
    "make_bot", "parse_options", "register", "unregister",
]

#: ``factory(seed) -> Bot``: seed None means "seed from the system".
BotFactory = Callable[[int | None], Bot]

#: Spec prefix that makes an outside program a bot: ``cmd:python examples/random_bot.py``.
CMD_PREFIX = "cmd:"


class UnknownBotError(BummerlError):
    """A bot name that nobody registered (the message lists the known ones)."""


@dataclass(frozen=True, slots=True)
class BotEntry:
    """One registered bot: a factory (or a lazy ``"module:callable"`` path), a description, and whether
    it is shown to players (``public``; e.g. a cheating bot for tests is not)."""

    name: str
    factory: BotFactory | str
    description: str
    public: bool = True

    def make(self, seed: int | None, options: dict[str, bool | int | float] | None = None) -> Bot:
        """Build the bot, importing its module first if it was registered by path; ``options`` go to the
        factory's keyword-only parameters (:class:`UnknownBotError` for one it does not have)."""
        factory = self.factory
        if isinstance(factory, str):
            module_name, _, attr = factory.partition(":")
            factory = getattr(importlib.import_module(module_name), attr)
        if not options:
            return factory(seed)
        known = _option_types(factory)
        for key, value in options.items():
            if key not in known:
                takes = f"its options are {', '.join(known)}" if known else "it takes no options"
                raise UnknownBotError(f"bot {self.name!r} has no option {key!r} ({takes})")
            kind = known[key]
            if isinstance(value, bool) != (kind is bool) or (kind is int and not isinstance(value, int)):
                wanted = {bool: "true or false", int: "a whole number", float: "a number"}[kind]
                raise UnknownBotError(f"bot {self.name!r}: option {key!r} is {wanted}, not {value!r}")
        return factory(seed, **options)


def _option_types(factory: BotFactory) -> dict[str, type]:
    """The options a bot name may set: the factory's keyword-only parameters that take a number or
    true/false. Each annotation is read as written (``"int"`` under postponed annotations), never
    evaluated, so a parameter typed with a name imported only for type checking is simply no option.

    >>> class Bot:
    ...     def __init__(self, seed, *, depth: int = 2, model: "Model | None" = None, fast: "bool" = 0): ...
    >>> _option_types(Bot)
    {'depth': <class 'int'>, 'fast': <class 'bool'>}
    """
    plain: dict[object, type] = {bool: bool, int: int, float: float, "bool": bool, "int": int, "float": float}
    out: dict[str, type] = {}
    for p in inspect.signature(factory).parameters.values():
        hint = p.annotation.strip("'\" ") if isinstance(p.annotation, str) else p.annotation
        if p.kind is p.KEYWORD_ONLY and hint in plain:
            out[p.name] = plain[hint]
    return out


_REGISTRY: dict[str, BotEntry] = {}


def register(name: str, factory: BotFactory | str, description: str, public: bool = True) -> None:
    """Register (or replace) a bot under ``name``.

    ``factory`` is a callable ``factory(seed) -> Bot`` or, for a lazy import, the string
    ``"package.module:callable"``.

    >>> from bummerl.bots.random_bot import RandomBot
    >>> register("doc-random", RandomBot, "a random bot registered in a doctest", public=False)
    >>> "doc-random" in bot_names(), "doc-random" in bot_names(public_only=True)
    (True, False)
    >>> unregister("doc-random")
    """
    key = name.strip().lower()
    if not key or key.startswith(CMD_PREFIX) or any(ch.isspace() for ch in key):
        raise ValueError(f"bad bot name {name!r}: a name is one word and must not start with {CMD_PREFIX!r}")
    if isinstance(factory, str) and ":" not in factory:
        raise ValueError(f"lazy bot factory {factory!r} must be written 'package.module:callable'")
    _REGISTRY[key] = BotEntry(key, factory, description, public)


def unregister(name: str) -> None:
    """Remove a registered bot (no error if there is none).

    >>> unregister("nobody-registered-this")
    """
    _REGISTRY.pop(name.strip().lower(), None)


def bot_names(public_only: bool = False) -> list[str]:
    """Registered bot names, in registration order (built-ins first).

    >>> bot_names(public_only=True)[0]
    'random'
    """
    return [e.name for e in _REGISTRY.values() if e.public or not public_only]


def describe_bots(public_only: bool = False) -> list[tuple[str, str]]:
    """(name, description) of every registered bot.

    >>> dict(describe_bots())["random"]
    'picks uniformly among the legal actions (seeded)'
    """
    return [(e.name, e.description) for e in _REGISTRY.values() if e.public or not public_only]


def is_outside(spec: str) -> bool:
    """True for a ``cmd:COMMAND`` spec: an outside program, not a Python bot.

    >>> is_outside("cmd:python my_bot.py"), is_outside("expert")
    (True, False)
    """
    return spec.strip().lower().startswith(CMD_PREFIX)


def make_bot(name: str, seed: int | None = None, *, timeout: float | None = None) -> Bot:
    """A new bot from a registered name or a ``cmd:COMMAND`` spec, seeded with ``seed``. A registered name
    may carry options for its factory's keyword-only parameters: ``expert-think:think=0.5``.

    ``timeout`` (seconds per decision) applies to outside programs only; None keeps their default.
    Raises :class:`UnknownBotError` for a name nobody registered.

    >>> from bummerl import Deal, Rules, View
    >>> view = View.of(Deal.random(Rules.preset("standard"), 1), 0)
    >>> make_bot("random", 3).choose(view) in view.legal_actions
    True
    """
    spec = name.strip()
    if is_outside(spec):
        from bummerl.bots.external import ExternalBot

        command = spec[len(CMD_PREFIX):].strip()
        if timeout is None:
            return ExternalBot(command, seed=seed)
        return ExternalBot(command, seed=seed, timeout=timeout)
    key, _, options = (part.strip() for part in spec.partition(":"))
    entry = _REGISTRY.get(key.lower())
    if entry is None:
        known = ", ".join(bot_names(public_only=True)) or "none"  # as --list shows them
        others = len(bot_names()) - len(bot_names(public_only=True))
        more = f"; {others} research bots: bummerl arena --list --all" if others else ""
        raise UnknownBotError(
            f"unknown bot {key!r} (known bots: {known}{more}; or {CMD_PREFIX}COMMAND for an outside program)"
        )
    bot = entry.make(seed, parse_options(options))
    if not callable(getattr(bot, "choose", None)):
        raise BummerlError(f"bot {key!r}: its factory returned {type(bot).__name__}, not a bot (an object "
                           "with a choose(view) method)")
    return bot


def parse_options(text: str) -> dict[str, bool | int | float]:
    """A spec's options, ``key=value`` separated by commas; a value is a number, ``true`` or ``false``.

    >>> parse_options("think=0.5,lookahead=0,bummerl=false")
    {'think': 0.5, 'lookahead': 0, 'bummerl': False}
    >>> parse_options("think=soon")
    Traceback (most recent call last):
    ...
    bummerl.bots.registry.UnknownBotError: bad option 'think=soon': write key=value, the value a number, ...
    """
    options: dict[str, bool | int | float] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, equals, raw = (part.strip() for part in item.partition("="))
        value: bool | int | float | None = {"true": True, "false": False}.get(raw.lower())
        if value is None:
            try:
                value = int(raw)
            except ValueError:
                try:
                    value = float(raw)
                except ValueError:
                    value = None
        if not equals or not key.isidentifier() or value is None or value != value or value in (
                float("inf"), float("-inf")):
            raise UnknownBotError(
                f"bad option {item!r}: write key=value, the value a number, true or false")
        options[key] = value
    return options


# ----------------------------------------------------------------------------------------------- built-ins
# One line per built-in bot, registered by module path so that nothing heavy is imported until a bot is made.
# Other bots are added here by their authors: register("name", "bummerl.bots.module:factory", "what it does").
register("random", "bummerl.bots.random_bot:RandomBot", "picks uniformly among the legal actions (seeded)")
register("heuristic", "bummerl.bots.heuristic:make_heuristic",
         "rules of thumb: counts points, keeps marriages and trumps, closes on a sure 66, claims at 66")
register("pimc", "bummerl.bots.pimc:make_pimc",
         "Perfect Information Monte Carlo: solves sampled worlds open-card")
register("expert", "bummerl.bots.expert:make_expert",
         "PIMC looking one decision ahead, reads the opponent's play, plays for the Bummerl (strongest)")
register("expert-v1", "bummerl.bots.expert:make_expert_v1",
         "the expert as of bummerl 0.1 (PIMC, one-step lookahead), frozen as a baseline", public=False)
# Candidates for a stronger expert (issue 16), measured against expert-v1, not adopted (README, "Strength").
register("expert-think", "bummerl.bots.thinking:make_thinking_expert",
         "candidate: the expert thinking longer where a decision is close (think=SECONDS)", public=False)
register("expert-alphamu", "bummerl.bots.alphamu:AlphaMuExpert",
         "candidate: expert-v1 with closing and the closed game searched per information set", public=False)
register("expert-model", "bummerl.bots.opponent_model:ModelExpert",
         "candidate: expert-v1 with worlds weighted by a learned model of the opponent's play", public=False)
register("easy", "bummerl.bots.levels:make_easy",
         "level easy: the heuristic with a random card a quarter of the time")
register("medium", "bummerl.bots.levels:make_medium", "level medium: the heuristic bot")
register("hard", "bummerl.bots.levels:make_hard", "level hard: PIMC over a few worlds")
register("cheater", "bummerl.bots.cheater:make_cheater",
         "sees every card (a yardstick, arena only)", public=False)
