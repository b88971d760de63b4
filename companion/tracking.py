"""The game log and the data folder as the camera's follower uses them.

:class:`StoreGame` is one game of a :class:`~cribbage.gamelog.GameStore` seen through
:class:`vision.track.follow.GamePort` (every event it applies is stored with ``source: camera``);
:class:`CropFolder` keeps the crops of the cards the camera read in the data folder's
``crops/``, where the page shows them beside the correction buttons.

>>> import tempfile, pathlib
>>> from cribbage.gamelog import GameStore
>>> store = GameStore(":memory:")
>>> game = StoreGame(store, store.new_game({"players": "Ann,Bob"}))
>>> game.apply({"type": "dealer", "seat": "B"})["phase"]
'deal'
>>> store.events(game.game_id)[0]["source"]
'camera'
>>> folder = CropFolder(pathlib.Path(tempfile.mkdtemp()))
>>> import numpy as np
>>> name = folder.save(np.zeros((20, 20, 3), np.uint8), "000412-A")
>>> re.fullmatch(r"crops/000412-A-[0-9a-f]{12}[.]jpg", name) is not None
True
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from cribbage.gamelog import GameStore

__all__ = ["CROPS", "CropFolder", "Followed", "StoreGame", "follow_frames"]

CROPS = "crops"
"""The data folder's sub-folder of card crops."""
_SAFE = re.compile(r"[^A-Za-z0-9._-]")
KEEP_CROPS = 2000  # older crops are deleted beyond this many (a few games' worth)


class StoreGame:
    """Game ``game_id`` of ``store``; events are stored with ``source`` (``camera``)."""

    def __init__(self, store: GameStore, game_id: int, source: str = "camera") -> None:
        self.store = store
        self.game_id = game_id
        self.source = source

    def state(self) -> dict[str, Any]:
        return self.store.state(self.game_id)

    def apply(self, event: dict[str, Any]) -> dict[str, Any]:
        return self.store.apply(self.game_id, event, source=self.source)

    def events(self) -> list[dict[str, Any]]:
        return self.store.events(self.game_id)


class CropFolder:
    """Crops as small JPEGs in ``data_dir/crops``; the newest ``keep`` are kept."""

    def __init__(self, data_dir: Path, keep: int = KEEP_CROPS) -> None:
        self.dir = Path(data_dir) / CROPS
        self.keep = keep
        self._written = 0

    def save(self, crop: npt.NDArray[np.uint8], stem: str) -> str | None:
        """Write ``crop`` as ``crops/<stem>-<12 random hex digits>.jpg``; its relative path.

        The random part makes every name new: a crop pruned away never has its name given to
        another card's crop (the frame and seat of ``stem`` come again in every game), so an old
        event that names a crop shows that card or nothing, never another."""
        self.dir.mkdir(parents=True, exist_ok=True)
        stem = _SAFE.sub("-", stem)[:60] or "crop"
        name = f"{stem}-{secrets.token_hex(6)}.jpg"
        while (self.dir / name).exists():
            name = f"{stem}-{secrets.token_hex(6)}.jpg"
        ok, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 85])
        if not ok:
            return None
        (self.dir / name).write_bytes(buf.tobytes())
        self._written += 1
        if self._written % 50 == 0:
            self._prune()
        return f"{CROPS}/{name}"

    def read(self, name: str) -> bytes | None:
        """The bytes of crop ``name`` (a bare file name), or None."""
        if _SAFE.search(name) or not name.endswith(".jpg") or name.startswith("."):
            return None
        path = self.dir / name
        try:
            return path.read_bytes()
        except OSError:
            return None

    def _prune(self) -> None:
        files = sorted(self.dir.glob("*.jpg"), key=lambda p: p.stat().st_mtime)
        for old in files[: max(0, len(files) - self.keep)]:
            old.unlink(missing_ok=True)


@dataclass
class Followed:
    """What following a recording gave: the follower (its events and flags), the frames seen and
    the tracker's own time for each (ms, decoding not counted)."""

    follower: Any
    frames: int = 0
    ms: list[float] = field(default_factory=list)

    def ms_per_frame(self) -> dict[str, float]:
        """``{"mean": ..., "p95": ...}`` of the tracker's time per frame."""
        if not self.ms:
            return {"mean": 0.0, "p95": 0.0}
        ordered = sorted(self.ms)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        return {"mean": round(sum(ordered) / len(ordered), 2), "p95": round(p95, 2)}


def follow_frames(source: Any, follower: Any, *,
                  on_frame: Callable[[int, list[Any]], None] | None = None) -> Followed:
    """Feed every frame of an opened ``source`` (:mod:`vision.camera`) to ``follower`` as fast as
    it goes (``crib track``, the golden tests, the benchmark); ``on_frame(frames, applied)``
    after each. The source is closed at the end."""
    out = Followed(follower)
    try:
        while (frame := source.read()) is not None:
            applied = follower.feed(frame.image, frame.number, frame.lores)
            out.ms.append(follower.tracker.ms)
            out.frames += 1
            if on_frame is not None:
                on_frame(out.frames, applied)
    finally:
        source.close()
    return out
