"""The composition root behind ``crib serve``: builds the parts from configuration and joins them.

The only module that knows every part. :class:`Companion` holds the game store (SQLite), the
board's LEDs (:mod:`companion.leds`), its buttons (:mod:`companion.buttons`), the card reader and
the camera (:mod:`companion.camera`), and hands the page (``web``) one object with the methods of
:class:`web.ports.Table`. After every change to a game it tells its listeners (the page's live
hub) and hands the newest game's state to the LEDs, drawn on their own thread. :func:`serve`
runs it all behind waitress, with the demo (:mod:`companion.demo`) when asked.

>>> import tempfile, pathlib
>>> companion = Companion.build(ServeConfig(data_dir=pathlib.Path(tempfile.mkdtemp())))
>>> game = companion.new_game({"players": ["Alice", "Bob"]})
>>> companion.apply(game, {"type": "dealer", "seat": "B"})["phase"]
'deal'
>>> companion.wait_leds(), companion.led_frame_png()[:4]
(True, b'\\x89PNG')
>>> companion.close()
"""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import sys
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.buttons import ButtonPresses
from companion.leds import BoardLeds
from companion.memory import live_pages
from cribbage.gamelog import DEMO_SOURCE

if TYPE_CHECKING:
    from companion.camera import CameraService
    from companion.demo import DemoDealer
    from cribbage.gamelog import GameStore
    from firmware.buttons import BoardButtons
    from vision.taught import TaughtDeck

log = logging.getLogger("companion")
DECK_FILE = "deck.npz"  # a taught deck in the data folder (crib vision teach --out)

Listener = Callable[[str, dict[str, Any]], None]


def on_raspberry_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    """True on a Raspberry Pi (its device tree names the model).

    >>> on_raspberry_pi(Path("/nonexistent"))
    False
    """
    try:
        return "raspberry pi" in model_file.read_bytes().decode("ascii", "replace").lower()
    except OSError:
        return False


def default_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("cribbage-companion"))


@dataclass
class ServeConfig:
    """Everything ``crib serve`` can be told."""

    data_dir: Path
    host: str = "127.0.0.1"
    port: int = 8121
    leds: str = "sim"
    board_tracks: int | None = None
    board_laps: int = 1
    demo: bool = False
    demo_step_s: float = 2.5
    pin: str | None = None
    max_live: int = 64
    threads: int | None = None
    buttons: bool = False
    camera: str | None = None
    zones: Path | None = None
    voice: str | None = None  # the count aloud: espeak, wav:DIR, none (companion.voice)
    dealer: str | None = None  # who deals the demo's first deal (None: the demo's own)
    web: dict[str, Any] = field(default_factory=dict)

    @property
    def server_threads(self) -> int:
        """Each live page holds a thread while it follows; leave 8 for everything else."""
        return self.threads or self.max_live + 8

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> ServeConfig:
        host = args.host or ("0.0.0.0" if on_raspberry_pi() else "127.0.0.1")
        if args.data:
            data_dir = Path(args.data).expanduser()
        else:  # demo games are kept apart from the table's real games
            data_dir = default_data_dir() / "demo" if args.demo else default_data_dir()
        return cls(
            data_dir=data_dir,
            host=host,
            port=args.port,
            leds=args.leds,
            board_tracks=args.board_tracks,
            board_laps=args.board_laps,
            demo=args.demo,
            demo_step_s=args.demo_step,
            pin=args.pin,
            max_live=live_pages() if args.max_live is None else args.max_live,
            threads=args.threads,
            buttons=args.buttons,
            camera=getattr(args, "camera", None),
            zones=Path(args.zones).expanduser() if getattr(args, "zones", None) else None,
            voice=getattr(args, "voice", None),
            dealer=getattr(args, "dealer", None),
        )


class Companion:
    """The running companion: store + LEDs + buttons + card reader + camera, as the page's ``Table``.

    The game store (:class:`cribbage.gamelog.GameStore`) keeps the games; the LEDs
    (:class:`companion.leds.BoardLeds`) show the newest one. ``leds`` is an output spec (``sim``,
    ``pico:/dev/ttyACM0``, ``spi-apa102``, ``none``; see :func:`firmware.outputs.open_output`).
    ``board_tracks`` fixes the physical board's tracks; left ``None`` (the simulator) the board
    follows the game, 2 or 3 tracks. ``animate`` walks and flashes the pegs (default: on a real
    strip). Listeners added with :meth:`add_listener` hear every change (the page's live hub,
    any other part that follows the game).
    """

    def __init__(self, store: GameStore, *, leds: str = "none", board_tracks: int | None = None,
                 board_laps: int = 1, demo: bool = False, animate: bool | None = None,
                 deck_path: Path | None = None) -> None:
        self.store = store
        self.deck_path = deck_path  # a taught deck (crib vision teach), used when the file is there
        self._deck: tuple[float, TaughtDeck | None] | None = None
        self.demo = demo
        self._listeners: list[Listener] = []
        self._retired: set[int] = set()  # demo games a newer pass replaced (see retire)
        self._starting = threading.RLock()  # a game started: one at a time (see new_game_if_none_on)
        self.camera: CameraService | None = None  # crib serve --camera
        self.buttons: ButtonPresses | None = None  # crib serve --buttons
        self.leds = BoardLeds(leds, board_tracks=board_tracks, board_laps=board_laps,
                              animate=animate, on_frame=self._frame_drawn)

    # --- building ------------------------------------------------------------------------

    @classmethod
    def build(cls, config: ServeConfig) -> Companion:
        """The companion ``config`` describes: the store in ``data_dir``, the chosen LEDs."""
        from cribbage.gamelog import GameStore

        config.data_dir.mkdir(parents=True, exist_ok=True)
        store = GameStore(config.data_dir / "games.sqlite3")
        try:
            companion = cls(store, leds=config.leds, board_tracks=config.board_tracks,
                            board_laps=config.board_laps, demo=config.demo,
                            deck_path=config.data_dir / DECK_FILE)
        except Exception:
            store.close()
            raise
        if config.buttons:
            from firmware.buttons import BoardButtons

            try:
                with warnings.catch_warnings():  # gpiozero lists every pin library it tried
                    warnings.simplefilter("ignore")
                    buttons = BoardButtons(seats="ABC"[: config.board_tracks or 3])
            except Exception as exc:
                companion.close()
                raise RuntimeError(f"--buttons needs the Pi's GPIO ({exc})") from exc
            companion.attach_buttons(buttons)
        companion.light_latest()
        return companion

    def light_latest(self) -> None:
        """Show the newest game on the LEDs (at start: a restart puts the pegs back)."""
        from cribbage.errors import StorageError

        try:
            latest = self.store.latest_game()
            if latest is not None and self.leds.enabled:
                self.leds.show(self.store.state(latest))
        except StorageError as exc:  # a damaged game: the page says so, the LEDs stay dark
            log.warning("the LEDs cannot show the latest game: %s", exc)

    def close(self) -> None:
        if self.camera is not None:
            self.camera.close()
        if self.buttons is not None:
            self.buttons.close()
        self.leds.close()
        self.store.close()

    # --- listeners -----------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(topic, data)`` after every change (topics: :data:`web.ports.Listener`)."""
        self._listeners.append(listener)

    def _tell(self, topic: str, data: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            try:
                listener(topic, data)
            except Exception:
                log.exception("a listener failed on %s", topic)

    def _changed(self, game_id: int, state: dict[str, Any]) -> None:
        self._tell("state", {"game_id": game_id, "state": state})
        if self.leds.enabled and game_id == self.store.latest_game():
            self.leds.show(state)

    def _frame_drawn(self, frame: int) -> None:
        self._tell("leds", {"frame": frame})

    # --- the game ------------------------------------------------------------------------

    def new_game(self, settings: dict[str, Any]) -> int:
        with self._starting:
            game_id = int(self.store.new_game(settings))
        state = self.store.state(game_id)
        self._tell("games", {"latest": game_id})
        self._changed(game_id, state)
        return game_id

    def new_game_if_none_on(self, settings: dict[str, Any]) -> int | None:
        """Start a game with ``settings`` unless the newest game is still in progress (the camera
        starting a game at a deal it saw): the new game's id, or None. Looked at and started at
        once, so a game started on the page meanwhile is never hidden behind it."""
        with self._starting:
            latest = self.store.latest_game()
            if latest is not None and self.store.state(latest).get("phase") != "over":
                return None
            game_id = int(self.store.new_game(settings))
        state = self.store.state(game_id)
        self._tell("games", {"latest": game_id})
        self._changed(game_id, state)
        return game_id

    def apply(self, game_id: int, event: dict[str, Any], source: str = "page") -> dict[str, Any]:
        state = self.store.apply(game_id, event, source=source)
        self._changed(game_id, state)
        return state

    def preview(self, game_id: int, event: dict[str, Any]) -> dict[str, Any]:
        """What ``event`` would do, folded in memory and never stored (for "what changes")."""
        state: dict[str, Any] = self.store.game(game_id).apply(event).to_json()
        state["game"] = game_id
        return state

    def state(self, game_id: int) -> dict[str, Any]:
        return self.store.state(game_id)

    def events(self, game_id: int) -> list[dict[str, Any]]:
        return self.store.events(game_id)

    def games(self) -> list[dict[str, Any]]:
        """Every game, newest first, but the demo's games a newer pass replaced."""
        return [g for g in self.store.games() if g.get("id") not in self._retired]

    def retire(self, game_id: int) -> None:
        """A demo game a newer pass of the demo video replaced: deleted from the log
        (:meth:`cribbage.gamelog.GameStore.delete_demo_game`, which keeps any game the demo did
        not start), so History, the match tally and the database hold one demo game however long
        the video loops. One the log keeps (storage trouble, or the newest game) is still left
        out of :meth:`games` while the companion runs."""
        from cribbage.errors import StorageError

        try:
            deleted = self.store.delete_demo_game(game_id)
        except StorageError as exc:
            log.warning("demo: game %s cannot be deleted (%s); History leaves it out", game_id, exc)
            deleted = False
        if not deleted:
            self._retired.add(game_id)
        self._tell("games", {"latest": self.store.latest_game()})

    def latest_game(self) -> int | None:
        return self.store.latest_game()

    # --- board and LEDs (companion.leds) -----------------------------------------------------

    def board_layout(self, tracks: int, target: int) -> dict[str, Any]:
        return self.leds.layout(tracks, target).to_dict()

    def led_frame_png(self) -> bytes | None:
        return self.leds.latest_png()

    def wait_leds(self, timeout: float = 5.0) -> bool:
        """Wait until the LEDs show the latest change, animations played (tests, benchmark)."""
        return self.leds.wait(timeout)

    # --- the board's buttons (companion.buttons) ---------------------------------------------

    def attach_buttons(self, buttons: BoardButtons) -> None:
        """Turn presses of ``buttons`` into events.

        The press is queued at once (gpiozero's thread must not wait) and applied on a worker
        thread with ``source="button"`` (:meth:`press`); a press the rules refuse is logged and
        changes nothing.
        """
        self.buttons = ButtonPresses(buttons, self.press)

    def press(self, name: str) -> dict[str, Any] | None:
        """Apply the event a button ``name`` stands for; the new state, or None if nothing."""
        from cribbage.errors import CribbageError
        from firmware.button_events import game_event

        try:
            event: dict[str, Any] | None = game_event(name)
        except ValueError:
            event = None
        game = self.store.latest_game()
        if name == "next" and self.camera is not None:  # confirm the camera's oldest flagged reading
            return self.camera.confirm()
        if event is None or event["type"] not in ("undo", "go") or game is None:
            log.info("button %s: nothing to do", name)
            return None
        try:
            return self.apply(game, dict(event), source="button")
        except CribbageError as exc:
            log.warning("button %s refused: %s", name, exc)
            return None

    # --- the card reader -------------------------------------------------------------------

    def read_cards(self, image: bytes) -> dict[str, Any]:
        """The cards read in a photo (``vision.reader``), as JSON for the page.

        The photo is decoded by :func:`vision.image.open_photo` within the pixel budget and
        shrunk to twice the reader's working size (``PHOTO_SIDE``, 3200 px across) as it is
        decoded, a large JPEG decoded straight at a fraction of its size: the reader reads it at
        its working size and reads the places too small to read there again from these pixels
        (the closer look, :func:`vision.reader.read_cards`). Centres and corners are in the
        photo's own pixels. A photo that cannot be decoded raises ``PhotoUnreadable``."""
        from web.ports import PhotoUnreadable, VisionUnavailable

        try:
            from vision.errors import ImageError
            from vision.hand import starter_apart
            from vision.image import open_photo
            from vision.reader import read_cards
            from vision.tuning import PHOTO_SIDE
        except Exception as exc:  # missing module, OpenCV trouble, a model file missing
            raise VisionUnavailable(f"{type(exc).__name__}: {exc}") from exc

        try:
            photo = open_photo(image, side=PHOTO_SIDE)
        except ImageError as exc:
            raise PhotoUnreadable(str(exc)) from exc
        reading = read_cards(photo.pixels, deck=self._taught_deck())
        out: dict[str, Any] = photo.reading_json(reading)
        del photo  # the decoded pixels go now, not when the page's answer has been sent
        # a hand and its starter (4 or 5 cards): the card lying apart is the starter, if one is
        k = starter_apart(reading.cards) if len(reading.cards) in (4, 5) else None
        out["starter_apart"] = reading.cards[k].card.name if k is not None else None
        return out

    def _taught_deck(self) -> TaughtDeck | None:
        """The taught deck in the data folder, reloaded when the file changes; None without one
        (or when it cannot be read: the page still reads cards, with the network alone)."""
        if self.deck_path is None:
            return None
        try:
            mtime = self.deck_path.stat().st_mtime
        except OSError:
            return None
        if self._deck is None or self._deck[0] != mtime:
            from cribbage.errors import CribbageError
            from vision.taught import TaughtDeck

            try:
                self._deck = (mtime, TaughtDeck.load(self.deck_path))
            except CribbageError as exc:
                log.warning("taught deck not used: %s", exc)
                self._deck = (mtime, None)
        return self._deck[1]

    def status(self) -> dict[str, Any]:
        return {"leds": self.leds.name, "demo": self.demo, "camera": self.camera is not None}

    # --- following the game from the camera (companion.camera) -----------------------------

    def attach_camera(self, camera: CameraService) -> None:
        """Follow the newest game from ``camera``; its changes go to the listeners as ``camera``."""
        self.camera = camera
        camera.tell = lambda status: self._tell("camera", status)

    def camera_status(self) -> dict[str, Any] | None:
        return None if self.camera is None else self.camera.status()

    def camera_snapshot(self) -> bytes | None:
        return None if self.camera is None else self.camera.snapshot()

    def camera_checks(self) -> dict[str, Any] | None:
        """The set-up checks on the camera's last frames (:meth:`CameraService.checks`): ``None``
        without a camera, before its first frame and while it is lost."""
        return None if self.camera is None else self.camera.checks()

    def camera_zones(self) -> dict[str, Any]:
        from cribbage.errors import CribbageError

        if self.camera is None:
            raise CribbageError("no camera: start crib serve --camera SPEC")
        return self.camera.zones.to_json()

    def set_camera_zones(self, zones: dict[str, Any]) -> dict[str, Any]:
        from cribbage.errors import CribbageError

        if self.camera is None:
            raise CribbageError("no camera: start crib serve --camera SPEC")
        return self.camera.set_zones(zones)

    def resolve_flag(self, flag_id: int, action: str, card: str | None = None,
                     seat: str | None = None) -> dict[str, Any]:
        if self.camera is None:
            raise KeyError(flag_id)
        return self.camera.resolve(flag_id, action, card, seat)

    def camera_crop(self, name: str) -> bytes | None:
        from companion.tracking import CropFolder

        if self.camera is not None:
            return self.camera.crop(name)
        return CropFolder(Path(self.store.path).parent).read(name)


# --- running the server --------------------------------------------------------------------


def build_app(config: ServeConfig, companion: Companion) -> Any:
    from web import create_app

    web_config = {
        "DATA_DIR": config.data_dir,
        "MAX_STREAMS": config.max_live,
        **config.web,
    }
    if config.pin is not None:
        web_config["PIN"] = config.pin
    return create_app(companion, web_config)


CONNECTION_LIMIT = 500
"""Connections held open at once: every phone's page, its live stream and the sockets a phone
keeps for later, with room to spare (polled with ``poll``, so no 1024-descriptor limit)."""
IDLE_TIMEOUT_S = 15
"""Seconds a connection may sit with no request in progress and nothing sent either way before
it is closed: idle sockets (a browser's spare ones, or a script holding sockets open) cannot fill
the connection limit for long. A request being answered is never cut, so a live stream (its
keep-alive comment every ``SSE_HEARTBEAT`` seconds) stays open as long as it wants."""
CLEANUP_INTERVAL_S = 5
"""How often waitress looks for idle connections to close."""


def make_server(config: ServeConfig, app: Any) -> Any:
    """A waitress server for ``app`` (not yet running): ``server.run()``, ``server.close()``;
    guarded against slow clients and large bodies (:mod:`companion.server`)."""
    from companion.server import guarded_server

    proxy = config.web.get("TRUSTED_PROXY")
    return guarded_server(
        app,
        host=config.host,
        port=config.port,
        threads=config.server_threads,
        limit=max(CONNECTION_LIMIT, config.max_live * 4),
        max_body=int(config.web.get("MAX_CONTENT_LENGTH", 12 * 1024 * 1024)) + 64 * 1024,
        trusted=[proxy] if proxy else [],
        channel_timeout=IDLE_TIMEOUT_S,
        cleanup_interval=CLEANUP_INTERVAL_S,
        ident="cribbage-companion",
    )


def real_game_in_progress(companion: Companion) -> int | None:
    """The newest game when it is a real one still in progress (its first event was not sent by a
    demo), which a demo must not hide behind a game of its own; else None."""
    game = companion.latest_game()
    if game is None or companion.state(game).get("phase") == "over":
        return None
    events = companion.events(game)
    return None if events and events[0].get("source") == DEMO_SOURCE else game


def earlier_demo_games(companion: Companion) -> list[int]:
    """The games an earlier demo started (their first event came from the demo): a new run of the
    demo video replaces them, in History and in the log, as each pass replaces the last."""
    out = []
    for game in companion.store.games():
        events = companion.events(int(game["id"]))
        if events and events[0].get("source") == DEMO_SOURCE:
            out.append(int(game["id"]))
    return out


def start_camera(config: ServeConfig, companion: Companion, **camera: Any) -> CameraService:
    """Follow the game from ``config.camera``; with ``--demo``, each pass of the video is a game of
    the demo's players (:class:`companion.demo.VideoDemo`) that replaces the last pass's in History
    and the log, and the camera reads only into it: a game started on the page pauses the demo
    while it is in progress. Without ``--demo`` a deal seen while no game is in progress starts
    one (:mod:`companion.dealwatch`). ``camera`` goes to :class:`companion.camera.CameraService`
    (tests: ``make_source``, ``reader``, ``realtime``)."""
    from companion.camera import CameraService
    from companion.demo import DemoCameraView, VideoDemo

    assert config.camera is not None
    new_game = None
    paused = None
    follows: Any = companion
    if config.demo:
        earlier = earlier_demo_games(companion)
        demo = VideoDemo(companion, earlier=earlier, dealer=config.dealer)
        if demo.begin_pass() is None:  # a game of the table's own is on: the earlier ones go now
            for game in earlier:
                companion.retire(game)
        new_game, paused = demo.begin_pass, demo.paused
        follows = DemoCameraView(companion, demo)
    # the camera starts a game at a deal it sees, never in the demo (the demo has its own game)
    options: dict[str, Any] = {"realtime": True, "loop": config.demo, "start_games": not config.demo,
                               **camera}
    camera_service = CameraService(follows, config.camera, config.data_dir, zones_path=config.zones,
                                   new_game=new_game, paused=paused, **options)
    companion.attach_camera(camera_service)
    camera_service.start()
    return camera_service


def serve(config: ServeConfig) -> int:
    """Run until Ctrl-C or SIGTERM: what ``crib serve`` does."""
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    from companion.cli.base import UsageError
    from companion.memory import FreeBetweenDeals, limit_arenas

    limit_arenas()  # before any thread starts: the threads share one malloc arena (glibc)
    try:
        companion = Companion.build(config)
    except (OSError, RuntimeError, ValueError, ImportError) as exc:  # incl. OutputUnavailable
        raise UsageError(f"cannot start: {exc}") from exc
    voice = None
    if config.voice:
        from companion.voice import attach_voice

        voice = attach_voice(companion, config.voice)
    app = build_app(config, companion)
    companion.add_listener(FreeBetweenDeals())  # after the page's hub: freed memory back between deals
    try:
        server = make_server(config, app)
    except OSError as exc:
        companion.close()
        raise UsageError(f"cannot listen on {config.host}:{config.port}: {exc.strerror}") from exc
    demo: DemoDealer | None = None
    damage = getattr(companion.store, "damage", None)
    real = real_game_in_progress(companion) if config.demo and not damage else None
    try:
        if damage:  # nothing can be recorded: no demo, no camera
            log.warning("%s: the demo and the camera do not start", damage)
        elif real is not None:  # the table's own game stays on the page: the demo steps aside
            log.warning("game %d is in progress in %s: the demo steps aside (demo games belong in "
                        "another --data folder)", real, config.data_dir)
        elif config.camera:
            start_camera(config, companion)
        elif config.demo:
            from companion.demo import DemoDealer

            demo = DemoDealer(companion, step_s=config.demo_step_s, dealer=config.dealer)
            demo.start()
    except Exception as exc:
        server.close()
        companion.close()
        raise UsageError(f"cannot start the camera: {exc}") from exc
    port = server.effective_port
    from companion.greeting import greeting
    from web.hosts import lan_address
    from web.security import is_loopback

    settings = app.extensions["crib"].settings  # the table code and the PIN (web.security)
    for line in greeting(config.host, port, config.data_dir, settings.table_code,
                         settings.pin_state, hostname=socket.gethostname(), lan=lan_address(config.host)):
        print(line, flush=True)
    if voice is not None and config.host != "localhost" and not is_loopback(config.host):
        from companion.voice import code_words

        voice.say(code_words(settings.table_code))  # phones join by it: a Pi with no screen says it
    if damage:
        print(f"  {damage}: the page shows what can be read and records nothing; run crib game "
              f"recover --db {companion.store.path} --out NEW", flush=True)

    hub = app.extensions["crib"].hub

    def stop(signum: int, frame: Any) -> None:
        # end the live streams first: waitress waits for its threads when it stops
        hub.close_all()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.run()
    except KeyboardInterrupt:
        log.info("stopping")
    finally:
        if demo is not None:
            demo.stop()
        hub.close_all()
        server.close()
        time.sleep(0.1)
        companion.close()
    return 0
