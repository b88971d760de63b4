"""The examples in the docstrings of every ``firmware`` module (the Pico's program included)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import firmware

MODULES = sorted(
    [firmware.__name__]
    + [info.name for info in pkgutil.walk_packages(firmware.__path__, prefix="firmware.")])


def test_all_parts_are_searched() -> None:
    for name in ("firmware.layout", "firmware.render", "firmware.pico.frames",
                 "firmware.pico.main", "firmware.outputs.encoders", "firmware.scad"):
        assert name in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
