"""Whatever a caller sends, the game answers with settings, a state, or a CribbageError.

Found by the page's fuzz tests: a list as the variant and a game id past SQLite's integers
escaped as TypeError and OverflowError.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage.errors import CribbageError, InputError, RuleError
from cribbage.game import Settings
from cribbage.gamelog import GameStore

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
KEYS = ["variant", "target", "players", "muggins", "counting", "three_for_last", "overclaim", "colours"]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), json_values, max_size=5))
def test_any_settings_are_read_or_refused_with_a_rule_error(data: dict) -> None:
    try:
        read = Settings.from_json(data)
    except RuleError as exc:
        assert exc.rule == "settings"
    except InputError as exc:  # names no game takes: a hidden character, two alike, too long
        assert "player" in str(exc) and isinstance(data.get("players"), str | list), exc
    else:
        assert Settings.from_json(read.to_json()) == read


@pytest.mark.parametrize("data", [["six-card"], "six-card", 7, {"variant": ["x"]},
                                  {"variant": {"a": 1}}, {"counting": ["auto"]},
                                  {"overclaim": {"peg": True}}])
def test_settings_that_are_not_an_object_or_not_names(data: object) -> None:
    with pytest.raises(RuleError):
        Settings.from_json(data)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", [2**63, 2**70, -(2**70), 0, -1, True, "1", 1.5, None])
def test_game_ids_that_cannot_exist(tmp_path: Path, game_id: object) -> None:
    store = GameStore(tmp_path / "g.db")
    store.new_game({})
    with pytest.raises(CribbageError, match="there is no game"):
        store.state(game_id)  # type: ignore[arg-type]
    with pytest.raises(CribbageError, match="there is no game"):
        store.apply(game_id, {"type": "undo"})  # type: ignore[arg-type]
    assert store.state(1)["events"] == 0


@pytest.mark.parametrize(
    "colours",
    [[""], ["#12"], ["red; background:url(x)"], ['red" onload="x'], ["#GGGGGG"], [None], "red"],
)
def test_colours_must_be_css_colours(colours: object) -> None:
    with pytest.raises(RuleError, match="CSS colours"):
        Settings.from_json({"colours": colours})


def test_one_colour_per_side() -> None:
    two = Settings.from_json({"colours": ["#112233", "red", "#abc", "#445566"]})
    assert two.colours == ("#112233", "red")
    partners = Settings.from_json({"variant": "four-player", "colours": ["#112233"]})
    assert len(partners.colours) == 2 and partners.colours[0] == "#112233"
    three = Settings.from_json({"variant": "three-player"})
    assert len(three.colours) == 3
    assert Settings.from_json(two.to_json()) == two
