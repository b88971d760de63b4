"""Speed of the synthetic renderer: scenes per second per layout, index patches per second.

Run: ``.venv/bin/python benchmarks/bench_synth.py`` (one thread; uses the artwork decks when
installed and cached, else the OpenCV-drawn decks).
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from vision.synth.decks import procedural_deck
from vision.synth.patches import render_index_patches
from vision.synth.scene import LAYOUTS, default_decks, render_scene


def main() -> None:
    cv2.setNumThreads(1)
    decks = default_decks("train")
    print(f"decks: {len(decks)} ({decks[0].name} ...)")
    rng = np.random.default_rng(0)
    for d in decks:  # warm the face cache so the figures are the steady state
        d.master("AS")
    for layout in LAYOUTS:
        render_scene(rng, layout=layout, decks=decks)
        n = 12
        t = time.perf_counter()
        for _ in range(n):
            render_scene(rng, layout=layout, decks=decks)
        dt = (time.perf_counter() - t) / n
        print(f"render_scene {layout:7s} 1280x720: {1 / dt:6.2f} scenes/s ({dt * 1000:.0f} ms)")
    render_index_patches(rng, 64, size=32, decks=decks)
    t = time.perf_counter()
    render_index_patches(rng, 500, size=32, decks=decks)
    dt = (time.perf_counter() - t) / 500
    print(f"render_index_patches 32x32: {1 / dt:7.0f} patches/s ({dt * 1000:.2f} ms)")
    pdeck = [procedural_deck(0)]
    t = time.perf_counter()
    for _ in range(10):
        render_scene(rng, layout="row", decks=pdeck)
    print(f"render_scene row with the procedural deck: {10 / (time.perf_counter() - t):.2f} scenes/s")


if __name__ == "__main__":
    main()
