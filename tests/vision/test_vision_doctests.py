"""The docstring examples of every ``vision`` module are tests too."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import vision

MODULES = sorted(info.name for info in pkgutil.walk_packages(vision.__path__, prefix="vision."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} failing example(s)"
