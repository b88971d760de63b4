"""Held-out table photos by how the cards lie: the subsets the reader's figures are given for.

Each subset draws 1280x720 (or 1280x800) photos of cards of the held-out decks (never trained on:
``load_decks(split="val")`` and drawn style 7, or only drawn style 7 where no artwork is
installed), each photo with the names of the cards whose corner index shows:

- by how the cards are turned: ``upright`` (upright or upside down, within 8°), ``quarter``
  (turned a quarter, within 8°), ``any-angle`` (any angle);
- by how they overlap: ``overlap-third`` and ``overlap-two-thirds`` (rows where each card covers
  that much of the one before, every index still showing);
- by the table, cards at any angle: ``dark-wood``, ``green-felt``, ``light-maple``, ``white-cloth``;
- by the camera: ``camera-30`` and ``camera-45`` (a whole suit on green felt, cards at any angle,
  seen by a camera that far off the vertical);
- by the deck: ``tailed-queen`` (a European deck's long-tailed serif "Q": the held-out drawn style
  with its queens tailed, :func:`vision.synth.decks.tailed_decks`; the four queens among the cards),
  ``four-index`` (a Czech or Danish deck's index in all four corners: the held-out drawn style so);
- by the hand: ``bridge-fan`` (two hands of thirteen held fanned, one across the table from the
  other: of each card but the last only a strip along its edge shows, from just its index to a
  little more).

>>> img, names = photo("quarter", 3)
>>> img.shape, len(names)
((720, 1280, 3), 10)
>>> sorted(SUBSETS)[:3]
['any-angle', 'bridge-fan', 'camera-30']
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from cribbage.cards import RANKS, SUITS
from vision.cnn import MODEL_CARDS
from vision.synth.compose import finish, place, seen_at_angle, table_image
from vision.synth.decks import Deck, ProceduralDeck, load_decks, procedural_deck, tailed_decks
from vision.synth.scene import held_fan

Angle = Callable[[np.random.Generator, int], float]


@lru_cache(maxsize=1)
def held_out() -> tuple[Deck, ...]:
    """The held-out decks: the artwork ones installed here and drawn style 7."""
    return (*load_decks(split="val"), procedural_deck(7))


def _loose(seed: int, angle: Angle, table: str | None = None, deck: Deck | None = None,
           names: list[str] | None = None) -> tuple[np.ndarray, list[str]]:
    """Ten cards apart in two rows, 100-150 px wide, each turned ``angle(rng, k)`` degrees."""
    rng = np.random.default_rng(seed)
    deck = deck or held_out()[seed % len(held_out())]
    img = table_image(rng, 720, 1280, table)
    names = names or [str(x) for x in rng.choice(MODEL_CARDS, size=10, replace=False)]
    width = float(rng.uniform(100, 150))
    for k, name in enumerate(names):
        x = 130 + (k % 5) * 255 + rng.uniform(-15, 15)
        y = 190 + (k // 5) * 340 + rng.uniform(-15, 15)
        place(img, deck.render(name, 300), (x, y), width, angle(rng, k), rng, tilt=0.04)
    return finish(img, rng), names


def _rows(seed: int, covered: float) -> tuple[np.ndarray, list[str]]:
    """Two rows of five, each card covering ``covered`` of the one before along its width, the
    second row turned round (as the players across the table lay theirs)."""
    rng = np.random.default_rng(seed)
    deck = held_out()[seed % len(held_out())]
    img = table_image(rng, 720, 1280)
    names = [str(x) for x in rng.choice(MODEL_CARDS, size=10, replace=False)]
    width = float(rng.uniform(100, 140))
    step = width * (1 - covered)
    turns = [float(rng.uniform(-15, 15)) for _row in range(2)]
    starts = [(260 + rng.uniform(-40, 40), 200.0), (1020 + rng.uniform(-40, 40), 530.0)]
    for k, name in enumerate(names):
        row, j = divmod(k, 5)
        t = np.radians(turns[row])
        along = j * step * (1 if row == 0 else -1)
        x0, y0 = starts[row]
        place(img, deck.render(name, 300), (x0 + along * np.cos(t), y0 + along * np.sin(t)), width,
              turns[row] + 180 * row, rng, tilt=0.03)
    return finish(img, rng), names


def _camera(seed: int, tilt: float) -> tuple[np.ndarray, list[str]]:
    """A whole suit on green felt at any angles, drawn from above and seen by a 1280x800 camera
    ``tilt`` degrees off the vertical (:func:`vision.synth.compose.seen_at_angle`)."""
    rng = np.random.default_rng(seed)
    deck = held_out()[seed % len(held_out())]
    top = table_image(rng, 1000, 1600, "felt")
    names = [rank + SUITS[seed % 4] for rank in RANKS]
    width = float(rng.uniform(150, 190))
    for k, name in enumerate(names):
        x = 250 + (k % 5) * 270 + rng.uniform(-25, 25)
        y = 200 + (k // 5) * 300 + rng.uniform(-25, 25)
        place(top, deck.render(name, 320), (x, y), width, float(rng.uniform(0, 360)), rng, tilt=0.01)
    img, _ = seen_at_angle(top, tilt, (1280, 800))
    return finish(img, rng), names


def _tailed(seed: int) -> tuple[np.ndarray, list[str]]:
    """The four queens and six other cards of the tailed held-out deck, at any angle."""
    rng = np.random.default_rng(seed)
    others = [c for c in MODEL_CARDS if c[0] != "Q"]
    names = [f"Q{s}" for s in SUITS] + [str(x) for x in rng.choice(others, size=6, replace=False)]
    return _loose(seed, _any, deck=tailed_decks("val")[0], names=names)


@lru_cache(maxsize=1)
def _four_index_deck() -> Deck:
    return ProceduralDeck(7, split="val", four=True)


def _bridge(seed: int) -> tuple[np.ndarray, list[str]]:
    """Two hands of thirteen, each fanned round a point below its cards so that of every card but
    the last only a strip shows, from just its index to a little more (measured down to the
    index's foot); the second hand across the table (turned round)."""
    rng = np.random.default_rng(seed)
    deck = held_out()[seed % len(held_out())]
    img = table_image(rng, 720, 1280)
    names = [str(x) for x in rng.choice(MODEL_CARDS, size=26, replace=False)]
    width = float(rng.uniform(90, 120))
    height = width * deck.aspect
    for hand, (cx, cy, turn) in enumerate([(640 + rng.uniform(-120, 120), 215.0, 0.0),
                                           (640 + rng.uniform(-120, 120), 505.0, 180.0)]):
        cards = names[13 * hand : 13 * hand + 13]
        right = max(deck.indices(name)[0][2] for name in cards)  # the index's right edge, foot
        foot = max(deck.indices(name)[0][3] for name in cards)
        reach = height * float(rng.uniform(0.4, 0.8))  # from the point held to each card's centre
        step = width * (right + float(rng.uniform(0.01, 0.06))) / (reach + height * (0.5 - foot))
        t = np.radians(turn)
        for name, (dx, dy, a) in zip(cards, held_fan(13, reach, step), strict=True):
            x, y = cx + dx * np.cos(t) - dy * np.sin(t), cy + dx * np.sin(t) + dy * np.cos(t)
            place(img, deck.render(name, 300), (x, y), width, np.degrees(a) + turn, rng, tilt=0.02)
    return finish(img, rng), names


def _any(rng: np.random.Generator, k: int) -> float:
    return float(rng.uniform(0, 360))


SUBSETS: dict[str, Callable[[int], tuple[np.ndarray, list[str]]]] = {
    "upright": lambda s: _loose(s, lambda rng, k: float(rng.uniform(-8, 8)) + 180 * (k % 2)),
    "quarter": lambda s: _loose(s, lambda rng, k: float(rng.uniform(-8, 8)) + 90 + 180 * (k % 2)),
    "any-angle": lambda s: _loose(s, _any),
    "overlap-third": lambda s: _rows(s, 1 / 3),
    "overlap-two-thirds": lambda s: _rows(s, 2 / 3),
    "dark-wood": lambda s: _loose(s, _any, "wood_dark"),
    "green-felt": lambda s: _loose(s, _any, "felt"),
    "light-maple": lambda s: _loose(s, _any, "maple"),
    "white-cloth": lambda s: _loose(s, _any, "white_cloth"),
    "camera-30": lambda s: _camera(s, 30.0),
    "camera-45": lambda s: _camera(s, 45.0),
    "tailed-queen": _tailed,
    "four-index": lambda s: _loose(s, _any, deck=_four_index_deck()),
    "bridge-fan": _bridge,
}


def photo(subset: str, seed: int) -> tuple[np.ndarray, list[str]]:
    """Photo ``seed`` of ``subset`` (one of ``SUBSETS``) and the cards whose index shows in it."""
    return SUBSETS[subset](seed)
