"""Card decks to render: the artwork packages on this machine, or a deck drawn with OpenCV.

``load_decks()`` returns the standard French-suited decks found on the machine (see
``CATALOGUE`` for which are kept, which are skipped and why, and which are held out for
validation). Faces are rasterised once with ``rsvg-convert`` and cached as PNG under
``~/.cache/cribbage-companion/synth/`` (never in the repository).

>>> deck = procedural_deck()
>>> face = deck.render("TD", 120)
>>> face.shape[1], face.shape[2], face.dtype
(120, 4, dtype('uint8'))
>>> len(deck.indices("TD"))
2
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth import svg
from vision.synth.cards import ALL_CARDS, check_card, rank_number
from vision.synth.index_box import Box, measure_indices
from vision.synth.procedural import MASTER_W, N_STYLES, draw_face, font_files

BGRA = npt.NDArray[np.uint8]

AISLERIOT_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")
NPM_DECK = "@younestouati/playing-cards-standard-deck"

_SUIT_WORD = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_RANK_WORD = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
RENDER_VERSION = 2  # bump when the rasterisation changes, to invalidate caches


def cache_root() -> Path:
    """Where rendered faces are cached (``$CRIBBAGE_CACHE`` or ``~/.cache/cribbage-companion``)."""
    base = os.environ.get("CRIBBAGE_CACHE")
    return Path(base) if base else Path.home() / ".cache" / "cribbage-companion"


def npm_cache_dir() -> Path:
    """The folder ``npm install`` puts the npm deck in (see docs/vision-synth.md)."""
    return cache_root() / "npm" / "node_modules" / NPM_DECK


@dataclass(frozen=True)
class DeckInfo:
    """One entry of the catalogue: where a deck lives and whether it is used."""

    name: str
    source: str  # "aisleriot", "kde" or "npm"
    path: str  # file (aisleriot, kde) or folder (npm), relative to the source root
    keep: bool
    reason: str
    split: str = "train"  # "train" or "val" (held out to measure generalisation to unseen decks)
    four_colour: bool = False
    licence: str = ""


def _ar(name: str, keep: bool, reason: str, split: str = "train", four: bool = False) -> DeckInfo:
    return DeckInfo(f"ar-{name}", "aisleriot", f"{name}.svgz", keep, reason, split, four,
                    "gnome-cards-data (see ATTRIBUTION.md)")


def _kde(name: str, file: str, keep: bool, reason: str, split: str = "train") -> DeckInfo:
    return DeckInfo(f"kde-{name}", "kde", f"svg-{name}/{file}", keep, reason, split, False,
                    "kdegames-card-data-kf5 (see ATTRIBUTION.md)")


STD = "standard French-suited 52 cards, English indices"
CATALOGUE: list[DeckInfo] = [
    _ar("anglo", True, STD),
    _ar("anglo_bitmap", True, STD + " (bitmap courts)"),
    _ar("anglo_modern", True, STD),
    _ar("anglo_modern_4_color", True, STD + ", four-colour suits", four=True),
    _ar("anglo_poker", True, STD + ", large poker indices", split="val"),
    _ar("atlasnye", True, STD + " (Russian 'Atlas' artwork with A/K/Q/J)"),
    _ar("atlasnye_skat", False, "skat deck: four-colour 32-card variant"),
    _ar("ancient_french", False, "ace indexed '1'"),
    _ar("bellot", True, STD),
    _ar("berlin", False, "German indices (D for queen, B for jack)"),
    _ar("dondorf", True, STD + ", indices in all four corners"),
    _ar("gnomangelo", True, STD),
    _ar("gnomangelo_bitmap", True, STD + " (bitmap courts)", split="val"),
    _ar("guyenne-classic", False, "court cards carry no rank letter"),
    _ar("lattmann", False, "German indices (D for queen, B for jack)"),
    _ar("neoclassical", True, STD),
    _ar("neoclassical_4_color", True, STD + ", four-colour suits", four=True),
    _ar("orell", True, STD + ", cream paper", split="val"),
    _ar("ornamental", False, "index not measurable: the decorated frame touches it"),
    _ar("paris", True, STD),
    _ar("plastic", True, STD),
    _ar("rheinland", False, "German indices (D for queen, B for jack)"),
    _ar("simplistic", True, STD),
    _ar("slavic_costumes", False, "Russian indices (T for ace)"),
    _ar("swiss-xvii", False, "Swiss/German suits"),
    _ar("tango", True, STD + ", large indices"),
    _ar("tango_nuevo", False, "cropped half-faces with oversized side-by-side index"),
    _ar("tarocco", False, "tarot deck with Italian indices (R, D)"),
    _ar("tigullio", True, STD, split="val"),
    _ar("Атласные", False, "Russian indices (T for ace, Д for queen)"),
    _kde("ancient-egyptians", "Ancient_Egyptians.svgz", True, STD),
    _kde("dondorf", "dondorf.svgz", False, "same artwork as ar-dondorf"),
    _kde("future", "future.svgz", False, "not a playing-card design (sci-fi tiles)"),
    _kde("gm-paris", "paris.svgz", False, "same artwork as ar-paris"),
    _kde("jolly-royal", "jolly-royal.svgz", True, STD),
    _kde("konqi-modern", "konqi.svgz", False, "rsvg-convert cannot size this file"),
    _kde("nicu-ornamental", "ornamental.svgz", False, "same artwork as ar-ornamental"),
    _kde("nicu-white", "white.svgz", False, "index not measurable (white variant of ornamental)"),
    _kde("oxygen", "oxygen.svgz", False, "rsvg-convert renders the sprites clipped; index not found"),
    _kde("oxygen-air", "oxygen-air.svgz", False, "rsvg-convert renders the sprites clipped"),
    _kde("oxygen-white", "oxygen-white.svgz", False, "rsvg-convert renders the sprites clipped"),
    _kde("penguins", "penguins.svgz", True, STD),
    _kde("standard", "standard.svgz", True, STD),
    _kde("tigullio-international", "tigullio-international.svgz", True, STD),
    _kde("xskat-french", "french.svgz", False, "skat deck (32 cards)"),
    _kde("xskat-german", "german.svgz", False, "German suits"),
    DeckInfo("npm-standard", "npm", NPM_DECK, True, STD + " (npm, LGPL-3.0)", "val", False,
             "LGPL-3.0, Younes Touati (see ATTRIBUTION.md)"),
]


@dataclass(eq=False)
class Deck:
    """A deck of 52 faces (and maybe a back) that can be rendered at any width.

    ``indices(card)`` gives the corner-index boxes as fractions of the face (x0, y0, x1, y1),
    measured from the artwork.
    """

    name: str
    split: str = "train"
    four_colour: bool = False
    source: str = "procedural"
    _index_cache: dict[str, list[Box]] = field(default_factory=dict, repr=False)

    # -- subclasses provide these two
    def master(self, card: str) -> BGRA:
        """The face at master resolution (BGRA)."""
        raise NotImplementedError

    def master_back(self) -> BGRA | None:
        """The back at master resolution, or None."""
        return None

    def has_card(self, card: str) -> bool:
        """True if this deck can render ``card``."""
        return card in ALL_CARDS

    # -- common API
    def render(self, card: str, width: int) -> BGRA:
        """The face of ``card`` (like ``"TD"``) ``width`` pixels wide, BGRA with alpha corners."""
        return _resize(self.master(check_card(card)), width)

    def back(self, width: int) -> BGRA | None:
        """A card back ``width`` pixels wide, or None when the deck has none."""
        b = self.master_back()
        return None if b is None else _resize(b, width)

    def indices(self, card: str) -> list[Box]:
        """Corner-index boxes of ``card`` as face fractions (TL first, then BR).

        Measured on the card's own face; where that fails (a court picture touching the index),
        the deck's typical box, measured on the cards where it succeeds, is used instead."""
        if card not in self._index_cache:
            boxes = measure_indices(self.master(card))
            if len(boxes) < 2:
                boxes = self._typical()
            self._index_cache[card] = boxes
        return self._index_cache[card]

    def _typical(self) -> list[Box]:
        if "_typical" not in self._index_cache:
            found = []
            for c in ("AS", "2H", "3C", "4D", "5S", "6H", "7C", "8D", "9S", "TH", "AD", "5C"):
                b = measure_indices(self.master(c))
                if len(b) == 2:
                    found.append(b)
            if found:
                arr = np.median(np.array(found, np.float64), axis=0)
                self._index_cache["_typical"] = [tuple(float(v) for v in row) for row in arr]
            else:
                self._index_cache["_typical"] = []
        return self._index_cache["_typical"]

    @property
    def aspect(self) -> float:
        """Height / width of the faces."""
        m = self.master("AS")
        return m.shape[0] / m.shape[1]


def _resize(img: BGRA, width: int) -> BGRA:
    h, w = img.shape[:2]
    if width == w:
        return img.copy()
    height = max(2, round(h * width / w))
    interp = cv2.INTER_AREA if width < w else cv2.INTER_CUBIC
    return cv2.resize(img, (max(2, width), height), interpolation=interp)


class ProceduralDeck(Deck):
    """Faces drawn with OpenCV in one of ``N_STYLES`` styles; index boxes exact from the drawing.
    ``face``: a font file to set the ranks in instead of the style's own (its name then ends
    with the file's stem: ``procedural-8-C059-Bold``); ``tail``: its queens' "Q" drawn with a
    continental tail that long, in glyph heights (its name then ends ``-tailed``); ``four``: the
    index in all four corners (``-four``).

    >>> ProceduralDeck(3).name, ProceduralDeck(8, face="/fonts/C059-Bold.otf").name
    ('procedural-3', 'procedural-8-C059-Bold')
    >>> len(ProceduralDeck(7, four=True).indices("JC"))
    4
    """

    def __init__(self, style: int = 0, split: str = "train", face: str | None = None,
                 tail: float = 0.0, four: bool = False) -> None:
        name = f"procedural-{style}" if face is None else f"procedural-{style}-{Path(face).stem}"
        name += ("-tailed" if tail else "") + ("-four" if four else "")
        super().__init__(name=name, split=split)
        self.style = style
        self.face = face
        self.tail = tail
        self.four = four
        self._faces: dict[str, BGRA] = {}

    def master(self, card: str) -> BGRA:
        if card not in self._faces:
            face, boxes = draw_face(card, self.style, face=self.face, tail=self.tail, four=self.four)
            self._faces[card] = face
            self._index_cache[card] = boxes
        return self._faces[card]

    def indices(self, card: str) -> list[Box]:
        self.master(card)
        return self._index_cache[card]

    def master_back(self) -> BGRA:
        return procedural_back(self.style)


def procedural_back(style: int = 0, width: int = MASTER_W) -> BGRA:
    """A simple patterned card back (lattice of diamonds), BGRA."""
    rng = np.random.default_rng(500 + style)
    h = round(width * 1.397)
    col = tuple(int(c) for c in rng.integers(30, 200, 3))
    img = np.full((h, width, 3), 255, np.uint8)
    m = round(width * 0.05)
    cv2.rectangle(img, (m, m), (width - m, h - m), col, -1)
    step = max(8, width // 12)
    light = tuple(min(255, c + 70) for c in col)
    for y in range(m, h - m, step):
        for x in range(m, width - m, step):
            pts = np.array([(x + step // 2, y), (x + step, y + step // 2), (x + step // 2, y + step),
                            (x, y + step // 2)], np.int32)
            cv2.polylines(img, [pts], True, light, 2, cv2.LINE_AA)
    return np.dstack([img, _rounded(h, width)])


def _rounded(h: int, width: int) -> npt.NDArray[np.uint8]:
    """A card's alpha: opaque with rounded corners (radius 5% of the width)."""
    alpha = np.zeros((h, width), np.uint8)
    r = round(width * 0.05)
    cv2.rectangle(alpha, (r, 0), (width - r, h), 255, -1)
    cv2.rectangle(alpha, (0, r), (width, h - r), 255, -1)
    for cx, cy in ((r, r), (width - r, r), (r, h - r), (width - r, h - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return alpha


# inks of printed backs (BGR): red, deep red, blue, navy, black, green, purple
BACK_INKS = ((40, 40, 200), (40, 30, 140), (170, 80, 30), (110, 40, 20), (35, 35, 35),
             (60, 120, 40), (120, 40, 110))


def printed_back(rng: np.random.Generator, width: int = MASTER_W) -> BGRA:
    """A printed card back, BGRA, drawn at random the way real backs are printed: one ink on white
    paper inside a white border, a pattern of a random pitch and angle: a lattice of small diamonds
    filled or drawn (as a Bee back), rows of small suit-like marks, checks, rings, or large stars
    among small diamonds; now and then the panel solid ink with the pattern left white. Such backs
    are what the reader must never read: a lattice cell looks like a pip.

    >>> b = printed_back(np.random.default_rng(1), 120)
    >>> b.shape[1], b.shape[2], int(b[0, 0, 3]), int(b[80, 60, 3])
    (120, 4, 0, 255)
    """
    h = round(width * 1.397)
    base = np.array(BACK_INKS[int(rng.integers(len(BACK_INKS)))], float)
    ink = tuple(int(c) for c in np.clip(base + rng.normal(0, 12, 3), 0, 255))
    inverse = rng.random() < 0.25
    fg, bg = ((255, 255, 255), ink) if inverse else (ink, (255, 255, 255))
    side = int(np.hypot(width, h)) + 4
    pat = np.full((side, side, 3), bg, np.uint8)
    pitch = max(4.0, width * rng.uniform(0.035, 0.14))
    kind = int(rng.integers(5))
    size, filled = rng.uniform(0.3, 0.48), rng.random() < 0.6  # the lattice's diamonds
    n = int(side / pitch) + 2
    for j in range(2 * n if kind in (0, 2) else n):  # those two in half-rows, staggered
        for i in range(n):
            x, y = (i + 0.5 * (j % 2)) * pitch, j * pitch * (0.5 if kind in (0, 2) else 1.0)
            if kind == 0:  # a lattice of diamonds, filled or drawn
                r = pitch * size
                pts = np.array([(x, y - r), (x + r * 0.8, y), (x, y + r), (x - r * 0.8, y)], np.int32)
                if filled:
                    cv2.fillPoly(pat, [pts], fg, cv2.LINE_AA)
                cv2.polylines(pat, [pts], True, fg, 1, cv2.LINE_AA)
            elif kind == 1:  # checks
                if (i + j) % 2 == 0:
                    cv2.rectangle(pat, (int(x), int(y)), (int(x + pitch / 2), int(y + pitch / 2)), fg, -1)
            elif kind == 2:  # rows of small marks: diamonds, spots, crosses, clubs
                r = max(1.5, pitch * 0.22)
                m = (i + j) % 4
                if m == 0:
                    pts = np.array([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], np.int32)
                    cv2.fillPoly(pat, [pts], fg, cv2.LINE_AA)
                elif m == 1:
                    cv2.circle(pat, (int(x), int(y)), int(r), fg, -1, cv2.LINE_AA)
                elif m == 2:
                    t = max(1, int(r / 2))
                    cv2.line(pat, (int(x - r), int(y)), (int(x + r), int(y)), fg, t, cv2.LINE_AA)
                    cv2.line(pat, (int(x), int(y - r)), (int(x), int(y + r)), fg, t, cv2.LINE_AA)
                else:
                    for dx, dy in ((0, -0.5), (-0.5, 0.3), (0.5, 0.3)):
                        cv2.circle(pat, (int(x + dx * r), int(y + dy * r)), max(1, int(r * 0.5)), fg, -1,
                                   cv2.LINE_AA)
            elif kind == 3:  # rings
                cv2.circle(pat, (int(x), int(y)), max(2, int(pitch * 0.38)), fg, max(1, int(pitch / 9)),
                           cv2.LINE_AA)
            elif i % 3 == 1 and j % 3 == 1:  # large stars (two squares, one turned) among small diamonds
                big = pitch * 0.9
                for a in (0.0, np.pi / 4):
                    c, s_ = np.cos(a), np.sin(a)
                    sq = [(x + big * (c * u - s_ * v), y + big * (s_ * u + c * v))
                          for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
                    cv2.polylines(pat, [np.array(sq, np.int32)], True, fg, max(1, int(pitch / 8)),
                                  cv2.LINE_AA)
            else:
                r = pitch * 0.2
                pts = np.array([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], np.int32)
                cv2.fillPoly(pat, [pts], fg, cv2.LINE_AA)
    turn = float(rng.choice([0.0, 45.0, rng.uniform(0, 90)]))
    rot = cv2.getRotationMatrix2D((side / 2, side / 2), turn, 1.0)
    pat = cv2.warpAffine(pat, rot, (side, side), flags=cv2.INTER_LINEAR, borderValue=bg)
    y0, x0 = (side - h) // 2, (side - width) // 2
    img = np.full((h, width, 3), 255, np.uint8)
    m = round(width * rng.uniform(0.03, 0.09))
    img[m:h - m, m:width - m] = pat[y0 + m:y0 + h - m, x0 + m:x0 + width - m]
    if rng.random() < 0.5:  # a frame line round the panel
        cv2.rectangle(img, (m, m), (width - 1 - m, h - 1 - m), ink, max(1, width // 60))
    return np.dstack([img, _rounded(h, width)])


# drawn styles whose queens carry a continental tail (:func:`tailed_decks`): serif faces and OpenCV's
# own for training; style 7 (held out, as its untailed deck is) to measure
TAILED = {"train": (0, 2, 4, 13, 14, 17, 18), "val": (7,)}


def tailed_decks(split: str = "train") -> list[ProceduralDeck]:
    """Drawn decks of the styles in ``TAILED[split]`` whose "Q" has a continental tail (a European
    deck's serif queen), each tail 0.3-0.55 of the glyph's height, fixed by its style.

    >>> [d.name for d in tailed_decks("val")]
    ['procedural-7-tailed']
    """
    styles = [s for s in TAILED[split] if s < N_STYLES + len(font_files())]
    return [ProceduralDeck(s, split=split, tail=float(np.random.default_rng(4000 + s).uniform(0.3, 0.55)))
            for s in styles]


def procedural_deck(style: int = 0) -> ProceduralDeck:
    """A deck drawn with OpenCV (no artwork package needed); ``style`` in 0..N_STYLES-1."""
    return ProceduralDeck(style % N_STYLES)


class ArtworkDeck(Deck):
    """A deck rasterised from SVG artwork, cached as PNG files."""

    def __init__(self, info: DeckInfo, file: Path) -> None:
        super().__init__(name=info.name, split=info.split, four_colour=info.four_colour,
                         source=info.source)
        self.info = info
        self.file = file
        st = file.stat()
        key = f"{file}:{st.st_size}:{int(st.st_mtime)}:{MASTER_W}:{RENDER_VERSION}"
        digest = hashlib.sha1(key.encode()).hexdigest()[:10]
        self.cache_dir = cache_root() / "synth" / "faces" / f"{info.name}-{digest}"
        self._zoom: float | None = None

    # element ids / files for a card
    def _element(self, card: str | None) -> str:
        if card is None:
            return "back"
        r, s = _RANK_WORD.get(card[0], card[0]), _SUIT_WORD[card[1]]
        if self.info.source == "aisleriot":
            return f"{s}_{r}"
        return f"{r}_{s}"

    def _rasterise(self, card: str | None) -> BGRA:
        if self.info.source == "npm":
            name = "back" if card is None else f"{rank_number(card[0])}{card[1].lower()}"
            return svg.render_file(self.file / "cards" / f"{name}.svg", MASTER_W)
        if self._zoom is None:
            probe = svg.render_element(self.file, self._element("AS"), 1.0)
            self._zoom = MASTER_W / probe.shape[1]
        return svg.render_element(self.file, self._element(card), self._zoom)

    def _load(self, card: str | None) -> BGRA:
        png = self.cache_dir / f"{card or 'back'}.png"
        img = cv2.imread(str(png), cv2.IMREAD_UNCHANGED) if png.exists() else None
        if img is None:
            img = self._rasterise(card)
            if img.shape[1] != MASTER_W:
                img = _resize(img, MASTER_W)
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = png.with_suffix(f".{os.getpid()}.tmp.png")
            cv2.imwrite(str(tmp), img)
            tmp.replace(png)
        return img

    def master(self, card: str) -> BGRA:
        return _cached_master(self, card)

    def master_back(self) -> BGRA | None:
        try:
            return _cached_master(self, None)
        except svg.SvgError:
            return None

    def build(self) -> None:
        """Rasterise every face (and the back) into the cache now."""
        for card in ALL_CARDS:
            self._load(card)
        self.master_back()


@functools.lru_cache(maxsize=320)
def _cached_master(deck: ArtworkDeck, card: str | None) -> BGRA:
    img = deck._load(card)
    img.flags.writeable = False
    return img


def _file_for(info: DeckInfo) -> Path | None:
    if info.source == "aisleriot":
        p = AISLERIOT_DIR / info.path
    elif info.source == "kde":
        p = KDE_DIR / info.path
    else:
        p = npm_cache_dir()
        return p if (p / "cards" / "1s.svg").exists() else None
    return p if p.exists() else None


def artwork_available() -> bool:
    """True when ``rsvg-convert`` and at least one artwork deck are installed."""
    return svg.available() and any(_file_for(i) for i in CATALOGUE if i.keep)


def load_decks(
    include: Iterable[str] | None = None,
    *,
    split: str | None = None,
    procedural: bool = False,
) -> list[Deck]:
    """The usable artwork decks on this machine.

    ``include``: deck names to keep (default: every deck the catalogue keeps); ``split``:
    ``"train"`` or ``"val"`` to get only that part; ``procedural``: add the OpenCV-drawn decks
    (styles 0..N-1, all in the train split, except style 7 in val, and a train style for each
    installed TrueType face of ``procedural.FONT_FILES``) to the list.
    Missing packages are skipped silently; ``load_decks()`` may return [] on a bare machine.
    """
    if split not in (None, "train", "val"):
        raise ValueError(f"split must be 'train' or 'val', not {split!r}")
    wanted = set(include) if include is not None else None
    decks: list[Deck] = []
    if svg.available():
        for info in CATALOGUE:
            if wanted is not None:
                if info.name not in wanted:
                    continue
            elif not info.keep:
                continue
            if split is not None and info.split != split:
                continue
            f = _file_for(info)
            if f is not None:
                decks.append(ArtworkDeck(info, f))
    if procedural or (wanted is not None and any(n.startswith("procedural-") for n in wanted)):
        for style in range(N_STYLES + len(font_files())):
            d = ProceduralDeck(style, split="val" if style == N_STYLES - 1 else "train")
            if wanted is not None and not procedural and d.name not in wanted:
                continue
            if split is None or d.split == split:
                decks.append(d)
    return decks


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.synth.decks [--build]``: list the catalogue; with --build, cache every face."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] not in ("--build", "--list"):
        print("usage: python -m vision.synth.decks [--list|--build]", file=sys.stderr)
        return 2
    found = {d.name: d for d in load_decks(include=[i.name for i in CATALOGUE])}
    for info in CATALOGUE:
        state = "keep" if info.keep else "skip"
        here = "installed" if info.name in found else "missing"
        print(f"{info.name:32s} {state} {info.split:5s} {here:9s} {info.reason}")
    if args[:1] == ["--build"]:
        kept = [d for d in found.values() if isinstance(d, ArtworkDeck) and d.info.keep]
        for i, d in enumerate(kept, 1):
            d.build()
            bad = [c for c in ALL_CARDS if len(d.indices(c)) < 2]
            print(f"[{i}/{len(kept)}] {d.name}: cached; cards without two indices: {bad or 'none'}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
