"""Fast path: small training crops of corner indices, without rendering whole scenes.

``render_index_patches(rng, n, size=32)`` returns ``n`` BGR patches (``size`` x ``size``) each
centred on one corner index of a random card of a random deck, turned by a random angle, under
a random affine skew, on a random table sliver, with light, blur, noise and JPEG, plus the labels.

>>> from vision.synth.decks import procedural_deck
>>> x, y = render_index_patches(np.random.default_rng(0), 4, size=32, decks=[procedural_deck()])
>>> x.shape, len(y)
((4, 32, 32, 3), 4)
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.cards import ALL_CARDS
from vision.synth.decks import Deck
from vision.synth.photo import photo_effects
from vision.synth.scene import default_decks
from vision.synth.tables import table


def render_index_patches(
    rng: np.random.Generator,
    n: int,
    *,
    size: int = 32,
    decks: list[Deck] | None = None,
    split: str | None = "train",
    margin: float = 0.25,
    upright: bool = False,
) -> tuple[npt.NDArray[np.uint8], list[str]]:
    """``n`` index patches and their card codes. ``margin`` pads the index box (fraction of its
    larger side); ``upright`` keeps the index upright (only small tilts), as after rectifying."""
    decks = decks or default_decks(split)
    out = np.empty((n, size, size, 3), np.uint8)
    labels: list[str] = []
    bg, _ = table(rng, (size * 8, size * 8))
    for i in range(n):
        deck = decks[int(rng.integers(len(decks)))]
        card = ALL_CARDS[int(rng.integers(52))]
        boxes = deck.indices(card)
        if not boxes:
            boxes = [(0.04, 0.03, 0.16, 0.25)]
        k = int(rng.integers(len(boxes)))
        x0, y0, x1, y1 = boxes[k]
        box_h_frac = y1 - y0
        # face scaled so the index box is about 60% of the patch
        face_h = size * rng.uniform(0.45, 0.75) / max(box_h_frac, 1e-3)
        face = deck.master(card)
        fw = max(8, round(face_h * face.shape[1] / face.shape[0]))
        f = cv2.resize(face, (fw, round(face_h)), interpolation=cv2.INTER_AREA)
        if k == 1:  # the bottom-right index, turned upright
            f = np.ascontiguousarray(f[::-1, ::-1])
            x0, y0, x1, y1 = 1 - x1, 1 - y1, 1 - x0, 1 - y0
        fh, fw = f.shape[:2]
        cx, cy = (x0 + x1) / 2 * fw, (y0 + y1) / 2 * fh
        ang = rng.uniform(-12, 12) if upright else rng.uniform(-180, 180)
        m = cv2.getRotationMatrix2D((cx, cy), ang, 1.0)
        m[:, :2] = m[:, :2] @ (np.eye(2) + rng.uniform(-0.12, 0.12, (2, 2)))
        m[0, 2] += size / 2 - cx + rng.uniform(-0.08, 0.08) * size
        m[1, 2] += size / 2 - cy + rng.uniform(-0.08, 0.08) * size
        warped = cv2.warpAffine(f, m, (size, size), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        ox, oy = rng.integers(0, bg.shape[1] - size), rng.integers(0, bg.shape[0] - size)
        base = bg[oy : oy + size, ox : ox + size]
        a = warped[..., 3:4].astype(np.float32) / 255.0
        img = base * (1 - a) + warped[..., :3].astype(np.float32) / 255.0 * a
        out[i] = photo_effects(rng, img.astype(np.float32), None, 0.4)
        labels.append(card)
    return out, labels
