"""The docstring examples of every ``vision.track`` module, of ``vision.synth.golden`` and of the
composition root's camera modules are tests too."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import vision.track

MODULES = sorted(info.name for info in pkgutil.iter_modules(vision.track.__path__, prefix="vision.track."))
MODULES += ["vision.synth.golden"]


def test_every_tracking_module_is_searched() -> None:
    wanted = {"vision.track.tracker", "vision.track.motion", "vision.track.zones", "vision.track.follow"}
    assert wanted <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} failing example(s)"
