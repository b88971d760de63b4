"""Card-reader benchmark: time per 1280x720 frame with 12 cards, and the figures on real photos.

Run: ``.venv/bin/python benchmarks/bench_vision.py``. One OpenCV thread (``cv2.setNumThreads(1)``).
Figures the issue asks for: under 60 ms per 1280x720 frame with up to 12 cards; on
``../shared/datasets/cards-real-dev`` (read when present) card recall >= 98% and precision >= 99.5%
on the table photos and no card on any empty webcam frame.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.drawn import drawn_deck  # noqa: E402
from vision.reader import read_cards  # noqa: E402
from vision.scenes import finish, place, table  # noqa: E402

DEV = ROOT.parent / "shared" / "datasets" / "cards-real-dev"


def frame(seed: int, n: int = 12) -> tuple[np.ndarray, list[str]]:
    """A 1280x720 table with ``n`` drawn cards in two rows of loose cards."""
    rng = np.random.default_rng(seed)
    deck = drawn_deck(seed % 4)
    img = table(rng, 720, 1280)
    names = list(rng.choice([k for k in deck if k != "back"], size=n, replace=False))
    for k, name in enumerate(names):
        x = 110 + (k % 6) * 210 + rng.uniform(-20, 20)
        y = 190 + (k // 6) * 340 + rng.uniform(-20, 20)
        place(img, deck[name], (x, y), 140, float(rng.uniform(-30, 30) + 180 * (k % 2)), rng, tilt=0.04)
    return finish(img, rng), names


def main() -> int:
    cv2.setNumThreads(1)
    print(f"card-reader benchmark, one OpenCV thread, OpenCV {cv2.__version__}")
    times, cpu, tp, fp, total = [], [], 0, 0, 0
    for seed in range(10):
        img, names = frame(seed)
        read_cards(img)
        best = best_cpu = float("inf")
        for _ in range(3):
            t0, c0 = time.perf_counter(), time.process_time()
            reading = read_cards(img)
            best = min(best, (time.perf_counter() - t0) * 1000)
            best_cpu = min(best_cpu, (time.process_time() - c0) * 1000)
        times.append(best)
        cpu.append(best_cpu)
        got = {c.card for c in reading.cards}
        tp += len(got & set(names))
        fp += len(got - set(names))
        total += len(names)
    ms = float(np.median(times))
    print(f"1280x720 frame, 12 drawn cards: median {ms:.1f} ms wall, max {max(times):.1f} ms; "
          f"median CPU {float(np.median(cpu)):.1f} ms (target < 60 ms) {'OK' if ms < 60 else 'MISSED'}; "
          f"read {tp}/{total}, {fp} wrong")
    print(f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall times grow with it)")
    if not DEV.is_dir():
        print(f"{DEV} not present: real-photo figures skipped")
        return 0
    from vision.evaluate import evaluate

    report = evaluate(DEV)
    t = report["table_photos"]
    print(f"real table photos ({DEV.name}): recall {t['recall']} (target >= 0.98), "
          f"precision {t['precision']} (target >= 0.995), exact images {t['exact_images']}")
    for kind, v in report["per_kind"].items():
        print(f"  {kind:<22} images {v['images']:>5}  precision {v['precision']}  recall {v['recall']}  "
              f"exact {v['exact_images']}  ms {v['ms_mean']}")
    print(f"empty webcam frames with a card read: {report['empty_frames_with_cards']} (target 0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
