"""The camera in ``crib serve``: one capture thread, one tracker thread, events into the game.

:class:`CameraService` opens the frame source named on the command line (:mod:`vision.camera`)
on its own capture thread (:class:`vision.camera.Capture`: each frame goes to one caller, so the
tracker and the page's snapshot share it), and follows the newest game on a second thread: each
frame goes to a :class:`vision.track.Follower`, whose events the companion applies like any
other (stored with ``source: camera``, then the page and the LEDs follow). A camera that fails
is retried with back-off while the game goes on by hand; when it comes back the whole table is
read again, and what the game already holds is not sent twice.

>>> import tempfile, pathlib
>>> data = pathlib.Path(tempfile.mkdtemp())
>>> CameraService.zones_file(data).name, CameraService.zones_file(data, 4).name
('zones.json', 'zones-4.json')
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.tracking import CropFolder

log = logging.getLogger("companion.camera")

ZONES_FILE = "zones.json"  # the zones set on the page, in the data folder


class CompanionGame:
    """The latest game of the companion as the follower's :class:`vision.track.GamePort`."""

    def __init__(self, companion: Any, game_id: int) -> None:
        self.companion = companion
        self.game_id = game_id

    def state(self) -> dict[str, Any]:
        return self.companion.state(self.game_id)  # type: ignore[no-any-return]

    def apply(self, event: dict[str, Any]) -> dict[str, Any]:
        return self.companion.apply(self.game_id, event, source="camera")  # type: ignore[no-any-return]


class CameraService:
    """Follows the companion's newest game from the frame source ``spec``.

    The zones are the data folder's (``zones.json``, ``zones-3.json``, ``zones-4.json``: one for
    each size of table, set on the page) or ``zones_path`` (``--zones FILE``) for its own size;
    ``realtime`` paces a video at its own frame rate; ``loop`` replays a video from the start when
    it ends, in a new game (the demo; ``new_game`` starts it). ``tell(status)`` is called whenever
    what the page shows of the camera changes. ``make_source``, ``reader`` and ``backoff`` replace
    the source the spec names, the card reader and the retry delays (for tests).
    """

    def __init__(self, companion: Any, spec: str, data_dir: Path, *, zones_path: Path | None = None,
                 realtime: bool = True, loop: bool = False,
                 new_game: Callable[[], int] | None = None,
                 tell: Callable[[dict[str, Any]], None] | None = None,
                 make_source: Callable[[], Any] | None = None, reader: Any = None,
                 backoff: tuple[float, float] = (0.5, 10.0)) -> None:
        from vision.camera import Capture, open_source
        from vision.track import Follower, Tracker, Zones

        self.companion = companion
        self.spec = spec
        self.data_dir = Path(data_dir)
        self.zones_override = zones_path
        self.crops = CropFolder(data_dir)
        self.new_game = new_game
        self.tell = tell
        if make_source is None:
            open_source(spec)  # a bad spec fails now, at start, with its message

            def make_source() -> Any:
                return open_source(spec)
        players = 2
        latest = companion.latest_game()
        if latest is not None:
            players = len(companion.state(latest).get("players") or [None, None])
        self.zones = Zones.load(self._zones_path(players), players)
        self._lock = threading.RLock()
        self._tracker = Tracker(self.zones, reader=reader)
        self._follower_cls = Follower
        self._follower: Any = None
        self._game_id: int | None = None
        self._ended = False
        self._stop = threading.Event()
        self.capture = Capture(make_source, realtime=realtime, loop=loop, backoff=backoff,
                               on_status=self._camera_changed)
        self._thread = threading.Thread(target=self._run, name="tracker", daemon=True)
        self._was_lost = False
        self.latency: list[tuple[int, str, float]] = []  # (frame, event type, when applied): the benchmark's

    @staticmethod
    def zones_file(data_dir: Path, players: int = 2) -> Path:
        """Where the page's zones for a table of ``players`` are kept in a data folder."""
        return Path(data_dir) / (ZONES_FILE if players == 2 else f"zones-{players}.json")

    def _zones_path(self, players: int) -> Path:
        """The zones file for ``players``: ``--zones FILE`` for its own table, else the data
        folder's."""
        if self.zones_override is not None:
            try:
                from vision.track import Zones

                if Zones.load(self.zones_override).players == players:
                    return self.zones_override
            except Exception:  # a broken file is reported when it is loaded
                pass
        return self.zones_file(self.data_dir, players)

    def _zones_for(self, game_id: int | None) -> None:
        """The zones of the table of game ``game_id`` (its number of players)."""
        from vision.track import Zones, ZonesError

        if game_id is None:
            return
        players = len(self.companion.state(game_id).get("players") or [None, None])
        if players == self.zones.players:
            return
        try:
            self.zones = Zones.load(self._zones_path(players), players)
        except ZonesError as exc:
            log.warning("camera: %s; the default zones are used", exc)
            self.zones = Zones.default(players)
        self._tracker.zones = self.zones

    # -- running ---------------------------------------------------------------------------

    def start(self) -> None:
        self.capture.start()
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self.capture.stop()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _follower_for(self, game_id: int | None) -> Any:
        """The follower of ``game_id`` (a new one when the newest game changed)."""
        if game_id != self._game_id:
            self._game_id = game_id
            self._zones_for(game_id)
            self._tracker.forget()
            self._follower = None if game_id is None else self._follower_cls(
                CompanionGame(self.companion, game_id), self._tracker, save_crop=self.crops.save,
                on_change=self._tracker_changed)
        return self._follower

    def _run(self) -> None:
        seq = -1
        last_number = -1
        while not self._stop.is_set():
            frame = self.capture.wait_frame(seq, timeout=0.5)
            if frame is None:
                continue
            seq = getattr(frame, "seq", seq + 1)
            number = frame.number
            if self.new_game is not None and number < last_number:  # the demo video began again
                self.new_game()
            last_number = number
            if self._was_lost:
                self._was_lost = False
                self._tracker.forget()
            try:
                with self._lock:
                    follower = self._follower_for(self.companion.latest_game())
                    if follower is None:
                        continue
                    state = follower.game.state()
                    if state.get("phase") == "over":
                        continue
                    applied = follower.feed(frame.image, number, frame.lores)
                for a in applied:
                    self.latency.append((number, a.event["type"], time.monotonic()))
            except Exception:  # the tracker must never stop the companion
                log.exception("camera: frame %d not followed", number)

    # -- the page's side -------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        camera = self.capture.status()
        with self._lock:
            follow = self._follower.status() if self._follower is not None else {
                "tracker": "paused", "flagged": []}
        tracker = follow["tracker"]
        if camera.get("state") in ("lost", "ended", "stopped") and tracker != "waiting for a confirmation":
            tracker = "paused"
        return {**camera, "tracker": tracker, "flagged": follow["flagged"], "game": self._game_id,
                "zones": self.zones.to_json()}

    def snapshot(self) -> bytes | None:
        return self.capture.snapshot_jpeg()  # type: ignore[no-any-return]

    def set_zones(self, data: dict[str, Any]) -> dict[str, Any]:
        from vision.track import Zones

        zones = Zones.from_json(data)
        zones.save(self._zones_path(zones.players))
        with self._lock:
            self.zones = zones
            self._tracker.zones = zones
        self._tracker_changed()
        return zones.to_json()

    def resolve(self, flag_id: int, action: str, card: str | None = None) -> dict[str, Any]:
        with self._lock:
            if self._follower is None:
                raise KeyError(flag_id)
            return self._follower.resolve(flag_id, action, card)  # type: ignore[no-any-return]

    def confirm(self) -> dict[str, Any] | None:
        """The board's next/confirm button: accept the oldest flagged reading."""
        with self._lock:
            return None if self._follower is None else self._follower.accept_oldest()

    def crop(self, name: str) -> bytes | None:
        return self.crops.read(name)

    # -- telling the page ------------------------------------------------------------------

    def _camera_changed(self, status: dict[str, Any]) -> None:
        if status.get("state") == "lost":
            self._was_lost = True
            log.warning("camera %s lost: %s", self.spec, status.get("error"))
        self._tracker_changed()

    def _tracker_changed(self) -> None:
        if self.tell is not None:
            try:
                self.tell(self.status())
            except Exception:
                log.exception("camera status listener failed")
