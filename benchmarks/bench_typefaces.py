"""Typeface benchmark: how the card reader reads decks whose ranks are set in faces it never saw.

Run: ``.venv/bin/python benchmarks/bench_typefaces.py [--limit N] [--match TEXT] [--training] [--teach]``.

Issue 4 asks for any standard deck, and a deck differs from another first in the typeface of its
corner index. The network was trained on 18 artwork decks and on drawn decks whose ranks are set
in 12 DejaVu and Liberation faces (``vision.synth.procedural.FONT_FILES``). This benchmark draws
the same kind of deck with its ranks set in every *other* upright text face installed here, and
reads each of its 52 cards on a 1280x720 table photo: 12 cards a frame, 100-160 px wide, at any
angle, on the synthetic tables, with a light gradient, a colour cast, sometimes glare, slight blur,
noise and JPEG (``vision.synth.compose.finish``). Two decks per face (the drawn styles'
papers, inks, gaps and pip sizes differ), so 104 cards a face.

The faces come from Debian packages, none of them used in training (install some first):

    apt-get install fonts-urw-base35 fonts-texgyre fonts-freefont-ttf fonts-linuxlibertine \\
        fonts-ebgaramond fonts-crosextra-caladea fonts-crosextra-carlito fonts-roboto-unhinted \\
        fonts-open-sans fonts-lato fonts-cantarell fonts-go fonts-adf-accanthis fonts-adf-gillius \\
        fonts-adf-universalis

Italic, oblique, hairline, thin, symbol, mathematics, script and keyboard-key faces are left out
(a deck's index is upright text). Several are related designs (TeX Gyre Termes and Nimbus Roman
are both Times), so the faces are not all independent (a face is marked "kin" when its design is
one trained on).
The figures per face and in all: recall (cards read right), wrong cards, and which rank or suit
was read for which. With ``--teach``, each face under 0.98 or with a wrong card is read again with
its decks taught from four photos of their suits (``crib vision teach``, optional for a player):
what a player whose deck the network reads hesitantly can do about it.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cribbage.cards import RANKS  # noqa: E402
from vision.cnn import CARDS, MODEL_CARDS  # noqa: E402
from vision.reader import read_cards  # noqa: E402
from vision.synth.compose import finish, place, suit_photos, table_image  # noqa: E402
from vision.synth.decks import ProceduralDeck  # noqa: E402
from vision.synth.procedural import FONT_FILES, N_STYLES, font_files  # noqa: E402
from vision.taught import TaughtDeck  # noqa: E402
from vision.teach import teach  # noqa: E402

FACE_DIRS = (Path("/usr/share/fonts"), Path("/usr/share/texmf/fonts/opentype"))
# not upright text: italics and obliques, symbols, mathematics, a script (Chorus, Z003), dingbats
# (D050000L), a keyboard-key face (Linux Biolinum K), hairline and thin weights (no deck prints its
# index so thin)
NOT_TEXT = re.compile(r"ital|ita\.|oblique|obl\b|It\.|_R?B?I\.|_RZI|symbol|math|chorus|z003|d050000l|_K\.|"
                      r"dingbat|emoji|hairline|thin", re.IGNORECASE)
# faces of one design under several names (URW's clones of the PostScript faces, their TeX Gyre
# and FreeFont derivatives): a face is "kin" of a training face when their designs are one
KIN = {
    "nimbusroman": "times", "texgyretermes": "times", "freeserif": "times",
    "nimbussans": "helvetica", "nimbussansnarrow": "helvetica", "texgyreheros": "helvetica",
    "texgyreheroscn": "helvetica", "freesans": "helvetica",
    "nimbusmonops": "courier", "texgyrecursor": "courier", "freemono": "courier",
    "urwbookman": "bookman", "texgyrebonum": "bookman", "c059": "schoolbook", "texgyreschola": "schoolbook",
    "p052": "palatino", "texgyrepagella": "palatino",
    "urwgothic": "avantgarde", "texgyreadventor": "avantgarde",
    "robotocondensed": "roboto", "linbiolinum": "libertine", "linlibertine": "libertine",
}
PER_FRAME = 12
STYLES = (N_STYLES, N_STYLES + 1)  # two drawn layouts a face


def held_out_faces(dirs: tuple[Path, ...] = FACE_DIRS) -> list[str]:
    """Every installed upright text face (``.ttf``/``.otf``) but the training faces, sorted by file
    name.

    >>> [bool(NOT_TEXT.search(f)) for f in ("C059-Bold.otf", "C059-BdIta.otf", "LinBiolinum_K.otf")]
    [False, True, True]
    """
    found: dict[str, str] = {}
    for d in dirs:
        if d.is_dir():
            for f in sorted(d.rglob("*")):
                if f.suffix.lower() in (".ttf", ".otf") and f.name not in FONT_FILES \
                        and not NOT_TEXT.search(f.name):
                    found.setdefault(f.name, str(f))
    return [found[k] for k in sorted(found, key=str.lower)]


def design(face: str) -> str:
    """The design a face file is cut from: its family, its kin folded together.

    >>> design("texgyretermes-bold.otf"), design("NimbusRoman-Regular.otf"), design("Lato-Black.ttf")
    ('times', 'times', 'lato')
    >>> design("GilliusADFNo2-Cond.otf"), design("EBGaramond08-Regular.otf"), design("DejaVuSerif.ttf")
    ('gillius', 'ebgaramond', 'dejavu')
    """
    family = re.split(r"[-_.]", Path(face).name)[0].lower()
    for prefix in ("dejavu", "liberation", "accanthis", "gillius", "universalis", "ebgaramond"):
        if family.startswith(prefix):
            return prefix
    return KIN.get(family, family)


def frames(deck: ProceduralDeck, rng: np.random.Generator) -> list[tuple[np.ndarray, list[str]]]:
    """The deck's 52 cards shuffled into 1280x720 table photos of ``PER_FRAME`` cards (the last
    with 4), each card 100-160 px wide at any angle, in a grid with some play."""
    names = [str(c) for c in rng.permutation(MODEL_CARDS)]
    out = []
    for k in range(0, len(names), PER_FRAME):
        img = table_image(rng, 720, 1280, None)
        chunk = names[k:k + PER_FRAME]
        for j, name in enumerate(chunk):
            x = 115 + (j % 6) * 210 + rng.uniform(-15, 15)
            y = 190 + (j // 6) * 340 + rng.uniform(-15, 15)
            place(img, deck.render(name, 320), (x, y), float(rng.uniform(100, 160)),
                  float(rng.uniform(0, 360)), rng, tilt=0.04)
        out.append((finish(img, rng), chunk))
    return out


def read_face(face: str, seed: int, taught: list[TaughtDeck] | None = None,
              ranks: Counter[str] | None = None) -> tuple[int, int, int, Counter[tuple[str, str]]]:
    """Cards laid, cards read right, cards read wrong, and (true, read) of the wrong ones, for the
    two decks in ``face`` (read with each deck ``taught``, one per drawn style, when given); the
    ranks of the cards read right are added to ``ranks``."""
    rng = np.random.default_rng(seed)
    laid = right = wrong = 0
    confused: Counter[tuple[str, str]] = Counter()
    for k, style in enumerate(STYLES):
        for img, names in frames(ProceduralDeck(style, face=face), rng):
            read = [c.card.name for c in read_cards(img, deck=None if taught is None else taught[k]).cards]
            hits = set(read) & set(names)
            laid += len(names)
            right += len(hits)
            if ranks is not None:
                ranks.update(c[0] for c in hits)
            extra = [c for c in read if c not in names]
            wrong += len(extra)
            missed = [c for c in names if c not in read]
            for c in extra:  # pair a wrong card with a missed one of the same rank or suit, if any
                twin = next((m for m in missed if m[0] == c[0] or m[1] == c[1]), None)
                if twin is not None:
                    missed.remove(twin)
                confused[(twin or "--", c)] += 1
    return laid, right, wrong, confused


def taught_decks(face: str) -> list[TaughtDeck]:
    """Each of the face's two decks taught (``crib vision teach``) from four photos of its suits,
    13 cards apart in each, as a player would photograph a deck once."""
    return [teach(suit_photos(ProceduralDeck(style, face=face)), cards=CARDS).deck for style in STYLES]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=0, help="read only the first N faces")
    ap.add_argument("--match", default="", help="only faces whose file name holds this text")
    ap.add_argument("--training", action="store_true",
                    help="read the training faces instead (for reference: they should all read)")
    ap.add_argument("--seed", type=int, default=1, help="added to each face's own seed (from its name)")
    ap.add_argument("--teach", action="store_true",
                    help="also read each face under 0.98 or with a wrong card again, its decks taught")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    faces = font_files() if args.training else held_out_faces()
    faces = [f for f in faces if args.match.lower() in Path(f).name.lower()]
    if args.limit:
        faces = faces[:args.limit]
    if not faces:
        print("no faces to read: install some font packages (see this file's docstring)")
        return 0
    trained = {design(f) for f in font_files()}
    print(f"typeface benchmark: {len(faces)} {'training' if args.training else 'held-out'} faces, "
          f"{len(STYLES) * 52} cards each, 1280x720 frames of {PER_FRAME}, cards 100-160 px at any angle; "
          f"'kin' marks a face of a design trained on under another name")
    t0 = time.perf_counter()
    totals: dict[str, Counter[str]] = {"unseen": Counter(), "kin": Counter(), "taught": Counter()}
    confused: Counter[tuple[str, str]] = Counter()
    by_rank: Counter[str] = Counter()
    for face in faces:
        name = Path(face).name
        seed = args.seed + zlib.crc32(name.encode()) % 10_000
        laid, right, wrong, conf = read_face(face, seed, ranks=by_rank)
        group = "kin" if design(face) in trained else "unseen"
        weak = right / laid < 0.98 or wrong > 0
        totals[group].update(laid=laid, right=right, wrong=wrong, faces=1, weak=int(weak))
        confused.update(conf)
        shown = ", ".join(f"{a}->{b}" + (f" x{n}" if n > 1 else "") for (a, b), n in conf.most_common(4))
        kin = "kin" if group == "kin" else ""
        print(f"  {name:38s} {kin:3s} recall {right / laid:.3f}  wrong {wrong:2d}  {shown}", flush=True)
        if args.teach and weak:
            t_laid, t_right, t_wrong, _ = read_face(face, seed, taught_decks(face))
            totals["taught"].update(laid=laid, right=right, wrong=wrong, t_right=t_right, t_wrong=t_wrong)
            print(f"  {'':38s}     taught: recall {t_right / t_laid:.3f}  wrong {t_wrong:2d}", flush=True)
    t = totals.pop("taught")
    if t["laid"]:
        before, after = t["right"] / t["laid"], t["t_right"] / t["laid"]
        print(f"the weak faces taught: recall {before:.4f} -> {after:.4f}, "
              f"wrong cards {t['wrong']} -> {t['t_wrong']}")
    for group, t in totals.items():
        if t["faces"]:
            what = "designs not trained on" if group == "unseen" else "kin designs"
            precision = t["right"] / max(1, t["right"] + t["wrong"])
            print(f"{t['faces']} faces of {what}: {t['laid']} cards, recall {t['right'] / t['laid']:.4f}, "
                  f"precision {precision:.4f} ({t['wrong']} wrong); {t['weak']} faces under 0.98 or with "
                  f"a wrong card")
    ranks: Counter[tuple[str, str]] = Counter()
    suits: Counter[tuple[str, str]] = Counter()
    for (a, b), n in confused.items():
        if a[0] != b[0]:
            ranks[(a[0], b[0])] += n
        if a[1] != b[1]:
            suits[(a[1], b[1])] += n
    for what, pairs in (("ranks", ranks), ("suits", suits)):
        shown = ", ".join(f"{a}->{b} x{n}" for (a, b), n in pairs.most_common(8))
        print(f"{what} read wrong (true->read, '-' a card not laid): {shown or 'none'}")
    each = len(faces) * len(STYLES) * 4
    print("recall by rank: " + " ".join(f"{r} {by_rank[r] / each:.3f}" for r in RANKS))
    print(f"{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
