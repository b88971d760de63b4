"""``crib camera check``: look at the camera (or one photo) and say, in players' words, what to change.

:func:`check_frames` takes a few frames of the table (the newest is read; all of them are
compared for flicker) and gives a :class:`Report` of seven :class:`Check` s, each
``{"name", "ok", "value", "say"}``:

=========  ===========================================================================
light      card paper's brightness (0-255): too dark or over-exposed for the index to read
focus      the blur of the cards' edges and print, in px (the sigma of a Gaussian blur),
           against the card's size; blurred: focus first (turn the lens)
distance   the cards' width in px: too small (camera too high) or too big (table not in view);
           judged only on a sharp picture (a blurred card looks bigger)
glare      the share of the cards' surroundings blown white by a lamp's reflection
flicker    the light's beat from frame to frame and along the rows (a mains lamp)
contrast   how far card paper stands from the table, as a share of the paper's level
tilt       how far the cards' outline corners are from right angles, in degrees
=========  ===========================================================================

A check that needs cards, on a frame with none, is ``waiting`` (not failed, not passed: the
page shows it waiting, not ticked) and says to lay a card in front of each player; so is the
cards' size on a blurred picture (focus first). The players' words (``say``) name no camera
setting's number; ``detail`` holds the numbers behind the advice (the Camera Module 3's
``LensPosition``) for ``crib camera check``'s lines. The thresholds (``LIMITS``) and how they
were chosen are in docs/camera.md.

>>> import numpy as np
>>> report = check_frames([np.full((720, 1280, 3), 90, np.uint8)])
>>> report.cards, [c.name for c in report.checks]
(0, ['light', 'focus', 'distance', 'glare', 'flicker', 'contrast', 'tilt'])
>>> report.checks[1].say, report.checks[1].waiting, report.ok
('Lay a card in front of each player: the focus is judged on the cards.', True, False)
>>> lens_position(130, 1280)
(2.08, 48)
>>> lens_position(119.2, 1280, field=51.95)  # a 4:3 picture: libcamera crops the 16:9 sensor
(1.43, 70)
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.camera.measure import (
    SMALLEST_OUTLINE,
    CardSeen,
    blur_px,
    card_mask,
    corner_error,
    find_cards,
    foreshortening,
    paper_level,
    skewed_outlines,
)
from vision.tuning import MAX_SIDE

__all__ = ["CHECK_SIDE", "LIMITS", "NAMES", "Check", "Report", "check_frames", "lens_position",
           "light_print", "look", "small_copy", "waits", "watch"]

Image = npt.NDArray[np.uint8]

NAMES = ("light", "focus", "distance", "glare", "flicker", "contrast", "tilt")
"""The checks, in the order they are given."""

LIMITS: dict[str, float] = {
    "dark": 110.0,          # card paper under this (0-255) is too dark (good frames: 240-255)
    "dark_frame": 60.0,     # with no card: the frame's brightest 0.5% under this is too dark
    "blown": 0.35,          # over-exposed: more of the frame than this blown white, paper too
    "pale_ink": 75.0,       # ... or the paper at full white and the print no darker than this (good: 0-45)
    "blur_share": 0.016,    # out of focus: blur (px) over this share of the card's width ...
    "blur_least": 1.8,      # ... but never under this many px (good frames: 0.9-1.2 px)
    "blur_most": 2.6,       # ... nor over this many
    "small": 72.0,          # cards narrower than this (px) are too small to read surely
    "big": 0.42,            # cards wider than this share of the frame's height: table not in view
    "glare": 0.05,          # a card blown white over more than this share, its paper not ...
    "glare_paper": 230.0,   # ... judged only when the cards' paper is under this (else it clips itself)
    "flicker": 0.03,        # light beating by more than this share from frame to frame or row to row
    "contrast": 0.12,       # paper less than this share brighter than the table: hard to see
    "tilt": 12.0,           # card corners more than this many degrees from square
}
"""Every threshold, one line each (chosen on frames kept apart from the tests': docs/camera.md)."""

CARD_MM = 63.5
"""A poker-size card's width; bridge cards (57 mm) read as 10% further away."""
CM3_FIELD = 66.0
"""The Camera Module 3's horizontal field of view (degrees) over its whole sensor's width: the
lens advice's field where the frames do not say theirs (a photo, a video); the picamera2
backend gives each frame's own (``Frame.field_of_view``: 51.9° for a 4:3 picture)."""

NO_CARD = "Lay a card in front of each player: the {} is judged on the cards."
BLURRED_SIZE = "The picture is blurred: focus first; the cards' size is judged on a sharp picture"
LENS_RULE = ("a Camera Module 3 focuses at LensPosition = 100 / the lens's height above the cards in cm "
             "(70 cm: --camera picamera2:lens=1.43)")


@dataclass(frozen=True)
class Check:
    """One check's verdict: its name, whether it passed, what was measured and what to do, in
    players' words; ``waiting`` where it could not be judged yet (no card on the table, or a
    blurred picture for the cards' size: ``ok`` then, nothing failed, but nothing passed either),
    and ``detail``, the numbers behind the advice for ``crib camera check`` (never the page's).

    >>> Check("light", False, 42.0, "Too dark: turn on a lamp over the table").to_json()["ok"]
    False
    >>> waits(Check("glare", True, None, "Lay a card")).to_json()["waiting"]
    True
    """

    name: str
    ok: bool
    value: float | None
    say: str
    waiting: bool = False
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"name", "ok", "waiting", "value", "say", "detail"}``."""
        value = None if self.value is None or not math.isfinite(self.value) else round(self.value, 3)
        return {"name": self.name, "ok": self.ok, "waiting": self.waiting, "value": value,
                "say": self.say, "detail": self.detail}


def waits(check: Check) -> Check:
    """``check`` as waiting (not judged yet: ``ok``, ``waiting``)."""
    return Check(check.name, True, check.value, check.say, True, check.detail)


@dataclass
class Report:
    """All the checks of one look at the table, and what was looked at."""

    checks: list[Check]
    frames: int
    cards: int
    read: int
    width: int
    height: int
    ms: float
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether every check passed (none failed, none still waiting for cards)."""
        return all(c.ok and not c.waiting for c in self.checks)

    def to_json(self) -> dict[str, Any]:
        """``{"ok", "checks", "frames", "cards", "read", "width", "height", "ms", ...}``."""
        return {"ok": self.ok, "checks": [c.to_json() for c in self.checks], "frames": self.frames,
                "cards": self.cards, "read": self.read, "width": self.width, "height": self.height,
                "ms": round(self.ms, 1), **self.extra}


def lens_position(card_px: float, frame_width: int, field: float = CM3_FIELD) -> tuple[float, float]:
    """The Camera Module 3's ``LensPosition`` (dioptres, 1 / metres) for a table whose cards
    look ``card_px`` wide in a frame ``frame_width`` wide seeing ``field`` degrees across, and
    that distance in cm.

    Assumes a poker-size card (:data:`CARD_MM`) lying flat under the camera; ``field`` is the
    picture's own (``Frame.field_of_view``), or the whole sensor's (:data:`CM3_FIELD`).
    """
    focal_px = (frame_width / 2) / math.tan(math.radians(field / 2))
    metres = focal_px * CARD_MM / 1000 / max(card_px, 1.0)
    return round(1 / metres, 2), round(metres * 100)


PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
"""A path with one of these endings is checked as one photo; any other file is played as a video."""


def look(source: str, seconds: float = 3.0, most: int = 30) -> list[Image]:
    """The frames of :func:`watch`, without their field of view."""
    return watch(source, seconds, most)[0]


def watch(source: str, seconds: float = 3.0, most: int = 30) -> tuple[list[Image], float | None]:
    """Frames of ``source``: a camera spec (``picamera2``, ``opencv:N``, ``video:PATH``,
    ``frames:DIR``) read for ``seconds`` of its own time (at most ``most`` frames), or a path:
    a photo (one frame), a folder (as ``frames:``) or a video.

    Raises :class:`vision.camera.CameraError` for a bad spec, a missing path or a source that
    gives no frame, and :class:`vision.errors.ImageError` for a photo that does not decode.

    Also gives the newest frame's horizontal field of view where the source knows it (the Pi
    camera: ``Frame.field_of_view``), for :func:`check_frames`.

    >>> look("nope:1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    vision.camera.frame.CameraError: unknown camera source 'nope:1': ...
    >>> look("/nowhere/table.jpg")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    vision.camera.frame.CameraError: no such file, folder or camera: /nowhere/table.jpg ...
    """
    from pathlib import Path

    from vision.camera import SPECS, CameraError, open_source, source_for_path

    path = Path(source)
    if not path.exists() and (":" in source or source.strip().lower() in SPECS):
        return _play(open_source(source), seconds, most)  # a spec (open_source names a bad one)
    if not path.exists():
        raise CameraError(f"no such file, folder or camera: {source} (a photo, a video, a folder of "
                          "frames, or picamera2, opencv:N, video:PATH, frames:DIR)")
    if path.is_file() and path.suffix.lower() in PHOTO_SUFFIXES:
        from vision.reader import load_image

        return [load_image(path)], None
    return _play(source_for_path(path), seconds, most)


def _play(source: Any, seconds: float, most: int) -> tuple[list[Image], float | None]:
    from vision.camera import CameraError

    frames: list[Image] = []
    field_of_view: float | None = None
    source.open()
    try:
        first: float | None = None
        while len(frames) < most:
            frame = source.read()
            if frame is None:
                break
            first = frame.time if first is None else first
            frames.append(frame.image)
            field_of_view = frame.field_of_view
            if frame.time - first >= seconds:
                break
    finally:
        source.close()
    if not frames:
        raise CameraError(f"{source.spec}: no frame came from it")
    return frames, field_of_view


def check_frames(frames: Sequence[Image], field_of_view: float | None = None,
                 size: tuple[int, int] | None = None, prints: Sequence[Image] | None = None) -> Report:
    """The checks on frames of one table (BGR, oldest first): the newest is read, all are
    compared for flicker; ``field_of_view`` (degrees across, where the camera says it) sets the
    lens advice's distance (:func:`lens_position`).

    ``prints`` are the frames' light prints (:func:`light_print`, oldest first, the newest
    frame's last), for a caller that keeps only those of the older frames (the companion's ring:
    a 57 KB print instead of a 2.7 MB frame); flicker is then judged on them and ``frames`` may be
    the newest frame alone.

    ``size`` is the frames' own ``(width, height)`` where they are given as copies shrunk to at
    most :data:`CHECK_SIDE` (:func:`small_copy`): the report's size, the cards' width and the
    blur are then said in the frame's pixels (the blur's limit scales with them).

    >>> import numpy as np
    >>> small, size = small_copy(np.full((4000, 6000, 3), 90, np.uint8))
    >>> small.shape, size
    ((1067, 1600, 3), (6000, 4000))
    >>> report = check_frames([small], size=size)
    >>> report.width, report.height
    (6000, 4000)
    """
    from vision.reader import read_cards

    if not frames:
        raise ValueError("no frame to check")
    t0 = time.perf_counter()
    image = frames[-1]
    prints = [light_print(f) for f in frames] if prints is None else prints
    reading = read_cards(image)
    cards = find_cards(image, reading.cards, reading.unreadable)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    height, wide = image.shape[:2]
    scale = 1.0 if size is None else size[0] / wide  # frame pixels per pixel given
    width = _width(cards)
    focus = check_focus(grey, cards, width, field_of_view or CM3_FIELD, scale)
    sharp = focus.ok and not focus.waiting  # a blurred card looks bigger: no size from it
    checks = [
        check_light(image, grey, cards, sharp=sharp),
        focus,
        check_distance(grey, cards, width, scale) if sharp or not cards
        else waits(Check("distance", True, None, BLURRED_SIZE)),
        check_glare(image, cards),
        check_flicker(prints),
        check_contrast(grey, cards, bool(reading.cards)),
        check_tilt(image, cards),
    ]
    wide, height = (wide, height) if size is None else size
    card_width = round(width * scale, 1) if sharp else None  # no size from a blurred picture
    return Report(checks, len(prints), len(cards), len(reading.cards), wide, height,
                  (time.perf_counter() - t0) * 1000, {"card_width": card_width})


CHECK_SIDE: int = MAX_SIDE
"""The long side (px) the checks need, 1600: the reader reads a larger frame at this size
(``vision.tuning.MAX_SIDE``), so a copy this size reads the same cards; the set-up checks beside
the tracker keep their frames this small (:func:`small_copy`)."""


def small_copy(image: Image, side: int = CHECK_SIDE) -> tuple[Image, tuple[int, int]]:
    """``image`` shrunk (area-averaged) to at most ``side`` px on its long side, and its own
    ``(width, height)``; an image already that small comes back as it is (no copy)."""
    height, width = image.shape[:2]
    if max(height, width) <= side:
        return image, (width, height)
    factor = side / max(height, width)
    shrunk = (max(1, round(width * factor)), max(1, round(height * factor)))
    return cv2.resize(image, shrunk, interpolation=cv2.INTER_AREA), (width, height)


def _ink_level(image: Image, cards: list[CardSeen]) -> float:
    """How dark the cards' print is: the median card's 2nd percentile of its darkest channel
    (red print is dark in green and blue), 0-255."""
    darkest = image.min(axis=2)
    levels = []
    for card in cards:
        inside = card_mask(image.shape, [card], grow=-0.08 if card.quad is not None else -0.35)
        if inside.sum() >= 50:
            levels.append(float(np.percentile(darkest[inside], 2)))
    return float(np.median(levels)) if levels else 0.0


def check_light(image: Image, grey: Image, cards: list[CardSeen], sharp: bool = True) -> Check:
    """Card paper bright enough; and not over-exposed: the frame not blown white, the print not
    paled (judged only on sharp cards of a good size: a blurred or tiny index is pale too)."""
    blown = float((image.min(axis=2) >= 250).mean())
    if not cards:
        top = float(np.percentile(grey, 99.5))
        if top < LIMITS["dark_frame"]:
            return Check("light", False, top, "Too dark: turn on a lamp over the table")
        return waits(Check("light", True, top, NO_CARD.format("light")))
    paper = paper_level(grey, card_mask(grey.shape, cards))
    if paper < LIMITS["dark"]:
        return Check("light", False, paper, "Too dark: turn on a lamp over the table "
                     f"(the cards' white is at {paper / 255:.0%} of full brightness)")
    judged = paper >= 250 and sharp and _width(cards) >= LIMITS["small"]
    ink = _ink_level(image, cards) if judged else 0.0
    if blown > LIMITS["blown"] or ink > LIMITS["pale_ink"]:
        return Check("light", False, paper, "Too bright: the picture is over-exposed and the print "
                     "pales; dim the lamp or move it further from the table")
    return Check("light", True, paper, f"Light is good (the cards' white at {paper / 255:.0%})")


def check_focus(grey: Image, cards: list[CardSeen], width: float, field: float = CM3_FIELD,
                scale: float = 1.0) -> Check:
    """The cards' edges and print sharp enough for the index, for cards of this size; judged at
    ``grey``'s size (where the cards are read), the blur said in frame pixels (``scale`` of
    ``grey``'s, for a shrunk copy)."""
    if not cards:
        return waits(Check("focus", True, None, NO_CARD.format("focus")))
    mask = card_mask(grey.shape, cards, grow=0.1)
    blur = blur_px(grey, mask, max(5, round(0.15 * width)))
    limit = min(LIMITS["blur_most"], max(LIMITS["blur_least"], LIMITS["blur_share"] * width))
    if not math.isfinite(blur):
        return waits(Check("focus", True, None, "The cards show no edge sharp enough to judge the focus "
                           "by: turn the lens until the cards' corners are sharp", detail=LENS_RULE))
    dioptres, cm = lens_position(width, grey.shape[1], field)
    sharp = blur <= limit
    blur *= scale
    if not sharp:  # a blurred card looks bigger, so no distance (nor lens setting) is read from it
        return Check("focus", False, blur, f"The picture is blurred (the cards' edges spread {blur:.1f} "
                     "px): focus first: turn the lens until the cards' corners are sharp",
                     detail=LENS_RULE)
    return Check("focus", True, blur, f"In focus (edges within {blur:.1f} px; the table looks {cm} cm "
                 "away)", detail=f"LensPosition {dioptres} on a Camera Module 3: --camera "
                 f"picamera2:lens={dioptres}")


def check_distance(grey: Image, cards: list[CardSeen], width: float, scale: float = 1.0) -> Check:
    """Cards big enough to read, and small enough that the whole table is in view; ``width`` in
    ``grey``'s pixels, judged and said in the frame's (``scale`` of them, for a shrunk copy)."""
    if not cards:
        return waits(Check("distance", True, None, NO_CARD.format("distance")))
    width, height = width * scale, grey.shape[0] * scale
    if width < LIMITS["small"]:
        return Check("distance", False, width, f"Cards too small ({width:.0f} px wide, at least "
                     f"{LIMITS['small']:.0f} wanted): lower the camera, or give it a higher resolution")
    if width > LIMITS["big"] * height:
        return Check("distance", False, width, f"Cards too big ({width:.0f} px wide): the table is "
                     "not all in view: raise the camera")
    return Check("distance", True, width, f"Cards {width:.0f} px wide: a good size")


def _blown_on_cards(image: Image, cards: list[CardSeen]) -> float | None:
    """The largest share of a card blown full white (every channel at 250 or more) where the
    cards' paper (the median card's upper quartile) is not: a lamp's reflection, brighter than
    the paper. ``None`` when the paper is itself near full white (``LIMITS["glare_paper"]``: its
    own brighter parts clip, and a reflection cannot be told from them)."""
    blown = image.min(axis=2) >= 250
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    insides = [card_mask(grey.shape, [c], grow=-0.08 if c.quad is not None else -0.35) for c in cards]
    insides = [m for m in insides if m.sum() >= 50]
    paper = float(np.median([np.percentile(grey[m], 75) for m in insides])) if insides else 255.0
    if paper >= LIMITS["glare_paper"]:
        return None
    return max(float(blown[m].mean()) for m in insides)


def check_glare(image: Image, cards: list[CardSeen]) -> Check:
    """No lamp reflected on the cards (:func:`_blown_on_cards`)."""
    if not cards:
        return waits(Check("glare", True, None, NO_CARD.format("glare")))
    share = _blown_on_cards(image, cards)
    if share is None:
        return Check("glare", True, None, "The cards' white is at full brightness, so a reflection "
                     "cannot be told from it (no glare found)")
    if share > LIMITS["glare"]:
        return Check("glare", False, share, f"Glare: a lamp's reflection whitens {share:.0%} of a card: "
                     "move the lamp or tilt it so its reflection falls off the table")
    return Check("glare", True, share, "No glare on the cards")


LIGHT_PRINT = (160, 90)
"""The size (width, height) a frame's light is compared at for flicker: a row band of an
eighth of the picture still shows, and the print is 57 KB however large the frame."""


def light_print(image: Image) -> Image:
    """What the flicker check keeps of a frame: its grey level, area-averaged to
    :data:`LIGHT_PRINT` (float32).

    >>> import numpy as np
    >>> light_print(np.full((720, 1280, 3), 90, np.uint8)).shape
    (90, 160)
    """
    return cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), LIGHT_PRINT,
                      interpolation=cv2.INTER_AREA).astype(np.float32)


def _light_swings(prints: Sequence[Image]) -> tuple[float, float]:
    """How much the light beats: the typical frame-to-frame change of the whole frame's light,
    and the typical swing of a frame's rows against the frames' median (both as shares), from the
    frames' light prints (:func:`light_print`)."""
    small = np.stack(list(prints))
    usual = np.median(small, axis=0) + 1.0
    ratio = small / usual
    means = ratio.mean(axis=(1, 2))
    beat = float(np.median(np.abs(np.diff(means)))) if len(prints) > 1 else 0.0
    rows = np.median(ratio, axis=2) / means[:, None]
    bands = float(np.median(np.percentile(rows, 95, axis=1) - np.percentile(rows, 5, axis=1))) / 2
    return beat, bands


def check_flicker(prints: Sequence[Image]) -> Check:
    """The light steady from frame to frame and from row to row, judged on the frames' light
    prints (:func:`light_print`)."""
    if len(prints) < 3:
        return Check("flicker", True, None, "One picture: flicker shows only on the camera's own "
                     "frames (check the camera itself)")
    beat, bands = _light_swings(prints)
    swing = max(beat, bands)
    if swing > LIMITS["flicker"]:
        kind = "bands roll across the picture" if bands >= beat else "the light beats"
        return Check("flicker", False, swing, f"Flicker: {kind} (a lamp on the mains): start the "
                     "camera with picamera2:mains=50 (mains=60 in the Americas), or use another lamp")
    return Check("flicker", True, swing, "The light is steady")


def check_contrast(grey: Image, cards: list[CardSeen], read: bool) -> Check:
    """Card paper stands out from the table."""
    if not cards:
        return waits(Check("contrast", True, None, NO_CARD.format("contrast")))
    paper = paper_level(grey, card_mask(grey.shape, cards))
    around = card_mask(grey.shape, cards, grow=0.5) & ~card_mask(grey.shape, cards, grow=0.12)
    if not around.any():
        return Check("contrast", True, None, "No table shows round the cards")
    table = float(np.median(grey[around]))
    share = (paper - table) / max(paper, 1.0)
    if share >= LIMITS["contrast"]:
        return Check("contrast", True, share, "The cards stand out from the table")
    if read:
        return Check("contrast", True, share, "A light table: the reader copes (it reads the corner "
                     "index), though a dark cloth would let it see each card's outline")
    return Check("contrast", False, share, "The cards hardly stand out from the table: put down "
                 "a dark cloth")


def check_tilt(image: Image, cards: list[CardSeen]) -> Check:
    """Cards seen square: the camera looks straight down. Each outline's error is its worst
    corner's difference from a right angle, or the lean its proportions imply, in degrees; the
    value is their 35th percentile (a leaning camera skews every card; a stray outline, say one
    round a card's print, is outvoted)."""
    outlines = [c.quad for c in cards if c.quad is not None]
    outlines += skewed_outlines(image, min_side=max(SMALLEST_OUTLINE, round(0.4 * _width(cards))))
    errors = [max(corner_error(q), foreshortening(q)) for q in outlines]
    if not errors:
        return waits(Check("tilt", True, None, "Lay a card apart in front of each player: the tilt is "
                           "judged on whole cards"))
    worst = float(np.percentile(errors, 35))  # most outlines agree: a stray one is not the camera
    if worst > LIMITS["tilt"]:
        return Check("tilt", False, worst, f"Tilted: the cards look {worst:.0f}° off square: point the "
                     "camera straight down at the middle of the table")
    return Check("tilt", True, worst, "The camera looks straight down")


def _width(cards: list[CardSeen]) -> float:
    return float(np.median([c.width for c in cards])) if cards else 0.0
