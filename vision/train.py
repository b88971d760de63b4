"""Train the corner-index classifiers on synthetic scenes rendered from the installed decks.

    nice python -m vision.train --scenes 100 --epochs 40 --seed 3   # the committed model (~7 min)

prints progress per deck and per epoch. Reproducible (fixed seed). The model is two small MLPs
(rank glyph: A-K or none; suit pip: C D H S or none) stored as numpy arrays in one ``.npz``.

>>> label_for_index(0.1, 0.1, 0.1, 0.22)
True
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.decks import available_decks, available_kde_decks, deck_cards, kde_deck_cards
from vision.drawn import FONTS, drawn_deck
from vision.index import find_indices
from vision.mlp import Mlp
from vision.scenes import random_scene, top_card

RANKS = [*list("A23456789TJQK"), "none"]
SUITS = [*list("CDHS"), "none"]


def label_for_index(ur: float, vr: float, us: float, vs: float) -> bool:
    """True when glyph at (ur, vr) and pip at (us, vs) (card fractions) form a corner index."""
    if ur < 0.22 and vr < 0.3 and us < 0.22 and vs < 0.36 and vs > vr:
        return True
    return ur > 0.78 and vr > 0.7 and us > 0.78 and vs > 0.64 and vs < vr


def samples(scenes: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rank and suit features with labels from ``scenes`` scenes per deck."""
    rng = np.random.default_rng(seed)
    rx, ry, sx, sy = [], [], [], []
    decks = available_decks() + [f"kde-{d}" for d in available_kde_decks()]
    decks += [f"drawn{f}" for f in range(len(FONTS))]
    if len(decks) == len(FONTS):
        print("no card decks installed (apt install gnome-cards-data librsvg2-bin): drawn cards only")
    for di, name in enumerate(decks):
        t0 = time.time()
        if name.startswith("drawn"):
            deck = drawn_deck(int(name[5:]))
        elif name.startswith("kde-"):
            deck = kde_deck_cards(name[4:])
        else:
            deck = deck_cards(name)
        npos = 0
        for _ in range(scenes):
            big = rng.random() < 0.3
            h, w = (480, 640) if big else (720, 960)
            scene = random_scene(rng, deck, h, w, n=int(rng.integers(1, 4) if big else rng.integers(2, 10)))
            for cand in find_indices(scene.image):
                tr = top_card(scene, *cand.rank_pos)
                ts = top_card(scene, *cand.suit_pos)
                ok = False
                if tr and ts and tr[0] is ts[0] and tr[0].name != "back":
                    cw, chh = tr[0].size
                    ok = label_for_index(tr[1] / cw, tr[2] / chh, ts[1] / cw, ts[2] / chh)
                if ok:
                    assert tr is not None
                    rx.append(cand.rank_feat)
                    ry.append(RANKS.index(tr[0].name[0]))
                    sx.append(cand.suit_feat)
                    sy.append(SUITS.index(tr[0].name[1]))
                    npos += 1
                elif rng.random() < 0.2:
                    rx.append(cand.rank_feat)
                    ry.append(RANKS.index("none"))
                    if ts is None or ts[0].name == "back":
                        sx.append(cand.suit_feat)
                        sy.append(SUITS.index("none"))
        print(f"deck {di + 1}/{len(decks)} {name}: {npos} indices, {len(rx)} rank samples so far "
              f"({time.time() - t0:.0f} s)", flush=True)
    return (np.array(rx, np.float32), np.array(ry), np.array(sx, np.float32), np.array(sy))


def main(argv: list[str] | None = None) -> int:
    """Build the training set, train both classifiers, save them."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", type=int, default=60, help="scenes per deck")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "models" / "index_mlp.npz")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rx, ry, sx, sy = samples(args.scenes, args.seed)
    rng = np.random.default_rng(args.seed)
    print(f"rank samples {len(rx)} (none {int((ry == 13).sum())}), suit samples {len(sx)}", flush=True)
    rank = Mlp.new(rx.shape[1], 96, RANKS, rng)
    print("training rank classifier", flush=True)
    rank.fit(rx, ry, args.epochs, rng)
    suit = Mlp.new(sx.shape[1], 48, SUITS, rng)
    print("training suit classifier", flush=True)
    suit.fit(sx, sy, args.epochs, rng)
    store: dict = {}
    rank.save(args.out, "rank", store)
    suit.save(args.out, "suit", store)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **store)
    print(f"saved {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
