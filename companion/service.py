"""The composition root behind ``crib serve``: builds the parts from configuration and joins them.

The only module that knows every part. :class:`Companion` holds the game store (SQLite), the
LED output and the card reader, and hands the page (``web``) one object with the methods of
:class:`web.ports.Table`. After every change to a game it tells its listeners (the page's live
hub) and queues an LED frame; the LEDs are drawn on a worker thread that keeps only the newest
frame, so a slow strip never holds up a request.

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
from typing import Any

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


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address


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
            max_live=args.max_live,
            threads=args.threads,
            buttons=args.buttons,
            camera=getattr(args, "camera", None),
            zones=Path(args.zones).expanduser() if getattr(args, "zones", None) else None,
        )


class LedWorker:
    """Draws LED frames on its own thread; only the newest pending state is drawn."""

    def __init__(self, draw: Callable[[dict[str, Any]], None]) -> None:
        self._draw = draw
        self._cond = threading.Condition()
        self._pending: dict[str, Any] | None = None
        self._busy = False
        self._stop = False
        self.frames = 0
        self._thread = threading.Thread(target=self._run, name="leds", daemon=True)
        self._thread.start()

    def submit(self, state: dict[str, Any]) -> None:
        with self._cond:
            self._pending = state
            self._cond.notify_all()

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every submitted state is drawn (for tests and the benchmark)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending is not None or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._stop:
                    self._cond.wait()
                if self._stop:
                    return
                state, self._pending = self._pending, None
                self._busy = True
            try:
                self._draw(state)
                self.frames += 1
            except Exception:  # a strip error must not stop the table
                log.exception("LED output failed; the game goes on")
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join(timeout=2)


class Companion:
    """The running companion: store + LED output + card reader, as the page's ``Table``.

    ``leds`` is an output spec (``sim``, ``pico:/dev/ttyACM0``, ``spi-apa102``, ``none``; see
    :func:`firmware.outputs.open_output`). ``board_tracks`` fixes the physical board's tracks;
    left ``None`` (the simulator) the board follows the game, 2 or 3 tracks.
    """

    def __init__(self, store: Any, *, leds: str = "none", board_tracks: int | None = None,
                 board_laps: int = 1, demo: bool = False, animate: bool | None = None,
                 deck_path: Path | None = None) -> None:
        self.store = store
        self.deck_path = deck_path  # a taught deck (crib vision teach), used when the file is there
        self._deck: tuple[float, Any] | None = None
        self.leds_spec = leds
        self.board_tracks = board_tracks
        self.board_laps = board_laps
        self.demo = demo
        # a real strip walks the pegs and flashes; the page's simulated strip shows each rest
        self.animate = (leds != "sim") if animate is None else animate
        self._animator: Any = None
        self._lit: tuple[int, Any, dict[str, tuple[int, int]], int] | None = None
        self._listeners: list[Listener] = []
        self._layouts: dict[tuple[int, int], Any] = {}
        self._lock = threading.Lock()
        self._output: Any = None
        self._output_layout: Any = None
        self._worker: LedWorker | None = None
        self.camera: Any = None  # companion.camera.CameraService, when crib serve --camera
        if leds not in ("none", "off", ""):
            if board_tracks is not None or leds != "sim":
                # a real strip is opened now so a wrong port fails at start, not mid-game
                self._open_output(self.layout(board_tracks or 2, 121))
            self._worker = LedWorker(self._draw_leds)

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
        latest = self.store.latest_game()
        if latest is not None and self._worker is not None:
            self._worker.submit(self.store.state(latest))

    def close(self) -> None:
        if self.camera is not None:
            self.camera.close()
        buttons = getattr(self, "_buttons", None)
        if buttons is not None:
            buttons.close()
            self._presses.put(None)
            self._press_thread.join(timeout=2)
        if self._worker is not None:
            self._worker.close()
        if self._animator is not None:
            self._animator.close()
        if self._output is not None:
            self._output.close()
        self.store.close()

    # --- listeners -----------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _tell(self, topic: str, data: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            try:
                listener(topic, data)
            except Exception:
                log.exception("a listener failed on %s", topic)

    def _changed(self, game_id: int, state: dict[str, Any]) -> None:
        self._tell("state", {"game_id": game_id, "state": state})
        if self._worker is not None and game_id == self.store.latest_game():
            self._worker.submit(state)

    # --- the game ------------------------------------------------------------------------

    def new_game(self, settings: dict[str, Any]) -> int:
        game_id = int(self.store.new_game(settings))
        state = self.store.state(game_id)
        self._tell("games", {"latest": game_id})
        self._changed(game_id, state)
        return game_id

    def apply(self, game_id: int, event: dict[str, Any], source: str = "page") -> dict[str, Any]:
        state: dict[str, Any] = self.store.apply(game_id, event, source=source)
        self._changed(game_id, state)
        return state

    def preview(self, game_id: int, event: dict[str, Any]) -> dict[str, Any]:
        """What ``event`` would do, folded in memory and never stored (for "what changes")."""
        state: dict[str, Any] = self.store.game(game_id).apply(event).to_json()
        state["game"] = game_id
        return state

    def state(self, game_id: int) -> dict[str, Any]:
        return self.store.state(game_id)  # type: ignore[no-any-return]

    def events(self, game_id: int) -> list[dict[str, Any]]:
        return self.store.events(game_id)  # type: ignore[no-any-return]

    def games(self) -> list[dict[str, Any]]:
        return self.store.games()  # type: ignore[no-any-return]

    def latest_game(self) -> int | None:
        return self.store.latest_game()  # type: ignore[no-any-return]

    # --- board and LEDs ------------------------------------------------------------------

    def layout(self, tracks: int, target: int) -> Any:
        """The board layout (cached): the physical board's when it is fixed."""
        from firmware.layout import BoardLayout

        tracks = self.board_tracks or tracks
        key = (tracks, target)
        with self._lock:
            if key not in self._layouts:
                self._layouts[key] = BoardLayout.standard(
                    tracks=tracks, laps=self.board_laps, target=target
                )
            return self._layouts[key]

    def board_layout(self, tracks: int, target: int) -> dict[str, Any]:
        return self.layout(tracks, target).to_dict()  # type: ignore[no-any-return]

    def led_frame_png(self) -> bytes | None:
        output = self._output
        latest = getattr(output, "latest_png", None)
        return latest() if callable(latest) else None

    def wait_leds(self, timeout: float = 5.0) -> bool:
        """Wait until the LEDs show the latest change, animations played (tests, benchmark)."""
        done = self._worker.wait_idle(timeout) if self._worker is not None else True
        if done and self._animator is not None:
            done = bool(self._animator.wait_idle(timeout))
        return done

    def _open_output(self, layout: Any) -> None:
        from firmware.outputs import open_output

        if self._animator is not None:
            self._animator.close()
            self._animator = None
        if self._output is not None:
            self._output.close()
        self._output = open_output(self.leds_spec, layout)
        self._output_layout = layout
        self._lit = None
        if self.animate:
            from firmware.animations import Animator

            self._animator = Animator(self._output)

    def _draw_leds(self, state: dict[str, Any]) -> None:
        from firmware.render import render_frame

        sides = state.get("sides") or []
        layout = self.layout(3 if len(sides) == 3 else 2, int(state.get("target") or 121))
        if self._output is None or (
            self.leds_spec == "sim" and self._output_layout is not layout
        ):
            self._open_output(layout)
        pegs, colours = pegs_of(state), colours_of(state)
        frame = render_frame(self._output_layout, pegs, colours)
        if self._animator is not None:
            self._animate(state, pegs, colours)
            self._animator.show(frame)
        else:
            self._output.show(frame)
        self._lit = (int(state.get("game") or 0), self._output_layout, pegs,
                     int(state.get("events") or 0))
        self._tell("leds", {"frame": self._worker.frames + 1 if self._worker else 0})

    def _animate(self, state: dict[str, Any], pegs: dict[str, tuple[int, int]],
                 colours: dict[str, tuple[int, int, int]]) -> None:
        """Walk the pegs that moved forward, flash a fifteen, thirty-one, heels or muggins, run
        the winner's lap; an undo or a correction that moves a peg back just cancels."""
        from firmware.animations import flash, walk, winner

        last = self._lit
        if last is None or last[0] != int(state.get("game") or 0) or last[1] is not self._output_layout:
            return
        before = last[2]
        if state.get("events", 0) <= last[3]:
            return
        if any(pegs[k][0] < before.get(k, (0, 0))[0] for k in pegs):
            self._animator.cancel()  # a correction or undo: no walk backwards
            return
        layout, moving = self._output_layout, dict(before)
        for letter, (front, _back) in pegs.items():
            if front > moving.get(letter, (0, 0))[0]:
                self._animator.play(walk(layout, moving, letter, front, colours))
                moving[letter] = pegs[letter]
        tracks = {side["id"]: "ABC"[k] for k, side in enumerate(state.get("sides") or [])}
        names = {"fifteen": "fifteen", "thirty-one": "thirty-one", "heels": "his-heels",
                 "muggins": "muggins"}
        for award in state.get("last") or []:
            if state.get("last_event") == state.get("events") and award.get("kind") in names:
                letter = tracks.get(award.get("side"))
                if letter is not None:
                    self._animator.play(flash(layout, pegs, letter, names[award["kind"]], colours))
        if state.get("winner") in tracks:
            self._animator.play(winner(layout, pegs, tracks[state["winner"]], colours))

    # --- the board's buttons ---------------------------------------------------------------

    def attach_buttons(self, buttons: Any) -> None:
        """Turn presses of ``buttons`` (:class:`firmware.buttons.BoardButtons`) into events.

        The press is queued at once (gpiozero's thread must not wait) and applied on a worker
        thread with ``source="button"``; a press the rules refuse is logged and changes nothing.
        """
        import queue

        presses: queue.Queue[str | None] = queue.Queue()
        self._buttons, self._presses = buttons, presses
        buttons.on(None, presses.put)

        def run() -> None:
            while (name := presses.get()) is not None:
                self.press(name)
                presses.task_done()
            presses.task_done()

        self._press_thread = threading.Thread(target=run, name="buttons", daemon=True)
        self._press_thread.start()

    def press(self, name: str) -> dict[str, Any] | None:
        """Apply the event a button ``name`` stands for; the new state, or None if nothing."""
        from cribbage.errors import CribbageError
        from firmware.button_events import game_event

        try:
            event = game_event(name)
        except ValueError:
            event = None
        game = self.store.latest_game()
        if name == "next" and self.camera is not None:  # confirm the camera's oldest flagged reading
            return self.camera.confirm()  # type: ignore[no-any-return]
        if event is None or event["type"] not in ("undo", "go") or game is None:
            log.info("button %s: nothing to do", name)
            return None
        try:
            return self.apply(game, dict(event), source="button")
        except CribbageError as exc:
            log.warning("button %s refused: %s", name, exc)
            return None

    # --- the camera ----------------------------------------------------------------------

    def read_cards(self, image: bytes) -> dict[str, Any]:
        """The cards read in a photo (``vision.reader``), as JSON for the page."""
        from web.ports import VisionUnavailable

        try:
            from vision.hand import starter_apart
            from vision.reader import load_image, read_cards
        except Exception as exc:  # missing module, OpenCV trouble, a model file missing
            raise VisionUnavailable(f"{type(exc).__name__}: {exc}") from exc

        reading = read_cards(load_image(image), deck=self._taught_deck())
        out: dict[str, Any] = reading.to_json()
        # a hand and its starter (4 or 5 cards): the card lying apart is the starter, if one is
        k = starter_apart(reading.cards) if len(reading.cards) in (4, 5) else None
        out["starter_apart"] = reading.cards[k].card.name if k is not None else None
        return out

    def _taught_deck(self) -> Any:
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
        leds = self.leds_spec.partition(":")[0] if self._worker is not None else "none"
        return {"leds": leds, "demo": self.demo, "camera": self.camera is not None}

    # --- following the game from the camera (companion.camera) -----------------------------

    def attach_camera(self, camera: Any) -> None:
        """Follow the newest game from ``camera`` (a :class:`companion.camera.CameraService`)."""
        self.camera = camera
        camera.tell = lambda status: self._tell("camera", status)

    def camera_status(self) -> dict[str, Any] | None:
        return None if self.camera is None else self.camera.status()  # type: ignore[no-any-return]

    def camera_snapshot(self) -> bytes | None:
        return None if self.camera is None else self.camera.snapshot()  # type: ignore[no-any-return]

    def camera_zones(self) -> dict[str, Any]:
        from cribbage.errors import CribbageError

        if self.camera is None:
            raise CribbageError("no camera: start crib serve --camera SPEC")
        return self.camera.zones.to_json()  # type: ignore[no-any-return]

    def set_camera_zones(self, zones: dict[str, Any]) -> dict[str, Any]:
        from cribbage.errors import CribbageError

        if self.camera is None:
            raise CribbageError("no camera: start crib serve --camera SPEC")
        return self.camera.set_zones(zones)  # type: ignore[no-any-return]

    def resolve_flag(self, flag_id: int, action: str, card: str | None = None) -> dict[str, Any]:
        if self.camera is None:
            raise KeyError(flag_id)
        return self.camera.resolve(flag_id, action, card)  # type: ignore[no-any-return]

    def camera_crop(self, name: str) -> bytes | None:
        from companion.tracking import CropFolder

        if self.camera is not None:
            return self.camera.crop(name)  # type: ignore[no-any-return]
        return CropFolder(Path(self.store.path).parent).read(name)


def pegs_of(state: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """The pegs the LEDs show, by track letter: side ``k`` of the game pegs on track ``k``.

    >>> pegs_of({"sides": [{"id": "AC"}, {"id": "BD"}], "pegs": {"AC": [12, 7], "BD": [3, 0]}})
    {'A': (12, 7), 'B': (3, 0)}
    """
    pegs = state.get("pegs") or {}
    out: dict[str, tuple[int, int]] = {}
    for k, side in enumerate(state.get("sides") or []):
        front, back = pegs.get(side["id"], (0, 0))
        out["ABC"[k]] = (int(front), int(back))
    return out


def colours_of(state: dict[str, Any]) -> dict[str, tuple[int, int, int]]:
    """Each track's peg colour as RGB, from the sides' ``#rrggbb`` colours (others skipped).

    >>> colours_of({"sides": [{"id": "A", "colour": "#d62728"}, {"id": "B", "colour": "red"}]})
    {'A': (214, 39, 40)}
    """
    out: dict[str, tuple[int, int, int]] = {}
    for k, side in enumerate(state.get("sides") or []):
        colour = str(side.get("colour") or "")
        if len(colour) == 7 and colour.startswith("#"):
            try:
                out["ABC"[k]] = (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
            except ValueError:
                continue
    return out


class DemoDealer:
    """Plays a demo game into the companion, one event every ``step_s`` seconds.

    Deals are shuffled with a fixed seed; each player keeps four of six cards, lays the first
    card that fits the count (one making 15 or 31 first), says go when none fits, and counts
    the hands and the crib. It stops at the end of the game, when someone starts another game
    (the page follows the newest one), or at :meth:`stop`.
    """

    NAMES = ("Alice", "Bob")

    def __init__(self, companion: Companion, step_s: float = 2.5, seed: int = 121) -> None:
        import random

        self.companion = companion
        self.step_s = step_s
        self.rng = random.Random(seed)
        self.game_id: int | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo", daemon=True)
        self.kept: dict[str, list[str]] = {}
        self.crib: list[str] = []
        self.starter = ""

    def start(self) -> int:
        self.game_id = self.companion.new_game(
            {"players": list(self.NAMES), "variant": "six-card", "counting": "auto"}
        )
        self._thread.start()
        return self.game_id

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _deal(self) -> None:
        from cribbage.cards import PACK

        pack = [c.name for c in PACK]
        self.rng.shuffle(pack)
        self.kept = {"A": pack[0:4], "B": pack[6:10]}
        self.crib = pack[4:6] + pack[10:12]
        self.starter = pack[12]

    def next_event(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """The demo's next event for ``state``, or None when the game is over."""
        phase = state.get("phase")
        if phase == "over":
            return None
        if state.get("dealer") is None:
            return {"type": "dealer", "seat": "B"}
        if phase == "deal":
            self._deal()
            return {"type": "starter", "card": self.starter}
        seat = state.get("next")
        if phase == "play" and seat:
            from cribbage.cards import parse_card

            laid = set(state["hands"][seat]["laid"])
            count = int(state.get("count") or 0)
            fits = [c for c in self.kept[seat] if c not in laid
                    and count + parse_card(c).value <= 31]
            if not fits:
                return {"type": "go", "seat": seat}
            fits.sort(key=lambda c: count + parse_card(c).value not in (15, 31))
            return {"type": "play", "seat": seat, "card": fits[0]}
        if phase == "show" and seat == "crib":
            return {"type": "crib", "cards": self.crib}
        if phase == "show" and seat:
            return {"type": "show", "seat": seat, "cards": self.kept[seat]}
        return None

    def _run(self) -> None:
        assert self.game_id is not None
        while not self._stop.wait(self.step_s):
            if self.companion.latest_game() != self.game_id:
                log.info("demo: another game started; the demo stops")
                return
            state = self.companion.state(self.game_id)
            event = self.next_event(state)
            if event is None:
                log.info("demo: game over")
                return
            try:
                self.companion.apply(self.game_id, event, source="demo")
            except Exception:
                log.exception("demo: event refused; the demo stops")
                return


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


def make_server(config: ServeConfig, app: Any) -> Any:
    """A waitress server for ``app`` (not yet running): ``server.run()``, ``server.close()``."""
    from waitress import create_server

    return create_server(
        app,
        host=config.host,
        port=config.port,
        threads=config.server_threads,
        connection_limit=max(100, config.max_live + 50),
        channel_timeout=120,
        ident="cribbage-companion",
    )


def real_game_in_progress(companion: Companion) -> int | None:
    """The newest game when it is a real one still in progress (its first event was not sent by a
    demo), which a demo must not hide behind a game of its own; else None."""
    game = companion.latest_game()
    if game is None or companion.state(game).get("phase") == "over":
        return None
    events = companion.events(game)
    return None if events and events[0].get("source") == "demo" else game


def start_camera(config: ServeConfig, companion: Companion) -> Any:
    """Follow the game from ``config.camera``; with ``--demo``, each pass of the video is a new
    game of Alice and Bob, the first dealt by A (the rendered demo deals' table)."""
    from companion.camera import CameraService

    assert config.camera is not None
    new_game = None
    if config.demo:
        def new_game() -> int:
            game = companion.new_game({"players": list(DemoDealer.NAMES), "variant": "six-card"})
            companion.apply(game, {"type": "dealer", "seat": "A"}, source="demo")
            return game

        new_game()
    camera = CameraService(companion, config.camera, config.data_dir, zones_path=config.zones,
                           realtime=True, loop=config.demo, new_game=new_game)
    companion.attach_camera(camera)
    camera.start()
    return camera


def serve(config: ServeConfig) -> int:
    """Run until Ctrl-C or SIGTERM: what ``crib serve`` does."""
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    from companion.cli.base import UsageError

    try:
        companion = Companion.build(config)
    except (OSError, RuntimeError, ValueError, ImportError) as exc:  # incl. OutputUnavailable
        raise UsageError(f"cannot start: {exc}") from exc
    app = build_app(config, companion)
    try:
        server = make_server(config, app)
    except OSError as exc:
        companion.close()
        raise UsageError(f"cannot listen on {config.host}:{config.port}: {exc.strerror}") from exc
    demo = None
    real = real_game_in_progress(companion) if config.demo else None
    try:
        if real is not None:  # the table's own game stays on the page: the demo steps aside
            log.warning("game %d is in progress in %s: the demo steps aside (demo games belong in "
                        "another --data folder)", real, config.data_dir)
        elif config.camera:
            start_camera(config, companion)
        elif config.demo:
            demo = DemoDealer(companion, step_s=config.demo_step_s)
            demo.start()
    except Exception as exc:
        server.close()
        companion.close()
        raise UsageError(f"cannot start the camera: {exc}") from exc
    port = server.effective_port
    everywhere = config.host in ("0.0.0.0", "::", "")
    local_only = config.host == "localhost" or config.host.startswith("127.") or config.host == "::1"
    shown = "127.0.0.1" if everywhere or local_only else config.host
    where = "in this computer's browser" if everywhere or local_only else "on a phone or browser"
    print(f"Cribbage Companion: open http://{shown}:{port}/ {where} "
          f"(data in {config.data_dir}; Ctrl-C stops)", flush=True)
    if local_only:  # no phone can reach 127.0.0.1: say how to let them in
        print("  listening on this computer only: to let phones on the network in, run "
              "crib serve --host 0.0.0.0 (or make run HOST=0.0.0.0)", flush=True)
    if everywhere:
        lan = lan_address()
        print(f"  listening on every address: phones on the network open "
              f"http://{socket.gethostname()}.local:{port}/"
              + (f" or http://{lan}:{port}/" if lan else ""), flush=True)

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
