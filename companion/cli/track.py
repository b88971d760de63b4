"""``crib track``: follow a game from a video (or a folder of frames) and print its events.

``crib track VIDEO [--zones FILE|auto] [--players Ann,Bob] [--dealer A] [--variant six-card]
[--db PATH] [--json]`` runs the camera's tracker (:mod:`vision.track`) over every frame, as fast
as it can, and applies the events it finds to a new game: in memory, or kept in ``--db``
(the crops of the cards read go to ``crops/`` beside it). A progress bar goes to stderr on a
terminal. With ``--json`` the last line of stdout is one object: ``events`` (type, seat, card
or cards, the frame each was committed at, the confidence), ``state`` (the game's state JSON),
``frames``, ``ms_per_frame`` (the tracker's own time per frame, decoding not counted: mean and
95th percentile) and ``flagged`` (readings left for the players to confirm); with ``--zones
auto``, ``seats`` too (:meth:`vision.track.seats.Seats.to_json`: each seat's edge, found from the
first card of the play).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from companion.cli.base import UsageError, print_json
from companion.names import default_players

VARIANTS = ("six-card", "five-card", "three-player", "four-player")
SEATS = {"three-player": 3, "four-player": 4}


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``crib track``."""
    p = sub.add_parser(
        "track", help="follow a game from a video or a folder of frames",
        description="Run the camera's tracker over every frame of VIDEO (any file OpenCV opens, or a "
        "folder of images in name order) and apply the events it finds to a new game. "
        "The table protocol (where the seats and the centre are) is in docs/tracking.md.",
    )
    p.add_argument("video", metavar="VIDEO", help="a video file, or a folder of frames")
    p.add_argument("--zones", help="zones JSON, or auto: the seats found from the first card of the play "
                   "(default: seat A at the bottom edge, B at the top)")
    p.add_argument("--players", help="names in seat order, comma separated (default: Ann,Bob)")
    p.add_argument("--dealer", help="the first dealer's seat (default: found from the table, the seat "
                   "before the one that lays the first card of the play)")
    p.add_argument("--variant", choices=VARIANTS, default="six-card")
    p.add_argument("--db", help="keep the game in this SQLite log (default: in memory)")
    p.add_argument("--json", action="store_true", help="end with one JSON object on stdout")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from companion.tracking import CropFolder, StoreGame, follow_frames
    from cribbage.errors import CribbageError
    from cribbage.gamelog import GameStore
    from vision.camera import CameraError, source_for_path
    from vision.track import Follower, Tracker, Zones, events_json
    from vision.track.seats import Seats

    seats = SEATS.get(args.variant, 2)
    players = args.players or ",".join(default_players(seats))
    seats = len(players.split(","))
    if args.zones is not None and args.zones != "auto" and not Path(args.zones).is_file():
        raise UsageError(f"no zones file {args.zones} (a zones JSON file, or auto)")
    found = Seats(seats) if args.zones == "auto" and seats in (2, 3, 4) else None
    zones = found.zones if found else Zones.load(args.zones, seats) if args.zones else Zones.default(seats)
    if zones.players != seats:
        raise UsageError(f"the zones are for {zones.players} players, the game has {seats}")
    if not Path(args.video).exists():
        raise UsageError(f"no video or folder {args.video}")
    still = still_photo(Path(args.video))
    if still is not None:
        raise UsageError(f"{args.video} is a still photo ({still}), not a video: crib track follows "
                         f"a video or a folder of frames (to count the hand in it: crib check "
                         f"{args.video})")
    try:
        source = source_for_path(args.video)
        source.open()
    except CameraError as exc:
        raise UsageError(str(exc)) from None
    if _frame_count(source) == 1:
        source.close()
        raise UsageError(f"{args.video} holds one frame: crib track follows a game over many "
                         "frames (a video, or a folder of frames)")
    store = GameStore(args.db or ":memory:")
    try:
        game_id = store.new_game({"players": players, "variant": args.variant})
        game = StoreGame(store, game_id)
        if args.dealer is not None:
            game.apply({"type": "dealer", "seat": args.dealer})
        crops = CropFolder(Path(args.db).resolve().parent) if args.db else None
        follower = Follower(game, Tracker(zones, seats=found), save_crop=crops.save if crops else None)
        bar = _Progress(_frame_count(source)) if sys.stderr.isatty() else None

        def each(frames: int, applied: list[Any]) -> None:
            if bar is not None:
                bar.update(frames)
            if not args.json:
                for line in events_json(applied):
                    _say(line)

        try:
            followed = follow_frames(source, follower, on_frame=each)
        except CameraError as exc:
            raise UsageError(str(exc)) from None
        finally:
            if bar is not None:
                bar.done()
        left = follower.finish()
        state = game.state()
        if left:
            print(f"crib track: the video ended with {len(left)} thing(s) left for the players: "
                  + "; ".join(left), file=sys.stderr)
        if args.json:
            print_json({
                "events": events_json(follower.applied), "state": state, "frames": followed.frames,
                "ms_per_frame": followed.ms_per_frame(), "flagged": follower.status()["flagged"],
                **({"seats": found.to_json()} if found else {}),
            })
        else:
            scores = ", ".join(f"{s['name']} {state['scores'][s['id']]}" for s in state["sides"])
            counts = f"{len(follower.applied)} events, {len(follower.flags)} flagged"
            print(f"{followed.frames} frames, {counts}: {scores}")
    except CribbageError as exc:
        raise UsageError(str(exc)) from None
    finally:
        store.close()
    return 1 if left else 0


STILL_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "BMP", "TIFF", "MPO"})
"""Image formats that hold one picture (a GIF may be animated: it is left to the video reader)."""


def still_photo(path: Path) -> str | None:
    """The format of the still photo at ``path`` (``"JPEG"``), or None for a folder, a video or
    anything else; only the file's first bytes are read (the header, :mod:`imaging.limits`).

    >>> still_photo(Path("/nowhere/deal.mp4")) is None
    True
    """
    from imaging.limits import TooLarge, read_header

    if not path.is_file():
        return None
    try:
        with path.open("rb") as f:
            head = f.read(1 << 20)
        header = read_header(head)
    except (OSError, TooLarge):
        return None
    return header.format if header is not None and header.format in STILL_FORMATS else None


def _say(event: dict[str, Any]) -> None:
    what = event.get("card") or " ".join(event.get("cards", []))
    who = event.get("seat", "")
    conf = f" ({event['confidence']:.2f})" if "confidence" in event else ""
    print(f"frame {event['frame']:>6}  {event['type']:<7} {who:<1} {what}{conf}".rstrip(), flush=True)


def _frame_count(source: Any) -> int | None:
    count = getattr(source, "frame_count", None)
    return int(count) if isinstance(count, int | float) and count > 0 else None


class _Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int | None) -> None:
        self.total = total
        self.t0 = time.monotonic()
        self.last = 0.0

    def update(self, done: int) -> None:
        now = time.monotonic()
        if now - self.last < 0.2:
            return
        self.last = now
        rate = done / max(now - self.t0, 1e-6)
        if self.total:
            filled = int(30 * done / self.total)
            bar = "#" * filled + "." * (30 - filled)
            sys.stderr.write(f"\r[{bar}] {done}/{self.total} frames, {rate:.0f}/s ")
        else:
            sys.stderr.write(f"\r{done} frames, {rate:.0f}/s ")
        sys.stderr.flush()

    def done(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()
