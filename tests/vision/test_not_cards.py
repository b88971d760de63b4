"""Nothing is reported where there is no card: printed text (a phone, a score pad), card backs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.reader import read_cards
from vision.synth.compose import table_image


def phone_on_table(seed: int) -> np.ndarray:
    """A phone lying on a table, its screen showing a clock, a list and a few digits and letters."""
    rng = np.random.default_rng(1000 + seed)
    img = table_image(rng, 720, 1280)
    x, y = 400 + 40 * seed, 120
    cv2.rectangle(img, (x, y), (x + 270, y + 520), (20, 20, 20), -1)
    cv2.rectangle(img, (x + 15, y + 35), (x + 255, y + 485), (240, 238, 236), -1)
    lines = ["12:45", "Messages", "Alice: 15 2", "Bob: go", "Score 61", "Call Mum", "Photos"]
    for k, text in enumerate(lines):
        cv2.putText(img, text, (x + 28, y + 85 + 55 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (35, 35, 35), 2,
                    cv2.LINE_AA)
    return img


@pytest.mark.parametrize("seed", range(4))
def test_a_phone_is_not_a_card(seed):
    assert read_cards(phone_on_table(seed)).cards == []
