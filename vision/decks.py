"""Card art for training: render installed SVG decks once into a cache, cut into single cards.

Decks come from Debian ``gnome-cards-data`` (``/usr/share/aisleriot/cards``, GPL): each file is one
sprite sheet of 13 columns by 5 rows (clubs, diamonds, hearts, spades, then jokers and back).
Rendered PNGs go to ``~/.cache/cribbage-companion/decks`` (never into the repository).

>>> [d for d in STANDARD_DECKS][:2]
['anglo', 'anglo_bitmap']
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np

AISLERIOT = Path("/usr/share/aisleriot/cards")
CACHE = Path.home() / ".cache" / "cribbage-companion" / "decks"
# Decks with the usual corner index (rank glyph over suit pip, A 2-10 J Q K); French-letter,
# German/Swiss-suit, tarot, 4-colour and index-less decks are left out.
STANDARD_DECKS = [
    "anglo", "anglo_bitmap", "anglo_modern", "anglo_poker", "bellot", "dondorf", "gnomangelo",
    "neoclassical", "ornamental", "plastic", "simplistic", "tango",
]
SUIT_ROWS = "CDHS"
RANK_COLS = "A23456789TJQK"


def render_deck(name: str, width: int = 2600) -> Path:
    """The deck's sprite sheet rendered to PNG in the cache (rendered once, with rsvg-convert)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    out = CACHE / f"{name}.png"
    if not out.exists():
        exe = shutil.which("rsvg-convert")
        if exe is None:
            raise RuntimeError("rsvg-convert is missing: apt install librsvg2-bin")
        subprocess.run([exe, "-w", str(width), str(AISLERIOT / f"{name}.svgz"), "-o", str(out)], check=True)
    return out


def available_decks() -> list[str]:
    """The standard decks installed on this machine."""
    return [d for d in STANDARD_DECKS if (AISLERIOT / f"{d}.svgz").exists()]


def deck_cards(name: str) -> dict[str, np.ndarray]:
    """Card name (``"5H"``) → BGRA image of that card, cut from the rendered sheet; ``"back"`` too."""
    sheet = cv2.imread(str(render_deck(name)), cv2.IMREAD_UNCHANGED)
    if sheet.shape[2] == 3:
        sheet = cv2.cvtColor(sheet, cv2.COLOR_BGR2BGRA)
    h, w = sheet.shape[:2]
    cw, ch = w / 13, h / 5
    cards: dict[str, np.ndarray] = {}
    for r, suit in enumerate(SUIT_ROWS):
        for col, rank in enumerate(RANK_COLS):
            cell = sheet[int(r * ch) : int((r + 1) * ch), int(col * cw) : int((col + 1) * cw)]
            cards[rank + suit] = _trim(cell)
    cards["back"] = _trim(sheet[int(4 * ch) : int(5 * ch), int(2 * cw) : int(3 * cw)])
    return cards


def _trim(cell: np.ndarray) -> np.ndarray:
    """The cell cropped to its opaque pixels."""
    ys, xs = np.nonzero(cell[:, :, 3] > 20)
    if len(xs) == 0:
        return cell
    return cell[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()


KDE = Path("/usr/share/carddecks")
# kdegames-card-data-kf5 decks (GPL/LGPL) with standard corner indices; one SVG element per card.
KDE_DECKS = ["jolly-royal", "tigullio-international", "gm-paris", "ancient-egyptians", "future"]
KDE_RANKS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
KDE_SUITS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}


def available_kde_decks() -> list[str]:
    """The kdegames decks installed on this machine."""
    return [d for d in KDE_DECKS if list((KDE / f"svg-{d}").glob("*.svgz"))]


def kde_deck_cards(name: str, width: int = 250) -> dict[str, np.ndarray]:
    """Card name → BGRA image for a kdegames deck (each card rendered once into the cache)."""
    src = sorted((KDE / f"svg-{name}").glob("*.svgz"))[0]
    folder = CACHE / f"kde-{name}"
    folder.mkdir(parents=True, exist_ok=True)
    exe = shutil.which("rsvg-convert")
    cards: dict[str, np.ndarray] = {}
    for suit in SUIT_ROWS:
        for rank in RANK_COLS:
            cid = f"{KDE_RANKS.get(rank, rank)}_{KDE_SUITS[suit]}"
            out = folder / f"{rank}{suit}.png"
            if not out.exists():
                if exe is None:
                    raise RuntimeError("rsvg-convert is missing: apt install librsvg2-bin")
                subprocess.run([exe, f"--export-id={cid}", "-w", str(width), str(src), "-o", str(out)],
                               check=True)
            img = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
            if img.shape[2] == 3:
                img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
            cards[rank + suit] = _trim(img)
    cards["back"] = np.full((int(width * 1.4), width, 4), (60, 40, 150, 255), np.uint8)
    return cards
