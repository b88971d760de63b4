"""Compose cards onto a table photo with exact ground truth.

``render_scene(rng, layout=...)`` places faces from one deck on a procedural table, seen
overhead or moderately oblique, with shadows, room light, glare, blur, noise and JPEG. Each
card's ground truth gives its face quad (TL, TR, BR, BL in image pixels), the quads of its corner
indices that remain visible, and the fraction of the face left uncovered.

>>> from vision.synth.decks import procedural_deck
>>> s = render_scene(np.random.default_rng(3), layout="single", size=(320, 240),
...                  decks=[procedural_deck()])
>>> s.image.shape, len(s.cards) >= 1, s.cards[0].quad.shape
((240, 320, 3), True, (4, 2))
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth import svg
from vision.synth.cards import ALL_CARDS
from vision.synth.decks import Deck, load_decks, printed_back, procedural_deck
from vision.synth.photo import photo_effects
from vision.synth.tables import table

LAYOUTS = ("single", "row", "fan", "hand", "crop", "empty", "backs", "bridge")
INDEX_VISIBLE = 0.95  # an index counts as visible when this much of its box is uncovered
F32 = npt.NDArray[np.float32]


@dataclass
class SceneCard:
    """Ground truth for one face-up card."""

    card: str
    quad: F32  # 4x2, TL TR BR BL of the face, image pixels
    indices: list[F32]  # 4x2 quads of the corner indices still visible
    visible_fraction: float
    index_boxes: list[F32] = field(default_factory=list)  # every index quad, covered or not

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "quad": np.round(self.quad, 2).tolist(),
            "indices": [np.round(q, 2).tolist() for q in self.indices],
            "visible_fraction": round(float(self.visible_fraction), 4),
        }


@dataclass
class Scene:
    """A rendered image (BGR uint8) and its ground truth."""

    image: npt.NDArray[np.uint8]
    cards: list[SceneCard]
    layout: str
    deck: str
    table: str
    distractors: list[str] = field(default_factory=list)

    @property
    def readable(self) -> list[SceneCard]:
        """Cards with at least one visible corner index (what a reader must report)."""
        return [c for c in self.cards if c.indices]

    @property
    def kind(self) -> str:
        """The ``kind`` of the shared dataset's labels that this scene corresponds to."""
        if self.layout == "crop":
            return "photo_single_crop"
        if not self.readable:
            return "webcam_frame_empty"
        if any(c.visible_fraction < 0.95 for c in self.cards):
            return "photo_multi_overlap"
        return "photo_single" if len(self.cards) == 1 else "photo_multi"

    def to_dict(self) -> dict[str, Any]:
        h, w = self.image.shape[:2]
        return {
            "cards": [c.card for c in self.readable],
            "kind": self.kind,
            "width": w,
            "height": h,
            "layout": self.layout,
            "deck": self.deck,
            "table": self.table,
            "distractors": self.distractors,
            "overlap": self.kind == "photo_multi_overlap",
            "n_cards": len(self.readable),
            "card_truth": [c.to_dict() for c in self.cards],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())


# ----------------------------------------------------------------------------- geometry
def _rect(cx: float, cy: float, w: float, h: float, ang: float) -> F32:
    """TL, TR, BR, BL of a w x h rectangle centred at (cx, cy) turned by ``ang`` radians."""
    c, s = np.cos(ang), np.sin(ang)
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    rot = np.array([[c, -s], [s, c]], np.float32)
    return (pts @ rot.T + np.array([cx, cy], np.float32)).astype(np.float32)


def _camera(rng: np.random.Generator, w: int, h: int, oblique: float) -> F32:
    """Homography table plane -> image: the visible table is a trapezoid, wider far away.

    The far side is the top, bottom, left or right of the image; the plane keeps the image's
    scale near the camera, so cards are not stretched."""
    t = rng.uniform(0, oblique)
    side = rng.uniform(-0.3, 0.3) * t
    edge = int(rng.integers(4)) if rng.random() < 0.5 else 0
    long_, short = (w, h) if edge in (0, 1) else (h, w)
    a0, a1, b = t * long_ * (0.3 + side), t * long_ * (0.3 - side), t * short * 0.15
    # (u along the far edge, v towards the camera), far edge first
    uv = np.array([[-a0, -b], [long_ + a1, -b], [long_, short], [0, short]], np.float32)
    u, v = uv[:, 0], uv[:, 1]
    if edge == 0:  # far side at the top
        src = np.stack([u, v], axis=1)
    elif edge == 1:  # at the bottom
        src = np.stack([w - u, h - v], axis=1)
    elif edge == 2:  # at the left
        src = np.stack([v, h - u], axis=1)
    else:  # at the right
        src = np.stack([w - v, u], axis=1)
    src = src.astype(np.float32)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    if edge == 1:
        dst = dst[[2, 3, 0, 1]]
    elif edge == 2:
        dst = dst[[3, 0, 1, 2]]
    elif edge == 3:
        dst = dst[[1, 2, 3, 0]]
    src += rng.uniform(-0.03, 0.03, (4, 2)).astype(np.float32) * np.array([w, h], np.float32)
    return cv2.getPerspectiveTransform(src, dst).astype(np.float32)


def _apply(hm: F32, pts: F32) -> F32:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float32), hm).reshape(-1, 2)


def _local_scale(hm: F32, x: float, y: float) -> float:
    p = _apply(hm, np.array([[x, y], [x + 1, y], [x, y + 1]], np.float32))
    a, b = p[1] - p[0], p[2] - p[0]
    return float(np.sqrt(abs(a[0] * b[1] - a[1] * b[0])))


# ----------------------------------------------------------------------------- compositing
class _Canvas:
    def __init__(self, img: F32) -> None:
        self.img = img
        h, w = img.shape[:2]
        self.owner = np.full((h, w), -1, np.int16)
        self.light_dir = np.array([1.0, 1.0], np.float32)

    def paste(self, face: npt.NDArray[np.uint8], quad: F32, owner: int, shadow: float = 0.35) -> None:
        h, w = self.img.shape[:2]
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
        span = float(np.linalg.norm(quad[1] - quad[0]))
        pad = int(span * 0.12) + 2
        bx0, by0, bx1, by1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
        if bx1 <= bx0 or by1 <= by0:
            return
        fh, fw = face.shape[:2]
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        m = cv2.getPerspectiveTransform(src, (quad - np.array([bx0, by0], np.float32)).astype(np.float32))
        warped = cv2.warpPerspective(face, m, (bx1 - bx0, by1 - by0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        a = warped[..., 3:4].astype(np.float32) / 255.0
        roi = self.img[by0:by1, bx0:bx1]
        if shadow > 0:
            off = self.light_dir * span * 0.03
            sm = cv2.warpAffine(a[..., 0], np.float32([[1, 0, off[0]], [0, 1, off[1]]]),
                                (a.shape[1], a.shape[0]))
            sm = cv2.GaussianBlur(sm, (0, 0), max(1.0, span * 0.03))
            roi *= 1 - shadow * sm[..., None]
        roi[:] = roi * (1 - a) + warped[..., :3].astype(np.float32) / 255.0 * a
        if owner != -1:
            sub = self.owner[by0:by1, bx0:bx1]
            sub[a[..., 0] > 0.5] = owner

    def visible(self, quad: F32, owner: int) -> float:
        """Fraction of the polygon ``quad`` whose pixels belong to ``owner`` (outside = covered)."""
        area = abs(cv2.contourArea(quad.astype(np.float32)))
        if area < 1:
            return 0.0
        h, w = self.owner.shape
        x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 1, [w, h])
        if x1 <= x0 or y1 <= y0:
            return 0.0
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round((quad - [x0, y0]) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        own = (self.owner[y0:y1, x0:x1] == owner) & (mask > 0)
        return min(1.0, float(own.sum()) / max(float(mask.sum()), area * 0.98))


# ----------------------------------------------------------------------------- distractors
def _distractor(rng: np.random.Generator, canvas: _Canvas, kind: str, centre: tuple[float, float],
                scale: float, on_top: bool) -> None:
    h, w = canvas.img.shape[:2]
    size = int(scale * rng.uniform(1.0, 2.2))
    layer = np.zeros((size * 2, size * 2, 4), np.uint8)
    c = size
    if kind == "phone":
        bw, bh = int(size * 0.5), int(size * 0.95)
        col = tuple(int(v) for v in rng.integers(10, 60, 3))
        cv2.rectangle(layer, (c - bw, c - bh), (c + bw, c + bh), (*col, 255), -1, cv2.LINE_AA)
        scr = tuple(int(v) for v in rng.integers(20, 255, 3))
        cv2.rectangle(layer, (c - bw + 6, c - bh + 14), (c + bw - 6, c + bh - 14), (*scr, 255), -1)
        for i in range(int(rng.integers(2, 8))):
            y = c - bh + 30 + i * 18
            cv2.line(layer, (c - bw + 14, y), (c + int(rng.integers(-bw + 20, bw - 10)), y),
                     (40, 40, 40, 255), 3)
    elif kind == "hand":
        skin = np.array([rng.uniform(90, 170), rng.uniform(120, 190), rng.uniform(170, 235)])
        col = (*(int(v) for v in skin), 255)
        cv2.ellipse(layer, (c, c + size // 4), (size // 3, size // 2), 0, 0, 360, col, -1, cv2.LINE_AA)
        for i in range(4):
            x = c - size // 4 + i * size // 6
            cv2.line(layer, (x, c), (x + int(rng.integers(-8, 8)), c - int(size * rng.uniform(0.55, 0.8))),
                     col, max(3, size // 9), cv2.LINE_AA)
        cv2.line(layer, (c + size // 4, c + size // 4), (c + int(size * 0.7), c - size // 8), col,
                 max(3, size // 8), cv2.LINE_AA)
    elif kind == "pegboard":
        bw, bh = int(size * 0.3), int(size * 0.95)
        wood = (*(int(v) for v in rng.integers(30, 150, 3)), 255)
        cv2.rectangle(layer, (c - bw, c - bh), (c + bw, c + bh), wood, -1, cv2.LINE_AA)
        for col_i in range(3):
            x = c - bw + (col_i + 1) * (2 * bw) // 4
            for y in range(c - bh + 10, c + bh - 10, max(4, size // 12)):
                cv2.circle(layer, (x, y), max(1, size // 50), (15, 15, 15, 255), -1)
        for _ in range(int(rng.integers(1, 4))):
            peg = (*(int(v) for v in rng.integers(0, 255, 3)), 255)
            cv2.circle(layer, (c - bw // 2 + int(rng.integers(0, bw)), c + int(rng.integers(-bh, bh))),
                       max(2, size // 25), peg, -1, cv2.LINE_AA)
    elif kind == "pad":
        bw, bh = int(size * 0.55), int(size * 0.75)
        cv2.rectangle(layer, (c - bw, c - bh), (c + bw, c + bh), (235, 240, 245, 255), -1)
        for y in range(c - bh + 20, c + bh, 22):
            cv2.line(layer, (c - bw, y), (c + bw, y), (220, 190, 160, 255), 1)
            if rng.random() < 0.6:
                txt = "".join(rng.choice(list("0123456789 +-"), int(rng.integers(2, 7))))
                cv2.putText(layer, txt, (c - bw + 8, y - 3), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                            0.6, (90, 60, 40, 255), 1, cv2.LINE_AA)
    else:  # mug seen from above
        r = size // 2
        cv2.circle(layer, (c, c), r, (*(int(v) for v in rng.integers(40, 240, 3)), 255), -1, cv2.LINE_AA)
        cv2.circle(layer, (c, c), int(r * 0.8), (20, 35, 50, 255), -1, cv2.LINE_AA)
        cv2.ellipse(layer, (c + r, c), (r // 3, r // 5), 0, 0, 360, (200, 200, 200, 255), -1)
    rot = cv2.getRotationMatrix2D((c, c), float(rng.uniform(0, 360)), 1.0)
    layer = cv2.warpAffine(layer, rot, (2 * size, 2 * size))
    quad = np.array([[0, 0], [2 * size, 0], [2 * size, 2 * size], [0, 2 * size]], np.float32)
    quad += np.array(centre, np.float32) - size
    canvas.paste(layer, quad, owner=-2 if on_top else -1, shadow=0.3)
    del h, w


# ----------------------------------------------------------------------------- layouts
_DECKS: dict[str | None, list[Deck]] = {}


def default_decks(split: str | None = "train") -> list[Deck]:
    """Artwork decks of ``split`` (loaded once), or procedural decks when no artwork is installed."""
    if split not in _DECKS:
        decks = []
        for d in load_decks(split=split):
            try:
                if d.aspect > 1.2 and len(d.indices("AS")) == 2:
                    decks.append(d)
            except svg.SvgError:
                continue
        if not decks:
            decks = [procedural_deck(s) for s in range(8)]
        _DECKS[split] = decks
    return _DECKS[split]


def held_fan(k: int, reach: float, step: float) -> list[tuple[float, float, float]]:
    """``k`` cards held fanned round a point ``reach`` below their centres, ``step`` radians
    apart: each card's centre (x, y, from the middle card's) and its turn (radians).

    >>> [tuple(round(float(v), 2) for v in c) for c in held_fan(3, 100.0, 0.1)]
    [(-9.98, 0.5, -0.1), (0.0, 0.0, 0.0), (9.98, 0.5, 0.1)]
    """
    out = []
    for i in range(k):
        a = (i - (k - 1) / 2) * step
        out.append((reach * np.sin(a), reach * (1 - np.cos(a)), a))
    return out


def _place_group(rng: np.random.Generator, layout: str, k: int, cw: float, ch: float,
                 idx_right: float) -> list[tuple[float, float, float]]:
    """Card centres and angles (in the table plane, around 0,0) for a group layout."""
    out = []
    if layout == "row":
        # as tight as a spread deck (the next card's edge just past the index) to loose
        step = cw * rng.uniform(idx_right + 0.03, min(0.6, idx_right + 0.3))
        for i in range(k):
            out.append((i * step, rng.uniform(-0.03, 0.03) * ch, rng.uniform(-0.04, 0.04)))
    elif layout == "fan":
        if rng.random() < 0.6:
            pivot = ch * rng.uniform(0.3, 1.0)
            delta = rng.uniform(0.12, 0.3)
            for i in range(k):
                a = (i - (k - 1) / 2) * delta
                out.append((pivot * np.sin(a), pivot - pivot * np.cos(a) - 0, a))
        else:  # spread for the show
            step = cw * rng.uniform(max(0.2, idx_right + 0.03), 0.75)
            for i in range(k):
                out.append((i * step, rng.uniform(-0.08, 0.08) * ch, rng.uniform(-0.12, 0.12)))
    elif layout == "bridge":  # a hand held fanned round a point below it: of each card, a strip
        reach = ch * rng.uniform(0.4, 0.8)  # from that point to each card's centre
        # radians between cards: the strip a little wider than the index down to the index's foot
        out = held_fan(k, reach, cw * rng.uniform(idx_right + 0.02, idx_right + 0.12) / (reach + 0.3 * ch))
    else:
        raise ValueError(layout)
    mx = np.mean([p[0] for p in out])
    my = np.mean([p[1] for p in out])
    return [(x - mx, y - my, a) for x, y, a in out]


def render_scene(
    rng: np.random.Generator,
    *,
    layout: str,
    size: tuple[int, int] = (1280, 720),
    decks: list[Deck] | None = None,
    split: str | None = "train",
    card_width: tuple[float, float] = (60, 400),
    oblique: float = 0.3,
    effects: float = 1.0,
) -> Scene:
    """Render one scene. ``layout`` is one of ``LAYOUTS``; ``size`` is (width, height) except for
    ``crop``, whose size follows the card; ``card_width`` the range of face widths in pixels."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, not {layout!r}")
    decks = decks or default_decks(split)
    deck = decks[int(rng.integers(len(decks)))]
    if layout == "crop":
        return _render_crop(rng, deck, effects)
    w, h = size
    bg, table_kind = table(rng, (w, h))
    canvas = _Canvas(bg)
    ang = rng.uniform(0, 2 * np.pi)
    canvas.light_dir = np.array([np.cos(ang), np.sin(ang)], np.float32)
    hm = _camera(rng, w, h, oblique)
    inv = np.linalg.inv(hm).astype(np.float32)
    aspect = deck.aspect
    distractors: list[str] = []

    def table_pt(x: float, y: float) -> tuple[float, float]:
        p = _apply(inv, np.array([[x, y]], np.float32))[0]
        return float(p[0]), float(p[1])

    # distractors under the cards
    n_dis = int(rng.integers(1, 4)) if layout == "empty" else int(rng.random() < 0.3)
    on_top_ok = layout == "empty"
    for _ in range(n_dis):
        kind = str(rng.choice(["phone", "hand", "pegboard", "pad", "mug"]))
        distractors.append(kind)
        _distractor(rng, canvas, kind, (rng.uniform(0, w), rng.uniform(0, h)),
                    rng.uniform(0.1, 0.3) * min(w, h), on_top_ok)

    lo, hi = card_width
    target_w = float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
    placements: list[tuple[str, F32]] = []  # (card or "back", quad)
    cards = [str(c) for c in rng.permutation(ALL_CARDS)]

    def quad_at(px: float, py: float, ang: float, tw: float) -> F32:
        tx, ty = table_pt(px, py)
        sc = _local_scale(hm, tx, ty)
        cw = tw / max(sc, 1e-3)
        q = _apply(hm, _rect(tx, ty, cw, cw * aspect, ang))
        got = float(max(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[3])))
        cw *= tw / max(got, 1e-3)  # the local scale is anisotropic under perspective: correct once
        return _apply(hm, _rect(tx, ty, cw, cw * aspect, ang))

    def inside(q: F32, margin: float = 0.0) -> bool:
        return bool((q[:, 0] >= -margin).all() and (q[:, 0] <= w + margin).all()
                    and (q[:, 1] >= -margin).all() and (q[:, 1] <= h + margin).all())

    def overlaps(q: F32) -> bool:
        for _, other in placements:
            inter, _ = cv2.intersectConvexConvex(q.astype(np.float32), other.astype(np.float32))
            if inter > 1:
                return True
        return False

    idx_right = max((b[2] for b in deck.indices(cards[0])[:1]), default=0.2)
    if layout in ("single", "empty", "backs"):
        if layout == "backs":  # face down: the stock, the crib, a dealt hand; they may pile up
            n = int(rng.integers(1, 6))
        else:
            n = int(rng.choice([1, 1, 2, 3, 4, 6])) if layout == "single" else int(rng.integers(0, 5))
        tw = min(target_w, 0.5 * min(w, h) / aspect) if n > 1 else min(target_w, 0.9 * h / aspect)
        for i in range(n):
            for _ in range(30):
                q = quad_at(rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0, 2 * np.pi), tw)
                if inside(q) and (layout == "backs" or not overlaps(q)):
                    placements.append(("back" if layout != "single" else cards[i], q))
                    break
    else:
        k = int(rng.integers(2, 12)) if layout == "row" else int(rng.integers(3, 7))
        if layout == "hand":
            k = 4
        if layout == "bridge":
            k = int(rng.integers(8, 14))
        group_layout = layout if layout in ("row", "bridge") else "fan"
        spread = 0.3 if layout == "bridge" else 0.6  # of a card's width, each card's more
        if layout == "hand":  # room for the starter apart
            target_w = min(target_w, 0.42 * min(w, h) / aspect)
        for _ in range(40):
            tw = target_w
            target_w = max(lo, target_w * 0.93)  # shrink on each failed attempt
            # the group must fit: shrink the card until it does
            span = (k * spread + 1) * tw
            if span > 0.95 * w:
                tw = 0.95 * w / (k * spread + 1)
            tw = max(tw, lo)
            cx, cy = rng.uniform(0.25 * w, 0.75 * w), rng.uniform(0.3 * h, 0.7 * h)
            tx, ty = table_pt(cx, cy)
            sc = _local_scale(hm, tx, ty)
            cw = tw / max(sc, 1e-3)
            rot = rng.uniform(0, 2 * np.pi)
            c, s = np.cos(rot), np.sin(rot)
            group = []
            for gx, gy, ga in _place_group(rng, group_layout, k, cw, cw * aspect, idx_right):
                x, y = tx + gx * c - gy * s, ty + gx * s + gy * c
                group.append(_apply(hm, _rect(x, y, cw, cw * aspect, rot + ga)))
            if all(inside(q) for q in group):
                placements = [(cards[i], q) for i, q in enumerate(group)]
                break
        if layout == "hand" and placements:
            tw_img = float(np.linalg.norm(placements[0][1][1] - placements[0][1][0]))
            for _ in range(40):
                q = quad_at(rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0, 2 * np.pi), tw_img)
                hull = np.concatenate([p for _, p in placements])
                gap = min(float(np.min(np.linalg.norm(hull - pt, axis=1))) for pt in q)
                if inside(q) and not overlaps(q) and gap > 0.3 * tw_img:
                    placements.append((cards[k], q))
                    break

    faces: list[SceneCard] = []
    for i, (card, quad) in enumerate(placements):
        edge = max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[3]))
        width_px = int(np.clip(edge * 1.3, 24, 360))
        if card == "back":
            # a "backs" scene's backs are mostly printed at random (lattices, marks, checks)
            face = (cv2.resize(printed_back(rng, 2 * width_px), (width_px, round(width_px * 1.397)),
                               interpolation=cv2.INTER_AREA)
                    if layout == "backs" and rng.random() < 0.7 else deck.back(width_px))
            if face is None:
                face = procedural_deck(int(rng.integers(8))).back(width_px)
            assert face is not None
            canvas.paste(face, quad, owner=-1)
            continue
        face = deck.render(card, width_px)
        face = _tint(rng, face)
        canvas.paste(face, quad, owner=i)
        faces.append(SceneCard(card=card, quad=quad, indices=[], visible_fraction=1.0))
        faces[-1].index_boxes = [_box_quad(quad, b) for b in deck.indices(card)]
        faces[-1]._owner = i  # type: ignore[attr-defined]

    # a hand over the cards now and then
    if placements and layout != "empty" and rng.random() < 0.08:
        distractors.append("hand")
        q = placements[int(rng.integers(len(placements)))][1]
        cx, cy = q.mean(axis=0) + rng.normal(0, 0.5, 2) * float(np.linalg.norm(q[1] - q[0]))
        _distractor(rng, canvas, "hand", (float(cx), float(cy)), float(np.linalg.norm(q[1] - q[0])), True)

    for f in faces:
        own = f._owner  # type: ignore[attr-defined]
        f.visible_fraction = canvas.visible(f.quad, own)
        f.indices = [q for q in f.index_boxes if canvas.visible(q, own) >= INDEX_VISIBLE]
    card_mask = canvas.owner >= 0
    img = photo_effects(rng, canvas.img, card_mask, effects) if effects > 0 else _to_u8(canvas.img)
    return Scene(img, faces, layout, deck.name, table_kind, distractors)


def _box_quad(quad: F32, box: tuple[float, float, float, float]) -> F32:
    """Map a face-fraction box onto the image through the face's quad (bilinear = exact for
    a homography only at the corners; we use the homography)."""
    src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    x0, y0, x1, y1 = box
    pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return _apply(m, pts)


def _tint(rng: np.random.Generator, face: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Slight per-card brightness and warmth (paper age, angle to the light)."""
    g = rng.uniform(0.85, 1.05, 3).astype(np.float32)
    out = face.copy()
    out[..., :3] = np.clip(face[..., :3].astype(np.float32) * g, 0, 255).astype(np.uint8)
    return out


def _to_u8(img: F32) -> npt.NDArray[np.uint8]:
    return (np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)


def _render_crop(rng: np.random.Generator, deck: Deck, effects: float) -> Scene:
    """One card cropped tight to its edges, like a scan, with a sliver of table at the borders."""
    card = str(rng.choice(ALL_CARDS))
    cw = int(rng.uniform(120, 480))
    face = _tint(rng, deck.render(card, cw))
    fh, fw = face.shape[:2]
    m = rng.uniform(0, 0.04)
    out_w, out_h = int(fw * (1 + 2 * m)), int(fh * (1 + 2 * m))
    bg, table_kind = table(rng, (out_w, out_h))
    canvas = _Canvas(bg)
    jit = rng.uniform(-0.02, 0.02, (4, 2)).astype(np.float32) * np.array([fw, fh], np.float32)
    quad = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32) + jit + np.float32([m * fw, m * fh])
    canvas.paste(face, quad, owner=0, shadow=0.0)
    sc = SceneCard(card=card, quad=quad, indices=[], visible_fraction=1.0)
    sc.index_boxes = [_box_quad(quad, b) for b in deck.indices(card)]
    sc.visible_fraction = canvas.visible(quad, 0)
    sc.indices = [q for q in sc.index_boxes if canvas.visible(q, 0) >= INDEX_VISIBLE]
    mask = canvas.owner >= 0
    img = photo_effects(rng, canvas.img, mask, effects * 0.6) if effects > 0 else _to_u8(canvas.img)
    return Scene(img, [sc], "crop", deck.name, table_kind, [])
