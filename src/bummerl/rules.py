"""The rule flags of the contract (rules.md section 8) as one immutable value, and the six presets.

>>> Rules.preset("standard").marriage_needs_trick
True
>>> r = Rules.preset("standard").replace(false_claim="mirror")
>>> r.false_claim, r.to_json()
('mirror', {'preset': 'standard', 'false_claim': 'mirror'})
>>> Rules.from_json({"preset": "sharp", "open_tricks": "yes"}).open_tricks
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any, Literal

from bummerl.cards import Rank
from bummerl.errors import BummerlError, quote

__all__ = ["FLAG_NAMES", "PRESETS", "Rules", "RulesError"]

Game = Literal["schnapsen", "sixty-six"]


#: The preset names, in the order of the contract's table.
PRESET_NAMES: tuple[str, ...] = ("standard", "soft", "sharp", "tompa", "vu", "sixty-six")


class RulesError(BummerlError):
    """An unknown preset, an unknown flag or a flag value it cannot take."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every flag of the rules contract. Build one with :meth:`preset` and :meth:`replace`."""

    game: Game = "schnapsen"
    allow_close: bool = True
    close_with_two_left: bool = False
    exchange_with_two_left: bool = True
    exchange_needs_trick: bool = False
    marriage_needs_trick: bool = True
    marriage_leads_king: bool = False
    marriage_scoring: Literal["trick", "next_trick"] = "trick"
    auto_claim: bool = False
    closing_scoring: Literal["viennese", "tournament"] = "viennese"
    false_claim: Literal["fixed", "mirror"] = "fixed"
    open_tricks: bool = True
    #: The preset these rules were built from (used to write records compactly).
    base: str = dataclasses.field(default="standard", compare=False)

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                choices = ", ".join(map(str, allowed))
                raise RulesError(f"rule flag {name} cannot be {quote(value)} (choose from {choices})")
        if self.base not in PRESET_NAMES:
            names = ", ".join(PRESET_NAMES)
            raise RulesError(f"unknown rules preset {quote(self.base)} (choose from {names})")
        for name in _BOOL_FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"rule flag {name} must be true or false, not {quote(getattr(self, name))}")

    @property
    def sixty_six(self) -> bool:
        """True for Sixty-Six (24 cards, hands of 6), False for Schnapsen."""
        return self.game == "sixty-six"

    @property
    def hand_size(self) -> int:
        """Cards in a full hand: 5 or 6."""
        return 6 if self.sixty_six else 5

    @property
    def pack_size(self) -> int:
        """Cards in the pack: 20 or 24."""
        return 24 if self.sixty_six else 20

    # The rules' answers to "may one ... now?" from the few facts they read (rules.md 3.4-3.6); the engine
    # asks them for its legal actions, bots for what the other player could have done.

    @property
    def exchange_rank(self) -> Rank:
        """The trump card taken back in an exchange for the face-up trump: the jack, the nine in Sixty-Six.

        >>> Rules.preset("standard").exchange_rank, Rules.preset("sixty-six").exchange_rank
        (<Rank.JACK: 1>, <Rank.NINE: 0>)
        """
        return Rank.NINE if self.game == "sixty-six" else Rank.JACK

    def may_exchange(self, talon_size: int, has_trick: bool) -> bool:
        """Whether the leader, holding the trump :attr:`exchange_rank`, may exchange it when ``talon_size``
        cards (the face-up trump counted) lie in the open talon (0: closed or used up) and it has won a
        trick or not (nothing declared in this lead yet).

        >>> sharp = Rules.preset("sharp")
        >>> Rules.preset("standard").may_exchange(2, False), Rules.preset("standard").may_exchange(0, True)
        (True, False)
        >>> sharp.may_exchange(2, True), sharp.may_exchange(4, False), sharp.may_exchange(4, True)
        (False, False, True)
        """
        return (
            talon_size > 0
            and (talon_size > 2 or self.exchange_with_two_left)
            and (has_trick or not self.exchange_needs_trick)
        )

    def may_close(self, talon_size: int) -> bool:
        """Whether the leader may close a talon of ``talon_size`` open cards (0: closed or used up; nothing
        declared in this lead yet).

        >>> Rules.preset("standard").may_close(2), Rules.preset("soft").may_close(2)
        (False, True)
        >>> Rules.preset("vu").may_close(8), Rules.preset("soft").may_close(0)
        (False, False)
        """
        return self.allow_close and talon_size > 0 and (talon_size > 2 or self.close_with_two_left)

    def may_marry(self, talon_open: bool, has_trick: bool) -> bool:
        """Whether the leader, holding a king and queen, may declare their marriage (nothing declared in this
        lead yet): after a first trick if ``marriage_needs_trick``; in Sixty-Six only while the talon is open.

        >>> Rules.preset("standard").may_marry(True, False), Rules.preset("sixty-six").may_marry(False, True)
        (False, False)
        """
        return (has_trick or not self.marriage_needs_trick) and (talon_open or self.game != "sixty-six")

    @property
    def marriage_lead_ranks(self) -> tuple[Rank, ...]:
        """The ranks that may be led after declaring a marriage: the king, or the king or the queen.

        >>> Rules.preset("standard").marriage_lead_ranks, Rules.preset("sharp").marriage_lead_ranks
        ((<Rank.QUEEN: 2>, <Rank.KING: 3>), (<Rank.KING: 3>,))
        """
        return (Rank.KING,) if self.marriage_leads_king else (Rank.QUEEN, Rank.KING)

    @staticmethod
    def preset(name: str) -> Rules:
        """One of the presets: standard, soft, sharp, tompa, vu, sixty-six."""
        rules = PRESETS.get(name.strip().lower()) if isinstance(name, str) and name.isascii() else None
        if rules is None:
            raise RulesError(f"unknown rules preset {quote(name)} (choose from {', '.join(PRESETS)})")
        return rules

    def replace(self, **flags: Any) -> Rules:
        """A copy with some flags changed; values may be bools, ``"yes"``/``"no"`` or the flag's words."""
        unknown = [k for k in flags if k not in FLAG_NAMES]
        if unknown:
            raise RulesError(f"unknown rule flag {quote(unknown[0])} (flags: {', '.join(FLAG_NAMES)})")
        return dataclasses.replace(self, **{k: _coerce(k, v) for k, v in flags.items()})

    def overrides(self) -> dict[str, Any]:
        """The flags that differ from this value's base preset."""
        base = PRESETS[self.base]
        return {k: getattr(self, k) for k in FLAG_NAMES if getattr(self, k) != getattr(base, k)}

    def to_json(self) -> str | dict[str, Any]:
        """The contract's form: a preset name, or ``{"preset": name, flag: value, ...}``."""
        over = self.overrides()
        return {"preset": self.base, **over} if over else self.base

    @staticmethod
    def from_json(value: Any) -> Rules:
        """Read the contract's form: a preset name or an object naming a preset and overriding flags
        (None is the standard preset). An object must name its preset: the flags are changes to one.

        >>> Rules.from_json({"open_tricks": "no"})
        Traceback (most recent call last):
        ...
        bummerl.rules.RulesError: a rules object names its preset: {"preset": "standard", flag: value, ...}
        """
        if isinstance(value, str):
            return Rules.preset(value)
        if isinstance(value, dict):
            body = dict(value)
            if "preset" not in body:
                raise RulesError('a rules object names its preset: {"preset": "standard", flag: value, ...}')
            name = body.pop("preset")
            if not isinstance(name, str):
                raise RulesError(f"rules preset must be a name, not {quote(name)}")
            return Rules.preset(name).replace(**body)
        if value is None:
            return Rules.preset("standard")
        raise RulesError(f"rules must be a preset name or an object, not {quote(value)}")

    def describe(self) -> str:
        """A one-line human description, e.g. ``standard (false_claim=mirror)``."""
        over = self.overrides()
        extra = ", ".join(f"{k}={_word(v)}" for k, v in over.items())
        return f"{self.base} ({extra})" if extra else self.base


FLAG_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.name != "base")
_CHOICES: dict[str, tuple[str, ...]] = {
    "game": ("schnapsen", "sixty-six"),
    "marriage_scoring": ("trick", "next_trick"),
    "closing_scoring": ("viennese", "tournament"),
    "false_claim": ("fixed", "mirror"),
}
_BOOL_FLAGS: tuple[str, ...] = tuple(n for n in FLAG_NAMES if n not in _CHOICES)
_TRUE = {"yes", "true", "on", "1"}
_FALSE = {"no", "false", "off", "0"}


def _coerce(name: str, value: Any) -> Any:
    if isinstance(value, str) and not value.isascii():
        return value  # refused as it is ("\u212a".lower() is "k": no lowering of odd letters into a word)
    if name in _BOOL_FLAGS and isinstance(value, str):
        low = value.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise RulesError(f"rule flag {name} must be yes or no, not {quote(value)}")
    if name in _CHOICES and isinstance(value, str):
        value = value.strip().lower().replace("66", "sixty-six") if name == "game" else value.strip().lower()
    return value


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _make_presets() -> dict[str, Rules]:
    std = Rules(base="standard")
    return {
        "standard": std,
        "soft": dataclasses.replace(std, base="soft", close_with_two_left=True, marriage_needs_trick=False),
        "sharp": dataclasses.replace(
            std, base="sharp", exchange_with_two_left=False, exchange_needs_trick=True,
            marriage_leads_king=True, open_tricks=False,
        ),
        "tompa": dataclasses.replace(
            std, base="tompa", close_with_two_left=True, marriage_needs_trick=False, auto_claim=True
        ),
        "vu": dataclasses.replace(
            std, base="vu", allow_close=False, marriage_needs_trick=False, marriage_leads_king=True,
            marriage_scoring="next_trick", auto_claim=True,
        ),
        "sixty-six": dataclasses.replace(
            std, base="sixty-six", game="sixty-six", close_with_two_left=True, marriage_needs_trick=False,
            auto_claim=True,
        ),
    }


#: The named presets of the contract, by name.
PRESETS: dict[str, Rules] = _make_presets()
