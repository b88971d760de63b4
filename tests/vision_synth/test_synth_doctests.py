"""The docstring examples of vision.synth are tests too."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import vision.synth

MODULES = sorted(info.name for info in pkgutil.iter_modules(vision.synth.__path__, prefix="vision.synth."))


def test_every_module_is_searched() -> None:
    assert {"vision.synth.subsets", "vision.synth.procedural", "vision.synth.deals"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} failing example(s)"
