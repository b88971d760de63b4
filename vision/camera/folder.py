"""A folder of still images played as frames (``frames:DIR`` and ``frames:DIR@FPS``).

Each image's header is read before it is decoded, and the pixel budget uploads use
(:mod:`imaging.limits`) decides how: at its own size up to 40 MP, a larger JPEG decoded
straight at 1/2, 1/4 or 1/8 of its size (``Frame.metadata["scale"]``), anything else over the
budget (a 20000x20000 PNG would take gigabytes) skipped with a one-line warning, never decoded.

Images are taken in natural name order, so ``f2.png`` comes before ``f10.png``:

>>> sorted(["f10.png", "f2.png", "F1.png", "f2b.png"], key=natural_key)
['F1.png', 'f2.png', 'f2b.png', 'f10.png']
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import cv2

from imaging import limits
from vision.camera.frame import DEFAULT_FPS, CameraError, Frame

__all__ = ["IMAGE_SUFFIXES", "FrameFolder", "natural_key"]

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
"""The files of a folder that are frames (any case); everything else is ignored."""
HEADER_BYTES = 1 << 16
"""Bytes read for the header first; a JPEG whose size comes later (a large EXIF or colour
profile before it) is read whole, up to :data:`MAX_FILE_BYTES`."""
MAX_FILE_BYTES = 50_000_000
"""The largest file read to find its header (the card reader's limit for a photo)."""
_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8}


def read_budget(path: Path) -> int:
    """How many times smaller ``path`` is decoded (1, 2, 4 or 8), from its header alone.

    Raises :class:`imaging.limits.TooLarge` for an image over the budget, ``ValueError`` for a
    file whose header is no image's.
    """
    with path.open("rb") as file:
        data = file.read(HEADER_BYTES)
        header = limits.read_header(data)
        if header is None and len(data) == HEADER_BYTES:
            rest = file.read(MAX_FILE_BYTES - HEADER_BYTES + 1)
            if len(data) + len(rest) <= MAX_FILE_BYTES:
                header = limits.read_header(data + rest)
    if header is None:
        raise ValueError("not an image (its header does not read)")
    return limits.reduction(header)


def natural_key(name: str) -> tuple[object, ...]:
    """Sort key: runs of digits compare as numbers, letters without case."""
    parts = re.split(r"(\d+)", name.casefold())
    return (*[int(p) if i % 2 else p for i, p in enumerate(parts)], name)


class FrameFolder:
    """The images of one folder, decoded with ``cv2.imread``. A frame's ``number`` is its
    image's index in the sorted listing and its ``time`` is ``number / fps``; a file that does
    not decode, or is over the pixel budget, is skipped with a logged warning (its number is
    not used) and listed in :attr:`skipped`."""

    live = False

    def __init__(self, directory: str | Path, fps: float = DEFAULT_FPS, *, spec: str | None = None) -> None:
        if not fps > 0:
            raise CameraError(f"frames: the rate must be above 0, not {fps}")
        self.directory = Path(directory)
        self.fps: float | None = fps
        self.spec = spec or f"frames:{directory}"
        self._files: list[Path] | None = None
        self._next = 0
        self.skipped: list[tuple[Path, str]] = []
        """Each image skipped since opened, with why."""

    def open(self) -> None:
        if not self.directory.is_dir():
            raise CameraError(f"frames {self.directory}: no such folder")
        files = [p for p in self.directory.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()]
        if not files:
            raise CameraError(f"frames {self.directory}: no images ({' '.join(IMAGE_SUFFIXES)}) in it")
        self._files = sorted(files, key=lambda p: natural_key(p.name))
        self._next, self.skipped = 0, []

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
            try:
                scale = read_budget(path)
            except (OSError, ValueError) as exc:  # limits.TooLarge is a ValueError
                self._skip(path, str(exc))
                continue
            image = cv2.imread(str(path), _REDUCED[scale])
            if image is None:
                self._skip(path, "not an image OpenCV can decode")
                continue
            assert self.fps is not None
            metadata: dict[str, object] = {"path": str(path)}
            if scale > 1:
                metadata["scale"] = scale
                log.info("frames: %s read at 1/%d of its size (over the %s budget)", path, scale,
                         limits.megapixels(limits.READ_PIXELS))
            return Frame(image, number, number / self.fps, metadata=metadata)
        return None

    def _skip(self, path: Path, why: str) -> None:
        log.warning("frames: skipping %s: %s", path, why)
        self.skipped.append((path, why))

    def close(self) -> None:
        self._files = None
