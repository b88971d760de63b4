"""``crib board``: the printable peg board, as an OpenSCAD model or rendered to STL.

$ crib board scad --out board.scad
$ crib board stl --out deck-1.stl --part deck-1

The model is generated from the same layout the LEDs and the page use (``firmware.layout``);
``stl`` runs ``openscad`` (Debian package ``openscad``) on it.

>>> from companion.cli import main
>>> main(["board", "scad", "--out", "/nonexistent/dir/b.scad"])  # stderr: cannot write ...
2
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from companion.cli.base import ArgParser, UsageError, print_json


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, metavar="FILE", help="where to write")
    p.add_argument("--tracks", type=int, choices=(2, 3), default=3)
    p.add_argument("--laps", type=int, choices=(1, 2), default=1,
                   help="1: 121 holes a track, 2: 61 holes played round twice")
    p.add_argument("--wiring", choices=("snake", "per-track"), default="snake")
    p.add_argument("--part", default="board",
                   help="board (whole deck), deck-N, lid-N, key, mast-clamp, camera-head, assembly")
    p.add_argument("--fn", type=int, help="facets of a circle (default 24; fewer renders faster)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "board",
        help="the printable peg board (OpenSCAD model, STL)",
        description="Generate the peg board's OpenSCAD model from the board layout, or render a "
        "part of it to STL with openscad.",
    )
    board_sub = p.add_subparsers(dest="board_command", metavar="ACTION", parser_class=ArgParser)
    board_sub.required = True
    s = board_sub.add_parser("scad", help="write the OpenSCAD model",
                             description="Write the OpenSCAD model; every part is in the file "
                             "(choose with openscad -D 'part=\"deck-1\"').")
    _common(s)
    s.set_defaults(handler=run_scad)
    t = board_sub.add_parser("stl", help="render a part to STL with openscad",
                             description="Render one part of the model to STL with openscad "
                             "(the whole 3-track deck takes a few minutes).")
    _common(t)
    t.add_argument("--openscad", default=os.environ.get("OPENSCAD", "openscad"),
                   help="the openscad program (default: openscad on PATH, or $OPENSCAD)")
    t.add_argument("--timeout", type=float, default=1800.0, help="seconds to give openscad")
    t.add_argument("--json", action="store_true", help="print a JSON summary")
    t.set_defaults(handler=run_stl)


def _model_source(args: argparse.Namespace) -> str:
    from firmware.layout import BoardLayout
    from firmware.scad import BoardModel

    if args.fn is not None and not 3 <= args.fn <= 200:
        raise UsageError(f"--fn must be between 3 and 200, not {args.fn}")
    model = BoardModel(BoardLayout.standard(tracks=args.tracks, laps=args.laps, wiring=args.wiring))
    try:
        return model.scad(args.part, args.fn)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def run_scad(args: argparse.Namespace) -> int:
    _write(args.out, _model_source(args))
    print(f"wrote {args.out} (part {args.part}; render with: crib board stl --part {args.part})")
    return 0


def run_stl(args: argparse.Namespace) -> int:
    source = _model_source(args)
    program = shutil.which(args.openscad)
    if program is None:
        raise UsageError(f"openscad not found ({args.openscad}): install it (apt install openscad) "
                         "or write the model with crib board scad")
    out = Path(args.out)
    if not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: no such folder {out.parent}")
    with tempfile.TemporaryDirectory(prefix="crib-board-") as tmp:
        scad = Path(tmp) / "board.scad"
        scad.write_text(source, encoding="utf-8")
        stl = Path(tmp) / "part.stl"
        start = time.perf_counter()
        try:
            run = subprocess.run([program, "-o", str(stl), str(scad)], capture_output=True,
                                 text=True, timeout=args.timeout, check=False)
        except subprocess.TimeoutExpired:
            raise UsageError(f"openscad took more than {args.timeout:.0f} s") from None
        except OSError as exc:
            raise UsageError(f"cannot run {program}: {exc.strerror or exc}") from None
        seconds = time.perf_counter() - start
        if run.returncode != 0 or not stl.is_file() or stl.stat().st_size == 0:
            last = (run.stderr.strip().splitlines() or ["no output"])[-1]
            raise UsageError(f"openscad failed (status {run.returncode}): {last}")
        try:
            shutil.copyfile(stl, out)
        except OSError as exc:
            raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
    summary = {"out": str(out), "part": args.part, "bytes": out.stat().st_size,
               "seconds": round(seconds, 1)}
    if args.json:
        print_json(summary)
    else:
        print(f"wrote {out} ({summary['bytes']} bytes, part {args.part}) in {seconds:.1f} s")
    return 0
