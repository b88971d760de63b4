"""The docstring examples of every ``vision`` module are tests too.

``vision.synth`` (the data-set renderer) has its own tests in ``tests/vision_synth``.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import vision
import vision.index

MODULES = sorted(
    [info.name for info in pkgutil.iter_modules(vision.__path__, prefix="vision.")
     if info.name != "vision.synth"]
    + [info.name for info in pkgutil.iter_modules(vision.index.__path__, prefix="vision.index.")]
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} failing example(s)"
