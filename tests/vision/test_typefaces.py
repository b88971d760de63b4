"""The typeface benchmark's machinery: decks drawn in a face of one's choice, laid on table photos
and read (``benchmarks/bench_typefaces.py``; its figures are in docs/vision.md)."""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path

import pytest

from vision.synth.procedural import font_files

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_typefaces.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_typefaces", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_typefaces"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("bench_typefaces", None)


def test_its_examples_hold(bench):
    assert doctest.testmod(bench).failed == 0


def test_training_faces_are_never_counted_as_held_out(bench):
    held_out = {Path(f).name for f in bench.held_out_faces()}
    assert not held_out & {Path(f).name for f in font_files()}
    assert not any(bench.NOT_TEXT.search(name) for name in held_out)


@pytest.mark.skipif(not font_files(), reason="no DejaVu or Liberation fonts installed")
def test_a_deck_in_a_training_face_is_read_from_table_photos(bench):
    """Every card of two decks set in a face the network was trained on, 12 to a 1280x720 photo
    at any angle: nearly all read, and what is read is right."""
    laid, right, wrong, confused = bench.read_face(font_files()[0], seed=3)
    assert laid == 104
    assert right >= 100 and wrong <= 1, (right, wrong, confused)
