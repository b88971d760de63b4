"""A photo taken in the dark (underexposed: a dim room, a camera at a fixed exposure) is read too:
what counts as black scales with the photo's brightest paper (:data:`vision.tuning.BLACK`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import tuning
from vision.reader import read_cards
from vision.synth.compose import drawn_table

NAMES = ["5H", "JD", "9S", "AC"]


def dark(light: float, seed: int = 0) -> np.ndarray:
    """Four cards 130 px wide in ``light`` of the light, with a little sensor noise."""
    img = drawn_table([(n, 250 + 250 * k, 360, 10 * k) for k, n in enumerate(NAMES)], width=130, seed=seed)
    rng = np.random.default_rng(seed)
    return np.clip(img * light + rng.normal(0, 1.5, img.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("light", [0.5, 0.2, 0.12])
def test_cards_in_the_dark_are_read(light):
    img = dark(light)
    assert int(img.max()) < 256 * light + 8  # the photo is that dark
    assert sorted(c.card.name for c in read_cards(img).cards) == sorted(NAMES)


def test_a_fixed_black_level_read_nothing_in_the_dark(monkeypatch):
    # as before: black was anything under 40 of 255, and the paper of a photo this dark is darker
    monkeypatch.setattr(tuning, "EXPOSED", 1e-6)
    assert read_cards(dark(0.12)).cards == []


def test_the_dark_table_round_the_cards_is_not_read_as_cards():
    img = dark(0.12)
    img[:, 700:] = np.clip(img[:, 700:] * 0.2, 0, 255).astype(np.uint8)  # the far side in shadow
    assert {c.card.name for c in read_cards(img).cards} <= set(NAMES)
