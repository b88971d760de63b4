"""The camera in ``crib serve``: one capture thread, one tracker thread, events into the game.

:class:`CameraService` opens the frame source named on the command line (:mod:`vision.camera`)
on its own capture thread (:class:`vision.camera.Capture`: each frame goes to one caller, so the
tracker and the page's snapshot share it), and follows the newest game on a second thread: each
frame goes to a :class:`vision.track.Follower`, whose events the companion applies like any
other (stored with ``source: camera``, then the page and the LEDs follow). A camera that fails
is retried with back-off while the game goes on by hand; when it comes back the whole table is
read again, and what the game already holds is not sent twice.

With ``start_games`` (``crib serve --camera``, never the demo) the camera starts the game: while
no game is in progress (none yet, or the newest is over) the tracker watches the table alone
(:class:`companion.dealwatch.DealWatch`), and the first card turned up after the last game's
cards are cleared starts a game of the last game's players (or the default names) with no
dealer (:meth:`companion.service.Companion.new_game_if_none_on`: never over a game in progress).
The table is then read afresh into it, so the card that started it is its first event, and the
follower finds the dealer from the first card of the play. The status says so (``started``).

The page's Set-up step asks :meth:`CameraService.checks`: the set-up checks of ``crib camera
check`` (:func:`vision.camera.check.check_frames`) on the last few frames the tracker took, kept
in a small ring: the newest frame as a small copy (:func:`vision.camera.check.small_copy`: at
most 1600 px on the long side, the size the cards are read at; a frame that small is kept as it
is, no copy) and the older frames' light prints only (:func:`vision.camera.check.light_print`,
57 KB each, all that the flicker check compares), so the ring holds one frame, not eight: 3 MB
for a 1280x720 camera, 8 MB for a 40 MP one. They run in the caller's thread
(a page request), never the tracker's, at most once every ``checks_every`` seconds however many
phones ask (0.9 s: a page asking once a second gets a new report each time); between, every
caller gets the same answer.

>>> import tempfile, pathlib
>>> data = pathlib.Path(tempfile.mkdtemp())
>>> CameraService.zones_file(data).name, CameraService.zones_file(data, 4).name
('zones.json', 'zones-4.json')
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.dealwatch import DealWatch, next_game_settings
from companion.tracking import CropFolder
from cribbage.storage import file_error
from vision.camera.check import light_print, small_copy

log = logging.getLogger("companion.camera")

ZONES_FILE = "zones.json"  # the zones set on the page, in the data folder
AUTO = "auto"  # --zones auto: the seats found from the cards (vision.track.seats)
LATENCY_KEPT = 4096  # events whose frame the benchmark's latency figure is taken from (about ten games)
CHECK_FRAMES = 8  # the set-up checks look at the last this many frames (flicker compares them)
CHECK_EVERY = 0.9  # ... at most once in this many seconds (the page asks once a second)


def load_zones_file(path: Path) -> Any:
    """The zones in ``--zones FILE``; raises :class:`vision.track.ZonesError` naming the file when
    it is missing, not JSON or not zones (``crib serve`` stops at start: exit 2, one line)."""
    from vision.track import Zones, ZonesError

    p = Path(path)
    if not p.is_file():
        raise ZonesError(f"--zones {p}: no such file")
    try:
        return Zones.load(p)
    except ZonesError as exc:
        message = str(exc)
        raise ZonesError(message if str(p) in message else f"--zones {p}: {message}") from None


@dataclass(frozen=True)
class Kept:
    """A frame as the set-up checks' ring keeps it: its image at most ``CHECK_SIDE`` px on the
    long side (:func:`vision.camera.check.small_copy`; ``None`` once a newer frame came: only the
    newest is read), its light print for the flicker check
    (:func:`vision.camera.check.light_print`, 57 KB), the frame's own ``(width, height)``, its
    ``seq`` and field of view."""

    image: Any
    light: Any
    size: tuple[int, int]
    seq: int
    field_of_view: float | None

    @classmethod
    def of(cls, frame: Any, seq: int) -> Kept:
        image, size = small_copy(frame.image)
        return cls(image, light_print(image), size, seq, frame.field_of_view)

    def older(self) -> Kept:
        """This frame once a newer one is kept: its light print only."""
        return replace(self, image=None)


class CompanionGame:
    """The latest game of the companion as the follower's :class:`vision.track.GamePort`."""

    def __init__(self, companion: Any, game_id: int) -> None:
        self.companion = companion
        self.game_id = game_id

    def state(self) -> dict[str, Any]:
        return self.companion.state(self.game_id)  # type: ignore[no-any-return]

    def apply(self, event: dict[str, Any]) -> dict[str, Any]:
        return self.companion.apply(self.game_id, event, source="camera")  # type: ignore[no-any-return]

    def events(self) -> list[dict[str, Any]]:
        return self.companion.events(self.game_id)  # type: ignore[no-any-return]


class CameraService:
    """Follows the companion's newest game from the frame source ``spec``.

    Each size of table has its own zones: the data folder's ``zones.json``, ``zones-3.json``,
    ``zones-4.json`` (set on the page), or ``zones_path`` (``--zones FILE``, checked at start) for
    its own size. Which wins: zones saved on the page this run, then ``--zones FILE``, then the
    data folder's file, then the seats found from the cards (:mod:`vision.track.seats`: the table
    protocol's zones turned as each game's first card of the play says; ``--zones auto`` finds
    them whatever file was saved); so the operator's file is in use again at every start, and the
    page never writes it. Zones for another size than the game being
    followed are kept for that size, never applied to it. ``realtime`` paces a video at its own
    frame rate; ``loop`` replays a video from the start when it ends, in a new game (the demo;
    ``new_game`` starts it). ``tell(status)`` is called whenever what the page shows of the camera
    changes. ``start_games``: a deal seen while no game is in progress starts one (see the
    module's doc). ``paused``: why no game is followed, in players' words (the demo's
    :meth:`companion.demo.VideoDemo.paused`), the status's ``paused``. ``make_source``,
    ``reader`` and ``backoff`` replace the source the spec names, the card reader and the retry
    delays (for tests).
    """

    def __init__(self, companion: Any, spec: str, data_dir: Path, *, zones_path: Path | None = None,
                 realtime: bool = True, loop: bool = False,
                 new_game: Callable[[], int] | None = None, start_games: bool = False,
                 paused: Callable[[], str | None] | None = None,
                 tell: Callable[[dict[str, Any]], None] | None = None,
                 make_source: Callable[[], Any] | None = None, reader: Any = None,
                 backoff: tuple[float, float] = (0.5, 10.0)) -> None:
        from vision.camera import Capture, open_source
        from vision.track import Follower, Tracker

        self.companion = companion
        self.spec = spec
        self.data_dir = Path(data_dir)
        self.auto_zones = zones_path is not None and str(zones_path) == AUTO
        self.zones_override = None if self.auto_zones else zones_path
        self.operator_zones = None if zones_path is None or self.auto_zones else load_zones_file(zones_path)
        self._page_zones: dict[int, Any] = {}  # zones saved on the page this run, by size of table
        self.crops = CropFolder(data_dir)
        self.new_game = new_game
        self.start_games = start_games
        self.paused = paused  # the demo: why the camera reads into no game, in players' words
        self.tell = tell
        if make_source is None:
            open_source(spec)  # a bad spec fails now, at start, with its message

            def make_source() -> Any:
                return open_source(spec)
        latest = companion.latest_game()
        self.zones = self._zones_of_size(2 if latest is None else self._players(latest))
        self._lock = threading.RLock()
        self._save_lock = threading.Lock()  # zones saved on the page, one save at a time
        self._flag_ids = itertools.count(1)  # flag numbers, one count for every game of the run
        self._tracker = Tracker(self.zones, reader=reader, seats=self._seats_of_size(self.zones.players))
        self._follower_cls = Follower
        self._follower: Any = None
        self._game_id: int | None = None
        self._ended = False
        self._watch: DealWatch | None = None  # no game in progress: the table watched for a deal
        self._watch_after: int | None = None  # ... after this game (None: no game yet)
        self._watch_said: tuple[str, str] | None = None  # its words and the tracker's, last told
        self._started: dict[str, Any] | None = None  # the game the camera started, for the page
        self._stop = threading.Event()
        self._retell = threading.Event()  # the game moved (by hand too): what the camera expects changed
        self.capture = Capture(make_source, realtime=realtime, loop=loop, backoff=backoff,
                               on_status=self._camera_changed)
        self._thread = threading.Thread(target=self._run, name="tracker", daemon=True)
        self._was_lost = False
        # (frame, event type, the game's event count after it): the benchmark's; the newest
        # LATENCY_KEPT only, so an evening's following holds a bounded list
        self.latency: deque[tuple[int, str, int]] = deque(maxlen=LATENCY_KEPT)
        self.followed = 0  # frames the tracker thread took (the benchmark's frame rate)
        # the set-up checks: the last frames the tracker took, and the last report
        self._recent: deque[Kept] = deque(maxlen=CHECK_FRAMES)
        self._recent_lock = threading.Lock()  # held for an append, a clear or a copy: never long
        self._checks_lock = threading.Lock()
        # the last report: (its newest frame's seq, when its run began and ended, the report)
        self._checks: tuple[int, float, float, dict[str, Any]] | None = None
        self.checks_every = CHECK_EVERY
        self.checks_run = 0
        if callable(getattr(companion, "add_listener", None)):
            companion.add_listener(self._game_changed)

    @staticmethod
    def zones_file(data_dir: Path, players: int = 2) -> Path:
        """Where the page's zones for a table of ``players`` are kept in a data folder."""
        return Path(data_dir) / (ZONES_FILE if players == 2 else f"zones-{players}.json")

    def _players(self, game_id: int) -> int:
        return len(self.companion.state(game_id).get("players") or [None, None])

    def _seats_of_size(self, players: int) -> Any:
        """A :class:`vision.track.seats.Seats` to find the seats of a table of ``players`` from the
        cards, or None where zones were set for it (on the page this run, ``--zones FILE``, the data
        folder's file; ``--zones auto`` sets none)."""
        from vision.track.seats import Seats

        if players in self._page_zones:
            return None
        operators = self.operator_zones is not None and self.operator_zones.players == players
        if not self.auto_zones and (operators or self.zones_file(self.data_dir, players).exists()):
            return None
        return Seats(players)

    def _zones_of_size(self, players: int) -> Any:
        """The zones for a table of ``players``: the page's of this run, ``--zones FILE``, the data
        folder's file, the default (turned once the seats are found from the cards); never zones
        for another size."""
        from vision.track import Zones, ZonesError

        if players in self._page_zones:
            return self._page_zones[players]
        seats = self._seats_of_size(players)
        if seats is not None:
            return seats.zones
        if self.operator_zones is not None and self.operator_zones.players == players:
            return self.operator_zones
        path = self.zones_file(self.data_dir, players)
        try:
            zones = Zones.load(path, players)
        except ZonesError as exc:
            log.warning("camera: %s; the default zones are used", exc)
            return Zones.default(players)
        if zones.players != players:
            log.warning("camera: %s holds zones for %d players, not %d; the default zones are used",
                        path, zones.players, players)
            return Zones.default(players)
        return zones

    def _zones_for(self, game_id: int | None) -> None:
        """The zones of the table of game ``game_id`` (its number of players)."""
        if game_id is None:
            return
        players = self._players(game_id)
        if players == self.zones.players:
            return
        self.zones = self._zones_of_size(players)
        self._tracker.zones = self.zones
        self._tracker.seats = self._seats_of_size(players)

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
            self._retell.set()  # the page learns the camera follows another game (or, paused, none)
            self._zones_for(game_id)
            if self._tracker.seats is not None:  # a new game: its seats are found from its cards
                self._tracker.seats.unsettle()
            self._tracker.forget()
            self._follower = None if game_id is None else self._follower_cls(
                CompanionGame(self.companion, game_id), self._tracker, save_crop=self.crops.save,
                on_change=self._tracker_changed, ids=self._flag_ids)
        return self._follower

    def _run(self) -> None:
        seq = -1
        last_number = -1
        while not self._stop.is_set():
            frame = self.capture.wait_frame(seq, timeout=0.5)
            if self._retell.is_set():  # told from this thread, never from the one applying the event
                self._retell.clear()
                self._tracker_changed()
            if frame is None:
                continue
            seq = getattr(frame, "seq", seq + 1)
            came_back, self._was_lost = self._was_lost, False
            kept = Kept.of(frame, seq)  # a small copy for the set-up checks, never checked here
            with self._recent_lock:
                if came_back:  # the checks judge the camera as it is now
                    self._recent.clear()
                if self._recent:
                    self._recent[-1] = self._recent[-1].older()
                self._recent.append(kept)
            self.followed += 1
            number = frame.number
            if self.new_game is not None and number < last_number:  # the demo video began again
                self.new_game()
            last_number = number
            if came_back:
                self._tracker.forget()
                self._watch = None  # a watch learns the table again
            try:
                with self._lock:
                    follower = self._follower_for(self.companion.latest_game())
                    state = None if follower is None else follower.game.state()
                    if state is None or state.get("phase") == "over":
                        if self.start_games:
                            self._watch_table(frame, state)
                        continue
                    self._watch = None
                    applied = follower.feed(frame.image, number, frame.lores)
                for a in applied:
                    self.latency.append((number, a.event["type"], int(a.state.get("events", 0))))
            except Exception:  # the tracker must never stop the companion
                log.exception("camera: frame %d not followed", number)

    def _watch_table(self, frame: Any, last: dict[str, Any] | None) -> None:
        """No game in progress (``last``: the newest game's state, over, or None): watch the
        table for a deal, and start a game at its first card (see the module's doc)."""
        after = None if last is None else last.get("game")
        if self._watch is None or self._watch_after != after:
            self._watch = DealWatch(self._tracker, next_game_settings(last))
            self._watch_after = after
        seen = self._watch.feed(frame.image, frame.number, frame.lores)
        if seen is None:
            said = (self._watch.words(), self._tracker.status)
            if said != self._watch_said:
                self._watch_said = said
                self._tracker_changed()
            return
        settings, players = self._watch.settings, self._watch.players
        game = self.companion.new_game_if_none_on(settings)
        self._watch, self._watch_said = None, None
        if game is None:  # a game was started on the page meanwhile: it is followed
            return
        log.info("camera: %s turned up with no game in progress: game %d of %s started", seen.card,
                 game, players)
        self._started = {
            "game": game, "by": "camera", "players": list(settings["players"]), "card": seen.card,
            "frame": seen.frame,
            "say": f"The camera started a game of {players} at the deal it saw. Other players? "
                   "Start the game on the New tab, the dealer cut at the table: the camera reads "
                   "this deal into it."}
        self._follower_for(game)  # the table read afresh into the new game: nothing seen is lost
        self._tracker_changed()

    # -- the page's side -------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """The camera's status for the page: the capture's, the tracker's, the flagged readings,
        ``expect`` (what the camera waits for, in players' words) and ``last`` (the last card
        read) when the follower says them, the zones in use, and ``seats`` where they are found
        from the cards (:meth:`vision.track.seats.Seats.to_json`; ``None`` where zones are drawn),
        and ``paused``: why the demo's camera follows no game, in players' words (else None)."""
        camera = self.capture.status()
        with self._lock:
            follow = self._follower_status()
            if self._watch is not None:  # no game in progress: the table watched for a deal
                follow = {**follow, "tracker": self._tracker.status, "expect": self._watch.words()}
            started = self._started if self._started and self._started["game"] == self._game_id else None
            game = self._game_id
        paused = self.paused() if self.paused is not None and game is None else None
        tracker = follow["tracker"]
        idle = camera.get("state") in ("lost", "failed", "ended", "stopped")
        if idle and tracker != "waiting for a confirmation":
            tracker = "paused"
        return {**camera, "tracker": tracker, "flagged": follow["flagged"], "game": self._game_id,
                "expect": follow.get("expect"), "last": follow.get("last"), "started": started,
                "paused": paused,
                "zones": self._tracker.zones.to_json(),
                "seats": self._tracker.seats.to_json() if self._tracker.seats is not None else None}

    def _follower_status(self) -> dict[str, Any]:
        """The follower's status; "paused" with none, or while its game is gone (the demo's next
        pass deleted it: the tracker follows the new game from its next frame)."""
        from cribbage.errors import RuleError

        if self._follower is not None:
            try:
                return self._follower.status()  # type: ignore[no-any-return]
            except RuleError:
                if any(g.get("id") == self._game_id for g in self.companion.games()):
                    raise  # the game is there: trouble of its own
        return {"tracker": "paused", "flagged": []}

    def snapshot(self) -> bytes | None:
        return self.capture.snapshot_jpeg()  # type: ignore[no-any-return]

    def checks(self) -> dict[str, Any] | None:
        """The set-up checks on the last frames the tracker took (``crib camera check --json``'s
        object, :meth:`vision.camera.check.Report.to_json`, with ``frame``: the newest frame's
        ``seq``), or ``None`` before a frame and while the camera is lost.

        Run here, in the caller's thread, at most once every :attr:`checks_every` seconds, counted
        from the start of the last run (so once a second while a run takes under a second), and
        never sooner after a run than half the time it took (where the checks are slow, a third
        of the time at most is theirs), nor again for the same newest frame; callers in between,
        or waiting meanwhile, get the last report. Nothing else changes: the tracker, the zones
        and the game are not touched.
        """
        if self.capture.status().get("state") == "lost":
            return None
        with self._recent_lock:
            frames = list(self._recent)
        if not frames:
            return None
        newest = frames[-1].seq
        with self._checks_lock:
            cached = self._checks
            if cached is not None:
                seq, began, ended, report = cached
                # a new run no sooner than checks_every after the last began (once a second), nor
                # sooner after it ended than half its time (a slow machine: a third of it at most)
                if seq == newest or time.monotonic() < max(began + self.checks_every,
                                                           ended + (ended - began) / 2):
                    return report
            from vision.camera.check import check_frames

            began = time.monotonic()
            report = {**check_frames([frames[-1].image], frames[-1].field_of_view, frames[-1].size,
                                     [f.light for f in frames]).to_json(), "frame": newest}
            self._checks = (newest, began, time.monotonic(), report)
            self.checks_run += 1
            return report

    def set_zones(self, data: dict[str, Any]) -> dict[str, Any]:
        """Check and keep zones set on the page: written to the data folder's file for their size
        (never to ``--zones FILE``) and used for that size for the rest of the run. They are used
        now only when the game being followed has that many players (``in_use`` in the answer);
        zones for another size wait for a game of that size."""
        from vision.track import Zones

        zones = Zones.from_json(data)
        path = self.zones_file(self.data_dir, zones.players)
        latest = self.companion.latest_game()
        players_now = self.zones.players if latest is None else self._players(latest)
        # saves at once are taken one at a time, each written and then kept: the zones in use
        # are always those of the file, the last save's
        with self._save_lock:
            try:
                zones.save(path)
            except OSError as exc:  # a full, read-only or missing data folder: 507 or 503
                error = file_error(exc, "the zones", path.parent)
                if error is None:
                    raise
                raise error from None
            with self._lock:
                self._page_zones[zones.players] = zones
                in_use = zones.players == players_now
                if in_use and zones.players == self.zones.players:
                    self.zones = zones
                    self._tracker.zones = zones
                    self._tracker.seats = None  # zones drawn on the page override the cards
        self._tracker_changed()
        return {**zones.to_json(), "in_use": in_use}

    def resolve(self, flag_id: int, action: str, card: str | None = None,
                seat: str | None = None) -> dict[str, Any]:
        """Answer a flagged reading (see :meth:`vision.track.Follower.resolve`); ``seat`` says whose
        card a card in the centre or in no zone is."""
        with self._lock:
            if self._follower is None:
                raise KeyError(flag_id)
            return self._follower.resolve(flag_id, action, card, seat=seat)  # type: ignore[no-any-return]

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
            with self._recent_lock:  # frames from before are not the camera as it will be
                self._recent.clear()
            log.warning("camera %s lost: %s", self.spec, status.get("error"))
        self._tracker_changed()

    def _game_changed(self, topic: str, data: dict[str, Any]) -> None:
        """A companion listener: a change to the game followed (by the camera or by hand) may
        change what the camera expects; the tracker thread tells the page."""
        if topic == "state" and data.get("game_id") == self._game_id:
            self._retell.set()

    def _tracker_changed(self) -> None:
        if self.tell is not None:
            try:
                self.tell(self.status())
            except Exception:
                log.exception("camera status listener failed")
