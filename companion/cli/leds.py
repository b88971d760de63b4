"""``crib leds``: render a game position to an LED frame, or play the self-test on an output.

$ crib leds render --scores 45,30 --prev 40,28
{"leds": 244, "lit": [{"index": 104, "rgb": [203, 2, 2], "seat": "A", "peg": "front", "hole": 45, ...
$ crib leds test --output sim
sim: 374 self-test frames sent to a simulated strip of 366 LEDs in 4 ms; it shows them nowhere. ...

``render`` prints one JSON line (``--text`` for a table instead): the pegs first, then the marker
LEDs (start and game holes, the holes past the skunk lines) with ``"peg": null``.

>>> from companion.cli import main
>>> main(["leds", "render", "--scores", "45,130"])  # stderr: score 130 is over the 121-point game
2
"""

from __future__ import annotations

import argparse
import time

from companion.cli.base import ArgParser, UsageError, print_json

SEATS = "ABC"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "leds",
        help="render pegs to an LED frame, or self-test an LED output",
        description="The LED peg board: render a position to a frame, or run the self-test "
        "pattern on an output.",
    )
    leds_sub = p.add_subparsers(dest="leds_command", metavar="ACTION", parser_class=ArgParser)
    leds_sub.required = True

    r = leds_sub.add_parser(
        "render",
        help="the LED frame for a position",
        description="Light each seat's front peg (its score) bright and its back peg (its "
        "previous score) dim, and print the lit LEDs as one JSON line.",
        epilog="example: crib leds render --scores 45,30 --prev 40,28 --png board.png",
    )
    r.add_argument("--scores", required=True, metavar="A,B[,C]",
                   help="each seat's score (front peg), comma separated")
    r.add_argument("--prev", metavar="A,B[,C]",
                   help="each seat's previous score (back peg); default 0 (the start hole)")
    r.add_argument("--tracks", type=int, choices=(2, 3),
                   help="tracks on the board (default: one per score given)")
    r.add_argument("--laps", type=int, choices=(1, 2), default=1,
                   help="1: a 121-hole board, 2: a 61-hole board played round twice")
    r.add_argument("--target", type=int, choices=(61, 121), default=121, help="points to win")
    r.add_argument("--wiring", choices=("snake", "per-track"), default="snake")
    r.add_argument("--brightness", type=float, default=1.0, help="0..1 (default 1)")
    r.add_argument("--supply-ma", type=float, default=2000.0,
                   help="current the LED supply gives the strip (power cap), default 2000")
    r.add_argument("--no-markers", action="store_true", help="leave start, game and skunk marks dark")
    r.add_argument("--json", action="store_true", help="print JSON (the default)")
    r.add_argument("--text", action="store_true", help="print a table instead of JSON")
    r.add_argument("--png", metavar="FILE", help="also save a picture of the board")
    r.set_defaults(handler=run_render)

    t = leds_sub.add_parser(
        "test",
        help="play the self-test pattern on an LED output",
        description="Colour fills, each track in its colour, a dot walking every LED in strip "
        "order, then dark. Outputs: sim, pico:/dev/ttyACM0, spi-apa102, spi-ws2812.",
    )
    t.add_argument("--output", default="sim", metavar="SPEC",
                   help="sim | pico:PORT | spi-apa102[:bus=0,hz=8000000] | spi-ws2812[:hz=6400000]")
    t.add_argument("--tracks", type=int, choices=(2, 3), default=3)
    t.add_argument("--laps", type=int, choices=(1, 2), default=1)
    t.add_argument("--wiring", choices=("snake", "per-track"), default="snake")
    t.add_argument("--fps", type=float,
                   help="frames per second (default 30 on hardware, as fast as possible on sim)")
    t.add_argument("--level", type=float, default=0.1, help="strength of the pattern, 0..1")
    t.add_argument("--png", metavar="FILE",
                   help="sim only: save the board as the pattern ends (dark: the last frame)")
    t.add_argument("--json", action="store_true", help="print the summary as JSON")
    t.set_defaults(handler=run_test)


def _numbers(text: str, what: str) -> list[int]:
    parts = [p.strip() for p in text.split(",")]
    out = []
    for part in parts:
        try:
            value = int(part)
        except ValueError:
            raise UsageError(f"{what} must be whole numbers separated by commas, not {text!r}") from None
        if value < 0:
            raise UsageError(f"{what}: a score cannot be negative ({value})")
        out.append(value)
    return out


def parse_position(scores: str, prev: str | None, tracks: int | None,
                   target: int) -> tuple[int, dict[str, tuple[int, int]]]:
    """The board's track count and the pegs (seat → (front, back)) from the command's values.

    >>> parse_position("45,30", "40,28", None, 121)
    (2, {'A': (45, 40), 'B': (30, 28)})
    >>> parse_position("45", None, None, 121)
    Traceback (most recent call last):
    ...
    companion.cli.base.UsageError: --scores needs 2 or 3 scores (one per track), got 1
    """
    fronts = _numbers(scores, "--scores")
    count = tracks if tracks is not None else len(fronts)
    if count not in (2, 3) or len(fronts) != count:
        want = f"{tracks} scores (--tracks {tracks})" if tracks else "2 or 3 scores (one per track)"
        raise UsageError(f"--scores needs {want}, got {len(fronts)}")
    backs = _numbers(prev, "--prev") if prev is not None else [0] * count
    if len(backs) != count:
        raise UsageError(f"--prev needs {count} scores like --scores, got {len(backs)}")
    pegs = {}
    for seat, front, back in zip(SEATS, fronts, backs, strict=False):
        if front > target:
            raise UsageError(f"score {front} is over the {target}-point game")
        if back > front:
            raise UsageError(f"seat {seat}: the previous score {back} is ahead of the score {front}")
        pegs[seat] = (front, back)
    return count, pegs


def run_render(args: argparse.Namespace) -> int:
    from firmware.layout import BoardLayout
    from firmware.render import RenderOptions, render_frame

    tracks, pegs = parse_position(args.scores, args.prev, args.tracks, args.target)
    try:
        options = RenderOptions(brightness=args.brightness, supply_ma=args.supply_ma,
                                markers=not args.no_markers, skunk_marks=not args.no_markers)
        layout = BoardLayout.standard(tracks=tracks, laps=args.laps, wiring=args.wiring,
                                      target=args.target)
        frame = render_frame(layout, pegs, options=options)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.png:
        from firmware.outputs.sim import draw_board

        try:
            with open(args.png, "wb") as fh:
                fh.write(draw_board(layout, frame))
        except OSError as exc:
            raise UsageError(f"cannot write {args.png}: {exc.strerror or exc}") from None
    if args.text:
        print(f"{frame.leds} LEDs, {len(frame.lit)} lit, about {frame.current_ma:.0f} mA"
              f" (scale {frame.scale:.3f})")
        for e in frame.lit:
            what = f"{e.seat} {e.peg}" if e.peg else f"{e.mark} mark"
            print(f"  LED {e.index:>4}  track {e.track} hole {e.hole:>3}  {what:<10} rgb{e.rgb}")
    else:
        print_json(frame.to_dict())
    return 0


def run_test(args: argparse.Namespace) -> int:
    from firmware.layout import BoardLayout
    from firmware.outputs import OutputUnavailable, open_output
    from firmware.selftest import selftest_frames

    if not 0.0 < args.level <= 1.0:
        raise UsageError(f"--level must be in (0, 1], not {args.level}")
    if args.fps is not None and not 0 < args.fps < 10_000:
        raise UsageError(f"--fps must be positive, not {args.fps}")
    layout = BoardLayout.standard(tracks=args.tracks, laps=args.laps, wiring=args.wiring)
    try:
        output = open_output(args.output, layout)
    except OutputUnavailable as exc:
        raise UsageError(str(exc)) from None
    kind = args.output.partition(":")[0].lower()
    if args.png and kind != "sim":
        output.close()
        raise UsageError(f"--png works with the sim output only, not {kind}")
    fps = args.fps if args.fps is not None else (None if kind == "sim" else 30.0)
    shown = 0
    start = time.perf_counter()
    try:
        for frame in selftest_frames(layout, level=args.level):
            output.show(frame)
            shown += 1
            if fps:
                time.sleep(max(0.0, start + shown / fps - time.perf_counter()))
        if args.png:
            output.save_png(args.png)
    except OutputUnavailable as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"{kind}: {exc.strerror or exc}") from None
    finally:
        output.close()
    seconds = time.perf_counter() - start
    seen = kind != "sim"  # a simulated strip keeps its last frame and shows it nowhere
    summary = {"output": kind, "leds": layout.led_count, "frames": shown,
               "seconds": round(seconds, 3), "shown": seen, "ok": True}
    if args.png:
        summary["png"] = args.png
    if args.json:
        print_json(summary)
    elif seen:
        print(f"{kind}: {shown} self-test frames shown on {layout.led_count} LEDs in {seconds:.2f} s")
    else:
        print(f"sim: {shown} self-test frames sent to a simulated strip of {layout.led_count} LEDs "
              f"in {_duration(seconds)}; it shows them nowhere. {SIM_ELSEWHERE}"
              + (f" The board as the test ends (dark) is in {args.png}." if args.png else ""))
    return 0


SIM_ELSEWHERE = ("To see the self-test, run it on the board (--output pico:/dev/ttyACM0, "
                 "spi-apa102 or spi-ws2812); to see a position lit, crib leds render --png FILE, "
                 "or the LEDs panel of the page (crib serve --leds sim).")
"""Where to look instead of the simulated strip, said by ``crib leds test --output sim``."""


def _duration(seconds: float) -> str:
    """``'3 ms'`` below a second, else ``'1.25 s'``.

    >>> _duration(0.0031), _duration(1.25)
    ('3 ms', '1.25 s')
    """
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"
