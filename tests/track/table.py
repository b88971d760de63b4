"""A drawn table for the tracker's tests: cards as coded patches, hands as skin-coloured blobs.

The real reader is slow and its mistakes are its own; these tests are about the tracker's logic,
so they read with :func:`patch_reader`, which reads exactly what :class:`DrawnTable` drew: a
card face is white paper with a light patch (its "index") whose blue level codes the card, a
back is dark, a hand is skin.
"""

from __future__ import annotations

import cv2
import numpy as np

from cribbage.cards import PACK
from vision.track import Seen

NAMES = [c.name for c in PACK]
W, H = 640, 360
CARD_W, CARD_H = 40, 56


def code(card: str) -> int:
    return 40 + 3 * NAMES.index(card)


def patch_reader(image: np.ndarray) -> tuple[list[Seen], list[Seen]]:
    """Reads light patches (green and red over 200) as the card their blue level codes; a patch
    whose code is off the table of codes is unreadable."""
    mask = ((image[..., 1] > 200) & (image[..., 2] > 200) & (image[..., 0] < 215)).astype(np.uint8)
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask)
    cards, doubts = [], []
    for k in range(1, n):
        if stats[k, 4] < 150:
            continue
        blue = int(np.median(image[..., 0][labels == k]))
        index = round((blue - 40) / 3)
        center = (float(centroids[k][0]), float(centroids[k][1]))
        if abs(blue - code(NAMES[index % 52])) <= 1 and 0 <= index < 52:
            cards.append(Seen(NAMES[index], 0.95, center, 4.0))
        else:
            doubts.append(Seen(None, 0.0, center, 4.0))
    return cards, doubts


class DrawnTable:
    """Cards lying on a table (face up or down); ``frame(hand=...)`` draws it with a hand."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.cards: dict[str, tuple[int, int, bool]] = {}  # name -> (x, y, face up)
        self.blue: dict[str, int] = {}

    def lay(self, card: str, x: int, y: int, blue: int | None = None) -> None:
        self.cards[card] = (x, y, True)
        if blue is not None:
            self.blue[card] = blue

    def turn(self, card: str, up: bool) -> None:
        x, y, _ = self.cards[card]
        self.cards[card] = (x, y, up)

    def clear(self) -> None:
        self.cards.clear()

    def frame(self, hand: tuple[int, int] | None = None) -> np.ndarray:
        img = np.full((H, W, 3), (40, 70, 110), np.uint8)  # wood-ish
        for name, (x, y, up) in self.cards.items():
            corner = (x - CARD_W // 2, y - CARD_H // 2)
            paper = (235, 235, 235) if up else (90, 60, 60)
            cv2.rectangle(img, corner, (x + CARD_W // 2, y + CARD_H // 2), paper, -1)
            if up:
                colour = (self.blue[name] if name in self.blue else code(name), 235, 235)
                cv2.rectangle(img, (x - 14, y - 20), (x + 14, y + 20), colour, -1)
        if hand is not None:
            cv2.ellipse(img, hand, (45, 30), 20, 0, 360, (120, 160, 205), -1)
            cv2.rectangle(img, (hand[0] - 20, hand[1]), (hand[0] + 20, H if hand[1] > H // 2 else 0),
                          (115, 150, 200), -1)
        noise = self.rng.normal(0, 2, img.shape)
        return np.clip(img + noise, 0, 255).astype(np.uint8)
