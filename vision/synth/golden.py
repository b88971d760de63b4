"""The golden deal videos: the two scripted golden deals rendered as a camera films them, cached.

The tests, the tracking benchmark and the demo (``make run``) play these videos through the
camera's tracker. Rendering takes a minute, so each video is kept under the render cache
(:func:`vision.synth.decks.cache_root`, ``golden/``) with a name that carries a digest of the
renderer's own source and of the arguments: a change to the renderer renders afresh.

    python -m vision.synth.golden --reset keep --out demo.mp4     # render (or copy from the cache)

>>> golden_name("procedural-7", "keep", ".mp4").startswith("golden-procedural-7-keep-")
True
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vision.synth.decks import cache_root

__all__ = ["golden_name", "golden_video"]

_SOURCES = ("video.py", "hands.py", "deals.py", "tables.py", "compose.py", "decks.py", "procedural.py")


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in _SOURCES:
        h.update((here / name).read_bytes())
    for part in parts:
        h.update(part.encode())
    return h.hexdigest()[:10]


def golden_name(deck: str, reset: str, suffix: str) -> str:
    """The cache file name of a golden video."""
    return f"golden-{deck}-{reset}-{_digest(deck, reset, suffix)}{suffix}"


def golden_video(deck: str | None = None, reset: str = "turn-down", suffix: str = ".mp4",
                 cache: Path | None = None, progress: bool = False) -> tuple[Path, dict[str, Any]]:
    """The golden video (both golden deals) of ``deck`` (default: the first held-out deck here)
    with played cards kept up (``reset="keep"``) or turned down at each reset, as ``suffix``
    (``.mp4``, ``.avi`` or ``""`` for a folder of frames); rendered unless cached. Returns its
    path and its truth."""
    from vision.synth.deals import golden_script
    from vision.synth.video import _default_deck, render_video

    name = deck or _default_deck().name
    folder = cache or cache_root() / "golden"
    path = folder / golden_name(name, reset, suffix)
    truth = Path(str(path) + ".truth.json")
    if not (path.exists() and truth.exists()):
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_name("partial-" + path.name)

        def show(done: int, total: int) -> None:
            if progress and (done % 25 == 0 or done == total):
                sys.stderr.write(f"\rrendering the golden deals ({name}, {reset}): {done}/{total} frames")
                sys.stderr.flush()

        render_video(golden_script(reset), partial, deck=name, reset=reset, progress=show)
        if progress:
            sys.stderr.write("\n")
        Path(str(partial) + ".truth.json").replace(truth)
        partial.replace(path)
    return path, json.loads(truth.read_text())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.synth.golden",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", help="a held-out deck (default: the first here; procedural-7 always)")
    parser.add_argument("--reset", choices=("keep", "turn-down"), default="turn-down")
    parser.add_argument("--out", type=Path, help="copy the video (and its truth) here")
    args = parser.parse_args(argv)
    path, _ = golden_video(args.deck, args.reset, args.out.suffix if args.out else ".mp4", progress=True)
    if args.out:
        shutil.copyfile(path, args.out)
        shutil.copyfile(str(path) + ".truth.json", str(args.out) + ".truth.json")
        path = args.out
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
