"""A deal video turned a quarter or a half: the same table seen by a camera mounted another way.

A golden video turned a quarter clockwise puts seat A at the left edge of the frame and B at the
right (a 1280x720 video becomes 720x1280); turned a half, A sits at the top. Every frame is
turned, and so is every coordinate of the truth (the frame's size, the zones, each card's
quad), so the truth still says where each card lies. :func:`turn_point` is the one rule:
turning clockwise takes the bottom edge to the left, the left to the top, and so round.

>>> turn_point((0.5, 1.0), 1), turn_point((0.5, 1.0), 2)  # the bottom edge's middle
((0.0, 0.5), (0.5, 0.0))
>>> turn_rect((0.0, 0.5, 1.0, 1.0), 1)  # seat A's half: the bottom half becomes the left half
(0.0, 0.0, 0.5, 1.0)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

__all__ = ["turn_frame", "turn_point", "turn_rect", "turn_truth", "turn_video"]

_ROTATE = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}


def turn_point(p: tuple[float, float], turns: int,
               size: tuple[float, float] = (1.0, 1.0)) -> tuple[float, float]:
    """Point ``p`` of a ``size`` (w, h) frame once the frame is turned ``turns`` quarters
    clockwise (fractions of the frame by default; pixels with the frame's size)."""
    x, y = p
    w, h = size
    for _ in range(turns % 4):
        x, y, w, h = h - y, x, h, w
    return (x, y)


def turn_rect(rect: tuple[float, float, float, float], turns: int) -> tuple[float, float, float, float]:
    """A zone (x0, y0, x1, y1, fractions of the frame) once the frame is turned ``turns``
    quarters clockwise."""
    xa, ya = turn_point((rect[0], rect[1]), turns)
    xb, yb = turn_point((rect[2], rect[3]), turns)
    return (min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb))


def turn_frame(image: np.ndarray, turns: int) -> np.ndarray:
    """``image`` turned ``turns`` quarters clockwise."""
    turns %= 4
    return image if turns == 0 else cv2.rotate(image, _ROTATE[turns])


def turn_truth(truth: dict[str, Any], turns: int) -> dict[str, Any]:
    """A video's truth with every coordinate turned as its frames are: ``size``, ``centre``,
    ``seats`` and each card's ``quad`` in ``actions`` (``table`` and ``placed``); ``turn`` says
    how many quarters.

    >>> t = turn_truth({"size": [1280, 720], "centre": [0.3, 0.35, 0.7, 0.65], "seats": {},
    ...                 "actions": [{"placed": [{"card": "5S", "quad": [[0, 0], [130, 0]]}]}]}, 1)
    >>> t["size"], t["centre"], t["actions"][0]["placed"][0]["quad"]
    ([720, 1280], [0.35, 0.3, 0.65, 0.7], [[720.0, 0.0], [720.0, 130.0]])
    """
    w, h = truth["size"]
    out = dict(truth)
    out["turn"] = turns % 4
    out["size"] = [h, w] if turns % 2 else [w, h]
    if "centre" in truth:
        out["centre"] = [round(v, 4) for v in turn_rect(tuple(truth["centre"]), turns)]
    if "seats" in truth:
        out["seats"] = {s: [round(v, 4) for v in turn_rect(tuple(r), turns)]
                        for s, r in truth["seats"].items()}

    def quads(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**c, "quad": [list(map(float, turn_point((x, y), turns, (w, h)))) for x, y in c["quad"]]}
                if c.get("quad") else dict(c) for c in items]

    actions = []
    for a in truth.get("actions") or []:
        a = dict(a)
        for key in ("table", "placed"):
            if key in a:
                a[key] = quads(a[key])
        actions.append(a)
    out["actions"] = actions
    return out


def turn_video(src: Path, dst: Path, turns: int) -> int:
    """Write the video ``src`` turned ``turns`` quarters clockwise to ``dst`` (mp4v; the same
    frame rate); returns the frames written. Raises :class:`OSError` if either cannot be opened."""
    cap = cv2.VideoCapture(str(src))
    if not cap.isOpened():
        raise OSError(f"cannot read the video {src}")
    fps = cap.get(cv2.CAP_PROP_FPS) or 10.0
    writer = None
    n = 0
    try:
        while True:
            ok, frame = cap.read()
            if not ok:
                break
            frame = turn_frame(frame, turns)
            if writer is None:
                fourcc = cv2.VideoWriter_fourcc(*("MJPG" if dst.suffix.lower() == ".avi" else "mp4v"))
                writer = cv2.VideoWriter(str(dst), fourcc, fps, (frame.shape[1], frame.shape[0]))
                if not writer.isOpened():
                    raise OSError(f"cannot write a video to {dst}")
            writer.write(frame)
            n += 1
    finally:
        cap.release()
        if writer is not None:
            writer.release()
    return n
