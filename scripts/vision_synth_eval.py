"""Measure the card reader on freshly rendered synthetic scenes, per layout (loose, row, fan).

    nice .venv/bin/python scripts/vision_synth_eval.py --scenes 20 --seed 99

Scenes use a seed the training never used; decks are the installed standard decks (the same art
as training, so this measures layouts and conditions, not unseen decks) plus OpenCV-drawn ones.
A card counts as visible when the glyph point of one of its corner indices is on top.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.decks import available_decks, available_kde_decks, deck_cards, kde_deck_cards
from vision.drawn import drawn_deck
from vision.reader import read_cards
from vision.scenes import random_scene, top_card


def visible(scene) -> set[str]:
    """Cards with at least one corner index on top (glyph area at 10%/10% and 90%/90% of the card)."""
    out = set()
    for placed in scene.cards:
        if placed.name == "back":
            continue
        w, h = placed.size
        for u, v in ((0.1 * w, 0.1 * h), (0.9 * w, 0.9 * h)):
            p = placed.h @ np.array([u, v, 1.0])
            hit = top_card(scene, p[0] / p[2], p[1] / p[2])
            if hit and hit[0] is placed:
                out.add(placed.name)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", type=int, default=20, help="scenes per deck")
    ap.add_argument("--seed", type=int, default=99)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    decks = [(d, deck_cards) for d in available_decks()]
    decks += [(d, kde_deck_cards) for d in available_kde_decks()]
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for k, (name, loader) in enumerate([*decks, ("drawn", None)]):
        deck = drawn_deck(k % 4) if loader is None else loader(name)
        for _ in range(args.scenes):
            scene = random_scene(rng, deck, 720, 1280, n=int(rng.integers(2, 10)))
            layout = scene.layout
            truth = visible(scene)
            read = {c.card for c in read_cards(scene.image).cards}
            t = tally[layout]
            t[0] += len(truth & read)
            t[1] += len(read - truth)
            t[2] += len(truth)
        print(f"deck {name} done", flush=True)
    for layout, (tp, fp, n) in sorted(tally.items()):
        print(f"{layout:<6} cards {n:>5}  recall {tp / max(n, 1):.4f}  precision {tp / max(tp + fp, 1):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
