"""A card under a veil of glare (light reflected off a glossy card: its print at a quarter of its
contrast) is read: where no card has been read, the palest darkness level looks again
(:data:`vision.tuning.PALE`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import tuning
from vision.reader import read_cards
from vision.synth.compose import drawn_table


def veiled(contrast: float, seed: int) -> np.ndarray:
    """A seven of clubs 260 px wide, its print at ``contrast`` of its own, the rest a glare's white."""
    img = drawn_table([("7C", 640, 360, 12)], width=260, seed=seed).astype(np.float32)
    return np.clip(img * contrast + (1 - contrast) * 235, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", range(3))
def test_a_card_under_a_veil_of_glare_is_read(seed):
    assert [c.card.name for c in read_cards(veiled(0.25, seed)).cards] == ["7C"]


def test_without_the_palest_level_the_veiled_card_was_not_read(monkeypatch):
    monkeypatch.setattr(tuning, "PALE", tuning.FAINT)  # the faintest level only
    assert read_cards(veiled(0.25, 0)).cards == []
