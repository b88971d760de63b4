"""Measure the reader on a folder of labelled photos (``labels.json`` as in ``cards-real-dev``).

Card precision and recall, exact-image rate per ``kind`` and per ``group`` (near-duplicates share a
group, so figures are also given with every group weighted once), confusions, time per image, and
a report of every miss: the photo with what was read drawn on it, plus ``index.html``. Recall is
also given per rank and per suit (which of a deck's glyphs the reader finds hardest).

>>> compare(["5H", "TC"], ["5H", "TD"])
(1, 1, 1, [('TC', 'TD')])
>>> by_glyph({"7": [1, 3], "A": [2, 2]})
{'7': {'cards': 3, 'recall': 0.3333}, 'A': {'cards': 2, 'recall': 1.0}}
"""

from __future__ import annotations

import html
import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from cribbage.cards import RANKS, SUITS
from vision.cnn import CARDS
from vision.errors import ImageError, LabelsError
from vision.reader import Reading, load_image, read_cards


def load_labels(folder: Path) -> dict[str, dict[str, Any]]:
    """``folder/labels.json``: image path (relative to the folder) → record with ``cards`` (a list
    of card names such as ``TC``; ``[]`` for no card) and optionally ``kind`` and ``group``.
    Anything else is refused with :class:`LabelsError`, naming the place, before any image is read.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "labels.json").write_text('{"a.jpg": {"cards": ["5H", "XX"]}}')
    >>> load_labels(d)
    Traceback (most recent call last):
    ...
    vision.errors.LabelsError: labels.json: "a.jpg": "XX" is not a card (rank A23456789TJQK, suit SHDC: "TC")
    """
    path = folder / "labels.json"
    try:
        labels = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LabelsError(f"{folder}: no labels.json there") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LabelsError(f"{path}: cannot be read ({exc})") from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise LabelsError(f"labels.json: not JSON ({exc.msg}, {where})") from None
    if not isinstance(labels, dict):
        raise LabelsError("labels.json: must be an object of image path → record")
    for name, rec in labels.items():
        if not isinstance(rec, dict):
            raise LabelsError(f'labels.json: "{name}": its record must be an object with "cards"')
        cards = rec.get("cards", [])
        if not isinstance(cards, list):
            raise LabelsError(f'labels.json: "{name}": "cards" must be a list of cards')
        for card in cards:
            if card not in CARDS:
                raise LabelsError(f'labels.json: "{name}": {json.dumps(card)} is not a card '
                                  f'(rank {RANKS}, suit {SUITS}: "TC")')
        for key in ("kind", "group"):
            if key in rec and not isinstance(rec[key], str):
                raise LabelsError(f'labels.json: "{name}": "{key}" must be a string')
    return labels


def by_glyph(hits: dict[str, list[int]]) -> dict[str, dict[str, Any]]:
    """Recall per rank or suit from ``{glyph: [cards read, cards labelled]}``."""
    return {g: {"cards": n, "recall": round(h / n, 4) if n else None} for g, (h, n) in hits.items()}


def compare(truth: list[str], read: list[str]) -> tuple[int, int, int, list[tuple[str, str]]]:
    """True positives, false positives, misses, and (true, read) confusions paired in order."""
    t, r = set(truth), set(read)
    missed = sorted(t - r)
    extra = sorted(r - t)
    return len(t & r), len(extra), len(missed), list(zip(missed, extra, strict=False))


def count(x: float) -> int | float:
    """A (possibly weighted) count as the report prints it: a whole number as an ``int``.

    Counts of images and cards are whole unless weighted by group (1/len(group) each).

    >>> count(5.0), count(2.9999999999), count(1 / 3)
    (5, 3, 0.33)
    """
    whole = round(x)
    return whole if abs(x - whole) < 1e-6 else round(x, 2)


@dataclass
class Tally:
    """Counts for one kind or group (``w`` = weight of each image, 1/len(group) for group-weighting)."""

    tp: float = 0.0
    fp: float = 0.0
    fn: float = 0.0
    images: float = 0.0
    exact: float = 0.0
    ms: list[float] = field(default_factory=list)

    def add(self, tp: int, fp: int, fn: int, ms: float, w: float = 1.0) -> None:
        self.tp += tp * w
        self.fp += fp * w
        self.fn += fn * w
        self.images += w
        self.exact += w * (fp == 0 and fn == 0)
        self.ms.append(ms)

    def to_json(self) -> dict[str, Any]:
        prec = self.tp / (self.tp + self.fp) if self.tp + self.fp else None
        rec = self.tp / (self.tp + self.fn) if self.tp + self.fn else None
        return {
            "images": count(self.images),
            "precision": None if prec is None else round(prec, 4),
            "recall": None if rec is None else round(rec, 4),
            "false_cards": count(self.fp),
            "exact_images": round(self.exact / self.images, 4) if self.images else None,
            "ms_mean": round(float(np.mean(self.ms)), 1) if self.ms else None,
            "ms_max": round(float(np.max(self.ms)), 1) if self.ms else None,
        }


def draw(img: np.ndarray, reading: Reading, truth: list[str]) -> np.ndarray:
    """The photo with every card read (green if right, red if wrong) and unreadables (orange)."""
    out = img.copy()
    f = max(0.5, max(img.shape[:2]) / 1000)
    for c in reading.cards:
        colour = (0, 200, 0) if c.card.name in truth else (0, 0, 255)
        if c.quad:
            cv2.polylines(out, [np.int32(c.quad)], True, colour, max(1, int(2 * f)))
        x, y = int(c.center[0]), int(c.center[1])
        cv2.putText(out, f"{c.card} {c.confidence:.2f}", (x, y), cv2.FONT_HERSHEY_SIMPLEX, f, (0, 0, 0),
                    int(4 * f))
        cv2.putText(out, f"{c.card} {c.confidence:.2f}", (x, y), cv2.FONT_HERSHEY_SIMPLEX, f, colour,
                    max(1, int(2 * f)))
    for u in reading.unreadable:
        cv2.circle(out, (int(u.center[0]), int(u.center[1])), int(20 * f), (0, 140, 255), max(1, int(2 * f)))
    missed = sorted(set(truth) - {c.card.name for c in reading.cards})
    cv2.putText(out, "missed: " + " ".join(missed), (10, int(30 * f)), cv2.FONT_HERSHEY_SIMPLEX, f,
                (0, 0, 255), max(1, int(2 * f)))
    return out


def evaluate(folder: Path, out: Path | None = None, log: Any = None) -> dict[str, Any]:
    """Read every labelled image in ``folder``; the figures as a dict; miss report into ``out``."""
    labels = load_labels(folder)
    groups = Counter(rec.get("group", name) for name, rec in labels.items())
    kinds: dict[str, Tally] = defaultdict(Tally)
    kinds_g: dict[str, Tally] = defaultdict(Tally)
    per_group: dict[str, Tally] = defaultdict(Tally)
    confusions: Counter[tuple[str, str]] = Counter()
    misses: list[dict[str, Any]] = []
    ranks: dict[str, list[int]] = {r: [0, 0] for r in RANKS}
    suits: dict[str, list[int]] = {s: [0, 0] for s in SUITS}
    webcam_with_cards: list[dict[str, Any]] = []
    empty_with_unreadable = 0
    unreadable_marks = 0
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    for k, (name, rec) in enumerate(sorted(labels.items())):
        truth = list(rec.get("cards", []))
        kind = rec.get("kind", "unknown")
        group = rec.get("group", name)
        try:
            img = load_image(folder / name)
        except ImageError as exc:
            misses.append({"image": name, "error": str(exc)})
            continue
        t0 = time.perf_counter()
        reading = read_cards(img)
        ms = (time.perf_counter() - t0) * 1000
        read = [c.card.name for c in reading.cards]
        tp, fp, fn, conf = compare(truth, read)
        for card in set(truth):
            for tally in (ranks[card[0]], suits[card[1]]):
                tally[0] += card in read
                tally[1] += 1
        confusions.update(conf)
        kinds[kind].add(tp, fp, fn, ms)
        kinds_g[kind].add(tp, fp, fn, ms, 1 / groups[group])
        per_group[group].add(tp, fp, fn, ms)
        unreadable_marks += len(reading.unreadable)
        if not truth and reading.unreadable:
            empty_with_unreadable += 1
        if kind.startswith("webcam") and read:
            webcam_with_cards.append({"image": name, "truth": truth, "read": read})
        if fp or fn:
            entry = {"image": name, "kind": kind, "group": group, "truth": sorted(truth),
                     "read": sorted(read), "missed": sorted(set(truth) - set(read)),
                     "extra": sorted(set(read) - set(truth))}
            if out is not None:
                png = name.replace("/", "__").rsplit(".", 1)[0] + ".png"
                vis = draw(img, reading, truth)
                s = min(1.0, 1000 / max(vis.shape[:2]))
                cv2.imwrite(str(out / png), cv2.resize(vis, None, fx=s, fy=s, interpolation=cv2.INTER_AREA))
                entry["png"] = png
            misses.append(entry)
        if log is not None and (k + 1) % 50 == 0:
            log(f"{k + 1}/{len(labels)} images")
    table_kinds = [k for k in kinds if k.startswith("photo")]
    tables = Tally()
    for k in table_kinds:
        t = kinds[k]
        tables.tp += t.tp
        tables.fp += t.fp
        tables.fn += t.fn
        tables.images += t.images
        tables.exact += t.exact
        tables.ms += t.ms
    all_ms = [m for t in kinds.values() for m in t.ms]
    report = {
        "folder": str(folder),
        "images": len(labels),
        "table_photos": tables.to_json(),
        "per_kind": {k: v.to_json() for k, v in sorted(kinds.items())},
        "per_kind_group_weighted": {k: v.to_json() for k, v in sorted(kinds_g.items())},
        "per_group": {k: v.to_json() for k, v in sorted(per_group.items())},
        "per_rank": by_glyph(ranks),
        "per_suit": by_glyph(suits),
        "unopened": [m for m in misses if "error" in m],
        "confusions": [{"true": a, "read": b, "n": n} for (a, b), n in confusions.most_common()],
        "webcam_frames_with_cards_read": len(webcam_with_cards),
        "empty_frames_with_cards": sum(1 for w in webcam_with_cards if not w["truth"]),
        "empty_images_with_unreadable": empty_with_unreadable,
        "unreadable_marks": unreadable_marks,
        "ms_per_image_mean": round(float(np.mean(all_ms)), 1) if all_ms else None,
        "misses": misses,
    }
    if out is not None:
        (out / "report.json").write_text(json.dumps(report, indent=1))
        rows = "\n".join(
            f"<tr><td>{html.escape(m['image'])}</td><td>{html.escape(m.get('kind', ''))}</td>"
            f"<td>{' '.join(m.get('truth', []))}</td><td>{' '.join(m.get('read', []))}</td>"
            f"<td>{' '.join(m.get('missed', []))}</td><td>{' '.join(m.get('extra', []))}</td>"
            f"<td>{html.escape(m.get('error', ''))}"
            + (f"<a href='{m['png']}'><img src='{m['png']}' height=160></a>" if "png" in m else "")
            + "</td></tr>"
            for m in misses
        )
        (out / "index.html").write_text(
            "<!doctype html><meta charset=utf-8><title>card reader misses</title>"
            f"<h1>{len(misses)} images with a miss</h1><pre>{html.escape(json.dumps(report['table_photos']))}"
            "</pre><table border=1><tr><th>image<th>kind<th>truth<th>read<th>missed<th>extra<th>photo</tr>"
            f"{rows}</table>"
        )
    return report
