"""Starter apart: how often ``crib check`` (and the page) names the right starter from a photo.

Run: ``.venv/bin/python benchmarks/bench_starter.py [--scenes N]``. Renders N held-out scenes
(``vision.synth`` split ``val``, decks never trained on, cards 110-260 px wide, effects at half
strength) of each of two layouts, reads them, and keeps those whose cards were all read (the
rule is about where cards lie, not about reading them):

- ``hand``: four cards spread or fanned and the starter lying apart: the starter must be named;
- ``fan``: a hand of four or five spread or fanned with no card apart: no starter may be named.

For each it prints how many are right, how many name no starter (``crib check`` then gives the
count for each possible starter) and how many name a wrong one, by the rule in use
(:func:`vision.hand.starter_apart`, the cards' shapes) and by the cards' centres alone (the rule
before).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.hand import apart, starter_apart  # noqa: E402
from vision.reader import read_cards  # noqa: E402
from vision.synth.scene import render_scene  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", type=int, default=100, help="scenes read whole, per layout")
    ap.add_argument("--seed", type=int, default=1000)
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    for layout in ("hand", "fan"):
        tally = {"shapes": [0, 0, 0], "centres": [0, 0, 0]}  # right, none named, wrong
        used, seed = 0, a.seed
        while used < a.scenes and seed < a.seed + 6 * a.scenes:
            seed += 1
            scene = render_scene(np.random.default_rng(seed), layout=layout, split="val",
                                 card_width=(110, 260), effects=0.5)
            truth = [c.card for c in scene.cards]
            if len(truth) not in (4, 5):
                continue
            reading = read_cards(scene.image)
            names = [c.card.name for c in reading.cards]
            if sorted(names) != sorted(truth):
                continue
            used += 1
            want = scene.cards[-1].card if layout == "hand" else None
            for rule, k in (("shapes", starter_apart(reading.cards)),
                            ("centres", apart([c.center for c in reading.cards]))):
                got = names[k] if k is not None else None
                tally[rule][0 if got == want else 1 if got is None else 2] += 1
        what = "starter apart" if layout == "hand" else "no card apart"
        print(f"{layout} ({what}), {used} scenes read whole:")
        for rule, (right, none, wrong) in tally.items():
            print(f"  by {rule:<7} right {right}, no starter named {none}, wrong starter {wrong}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
