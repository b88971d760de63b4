"""A folder of still images played as frames (``frames:DIR`` and ``frames:DIR@FPS``).

Images are taken in natural name order, so ``f2.png`` comes before ``f10.png``:

>>> sorted(["f10.png", "f2.png", "F1.png", "f2b.png"], key=natural_key)
['F1.png', 'f2.png', 'f2b.png', 'f10.png']
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import cv2

from vision.camera.frame import DEFAULT_FPS, CameraError, Frame

__all__ = ["IMAGE_SUFFIXES", "FrameFolder", "natural_key"]

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
"""The files of a folder that are frames (any case); everything else is ignored."""


def natural_key(name: str) -> tuple[object, ...]:
    """Sort key: runs of digits compare as numbers, letters without case."""
    parts = re.split(r"(\d+)", name.casefold())
    return (*[int(p) if i % 2 else p for i, p in enumerate(parts)], name)


class FrameFolder:
    """The images of one folder, decoded with ``cv2.imread``. A frame's ``number`` is its
    image's index in the sorted listing and its ``time`` is ``number / fps``; a file that does
    not decode is skipped with a logged warning (its number is not used)."""

    live = False

    def __init__(self, directory: str | Path, fps: float = DEFAULT_FPS, *, spec: str | None = None) -> None:
        if not fps > 0:
            raise CameraError(f"frames: the rate must be above 0, not {fps}")
        self.directory = Path(directory)
        self.fps: float | None = fps
        self.spec = spec or f"frames:{directory}"
        self._files: list[Path] | None = None
        self._next = 0

    def open(self) -> None:
        if not self.directory.is_dir():
            raise CameraError(f"frames {self.directory}: no such folder")
        files = [p for p in self.directory.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()]
        if not files:
            raise CameraError(f"frames {self.directory}: no images ({' '.join(IMAGE_SUFFIXES)}) in it")
        self._files = sorted(files, key=lambda p: natural_key(p.name))
        self._next = 0

    @property
    def frame_count(self) -> int | None:
        """The images found, once opened (for progress)."""
        return None if self._files is None else len(self._files)

    def read(self) -> Frame | None:
        if self._files is None:
            raise CameraError(f"{self.spec}: read before open")
        while self._next < len(self._files):
            number, path = self._next, self._files[self._next]
            self._next += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                log.warning("frames: skipping %s: not an image OpenCV can decode", path)
                continue
            assert self.fps is not None
            return Frame(image, number, number / self.fps, metadata={"path": str(path)})
        return None

    def close(self) -> None:
        self._files = None
