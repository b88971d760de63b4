"""The docstring examples of vision.synth are tests too."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "vision.synth.cards",
    "vision.synth.compose",
    "vision.synth.decks",
    "vision.synth.index_box",
    "vision.synth.patches",
    "vision.synth.photo",
    "vision.synth.procedural",
    "vision.synth.scene",
    "vision.synth.svg",
    "vision.synth.tables",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
