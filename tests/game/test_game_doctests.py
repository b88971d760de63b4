"""The examples in the game's docstrings are tests too."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "cribbage.game",
    "cribbage.game.settings",
    "cribbage.game.events",
    "cribbage.game.deal",
    "cribbage.game.game",
    "cribbage.game.simulate",
    "cribbage.gamelog",
    "companion.cli.game",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0 or name == "cribbage.game.deal"
