"""``crib camera check``: look at the camera (or one photo) and say what to change before the first deal.

``crib camera check SOURCE [--seconds S] [--json]``: SOURCE is a camera spec (``picamera2``,
``opencv:N``, ``video:PATH``, ``frames:DIR``; docs/camera.md) or a path (a photo, a video, a
folder of frames). A few seconds of the camera are looked at (or the one photo) and seven checks
are said, one a line (✓ passed, ✗ to fix, … waiting for cards; the numbers behind the advice,
such as the Camera Module 3's LensPosition, in brackets), then a verdict
(:mod:`vision.camera.check`). With ``--json`` the last line of stdout is ``{"ok", "checks":
[{"name", "ok", "waiting", "value", "say", "detail"}], "frames", "cards", "read",
"width", "height", "ms", "card_width", "source"}``. The exit status is 0 whenever it ran,
whatever it found; a bad spec, a missing file or a photo that does not decode is one line on
stderr and status 2.
"""

from __future__ import annotations

import argparse

from companion.cli.base import UsageError, print_json


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``crib camera check``."""
    p = sub.add_parser("camera", help="check the camera over the table",
                       description="The camera over the table: check it is set up to read cards.")
    camera = p.add_subparsers(dest="camera_command", metavar="COMMAND", parser_class=type(p))
    camera.required = True
    check = camera.add_parser(
        "check", help="say what to change: light, focus, distance, glare, flicker, contrast, tilt",
        description="Look at a few seconds of the camera (or one photo) and say, in players' words, "
        "what to change before the first deal. SOURCE: picamera2[:WxH,...], opencv:N, video:PATH, "
        "frames:DIR, or a photo, video or folder. Exit status 0 whenever it ran.",
    )
    check.add_argument("source", metavar="SOURCE", help="a camera spec, or a photo, video or folder")
    check.add_argument("--seconds", type=float, default=3.0, help="how long to watch (default 3)")
    check.add_argument("--json", action="store_true", help="end with one JSON object on stdout")
    check.set_defaults(handler=run_check)


def run_check(args: argparse.Namespace) -> int:
    from vision.camera import CameraError
    from vision.camera.check import check_frames, watch

    try:
        frames, field_of_view = watch(args.source, seconds=max(0.0, args.seconds))
    except CameraError as exc:
        raise UsageError(str(exc)) from None
    report = check_frames(frames, field_of_view)
    if args.json:
        print_json({**report.to_json(), "source": args.source})
        return 0
    for check in report.checks:
        mark = "✗" if not check.ok else "…" if check.waiting else "✓"
        print(f"{mark} {check.name:<9} {check.say}" + (f" ({check.detail})" if check.detail else ""))
    failed = [c.name for c in report.checks if not c.ok]
    waiting = [c.name for c in report.checks if c.waiting]
    seen = f"{_count(report.frames, 'frame')}, {_count(report.cards, 'card')} seen"
    if failed:
        print(f"Fix {', '.join(failed)} before the first deal ({seen}).")
    elif report.cards == 0:
        print(f"No card seen: lay a card in front of each player and check again ({seen}).")
    elif waiting:
        print(f"Not judged yet: {', '.join(waiting)} ({seen}).")
    else:
        print(f"Ready to play ({seen}).")
    return 0


def _count(n: int, what: str) -> str:
    """``_count(1, "card")`` is ``"1 card"``, ``_count(3, "card")`` is ``"3 cards"``.

    >>> _count(0, "card")
    '0 cards'
    """
    return f"{n} {what}{'s' * (n != 1)}"
