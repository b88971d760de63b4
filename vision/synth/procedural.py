"""A deck drawn with OpenCV: white card, rank text and suit pips.

It needs no artwork package, so the tests run anywhere, and its styles add variety to training.
The index boxes are known exactly from the drawing.

>>> face, boxes = draw_face("TD", style=0)
>>> face.shape, len(boxes)
((503, 360, 4), 2)
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.cards import is_red, rank_number
from vision.synth.index_box import Box

MASTER_W = 360
ASPECT = 1.397  # poker size, 63 x 88 mm

_FONTS = [
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
]
N_STYLES = 8
# rank glyphs in TrueType faces too (Debian fonts-dejavu-core and fonts-liberation; training only,
# nothing ships): card decks print their indices in many typefaces, and the network should read a
# 7 as a 7 in any of them. Style N_STYLES + k uses the k-th of these that is installed.
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation")
FONT_FILES = (
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-ExtraLight.ttf", "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSansMono.ttf", "DejaVuSerif.ttf", "DejaVuSerifCondensed-Bold.ttf", "LiberationSans-Bold.ttf",
    "LiberationSansNarrow-Regular.ttf", "LiberationSerif-Regular.ttf", "LiberationSerif-Bold.ttf",
    "LiberationMono-Bold.ttf",
)


def font_files() -> list[str]:
    """The TrueType faces of ``FONT_FILES`` installed here (paths), in that order."""
    import os

    out = []
    for name in FONT_FILES:
        for d in FONT_DIRS:
            path = os.path.join(d, name)
            if os.path.exists(path):
                out.append(path)
                break
    return out

# pip layouts for number cards, (x, y) in a unit box; y > 0.5 are drawn upside down
_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [
        (0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3),
        (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1),
    ],
}


def _style(style: int) -> dict[str, object]:
    if style >= N_STYLES:
        return _font_style(style)
    rng = np.random.default_rng(1000 + style)
    paper = (255, 255, 255) if style % 3 else tuple(int(v) for v in (rng.integers(225, 245), 245, 250))
    return {
        "font": _FONTS[style % len(_FONTS)],
        "thick": int(2 + style % 3),
        "paper": paper,
        "red": (int(rng.integers(20, 60)), int(rng.integers(20, 50)), int(rng.integers(170, 225))),
        "black": (int(rng.integers(10, 40)),) * 3,
        "index_h": float(rng.uniform(0.055, 0.08)),
        "index_x": float(rng.uniform(0.04, 0.075)),
        "index_y": float(rng.uniform(0.03, 0.06)),
        "radius": float(rng.uniform(0.035, 0.07)),
        "border": bool(style % 2),
        "ttf": None,
        "gap": 0.3,  # pip below the glyph, in glyph heights
        "pip": 0.85,  # pip height / glyph height
    }


def _font_style(style: int) -> dict[str, object]:
    """A TrueType style: one of ``font_files()``, with its own index size, gap and pip size."""
    fonts = font_files()
    if not fonts:
        raise ValueError("no TrueType fonts installed for the font styles (apt install fonts-dejavu-core)")
    return _face_style(style, fonts[(style - N_STYLES) % len(fonts)])


def _face_style(style: int, face: str) -> dict[str, object]:
    """Style ``style``'s paper, inks, index size, gap and pip size, its rank set in the TrueType
    or OpenType ``face`` (a path)."""
    st = _style(style % N_STYLES)
    rng = np.random.default_rng(2000 + style)
    st.update(
        ttf=face,
        index_h=float(rng.uniform(0.05, 0.09)),
        gap=float(rng.uniform(0.12, 0.4)),
        pip=float(rng.uniform(0.6, 0.95)),
    )
    return st


def _ttf_text(text: str, path: str, height: float, squeeze: float) -> npt.NDArray[np.float32]:
    """``text`` in the TrueType face at ``path``, as an ink mask 0-1 cropped to the ink and
    scaled to ``height`` px (``squeeze`` narrows it)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(path, 160)
    x0, y0, x1, y1 = font.getbbox(text)
    im = Image.new("L", (x1 - x0 + 8, y1 - y0 + 8), 0)
    ImageDraw.Draw(im).text((4 - x0, 4 - y0), text, fill=255, font=font)
    a = np.asarray(im, np.float32) / 255
    ys, xs = np.nonzero(a > 0.1)
    a = a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    f = height / a.shape[0]
    size = (max(1, round(a.shape[1] * f * squeeze)), max(1, round(height)))
    return np.clip(cv2.resize(a, size, interpolation=cv2.INTER_AREA), 0, 1)


def tailed_queen(mask: npt.NDArray[np.float32], tail: float, bend: float = 0.5) -> npt.NDArray[np.float32]:
    """A "Q" ink mask (0-1) with the long tail of continental faces: a stroke from the bowl's foot
    sweeping down and out to the right, ``tail`` of the letter's height below it, curved by
    ``bend`` (0 straight, 1 a deep swash); the whole scaled back to the letter's height, as a
    deck's index keeps its height and its bowl shrinks.

    >>> q = np.zeros((40, 30), np.float32); _ = cv2.ellipse(q, (15, 20), (12, 18), 0, 0, 360, 1.0, 2)
    >>> t = tailed_queen(q, 0.45)
    >>> t.shape[0], float(q[-2:, -5:].max()), float(t[-3:, -8:].max()) > 0.5  # ink low at the right
    (40, 0.0, True)
    """
    h, w = mask.shape
    extra = max(1, round(tail * h))
    out = np.zeros((h + extra, w + round(0.35 * w)), np.float32)
    out[:h, :w] = mask
    t = 16 * max(1.0, 0.09 * h)
    curve = [(0.45 * w, 0.78 * h), (0.55 * w + bend * 0.05 * w, h + (0.25 + 0.2 * bend) * extra),
             (0.95 * w, h + (0.7 + 0.1 * bend) * extra), (1.3 * w, h + (0.8 - 0.4 * bend) * extra)]
    pts = np.round(np.array(curve) * 16).astype(np.int32)
    cv2.polylines(out, [pts], False, 1.0, max(1, round(t / 16)), cv2.LINE_AA, shift=4)
    out = np.clip(out, 0, 1)
    return np.clip(cv2.resize(out, (max(1, round(out.shape[1] * h / out.shape[0])), h),
                              interpolation=cv2.INTER_AREA), 0, 1)


def _hershey_text(text: str, font: int, thick: int, height: float) -> npt.NDArray[np.float32]:
    """``text`` in an OpenCV Hershey ``font``, as an ink mask 0-1 cropped to the ink, ``height`` px tall."""
    big = 160
    (tw, th), base = cv2.getTextSize(text, font, big / 22, thick * 6)
    im = np.zeros((th + base + 40, tw + 40), np.uint8)
    cv2.putText(im, text, (20, th + 20), font, big / 22, 255, thick * 6, cv2.LINE_AA)
    ys, xs = np.nonzero(im > 25)
    a = im[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32) / 255
    size = (max(1, round(a.shape[1] * height / a.shape[0])), max(1, round(height)))
    return np.clip(cv2.resize(a, size, interpolation=cv2.INTER_AREA), 0, 1)


def draw_pip(
    img: npt.NDArray[np.uint8],
    suit: str,
    center: tuple[float, float],
    size: float,
    color: tuple[int, ...],
    flip: bool = False,
) -> None:
    """Draw a suit pip of height ``size`` centred at ``center`` (upside down if ``flip``)."""
    cx, cy = center
    s = size / 2.0
    sign = -1.0 if flip else 1.0

    def pt(dx: float, dy: float) -> tuple[int, int]:
        return (round((cx + dx * s) * 16), round((cy + sign * dy * s) * 16))

    def circle(dx: float, dy: float, r: float) -> None:
        cv2.circle(img, pt(dx, dy), round(r * s * 16), color, -1, cv2.LINE_AA, shift=4)

    def poly(points: list[tuple[float, float]]) -> None:
        arr = np.array([pt(x, y) for x, y in points], np.int32)
        cv2.fillPoly(img, [arr], color, cv2.LINE_AA, shift=4)

    if suit == "D":
        poly([(0, -1), (0.72, 0), (0, 1), (-0.72, 0)])
    elif suit == "H":
        circle(-0.45, -0.42, 0.5)
        circle(0.45, -0.42, 0.5)
        poly([(-0.93, -0.25), (0.93, -0.25), (0, 1)])
    elif suit == "S":
        circle(-0.45, 0.25, 0.45)
        circle(0.45, 0.25, 0.45)
        poly([(-0.87, 0.12), (0.87, 0.12), (0, -1)])
        poly([(0, 0.3), (0.3, 1), (-0.3, 1)])
    else:  # clubs
        circle(0, -0.5, 0.42)
        circle(-0.5, 0.18, 0.42)
        circle(0.5, 0.18, 0.42)
        circle(0, 0.05, 0.25)
        poly([(0, 0.1), (0.3, 1), (-0.3, 1)])


def _rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


def _draw_index(
    img: npt.NDArray[np.uint8], card: str, st: dict[str, object], color: tuple[int, ...]
) -> None:
    h, w = img.shape[:2]
    font = int(st["font"])  # type: ignore[call-overload]
    thick = int(st["thick"])  # type: ignore[call-overload]
    text = _rank_text(card[0])
    th = float(st["index_h"]) * h  # type: ignore[arg-type]
    tail = float(st.get("tail", 0.0))  # type: ignore[arg-type]
    if st["ttf"] or (tail and text == "Q"):
        if st["ttf"]:
            mask = _ttf_text(text, str(st["ttf"]), th, 0.8 if len(text) == 2 else 1.0)
        else:
            mask = _hershey_text(text, font, thick, th)
        if tail and text == "Q":
            mask = tailed_queen(mask, tail, float(st.get("bend", 0.5)))  # type: ignore[arg-type]
        x0 = round(float(st["index_x"]) * w)  # type: ignore[arg-type]
        y0 = round(float(st["index_y"]) * h)  # type: ignore[arg-type]
        mh, mw = mask.shape
        roi = img[y0:y0 + mh, x0:x0 + mw].astype(np.float32)
        a = mask[..., None]
        img[y0:y0 + mh, x0:x0 + mw] = (roi * (1 - a) + np.float32(color) * a).round().astype(np.uint8)
        pip = th * float(st["pip"])  # type: ignore[arg-type]
        draw_pip(img, card[1], (x0 + max(mw, pip) / 2, y0 + th * (1 + float(st["gap"])) + pip / 2),  # type: ignore[arg-type]
                 pip, color)
        return
    (tw, tht), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = th / tht
    (tw, tht), _ = cv2.getTextSize(text, font, scale, thick)
    if len(text) == 2:
        scale *= 0.85
        (tw, tht), _ = cv2.getTextSize(text, font, scale, thick)
    x = float(st["index_x"]) * w  # type: ignore[arg-type]
    y = float(st["index_y"]) * h + tht  # type: ignore[arg-type]
    cv2.putText(img, text, (round(x), round(y)), font, scale, color, thick, cv2.LINE_AA)
    pip = tht * 0.85
    draw_pip(img, card[1], (x + max(tw, pip) / 2, y + th * 0.3 + pip / 2), pip, color)


def draw_face(card: str, style: int = 0, width: int = MASTER_W, face: str | None = None,
              tail: float = 0.0, four: bool = False) -> tuple[npt.NDArray[np.uint8], list[Box]]:
    """Draw ``card`` in ``style``; return the BGRA face and its index boxes (TL, BR). ``face``: a
    font file to set the rank in instead of the style's own (``benchmarks/bench_typefaces.py``
    reads decks in faces never trained on this way); the style keeps its paper, inks and layout.
    ``tail``: the queen's "Q" drawn with a continental tail this long (:func:`tailed_queen`), its
    curve the style's own. ``four``: the index in all four corners, as Czech and Danish decks print
    it (then TR and BL follow, each upright as the corner's neighbour above or below it).

    >>> [round(b[0], 2) for b in draw_face("7S", 7, four=True)[1]]
    [0.05, 0.87, 0.87, 0.05]
    """
    st = _style(style) if face is None else _face_style(style, face)
    if tail:
        st.update(tail=tail, bend=float(np.random.default_rng(3000 + style).uniform(0, 1)))
    h, w = round(width * ASPECT), width
    color: tuple[int, ...] = st["red"] if is_red(card) else st["black"]  # type: ignore[assignment]
    rgb = np.empty((h, w, 3), np.uint8)
    rgb[:] = st["paper"]
    # index layer first, on its own, so its box is measured from the exact ink
    layer = np.zeros((h, w, 3), np.uint8)
    _draw_index(layer, card, st, (255, 255, 255))
    ys, xs = np.nonzero(layer[..., 0] > 40)
    tl: Box = (float(xs.min() / w), float(ys.min() / h), float((xs.max() + 1) / w), float((ys.max() + 1) / h))
    for _ in range(2):
        _draw_index(rgb, card, st, color)
        rgb = np.ascontiguousarray(rgb[::-1, ::-1])
    br: Box = (1 - tl[2], 1 - tl[3], 1 - tl[0], 1 - tl[1])
    boxes = [tl, br]
    if four:  # the corner's ink copied across, upright as drawn
        for x0, y0, x1, y1 in (tl, br):
            ys, ye, xs, xe = round(y0 * h), round(y1 * h), round(x0 * w), round(x1 * w)
            rgb[ys:ye, w - xe:w - xs] = rgb[ys:ye, xs:xe]
            boxes.append((1 - x1, y0, 1 - x0, y1))
    _draw_centre(rgb, card, st, color)
    alpha = np.zeros((h, w), np.uint8)
    r = round(float(st["radius"]) * w)  # type: ignore[arg-type]
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    if st["border"]:
        edge = cv2.morphologyEx(alpha, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        rgb[edge > 128] = (90, 90, 90)
    return np.dstack([rgb, alpha]), boxes


def _draw_centre(
    img: npt.NDArray[np.uint8], card: str, st: dict[str, object], color: tuple[int, ...]
) -> None:
    h, w = img.shape[:2]
    n = rank_number(card[0])
    x0, x1 = 0.28 * w, 0.72 * w
    y0, y1 = 0.2 * h, 0.8 * h
    if n <= 10:
        size = 0.13 * w if n > 1 else 0.32 * w
        for ux, uy in _LAYOUT[n]:
            draw_pip(img, card[1], (x0 + ux * (x1 - x0), y0 + uy * (y1 - y0)), size, color, uy > 0.5)
        return
    # court card: a frame with a big letter and a pip
    cv2.rectangle(img, (round(0.22 * w), round(0.16 * h)), (round(0.78 * w), round(0.84 * h)), color, 2)
    tint = tuple(int(c * 0.3 + 255 * 0.7) for c in color)
    cv2.rectangle(img, (round(0.24 * w), round(0.18 * h)), (round(0.76 * w), round(0.5 * h)), tint, -1)
    font = int(st["font"])  # type: ignore[call-overload]
    cv2.putText(img, card[0], (round(0.36 * w), round(0.44 * h)), font, 3.2 * w / 360, color, 6, cv2.LINE_AA)
    draw_pip(img, card[1], (0.5 * w, 0.66 * h), 0.16 * w, color)
