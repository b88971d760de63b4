"""The examples in the engine's docstrings are tests too."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "cribbage",
    "cribbage.cards",
    "cribbage.errors",
    "cribbage.items",
    "cribbage.spoken",
    "cribbage.show",
    "cribbage.play",
    "cribbage.batch",
    "cribbage.analysis",
    "companion.cli.base",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
