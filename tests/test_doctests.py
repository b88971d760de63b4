"""The examples in docstrings, and the Python examples in README.md, are tests too.

Every module of the rules engine (``cribbage``), of the composition root (``companion``) and of
the photo limits (``imaging``) is searched for examples; a module that has some must pass them all.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import companion
import cribbage
import imaging


def _modules() -> list[str]:
    names = []
    for package in (cribbage, companion, imaging):
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + "."):
            if not info.name.endswith("__main__"):
                names.append(info.name)
    return sorted(names)


MODULES = _modules()


def test_the_engine_modules_are_all_searched() -> None:
    for name in ("cribbage.show", "cribbage.play", "cribbage.batch", "cribbage.game.game",
                 "cribbage.gamelog", "companion.cli.score", "imaging.limits"):
        assert name in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_readme_examples() -> None:
    """The Python examples in README.md run as written."""
    readme = Path(__file__).resolve().parents[1] / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
