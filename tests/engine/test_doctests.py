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


def test_readme_examples() -> None:
    """The Python examples in README.md run as written."""
    from pathlib import Path

    readme = Path(__file__).resolve().parents[2] / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
