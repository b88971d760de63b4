"""``crib serve``: run the companion, the page for the phones at the table.

    crib serve                       # 127.0.0.1:8121 (0.0.0.0 on a Raspberry Pi)
    crib serve --demo                # a demo deal plays itself; LEDs drawn on the page
    crib serve --demo --dealer A     # ... with Ann dealing first
    crib serve --camera picamera2    # follow the game from the Pi camera (docs/tracking.md)
    crib serve --host 0.0.0.0 --port 8121 --data ~/crib --leds sim --pin 4321
    crib serve --voice               # say each score aloud with espeak-ng (docs/voice.md)
    crib serve --allow-host crib.home.arpa   # also answer to this name (a router's DNS name)

The page is served by waitress (never Flask's debug server) and logs go to stderr. At start it
prints the address to open and the table code a device needs once to change the game
(:mod:`web.tablecode`); listening beyond this computer, it says who can watch and change.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli.base import UsageError

DEFAULT_PORT = 8121


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="run the companion: the live page, the game store and the LEDs",
        description="Run the companion: the page for the phones at the table (waitress), the "
        "game store (SQLite in the data folder) and the LED output. Stop with Ctrl-C.",
    )
    p.add_argument("--host", default=None,
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 on a Raspberry Pi)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT})")
    p.add_argument("--data", metavar="DIR", default=None,
                   help="data folder: games database, photos, settings "
                   "(default: the platform's user data folder; its demo/ folder with --demo)")
    p.add_argument("--leds", default="sim", metavar="OUTPUT",
                   help="LED output: sim (drawn on the page), none, pico:/dev/ttyACM0, "
                   "spi-apa102 or spi-ws2812 (default sim)")
    p.add_argument("--board-tracks", type=int, choices=(2, 3), default=None,
                   help="tracks on the physical board (default: follow the game, 2 or 3)")
    p.add_argument("--board-laps", type=int, choices=(1, 2), default=1,
                   help="1 for a 121-hole board, 2 for a 61-hole board played twice round")
    p.add_argument("--buttons", action="store_true",
                   help="read the board's buttons (gpiozero: undo, go per seat) on a Raspberry Pi")
    p.add_argument("--demo", action="store_true",
                   help="start a demo game (Ann v Bob, random moves) that plays itself slowly, "
                   "for a first look")
    p.add_argument("--dealer", default=None, metavar="SEAT",
                   help="who deals the first deal of the game crib serve starts (the demo's): "
                   "A or B (default: the demo's own)")
    p.add_argument("--demo-step", type=float, default=2.5, metavar="SECONDS",
                   help="seconds between the demo's moves (default 2.5)")
    p.add_argument("--camera", default=None, metavar="SPEC",
                   help="follow the game from a camera: picamera2[:WxH], opencv:N (a USB webcam), "
                   "video:PATH (a video, at its own frame rate) or frames:DIR (see docs/tracking.md)")
    p.add_argument("--zones", default=None, metavar="FILE",
                   help="the table's zones as JSON, for the size of table it names, or auto: the seats "
                   "found from the first card of each game's play (default: zones.json in the data "
                   "folder, set on the page's Camera tab; else auto). Checked at start; the page never "
                   "writes it")
    p.add_argument("--pin", default=None, metavar="DIGITS",
                   help="set the table PIN needed to change anything (4-12 digits; '' = no PIN); "
                   "kept in the data folder for later starts")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="also answer to this host name or address (repeatable); the table always "
                   "answers to localhost, its listening address, the machine's name and NAME.local "
                   "and, listening on 0.0.0.0, each of its addresses; any other Host is refused")
    p.add_argument("--behind-proxy", default=None, metavar="ADDR",
                   help="a reverse proxy on ADDR (like 127.0.0.1) forwards the phones: believe "
                   "the client address it forwards (X-Forwarded-For). Without it a forwarded "
                   "request is never taken for this computer's own")
    p.add_argument("--new-code", action="store_true",
                   help="make a new table code: every other device needs the new one to change "
                   "the game")
    p.add_argument("--threads", type=int, default=None,
                   help="server threads (default: live pages + 8; each live page holds one)")
    p.add_argument("--max-live", type=int, default=None, metavar="N",
                   help="pages following live at once; more fall back to polling (default 64, "
                   "16 where the machine or its memory cgroup has under 1 GB)")
    p.add_argument("--voice", nargs="?", const="espeak", default=None, metavar="VOICE",
                   help="say each score aloud: espeak (the default when given bare; espeak:en-us "
                   "picks the espeak-ng voice), wav:DIR (each line a WAV file in DIR) or none "
                   "(see docs/voice.md)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from companion.service import ServeConfig, serve

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, not {args.port}")
    if args.pin not in (None, "") and not (args.pin.isdigit() and 4 <= len(args.pin) <= 12):
        raise UsageError("--pin is 4 to 12 digits (or '' for no PIN)")
    if not 0 <= args.demo_step <= 60:
        raise UsageError("--demo-step is 0 to 60 seconds")
    if args.max_live is not None and args.max_live < 1:
        raise UsageError("--max-live must be at least 1")
    if args.threads is not None and args.threads < 2:
        raise UsageError("--threads must be at least 2")
    if args.dealer is not None:
        args.dealer = check_dealer(args.dealer, args.demo)
    if args.voice is not None:
        check_voice(args.voice)
    if args.zones is not None and args.zones != "auto":
        check_zones(args.zones)
    allowed = check_allowed_hosts(args.allow_host)
    proxy = check_behind_proxy(args.behind_proxy)
    config = ServeConfig.from_args(args)
    config.web.update(LISTEN_HOST=config.host, ALLOWED_HOSTS=allowed, NEW_CODE=args.new_code,
                      TRUSTED_PROXY=proxy)
    return serve(config)


def check_allowed_hosts(names: list[str]) -> list[str]:
    """Each ``--allow-host`` as the table compares it; one that is not a name is a usage error."""
    from web.hosts import check_host_name

    try:
        return [check_host_name(name) for name in names]
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def check_behind_proxy(address: str | None) -> str | None:
    """The ``--behind-proxy`` address as the table compares it; one that is not an address is a
    usage error."""
    from web.proxy import check_proxy

    if address is None:
        return None
    try:
        return check_proxy(address)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def check_dealer(seat: str, demo: bool) -> str:
    """The seat ``--dealer`` names, for the game ``crib serve`` starts: the demo's, of two players.

    >>> check_dealer("b", demo=True)
    'B'
    """
    from companion.demo import NAMES

    seats = [chr(ord("A") + i) for i in range(len(NAMES))]
    if not demo:
        raise UsageError("--dealer is for the game crib serve starts: the demo's (--demo); a game "
                         "started on the page chooses its dealer on the New tab")
    if seat.strip().upper() not in seats:
        raise UsageError(f"--dealer is {' or '.join(seats)} (the demo's {len(seats)} players), "
                         f"not {seat!r}")
    return seat.strip().upper()


def check_zones(path: str) -> None:
    """A ``--zones FILE`` that is missing, not JSON or not zones stops ``crib serve`` at start
    (rather than following the game with zones nobody set)."""
    from companion.camera import load_zones_file
    from cribbage.errors import CribbageError

    try:
        load_zones_file(Path(path).expanduser())
    except CribbageError as exc:  # ZonesError
        raise UsageError(str(exc)) from exc


def check_voice(spec: str) -> None:
    """A ``--voice`` that names no voice, or a ``wav:DIR`` that cannot be made, is a usage error."""
    from companion.voice import check_spec

    try:
        kind, _, arg = check_spec(spec).partition(":")
        if kind == "wav":
            Path(arg).expanduser().mkdir(parents=True, exist_ok=True)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    except OSError as exc:
        raise UsageError(f"--voice {spec}: cannot make the folder ({exc.strerror})") from exc
