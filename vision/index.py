"""Finding corner indices: ink components paired as a rank glyph above a suit pip, rectified.

Ink is whatever is much darker than the paper around it (grey level against a local
maximum), so black and red print both count and light wood does not. Each
component that could be a rank glyph is paired with a component below it of suit-pip size; the
vector glyph → pip is the card's "down", which rectifies any rotation. The glyph (with a
neighbour side by side, for "10") and the pip are cut out upright and resized to small masks.

>>> import numpy as np
>>> find_indices(np.full((120, 160, 3), 200, np.uint8))
[]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PATCH_W, PATCH_H = 12, 16
LOCAL = 31  # window (px) for the local paper brightness


@dataclass
class Candidate:
    """A possible corner index: rank-glyph and pip features, where it is and which way is down."""

    rank_feat: np.ndarray
    suit_feat: np.ndarray
    center: tuple[float, float]
    down: tuple[float, float]
    size: float
    rank_pos: tuple[float, float]
    suit_pos: tuple[float, float]
    labels: tuple[int, ...]


def ink_mask(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ink mask (much darker than the local paper), darkness relative to paper (200 = paper), paper mask.

    >>> import numpy as np
    >>> img = np.full((50, 50, 3), 230, np.uint8); img[20:30, 20:24] = 20
    >>> int(ink_mask(img)[0][25, 22]), int(ink_mask(img)[0][5, 5]), int(ink_mask(img)[2][5, 5])
    (255, 0, 255)
    """
    # each channel against its own local paper level (white balance by neighbourhood): black and
    # red print both fall well below 1 in their darkest channel, a colour cast does not
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (LOCAL, LOCAL))
    paper3 = cv2.blur(cv2.dilate(bgr, kernel), (LOCAL, LOCAL))
    rel = cv2.divide(bgr, paper3, scale=200.0)  # 200 = as bright as the paper around it
    b, g, r = cv2.split(rel)
    v = cv2.min(cv2.min(b, g), r)
    grey = cv2.cvtColor(paper3, cv2.COLOR_BGR2GRAY)
    ink = cv2.compare(v, 116, cv2.CMP_LT)  # under 58% of the paper
    # paper is far brighter than the darkest things and not much darker than the brightest
    bright = float(np.percentile(grey[::4, ::4], 99.5))
    ink = cv2.bitwise_and(ink, cv2.compare(grey, max(50.0, 0.3 * bright), cv2.CMP_GT))
    # print has a dark core: keep only ink blobs holding a pixel under 45% of the paper
    strong = cv2.bitwise_and(ink, cv2.compare(v, 90, cv2.CMP_LT))
    n, labels = cv2.connectedComponents(ink, connectivity=8)
    keep = np.bincount(labels[strong > 0], minlength=n) > 0
    keep[0] = False
    ink = (keep[labels].astype(np.uint8)) * 255
    return ink, v, cv2.compare(v, 120, cv2.CMP_GT)


def _rect_patch(
    labels: np.ndarray, ids: list[int], boxes: np.ndarray, angle_deg: float
) -> tuple[np.ndarray, float] | None:
    """The components ``ids`` cut out, rotated by ``angle_deg`` so down is down, as a small mask."""
    x0 = min(int(boxes[i, 0]) for i in ids)
    y0 = min(int(boxes[i, 1]) for i in ids)
    x1 = max(int(boxes[i, 0] + boxes[i, 2]) for i in ids)
    y1 = max(int(boxes[i, 1] + boxes[i, 3]) for i in ids)
    sub = labels[y0:y1, x0:x1]
    roi = cv2.compare(sub, ids[0], cv2.CMP_EQ)
    for extra in ids[1:]:
        roi |= cv2.compare(sub, extra, cv2.CMP_EQ)
    h, w = roi.shape
    side = int(np.ceil(np.hypot(w, h))) + 2
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle_deg, 1.0)
    m[0, 2] += side / 2 - w / 2
    m[1, 2] += side / 2 - h / 2
    rot = cv2.warpAffine(roi, m, (side, side), flags=cv2.INTER_LINEAR)
    ys, xs = np.nonzero(rot > 100)
    if len(xs) == 0:
        return None
    crop = rot[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    aspect = crop.shape[1] / crop.shape[0]
    patch = cv2.resize(crop, (PATCH_W, PATCH_H), interpolation=cv2.INTER_AREA)
    return patch.astype(np.float32).ravel() / 255.0, aspect


def _colour(bgr: np.ndarray, labels: np.ndarray, ids: list[int], boxes: np.ndarray) -> float:
    """Redness of the ink of ``ids`` against the paper around it (about 0 black, 0.3+ red)."""
    x0 = min(int(boxes[i, 0]) for i in ids)
    y0 = min(int(boxes[i, 1]) for i in ids)
    x1 = max(int(boxes[i, 0] + boxes[i, 2]) for i in ids)
    y1 = max(int(boxes[i, 1] + boxes[i, 3]) for i in ids)
    pad = max(2, (y1 - y0) // 3)
    ya, xa = max(0, y0 - pad), max(0, x0 - pad)
    sub = bgr[ya : y1 + pad, xa : x1 + pad]
    lab = labels[ya : y1 + pad, xa : x1 + pad]
    inkm = cv2.compare(lab, ids[0], cv2.CMP_EQ)
    for extra in ids[1:]:
        inkm |= cv2.compare(lab, extra, cv2.CMP_EQ)
    paperm = cv2.compare(lab, 0, cv2.CMP_EQ)
    if not inkm.any() or not paperm.any():
        return 0.0
    paper = np.array(cv2.mean(sub, mask=paperm)[:3]) + 1.0
    ink = np.array(cv2.mean(sub, mask=inkm)[:3]) / paper  # relative to the paper: removes colour casts
    b, g, r = ink
    return float(r - max(g, b))


def find_indices(bgr: np.ndarray, max_components: int = 1500) -> list[Candidate]:
    """Every plausible (rank glyph, pip) pair in the image, as rectified features."""
    ink, _, paper = ink_mask(bgr)
    n, labels, stats, cents = cv2.connectedComponentsWithStatsWithAlgorithm(
        ink, 8, cv2.CV_32S, cv2.CCL_GRANA
    )
    if n <= 1:
        return []
    integral = cv2.integral(paper // 255)
    w = stats[1:, 2].astype(np.float32)
    h = stats[1:, 3].astype(np.float32)
    area = stats[1:, 4].astype(np.float32)
    size = np.maximum(w, h)
    fill = area / (w * h)
    ok = (size >= 4) & (size <= 140) & (area >= 6) & (fill > 0.12) & (fill < 0.97)
    ok &= (np.maximum(w, h) / np.maximum(1, np.minimum(w, h))) < 7
    idx = np.nonzero(ok)[0]
    if len(idx) == 0:
        return []
    # ink on a card is ringed by paper; the shadowed table beside a card is not
    ih, iw = paper.shape
    bx, by = stats[1:][idx, 0], stats[1:][idx, 1]
    bw, bh = stats[1:][idx, 2], stats[1:][idx, 3]
    m = np.maximum(2, (np.maximum(bw, bh) // 8))
    x0, y0 = np.clip(bx - m, 0, iw), np.clip(by - m, 0, ih)
    x1, y1 = np.clip(bx + bw + m, 0, iw), np.clip(by + bh + m, 0, ih)
    outer = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    inner = (integral[by + bh, bx + bw] - integral[by, bx + bw] - integral[by + bh, bx]
             + integral[by, bx])
    ring_area = (x1 - x0) * (y1 - y0) - bw * bh
    idx = idx[(outer - inner) > 0.5 * np.maximum(ring_area, 1)]
    if len(idx) == 0:
        return []
    if len(idx) > max_components:
        idx = idx[np.argsort(-area[idx])[:max_components]]
    c = cents[1:][idx]
    s = size[idx]
    boxes = stats[1:][idx].astype(np.int64)
    out: list[Candidate] = []
    d = c[None, :, :] - c[:, None, :]  # d[i, j] = c[j] - c[i]
    dist = np.hypot(d[..., 0], d[..., 1])
    ratio = s[None, :] / s[:, None]
    pair = (dist > 0.65 * s[:, None]) & (dist < 1.6 * s[:, None]) & (ratio > 0.4) & (ratio < 1.4)
    pair &= (s >= 6)[:, None]  # a rank glyph is at least 6 px; its pip may be smaller
    ii, jj = np.nonzero(pair)
    pip_cache: dict[tuple[int, int], tuple[np.ndarray, float] | None] = {}
    red_cache: dict[int, float] = {}
    for i, j in zip(ii.tolist(), jj.tolist(), strict=True):
        dx, dy = d[i, j] / dist[i, j]
        angle = float(np.degrees(np.arctan2(dx, dy)))  # rotate so (dx, dy) points to +y
        # side-by-side neighbours of the glyph ("10"): across the down vector, about as tall
        rel = c - c[i]
        along = rel[:, 0] * dx + rel[:, 1] * dy
        across = -rel[:, 0] * dy + rel[:, 1] * dx
        group = [i]
        near = np.nonzero(
            (np.abs(along) < 0.3 * s[i]) & (np.abs(across) < 1.2 * s[i]) & (np.abs(across) > 0.2 * s[i])
            & (s > 0.6 * s[i]) & (s < 1.5 * s[i])
        )[0]
        group += [int(k) for k in near if k != j][:1]
        gc = c[group].mean(axis=0)
        # the pip must sit below the glyph (group) centre, not off to one side
        rel_p = c[j] - gc
        if abs(-rel_p[0] * dy + rel_p[1] * dx) > 0.6 * s[i] * len(group):
            continue
        lab_r = [int(idx[k]) + 1 for k in group]
        lab_s = [int(idx[j]) + 1]
        rp = _rect_patch(labels, lab_r, stats, -angle)
        key = (j, round(angle / 3))
        if key not in pip_cache:
            pip_cache[key] = _rect_patch(labels, lab_s, stats, -angle)
        sp = pip_cache[key]
        if rp is None or sp is None:
            continue
        if j not in red_cache:
            red_cache[j] = _colour(bgr, labels, lab_s, stats)
        red = min(max(red_cache[j], -0.1), 0.5)
        rank_feat = np.concatenate([rp[0], [min(rp[1], 3.0) / 2.0]]).astype(np.float32)
        suit_feat = np.concatenate([sp[0], [min(sp[1], 3.0) / 2.0, red * 3.0]]).astype(np.float32)
        out.append(
            Candidate(
                rank_feat,
                suit_feat,
                (float((gc[0] + c[j][0]) / 2), float((gc[1] + c[j][1]) / 2)),
                (float(dx), float(dy)),
                float(s[i]),
                (float(gc[0]), float(gc[1])),
                (float(c[j][0]), float(c[j][1])),
                tuple(lab_r + lab_s),
            )
        )
    del boxes
    return out
