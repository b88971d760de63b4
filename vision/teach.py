"""Teaching a deck: read photos of the players' own deck and keep its corner indices.

:func:`teach` reads each photo with the ordinary reader (:func:`vision.reader.read_with_patches`)
and keeps the upright index patches of the cards it holds, as a :class:`vision.taught.TaughtDeck`
that later readings use (``read_cards(img, deck=...)``).

>>> import numpy as np
>>> lesson = teach([("blank", np.full((240, 320, 3), 200, np.uint8))])
>>> lesson.taught, lesson.deck.known()
({'blank': []}, [])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from vision.cnn import CARDS
from vision.patch import to_bytes
from vision.reader import read_with_patches
from vision.taught import SHAPE, TaughtDeck

__all__ = ["TEACH_CONFIDENCE", "Lesson", "teach"]

TEACH_CONFIDENCE = 0.9  # without a list of the cards, readings at least this sure are taught


@dataclass
class Lesson:
    """What :func:`teach` learnt: the deck, and per photo the cards taught and those expected
    (from the list given) but not read there."""

    deck: TaughtDeck
    taught: dict[str, list[str]]
    missing: dict[str, list[str]]


def teach(images: Sequence[tuple[str, np.ndarray]], cards: Iterable[str] | None = None,
          add_to: TaughtDeck | None = None) -> Lesson:
    """Teach the deck in ``images`` ((name, BGR) pairs). With ``cards`` (the cards the photos hold),
    every reading of one of those cards is taught, however hesitant (one read only in doubt, below
    the reader's threshold, too); without, only readings at least ``TEACH_CONFIDENCE`` sure.
    ``add_to`` extends an earlier lesson."""
    wanted = None if cards is None else set(cards)
    names: list[str] = list(add_to.cards) if add_to else []
    kept: list[np.ndarray] = [add_to.patches] if add_to else []
    taught: dict[str, list[str]] = {}
    missing: dict[str, list[str]] = {}
    for label, img in images:
        reading, patches = read_with_patches(img)  # the cards read, and those read only in doubt
        sure = {card.card.name for card in reading.cards if card.confidence >= TEACH_CONFIDENCE}
        here = [c for c in CARDS if c in patches and (c in wanted if wanted is not None else c in sure)]
        for card in here:
            kept.append(to_bytes(patches[card]))
            names += [card] * len(patches[card])
        taught[label] = here
        if wanted is not None:
            missing[label] = sorted(wanted - set(here), key=CARDS.index)
    if wanted is not None:  # a card read in any photo is not missing
        seen = set(names)
        missing = {k: [c for c in v if c not in seen] for k, v in missing.items()}
    patches_all = np.concatenate(kept) if kept else np.zeros((0, *SHAPE), np.uint8)
    return Lesson(TaughtDeck(names, patches_all), taught, missing)
