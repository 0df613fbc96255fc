"""rules.md section 8 (flags and presets) and section 9's ``rules`` field of a record."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bummerl.rules import FLAG_NAMES, PRESETS, Rules, RulesError

# rules.md section 8, copied row by row ("-" = the flag does not apply; the preset keeps the default).
TABLE = """
| flag | standard | soft | sharp | tompa | vu | sixty-six |
| game | schnapsen | schnapsen | schnapsen | schnapsen | schnapsen | sixty-six |
| allow_close | yes | yes | yes | yes | no | yes |
| close_with_two_left | no | yes | no | yes | - | yes |
| exchange_with_two_left | yes | yes | no | yes | yes | yes |
| exchange_needs_trick | no | no | yes | no | no | no |
| marriage_needs_trick | yes | no | yes | no | no | no |
| marriage_leads_king | no | no | yes | no | yes | no |
| marriage_scoring | trick | trick | trick | trick | next_trick | trick |
| auto_claim | no | no | no | yes | yes | yes |
| closing_scoring | viennese | viennese | viennese | viennese | - | viennese |
| false_claim | fixed | fixed | fixed | fixed | - | fixed |
| open_tricks | yes | yes | no | yes | yes | yes |
"""


def _table() -> dict[str, dict[str, str]]:
    lines = TABLE.strip().splitlines()
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines]
    header = rows[0][1:]
    return {name: {row[0]: row[1 + i] for row in rows[1:]} for i, name in enumerate(header)}


def _word(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("name", ["standard", "soft", "sharp", "tompa", "vu", "sixty-six"])
def test_each_preset_has_the_flags_of_the_section_8_table(name: str) -> None:
    rules = Rules.preset(name)
    for flag, expected in _table()[name].items():
        if expected != "-":
            assert _word(getattr(rules, flag)) == expected, flag
    assert rules.base == name
    assert rules.to_json() == name


def test_the_table_covers_every_flag_and_there_are_six_presets() -> None:
    assert set(_table()["standard"]) == set(FLAG_NAMES)
    assert list(PRESETS) == ["standard", "soft", "sharp", "tompa", "vu", "sixty-six"]


def test_the_default_preset_is_standard() -> None:
    assert Rules() == Rules.preset("standard")
    assert Rules.from_json(None) == Rules.preset("standard")


def test_sixty_six_deals_six_cards_from_a_pack_of_24() -> None:
    assert (Rules.preset("sixty-six").hand_size, Rules.preset("sixty-six").pack_size) == (6, 24)
    assert (Rules.preset("standard").hand_size, Rules.preset("standard").pack_size) == (5, 20)
    assert Rules.preset("sixty-six").sixty_six and not Rules.preset("vu").sixty_six


def test_preset_names_ignore_case_and_spaces() -> None:
    assert Rules.preset(" Sharp ") is PRESETS["sharp"]


def test_an_unknown_preset_is_refused_with_the_choices() -> None:
    with pytest.raises(RulesError, match=r"unknown rules preset 'classic'.*standard, soft, sharp"):
        Rules.preset("classic")


def test_replace_changes_single_flags_and_keeps_the_base_preset() -> None:
    r = Rules.preset("sharp").replace(false_claim="mirror", open_tricks=True)
    assert (r.false_claim, r.open_tricks, r.base) == ("mirror", True, "sharp")
    assert r.marriage_leads_king  # the rest of sharp stays
    assert Rules.preset("sharp").false_claim == "fixed"  # presets are never changed


@pytest.mark.parametrize(
    ("value", "expected"),
    [("yes", True), ("no", False), ("TRUE", True), ("off", False), (True, True), (False, False)],
)
def test_boolean_flags_take_yes_no_words(value: Any, expected: bool) -> None:
    assert Rules.preset("standard").replace(auto_claim=value).auto_claim is expected


def test_choice_flags_take_their_words_in_any_case() -> None:
    r = Rules.preset("standard").replace(marriage_scoring="Next_Trick", closing_scoring="TOURNAMENT")
    assert (r.marriage_scoring, r.closing_scoring) == ("next_trick", "tournament")
    assert Rules.preset("standard").replace(game="66").game == "sixty-six"


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"auto_claim": "maybe"}, "auto_claim must be yes or no"),
        ({"auto_claim": 1}, "auto_claim must be true or false"),
        ({"false_claim": "lenient"}, "false_claim cannot be 'lenient'"),
        ({"marriage_scoring": None}, "marriage_scoring cannot be None"),
        ({"game": "bridge"}, "game cannot be 'bridge'"),
        ({"trump_rank": "ace"}, "unknown rule flag 'trump_rank'"),
        ({"base": "soft"}, "unknown rule flag 'base'"),
    ],
)
def test_bad_flags_and_values_are_refused_with_a_one_line_message(
    flags: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesError, match=message) as err:
        Rules.preset("standard").replace(**flags)
    assert "\n" not in str(err.value)


def test_to_json_names_the_preset_and_only_the_overridden_flags() -> None:
    r = Rules.preset("standard").replace(false_claim="mirror", closing_scoring="tournament")
    assert r.to_json() == {"preset": "standard", "false_claim": "mirror", "closing_scoring": "tournament"}
    # A flag set back to the preset's value is no override.
    assert Rules.preset("soft").replace(auto_claim="no").to_json() == "soft"


def test_from_json_reads_a_preset_name_or_an_object_of_the_record_format() -> None:
    record = json.loads('{"preset": "standard", "false_claim": "mirror", "closing_scoring": "tournament"}')
    r = Rules.from_json(record)
    assert (r.false_claim, r.closing_scoring, r.base) == ("mirror", "tournament", "standard")
    assert Rules.from_json("vu") is PRESETS["vu"]
    assert Rules.from_json({"preset": "sharp", "open_tricks": "yes"}).open_tricks is True
    assert record == {"preset": "standard", "false_claim": "mirror", "closing_scoring": "tournament"}


@pytest.mark.parametrize("name", ["standard", "soft", "sharp", "tompa", "vu", "sixty-six"])
def test_to_json_and_from_json_round_trip(name: str) -> None:
    r = Rules.preset(name).replace(false_claim="mirror", auto_claim=True)
    back = Rules.from_json(json.loads(json.dumps(r.to_json())))
    assert back == r and back.base == r.base


@pytest.mark.parametrize(
    "value", [42, ["standard"], {"preset": 3}, {"preset": "nope"}, {"preset": "standard", "x": 1}]
)
def test_from_json_refuses_what_is_not_a_rules_value(value: Any) -> None:
    with pytest.raises(RulesError):
        Rules.from_json(value)


def test_rules_are_frozen_and_hashable() -> None:
    r = Rules.preset("standard")
    with pytest.raises(AttributeError):
        r.auto_claim = True  # type: ignore[misc]
    assert len({Rules.preset(n) for n in PRESETS}) == 6


def test_describe_names_the_preset_and_the_overrides() -> None:
    assert Rules.preset("vu").describe() == "vu"
    mirror = Rules.preset("standard").replace(false_claim="mirror")
    assert mirror.describe() == "standard (false_claim=mirror)"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_exchange_close_and_marriage_predicates_read_the_flags_as_rules_md_3_says(name: str) -> None:
    rules = PRESETS[name]
    row = _table()[name]
    assert rules.exchange_rank.letter == ("9" if row["game"] == "sixty-six" else "J")
    for trick in (False, True):
        assert rules.may_exchange(4, trick) is (trick or row["exchange_needs_trick"] == "no")
        assert rules.may_exchange(2, True) is (row["exchange_with_two_left"] == "yes")
        assert not rules.may_exchange(0, True)  # the talon is closed or used up
        assert rules.may_marry(True, trick) is (trick or row["marriage_needs_trick"] == "no")
        assert rules.may_marry(False, True) is (row["game"] == "schnapsen")  # Sixty-Six: only while open
    assert rules.may_close(4) is (row["allow_close"] == "yes")
    assert rules.may_close(2) is (row["close_with_two_left"] == "yes")
    assert not rules.may_close(0)
    leads = "".join(rank.letter for rank in rules.marriage_lead_ranks)
    assert leads == ("K" if row["marriage_leads_king"] == "yes" else "QK")
