"""``crib camera check``: its time per 1280x720 frame and its verdicts on frames of each kind.

Run: ``.venv/bin/python benchmarks/bench_camera_check.py [--tuning] [--seeds 1,2,3]``. One thread
(OpenCV's too). Renders a good two-player table for each seed (decks and tables as the tests use,
``vision.synth.setup_frames``) and its faults (too dark, out of focus, the camera three times too
high, glare, flicker, tilted, over-exposed), checks each and prints, one line a frame, the ms,
the cards seen and read, and each check's verdict and value, marking a verdict that is not the
one wanted. ``--tuning`` runs the frames the thresholds were chosen on instead (seeds 100-109,
other decks and tables; the artwork decks need ``gnome-cards-data``/``kdegames-card-data-kf5``).
Ends with the time per frame (mean, p95, max) and the count of wrong verdicts.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.camera.check import check_frames  # noqa: E402
from vision.synth import setup_frames as sf  # noqa: E402

TESTS = [("procedural-7", "wood_dark"), ("procedural-5", "wood_light"), ("procedural-4", "denim")]
TUNING = [("procedural-0", "wood_dark"), ("procedural-1", "wood_light"), ("procedural-2", "felt"),
          ("procedural-3", "cloth"), ("ar-paris", "laminate"), ("kde-standard", "playmat"),
          ("ar-anglo", "maple"), ("ar-tango", "wood_dark"), ("ar-bellot", "wood_light"),
          ("procedural-6", "gradient")]
WANTED = {"good": None, "exposed": None, "dark": "light", "blurred": "focus", "high": "distance",
          "glare": "glare", "flicker": "flicker", "tilted": "tilt", "bright": "light"}


def faults(img: np.ndarray, width: float, table: str) -> dict[str, list[np.ndarray]]:
    """Each kind of frame, as the tests make them."""
    return {
        "good": [img], "exposed": [sf.too_bright(img, 0.8)], "dark": [sf.too_dark(img, 0.3)],
        "blurred": [sf.out_of_focus(img, 0.03 * width)], "high": [sf.too_high(img, 3, table=table)],
        "glare": [sf.glare(img, (640, 360), 0.6 * width)], "flicker": sf.flickering(img, 10),
        "tilted": [sf.tilted(img, 0.6)], "bright": [sf.too_bright(img, 3.0)],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tuning", action="store_true", help="the frames the thresholds were chosen on")
    ap.add_argument("--seeds", default=None, help="comma separated (default: 1,2,3; 100-109 with --tuning)")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    sets = TUNING if a.tuning else TESTS
    first = 100 if a.tuning else 1
    seeds = [int(s) for s in a.seeds.split(",")] if a.seeds else list(range(first, first + len(sets)))
    check_frames([sf.good_frame(seeds[0], *sets[0])[0]])  # load the networks before timing
    times, wrong, total = [], 0, 0
    for k, seed in enumerate(seeds):
        deck, table = sets[k % len(sets)]
        img, width = sf.good_frame(seed, deck, table, tilt=0.08)
        print(f"seed {seed}: {deck} on {table}, cards {width:.0f} px wide", flush=True)
        for kind, frames in faults(img, width, table).items():
            r = check_frames(frames)
            times.append(r.ms)  # one reading a check, however many frames
            failed = {c.name for c in r.checks if not c.ok}
            want = WANTED[kind]
            right = not failed if want is None else want in failed
            wrong += not right
            total += 1
            marks = " ".join(f"{c.name}{'✓' if c.ok else '✗'}"
                             f"{'' if c.value is None else format(c.value, '.3g')}" for c in r.checks)
            print(f"  {kind:<8} {r.ms:6.0f} ms  cards {r.cards}/{r.read} read  {marks}"
                  f"{'' if right else '   <- wanted ' + (want or 'all passed')}", flush=True)
    ms = np.array(times)
    print(f"{total} frames: {ms.mean():.0f} ms a frame mean, p95 {np.percentile(ms, 95):.0f}, "
          f"max {ms.max():.0f} (one thread); {wrong} verdicts not the one wanted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
