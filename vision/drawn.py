"""Cards drawn with OpenCV alone (Hershey-font ranks, polygon pips): a deck any machine can make.

Used by the tests (no card art needed) and as one more deck style in training.

>>> card = draw_card("TH", font=0)
>>> card.shape, card.dtype.name
((350, 250, 4), 'uint8')
"""

from __future__ import annotations

import cv2
import numpy as np

RED = (40, 30, 210)
BLACK = (30, 30, 30)
FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_COMPLEX]


def draw_pip(img: np.ndarray, suit: str, cx: float, cy: float, size: float, upright: bool = True) -> None:
    """Draw a suit pip of height ``size`` centred at (cx, cy); ``upright=False`` turns it over."""
    colour = RED if suit in "HD" else BLACK
    s = size / 2
    sign = 1 if upright else -1

    def pt(x: float, y: float) -> tuple[int, int]:
        return round(cx + x * s), round(cy + sign * y * s)

    if suit == "D":
        cv2.fillPoly(img, [np.int32([pt(0, -1), pt(0.75, 0), pt(0, 1), pt(-0.75, 0)])], colour, cv2.LINE_AA)
        return
    r = round(0.45 * s)
    if suit in "HS":
        # a heart (spade: upside down with a stem)
        flip = 1 if suit == "H" else -1
        for x in (-0.45, 0.45):
            c = pt(x, -0.4 * flip)
            cv2.circle(img, c, r + 1, colour, -1, cv2.LINE_AA)
        tri = [pt(-0.92, -0.25 * flip), pt(0.92, -0.25 * flip), pt(0, 1.0 * flip)]
        cv2.fillPoly(img, [np.int32(tri)], colour, cv2.LINE_AA)
        if suit == "S":
            cv2.fillPoly(img, [np.int32([pt(0, 0.2), pt(0.35, 1.0), pt(-0.35, 1.0)])], colour, cv2.LINE_AA)
        return
    # clubs: three balls and a stem
    for x, y in ((0, -0.5), (-0.5, 0.15), (0.5, 0.15)):
        cv2.circle(img, pt(x, y), r + 1, colour, -1, cv2.LINE_AA)
    cv2.fillPoly(img, [np.int32([pt(0, -0.1), pt(0.35, 1.0), pt(-0.35, 1.0)])], colour, cv2.LINE_AA)


def draw_card(name: str, font: int = 0, width: int = 250) -> np.ndarray:
    """A BGRA card with both corner indices (rank over pip) and a few pips in the middle."""
    rank, suit = name[0], name[1]
    h = int(width * 1.4)
    img = np.zeros((h, width, 4), np.uint8)
    cv2.rectangle(img, (0, 0), (width - 1, h - 1), (250, 250, 248, 255), -1)
    cv2.rectangle(img, (0, 0), (width - 1, h - 1), (150, 150, 150, 255), 1)
    colour = RED if suit in "HD" else BLACK
    text = "10" if rank == "T" else rank
    scale = width / 250 * 1.25
    thick = max(2, int(width / 70))
    (tw, th), _ = cv2.getTextSize(text, FONTS[font % len(FONTS)], scale, thick)
    rgb = np.ascontiguousarray(img[:, :, :3])
    cx = int(width * 0.11)
    cv2.putText(rgb, text, (cx - tw // 2, int(h * 0.03) + th), FONTS[font % len(FONTS)], scale, colour,
                thick, cv2.LINE_AA)
    pip = th * 0.9
    draw_pip(rgb, suit, cx, int(h * 0.03) + th + pip * 0.8, pip)
    # the other index, turned over
    rgb = cv2.rotate(rgb, cv2.ROTATE_180)
    cv2.putText(rgb, text, (cx - tw // 2, int(h * 0.03) + th), FONTS[font % len(FONTS)], scale, colour,
                thick, cv2.LINE_AA)
    draw_pip(rgb, suit, cx, int(h * 0.03) + th + pip * 0.8, pip)
    rgb = cv2.rotate(rgb, cv2.ROTATE_180)
    big = width * 0.22
    if rank in "JQK":
        cv2.rectangle(rgb, (int(width * 0.25), int(h * 0.2)), (int(width * 0.75), int(h * 0.8)), colour, 2)
        draw_pip(rgb, suit, width / 2, h / 2, big * 1.4)
    else:
        n = 1 if rank == "A" else min(int(text), 6)
        for k in range(n):
            x = width / 2 + (width * 0.18) * (-1 if k % 2 else 1) * (n > 1)
            y = h * (0.25 + 0.5 * (k // 2) / max(1, (n - 1) // 2)) if n > 1 else h / 2
            draw_pip(rgb, suit, x, y, big, upright=y <= h / 2)
    img[:, :, :3] = rgb
    return img


def drawn_deck(font: int = 0, width: int = 250) -> dict[str, np.ndarray]:
    """All 52 drawn cards (``"5H"`` → BGRA) and a patterned ``"back"``."""
    deck = {r + s: draw_card(r + s, font, width) for s in "CDHS" for r in "A23456789TJQK"}
    back = np.zeros((int(width * 1.4), width, 4), np.uint8)
    back[:] = (40, 40, 160, 255)
    for k in range(0, width * 3, 14):
        cv2.line(back, (k, 0), (k - width * 2, width * 2), (230, 230, 240, 255), 3)
    deck["back"] = back
    return deck
