"""The card reader's tuning constants, each with its meaning: the index finder (:mod:`vision.index`),
the reader (:mod:`vision.reader`) and the one-card crops (:mod:`vision.proportions`).

Sizes are in pixels of the photo as read (at most ``MAX_SIDE``) unless said otherwise; darkness is
on the finder's scale, where 200 is as bright as the paper round it (:func:`vision.index.ink.
relative_darkness`). The figures behind the values (held-out synthetic scenes, the real photos) are
in docs/vision.md; ``benchmarks/bench_vision.py`` measures them.

>>> LEVELS[0], LEVELS[0].ink < LEVELS[1].ink
(Level(ink=116, core=90, thin=1, faint=90), True)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """One darkness level of the ink mask (200 = as bright as the paper): ink is darker than
    ``ink``; each ink blob holds a pixel darker than ``core`` (a solid blob, a pip); the mask is
    eroded by a ``thin`` x ``thin`` square; a rank glyph may hold only a pixel darker than ``faint``
    (its thin strokes blur paler than a solid pip)."""

    ink: int
    core: int
    thin: int
    faint: int


# --- ink (vision.index.ink) ---
LOCAL = 31  # window (px) for the local paper brightness
NEAR = 13  # window (px) for the paper right beside the ink (within half a stroke)
DIM_PAPER = 0.3  # paper is at least this bright in its darkest channel, against the photo's brightest
DIMMEST_PAPER = 0.2  # ...or this bright where it is grey (its darkest channel GREY_PAPER of its brightest)
GREY_PAPER = 0.55  # a paper level this grey (darkest over brightest channel) is paper under a cast
BLACK = 40.0  # paper is never darker than this (of 255) in a photo exposed at EXPOSED or brighter
EXPOSED = 200.0  # the brightest paper of a well exposed photo; a darker photo scales BLACK down with it
LEVELS: tuple[Level, ...] = (Level(116, 90, 1, 90), Level(150, 120, 1, 135))  # the first look's, strict first
THIN = Level(150, 120, 3, 120)  # the loose level thinned by a pixel: a glyph apart from what blur joins to it
STRICT = Level(75, 50, 1, 50)  # the strictest level: a glyph apart from a paler line it touches
FAINT = Level(185, 150, 1, 170)  # the faintest level: thin strokes blur has paled (a glyph; pips stay solid)
PALE = Level(190, 170, 1, 178)  # the palest level, only where no card was read: print under a veil of glare
NOTE_LEVELS = 1  # tiny blobs asking for a second look come from this many levels (a weave shows at the loose)

# --- pairing a glyph with its pip (vision.index.pairing) ---
MAX_FAINT = 100  # per level: more faint glyph-sized blobs than this are a cloth's weave, not print
MAX_PAIRS = 1000  # per level: a busy frame keeps this many pairs (the least crowded glyphs first)
MAX_CANDIDATES = 1000  # per photo: this many candidates at most, the least crowded first
TWIN_AREA = 0.08  # blobs whose boxes match to a pixel and areas to this fraction are twin pips, not an index
MAX_CROWD = 7  # a glyph with more neighbours than this (within 1.5 sizes) is texture, not an index
MAX_PIPS = 3  # a glyph is paired with at most this many nearest pip-like blobs
PART_GLYPH = 12  # px: a glyph blob this small at a strict level may be part of its glyph (a "6"'s bowl)
PART_REACH = 2.5  # ...and its pip may lie this many blob sizes off (a whole glyph's: 1.6)
MAX_LATTICE = 14  # a glyph with more blobs of its own size than this within 3 sizes is a card back's lattice
MAX_GLYPH = 140  # px: bigger blobs are not paired at this size (a halving finds them)

# --- a whole small index as one blob (vision.index.whole) ---
WHOLE_LEVEL = 1  # the level whose blobs may be a whole index (the loose one)
WHOLE_SIZE = (8, 40)  # px: its size (longer side) from, to
WHOLE_FILL = (0.2, 0.85)  # its ink's share of its box from, to
WHOLE_RING = 0.7  # at least this share of the ring round it is paper
WHOLE_LONG = (1.4, 4.0)  # how much longer than wide it is (from its second moments) from, to
WHOLE_CROWD = 3  # at most this many blobs like it within WHOLE_REACH of its size round it
WHOLE_REACH = 2.0  # (in its sizes)
MAX_WHOLE = 200  # more such blobs in the photo than this are texture
WHOLE_GREY = 0.4  # the paper round it is saturated no more than this (a card, not a coloured cloth)
GLYPH_AT = 0.22  # the glyph sits this far (of the blob's length) before the blob's middle
PIP_AT = 0.28  # the pip this far after it
GLYPH_OF = 0.55  # the glyph's size is this share of the blob's length

# --- the second look at small glyphs (vision.index.tiling) ---
SMALL_GLYPH = 10  # px: glyphs up to this size are looked for again at twice the size
SECOND_LOOK_MAX = SMALL_GLYPH + 2  # px: the biggest glyph the second look keeps (the first has bigger)
TILE = 64  # px: the grid of the second look
TILE_MARGIN = 24  # px looked at round the cells chosen
TILE_PIECE = 256  # px: a bigger tile is looked at in pieces this big (and the margin round each)
MAX_TILED = 0.15  # at most this share of the photo is looked at twice
MAX_SMALL_PER_TILE = 12  # a small card puts at most this many tiny blobs in a tile (more: a back's lattice)
TILE_LEVELS = 1  # the second look uses the first this many levels

# --- halvings for big glyphs (vision.index.looks) ---
COARSE_MIN = 900  # px: a photo this big (short side) may hold glyphs too big to pair: it is halved too
BIG_GLYPH = 60  # px: glyphs this big are taken from a halving (the paper window is smaller than they are)

# --- a photo read shrunk, looked at closer where its cards are small (vision.index.closer) ---
CLOSE_CARD = 150  # px: a card outline narrower than this as read is read again brought to this width
CLOSE_MIN_SIDE = 20  # px: the smallest card outline looked for (as read)
CLOSE_PAPER = 0.6  # a card's outline is paper: its brightest quarter this bright against the photo's white
CLOSE_TILE = 2.0  # where tiny blobs lie with no outline found, the photo is read this many times closer
CLOSE_GAIN = 1.1  # ...when that is at least this many times the size it was read at (else: no closer)
CLOSE_MARGIN = 0.25  # the place read round a card's outline: this share of its long side beyond it
CLOSE_BUDGET = 1.0  # the closer looks together read at most this share of the shrunk photo's pixels
CLOSE_LOOK = 10_000  # the looks of the k-th place are numbered from k times this (BlobId.look)

# --- clear paper round an index (vision.index.paper) ---
PAPER_CLEAR = 160  # clear paper: a 3x3 square (half size) all brighter than this against its level, and lit
PAPER_BRIGHT = 120  # on a grainy photo: a 5x5 square brighter than this on average...
PAPER_EVEN = 3.0  # ...whose spread is under this many times the photo's grain...
EVEN_MAX = 0.1  # ...and never more than this (a weave's is more)
EVEN_FROM = 5.0  # the grain is measured on the photo's this many percent brightest places
GRAINY = 0.012  # a photo with grain from this on is grainy (a clean photo's is 0.01 at most)
PAPER_REACH = (2.0, 24.0)  # a blob counts within this many (glyph sizes, px) of clear paper
PAPER_NEAR = MAX_GLYPH // 2 + 8  # px: ink is looked for only this close to clear paper
PAPER_GREY = 0.5  # paper, balanced on the photo's white, is saturated ((max - min) / max) no more than this
WHITE_TOP = 1.0  # the photo's white: its this many percent brightest places (in their darkest channel)
GAP_SCALE = 4  # the map of distances to clear paper is this many times smaller than the photo

# --- the reader (vision.reader) ---
THRESHOLD = 0.6  # below this confidence a card is reported as unreadable
JOINED_BAR = 0.75  # a reading joined with the second network's counts only this sure (vision.cnn)
IN_DOUBT = THRESHOLD - 0.01  # the most a contrary reading (shape and colour disagree) counts on its own
MIN_EVIDENCE = 0.35  # below this (or when "none" wins) a candidate is not a card at all
MIN_GLYPH = 6  # px: smaller glyphs are not read (a card 60 px wide prints its rank 7-9 px tall)
MAX_SIDE = 1600  # px: larger photos are read at this size (coordinates are scaled back)
PHOTO_SIDE = 2 * MAX_SIDE  # px: a photo upload is decoded at most this big (the closer look reads from it)
MIN_SIDE = 16  # px: a photo narrower than this holds no readable index
SMALL_PHOTO = 200  # px: a photo smaller than this (its long side) is read enlarged twice
GUESSED_MIN = 0.75  # a candidate placed from the shape of one blob counts only read at least this sure
NEAR_READ = 1.0  # an index in doubt this close (glyph sizes) to a card read is that card's own index
LOOK_CLOSER = 0.2  # a card named at least this sure, but under the threshold, is looked at again
NUDGE = 0.08  # how far (glyph-to-pip distances) the second opinion's windows are moved
NOT_RED = 0.1  # a pip less red than this (vision.patch.pip_tint) is not a heart's or a diamond's ink...
NOT_BLUE = 0.15  # ...unless it is this blue (a four-colour deck's diamonds)
SYMMETRY = 0.15  # a card's two indices have their midpoint this close to its centre (of its short side)
PRINT_SHARE = 0.04  # a card prints its rank at least this share of its width (less: a card back's pattern)
OTHER_INDEX = 20  # a card's other index lies within this many glyph sizes (the diagonal of a small index)
SAME_SIDE = 10  # ...or this many on the same side (a deck with an index in every corner)

# --- one card cropped to its edges, stored out of its proportions (vision.proportions) ---
CARD_ASPECT = 1.4  # a card's long side over its short side (poker size, 88 / 63 mm; bridge 1.56)
NEAR_SQUARE = 1.3  # a photo this close to square (long side over short) is no card's shape
LOOK_SIDE = 96  # px: the photo is looked at this small for its paper
PAPER_SHARE = 0.2  # a photo of one card is at least this much paper, however it is printed
PAPER_SATURATION = 60  # paper is grey or white: its channels within this of each other
PAPER_LIGHT = 0.7  # and at least this bright against the photo's bright end (its 99th percentile)
SQUARE = 0.85  # a card cropped to its edges: its paper's convex hull fills this share of its box at least
BY_CORNER = 3.5  # an index's centre lies within this many glyph sizes of its card's corner
ALONG = 0.8  # an index points along the card's long side: the cosine between them at least this
OWN_SHAPE = 1.35  # an outline at least this long for its width...
OWN_SIZE = 0.3  # ...and this big (a share of the photo), round its indices, is the card in its own shape
