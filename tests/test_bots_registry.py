"""The bot registry: names, lazy built-ins, seeds, outside-program specs and clear errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bummerl import Deal, Rules, View
from bummerl.actions import Action
from bummerl.bots import registry
from bummerl.bots.external import ExternalBot
from bummerl.bots.random_bot import RandomBot
from bummerl.bots.registry import UnknownBotError, bot_names, describe_bots, make_bot, register, unregister
from bummerl.errors import BummerlError


@pytest.fixture(autouse=True)
def private_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test registers into its own copy of the registry."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))


class FirstBot:
    name = "first"

    def __init__(self, seed: int | None) -> None:
        self.seed = seed

    def choose(self, view: View) -> Action:
        return view.legal_actions[0]


def test_random_is_a_public_builtin_with_a_description() -> None:
    assert "random" in bot_names(public_only=True)
    assert dict(describe_bots())["random"]


def test_make_bot_passes_the_seed_to_the_factory() -> None:
    register("first", FirstBot, "plays the first legal action")
    bot = make_bot("first", seed=42)
    assert isinstance(bot, FirstBot) and bot.seed == 42


def test_names_are_case_and_space_insensitive() -> None:
    assert isinstance(make_bot("  Random ", 1), RandomBot)


def test_unknown_names_list_the_known_bots_and_the_cmd_syntax() -> None:
    register("first", FirstBot, "plays the first legal action")
    with pytest.raises(UnknownBotError) as err:
        make_bot("nobody")
    message = str(err.value)
    assert "'nobody'" in message and "random" in message and "first" in message and "cmd:COMMAND" in message


def test_private_bots_are_listed_only_when_asked() -> None:
    register("peeker", FirstBot, "a test-only bot", public=False)
    assert "peeker" in bot_names()
    assert "peeker" not in bot_names(public_only=True)
    assert isinstance(make_bot("peeker"), FirstBot)


def test_registration_order_is_kept_with_builtins_first() -> None:
    register("zzz", FirstBot, "last")
    register("aaa", FirstBot, "after it")
    names = bot_names()
    assert names[0] == "random" and names[-2:] == ["zzz", "aaa"]


def test_a_lazy_factory_is_imported_only_when_the_bot_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    register("lazy", "bummerl.bots.random_bot:RandomBot", "random, registered by path")
    monkeypatch.delitem(sys.modules, "bummerl.bots.random_bot", raising=False)
    assert "bummerl.bots.random_bot" not in sys.modules
    bot = make_bot("lazy", 3)
    assert "bummerl.bots.random_bot" in sys.modules and bot.name == "random"


def test_importing_the_registry_imports_no_bot_and_no_solver() -> None:
    code = ("import sys, bummerl.bots; "
            "print(sorted(m for m in sys.modules if m.startswith('bummerl.') and "
            "(m.startswith('bummerl.bots.') or m.startswith('bummerl.search') or m == 'bummerl.arena')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['bummerl.bots.base', 'bummerl.bots.registry']"


@pytest.mark.parametrize("name", ["", "two words", "cmd:x"])
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError):
        register(name, FirstBot, "bad")


def test_a_lazy_factory_must_name_module_and_callable() -> None:
    with pytest.raises(ValueError, match="module:callable"):
        register("broken", "bummerl.bots.random_bot.RandomBot", "no colon")


def test_cmd_spec_makes_an_outside_bot_running_this_python() -> None:
    bot = make_bot("cmd:python examples/random_bot.py --flag 'two words'", seed=5, timeout=2.5)
    assert isinstance(bot, ExternalBot)
    assert bot.argv == [sys.executable, "examples/random_bot.py", "--flag", "two words"]
    assert bot.seed == 5 and bot.timeout == 2.5
    bot.close()


def test_registered_bots_play_legal_actions() -> None:
    deal = Deal.random(Rules.preset("standard"), 11)
    view = View.of(deal, deal.to_move)
    for name in bot_names(public_only=True):
        assert make_bot(name, 1).choose(view) in view.legal_actions


def test_unregister_removes_a_bot() -> None:
    register("temp", FirstBot, "for a moment")
    registry.unregister("TEMP")
    assert "temp" not in bot_names()
    with pytest.raises(UnknownBotError):
        make_bot("temp")


def test_a_spec_passes_options_to_the_factorys_keyword_only_parameters() -> None:
    from bummerl.bots.registry import unregister

    made: list[dict[str, object]] = []

    def factory(seed: int | None, *, think: float = 0.0, deep: bool = False) -> RandomBot:
        made.append({"seed": seed, "think": think, "deep": deep})
        return RandomBot(seed)

    register("doc-options", factory, "a bot with options", public=False)
    try:
        make_bot("doc-options: think=1.5, deep=true", 4)
        make_bot("doc-options", 5)
        assert made == [{"seed": 4, "think": 1.5, "deep": True}, {"seed": 5, "think": 0.0, "deep": False}]
        with pytest.raises(UnknownBotError, match="has no option 'depth' \\(its options are think, deep\\)"):
            make_bot("doc-options:depth=2", 1)
        for bad in ("think", "think=", "think=fast", "think=nan", "2x=1"):
            with pytest.raises(UnknownBotError, match="bad option"):
                make_bot(f"doc-options:{bad}", 1)
        with pytest.raises(UnknownBotError, match="'random' has no option 'think' \\(it takes no options\\)"):
            make_bot("random:think=1", 1)
        # Each value must fit its parameter (session 11's audit: a number reached a function's parameter)
        with pytest.raises(UnknownBotError, match=r"option 'deep' is true or false, not 1$"):
            make_bot("doc-options:deep=1", 1)
        with pytest.raises(UnknownBotError, match=r"option 'think' is a number, not True$"):
            make_bot("doc-options:think=true", 1)
        with pytest.raises(UnknownBotError, match=r"option 'depth' is a whole number, not 2\.5$"):
            make_bot("expert-alphamu:depth=2.5", 1)
        with pytest.raises(UnknownBotError, match="has no option 'values' \\(its options are infer,"):
            make_bot("expert-alphamu:values=1", 1)  # a function: not settable from a name
    finally:
        unregister("doc-options")


def test_options_work_when_another_parameter_is_typed_with_a_name_imported_for_type_checking_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # an audit's bot: `Model` imported under TYPE_CHECKING made every option a NameError
    (tmp_path / "optbot.py").write_text(
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "from bummerl.bots.random_bot import RandomBot\n"
        "if TYPE_CHECKING:\n"
        "    from somewhere import Model\n"
        "class OptBot(RandomBot):\n"
        "    def __init__(self, seed=None, *, depth: int = 2, model: Model | None = None) -> None:\n"
        "        super().__init__(seed)\n"
        "        self.depth = depth\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    register("optbot", "optbot:OptBot", "a test bot", public=False)
    try:
        assert make_bot("optbot:depth=3").depth == 3  # type: ignore[attr-defined]
        with pytest.raises(UnknownBotError, match="has no option 'model' \\(its options are depth\\)"):
            make_bot("optbot:model=1")
    finally:
        unregister("optbot")


def test_an_unknown_bot_lists_the_bots_a_player_may_pick_as_list_does() -> None:
    # A newcomer's audit: a typo listed the research bots and the cheater, which --list leaves out
    with pytest.raises(UnknownBotError) as refused:
        make_bot("randon")
    said = str(refused.value)
    assert all(name in said for name in bot_names(public_only=True))
    assert "cheater" not in said and "expert-v1" not in said and "bummerl arena --list --all" in said


@pytest.mark.parametrize(("spec", "words"), [
    ("expert-model:orders=0", "orders must be at least 1, not 0"),
    ("expert-model:temper=-2", "temper must be at least 0, not -2"),
    ("expert-alphamu:depth=0", "depth must be at least 1, not 0"),
    ("expert-alphamu:max_solves=-5", "max_solves must be at least 1, not -5"),
    ("expert-alphamu:lookahead=-1", "lookahead must be at least 0, not -1"),
])
def test_a_research_bots_option_out_of_range_is_refused_in_one_line(spec: str, words: str) -> None:
    with pytest.raises(BummerlError, match=words):
        make_bot(spec, 1)


def test_pimc_needs_at_least_one_world() -> None:
    from bummerl.bots.pimc import PimcBot

    with pytest.raises(BummerlError, match="samples must be at least 1, not 0"):
        PimcBot(1, samples=0)
    with pytest.raises(BummerlError, match="early_samples must be at least 1, not -3"):
        PimcBot(1, early_samples=-3)
