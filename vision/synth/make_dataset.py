"""Write a synthetic dataset: JPEG images + ``labels.json`` in the shared real-photo format.

``python -m vision.synth.make_dataset --out DIR --n N --seed S [--split train|val]``

Each record has the shared fields (``cards``, ``kind``, ``group``, ``width``, ``height``,
``scene``, ``deck``, ``overlap``, ``n_cards``) plus ``layout``, ``table`` and ``card_truth``
(per card: ``quad``, visible ``indices`` quads, ``visible_fraction``), so ``crib vision eval DIR``
can score a reader on it. Image i is rendered from ``default_rng([seed, i])``: the same command
gives the same files.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.synth.scene import LAYOUTS, default_decks, render_scene

WEIGHTS = {"single": 0.22, "row": 0.2, "fan": 0.18, "hand": 0.18, "crop": 0.1, "empty": 0.12, "backs": 0.12}
# the sets' layouts unless asked: "backs" (face-down cards, printed backs) is made for training
DEFAULT_LAYOUTS = ("single", "row", "fan", "hand", "crop", "empty")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.synth.make_dataset", description=__doc__)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--n", required=True, type=int)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split", choices=["train", "val"], default="train")
    ap.add_argument("--layouts", default=",".join(DEFAULT_LAYOUTS),
                    help=f"comma-separated, of {', '.join(LAYOUTS)}")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    try:
        args = ap.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    layouts = [x for x in args.layouts.split(",") if x]
    bad = [x for x in layouts if x not in LAYOUTS]
    if bad or args.n < 1 or args.width < 64 or args.height < 64:
        print(f"make_dataset: bad arguments (layouts {bad or 'ok'}, n={args.n})", file=sys.stderr)
        return 2
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"make_dataset: cannot create {args.out}: {exc}", file=sys.stderr)
        return 2
    decks = default_decks(args.split)
    p = np.array([WEIGHTS[x] for x in layouts])
    p = p / p.sum()
    labels: dict[str, dict[str, object]] = {}
    t0 = time.perf_counter()
    for i in range(args.n):
        rng = np.random.default_rng([args.seed, i])
        layout = str(rng.choice(layouts, p=p))
        scene = render_scene(rng, layout=layout, size=(args.width, args.height), decks=decks)
        name = f"{args.split}_{args.seed}_{i:06d}.jpg"
        cv2.imwrite(str(args.out / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        rec = scene.to_dict()
        rec["group"] = f"synth-{args.seed}-{i}"
        rec["scene"] = f"synthetic {layout} on {scene.table}"
        rec["label_source"] = "vision.synth render (exact)"
        labels[name] = rec
        if (i + 1) % 20 == 0 or i + 1 == args.n:
            el = time.perf_counter() - t0
            print(f"[{i + 1}/{args.n}] {el:.1f}s, {(i + 1) / el:.2f} scenes/s", flush=True)
    (args.out / "labels.json").write_text(json.dumps(labels, indent=1, sort_keys=True))
    print(f"wrote {args.n} images and labels.json to {args.out} ({len(decks)} decks, split {args.split})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
