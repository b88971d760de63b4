"""The engine's bounds (:mod:`cribbage.game.limits`) hold for every caller, not only the page
and the command: events straight to :class:`Game`, settings and the store's ``source``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cribbage.errors import CribbageError, InputError, RuleError
from cribbage.game import Game, Settings
from cribbage.game.limits import (
    MAX_ADJUST,
    MAX_CLAIM,
    MAX_DEPTH,
    MAX_EVENT_NUMBER,
    MAX_PENALTY,
    json_depth,
    load_json,
    shown,
)
from cribbage.gamelog import GameStore


def dealt() -> Game:
    return Game(Settings.from_json({})).apply({"type": "dealer", "seat": "A"})


@pytest.mark.parametrize(
    "event",
    [
        {"type": "adjust", "seat": "A", "points": 10**4000},
        {"type": "adjust", "seat": "A", "points": MAX_ADJUST + 1},
        {"type": "misdeal", "penalty": 10**20},
        {"type": "misdeal", "penalty": MAX_PENALTY + 1},
        {"type": "show", "seat": "B", "claim": MAX_CLAIM + 1},
        {"type": "muggins", "seat": "B", "event": MAX_EVENT_NUMBER + 1},
        {"type": "correct", "event": 10**5000, "with": {"type": "go", "seat": "A"}},
        {"type": 10**5000},
    ],
    ids=["adjust 10^4000", "adjust 122", "penalty 10^20", "penalty 11", "claim 30",
         "event 10^6+1", "correct 10^5000", "type 10^5000"],
)
def test_a_number_past_its_bound_is_refused_and_named(event: dict[str, Any]) -> None:
    game = dealt()
    with pytest.raises(RuleError) as refused:
        game.apply(event)
    assert refused.value.rule == "event" and len(str(refused.value)) < 300
    assert game.scores == {"A": 0, "B": 0} and game.winner is None


def test_a_lone_surrogate_is_refused_wherever_text_is_stored(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"players\[1\]"):
        Settings.from_json({"players": ["Ann", "B\udcffb"]})
    with pytest.raises(InputError, match="players"):
        Settings.from_json({"players": "Ann,\ud800"})
    with pytest.raises(InputError, match="reason"):
        dealt().apply({"type": "adjust", "seat": "A", "points": 2, "reason": "\ud800"})
    with GameStore(tmp_path / "g.db") as store:
        game = store.new_game({})
        with pytest.raises(InputError, match="source"):
            store.apply(game, {"type": "dealer", "seat": "A"}, source="cam\udcff")
        assert store.events(game) == []


def test_settings_refuse_a_huge_target_in_words() -> None:
    for target in (10**5000, "1" * 5000):
        with pytest.raises(CribbageError, match="121 or 61"):
            Settings.from_json({"target": target})


def test_json_depth_skips_strings_and_survives_any_text() -> None:
    assert json_depth('{"a": "[[[{{{", "b": [["\\"]"]]}') == 3
    assert json_depth('"' + '\\"[' * 5000) == 0  # an unterminated string hides its brackets
    assert json_depth("]]" + "[" * 40) == 38  # json stops at the first "]": safe either way
    assert json_depth("[" * 100_000) == 100_000


def test_load_json_at_and_past_each_limit() -> None:
    assert load_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(InputError, match="too deeply nested"):
        load_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert load_json("[999999999999999999]") == [10**18 - 1]
    with pytest.raises(InputError, match="19 digits"):
        load_json("[1000000000000000000]")
    with pytest.raises(InputError, match="Infinity"):
        load_json('{"x": -Infinity}')
    with pytest.raises(InputError, match="not UTF-8"):
        load_json(b'{"x": "\xc3"}')
    assert load_json('{"name": "Ann \\ud83c\\udccf"}') == {"name": "Ann \U0001f0cf"}


def test_shown_never_spells_a_huge_number() -> None:
    assert shown(10**5000) == "a number of 5001 digits"
    assert shown(-(10**30)) == "a number of 31 digits"
    assert shown(2**63) == "9223372036854775808"


def test_a_name_is_at_most_24_characters_and_an_old_longer_one_still_opens(tmp_path: Path) -> None:
    assert Settings.from_json({"players": ["A" * 24, "Bob"]}).players[0] == "A" * 24
    with pytest.raises(InputError, match="players\\[0\\] is 25 characters long; a player's name "
                       "is at most 24"):
        Settings.from_json({"players": ["A" * 25, "Bob"]})
    with pytest.raises(InputError, match="at most 24"):
        Settings.from_json({"players": "Ann," + "B" * 10_000})
    with GameStore(tmp_path / "g.db") as store:  # a game stored before names were bounded
        game = store.new_game({"players": ["Ann", "Bob"]})
        store._db.execute("UPDATE games SET settings = json_set(settings, '$.players[0]', ?)",
                          ("Ann " * 300,))
        store._db.commit()
        store._cache.clear()
        assert store.state(game)["players"][0]["name"] == ("Ann " * 6).strip()
