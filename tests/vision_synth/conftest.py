"""Shared checks for the synthetic-renderer tests (tests/vision_synth)."""

from __future__ import annotations

import numpy as np
import pytest


def ink_colour_ok(patch_bgr: np.ndarray, red: bool) -> bool:
    """True if the patch holds enough ink of the suit's colour (red, or dark for black suits)."""
    px = patch_bgr.reshape(-1, 3).astype(np.int32)
    b, g, r = px[:, 0], px[:, 1], px[:, 2]
    reddish = (r > 110) & (r > g + 50) & (r > b + 40)
    dark = (r < 110) & (g < 110) & (b < 110)
    share_red, share_dark = reddish.mean(), dark.mean()
    if red:
        return bool(share_red > 0.04 and share_red > share_dark)
    return bool(share_dark > 0.04 and share_dark > share_red)


@pytest.fixture
def ink_ok():
    """The ink-colour check as a fixture."""
    return ink_colour_ok
