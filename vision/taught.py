"""Teach your deck: the corner indices of the players' own deck, kept to tighten recognition.

Optional and never required. Photograph the deck once (cards apart, face up, a suit or so per
photo); :func:`vision.teach.teach` reads each photo with the ordinary reader and keeps the upright
index patches (:mod:`vision.patch`) of every card it reads confidently (or, given the list of cards
in the photos, of those cards). When reading a table later with ``read_cards(img, deck=taught)``,
each candidate's rank glyph is also compared with the taught glyphs (normalised cross-correlation);
a glyph that matches one taught rank closely, and clearly better than any other, sharpens the
network's rank toward it, so a typeface the network reads hesitantly is read with confidence. What
matches nothing closely, and the suit always, is left to the network.

The file (``.npz``) holds the patches as 8-bit pictures, the card names and the name of the patch
normalisation (a file from before it was recorded is brought up to date as it is read): about
2 kB a card.

>>> import numpy as np
>>> t = TaughtDeck(["7H", "7H"], np.zeros((2, 3, 40, 24), np.uint8))
>>> t.known()
['7H']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cribbage.cards import RANKS
from vision.cnn import CARDS
from vision.errors import ImageError
from vision.patch import (
    ABOVE,
    BELOW,
    INDEX_PAPER,
    PATCH_H,
    PATCH_W,
    WHOLE_WINDOW,
    as_read,
    stored_norm,
)

Probs = npt.NDArray[np.float32]
SHAPE = (3, PATCH_H, PATCH_W)
# patch rows above this hold the rank glyph: half-way from the glyph's centre to the pip's (row 21)
SPLIT = round((ABOVE + 0.5) / (ABOVE + BELOW) * PATCH_H)
MATCH = 0.8  # normalised correlation from which a taught index counts as seen again
MARGIN = 0.05  # ...and by this much more than to any other rank
TEMP = 0.02  # softness of the match between close templates (correlation units)
FLOOR = 0.02  # what a taught match leaves of a class it does not name (never zero)


@dataclass
class TaughtDeck:
    """Index patches of one deck: ``cards[i]`` is the card whose index ``patches[i]`` shows
    (uint8 (N, 3, 40, 24): :func:`vision.patch.to_bytes` of what :func:`vision.patch.cut_patches` gives)."""

    cards: list[str]
    patches: npt.NDArray[np.uint8]
    _glyph: npt.NDArray[np.float32] = field(init=False, repr=False)
    _rank: npt.NDArray[np.int64] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.cards) != len(self.patches):
            raise ValueError("one card name per patch")
        if any(c not in CARDS for c in self.cards):
            raise ValueError("card names are like 7H")
        self._glyph = unit_rows(self.patches.astype(np.float32)[:, :, :SPLIT])
        self._rank = np.array([RANKS.index(c[0]) for c in self.cards], np.int64)

    def known(self) -> list[str]:
        """The cards taught, in deck order."""
        return [c for c in CARDS if c in set(self.cards)]

    def match(self, patches: npt.NDArray[np.float32]) -> Probs:
        """(N, 13): the best correlation of each patch's rank glyph (its top part) with each rank's
        taught glyphs; -1 where the rank is not taught.

        >>> import numpy as np
        >>> from vision.patch import to_bytes
        >>> rng = np.random.default_rng(0)
        >>> p = rng.uniform(0, 1.25, (2, 3, 40, 24)).astype(np.float32)
        >>> m = TaughtDeck(["5S", "KD"], to_bytes(p)).match(p)
        >>> [RANKS[i] for i in m.argmax(axis=1)], bool(m.max() > 0.99)
        (['5', 'K'], True)
        """
        out = np.full((len(patches), len(RANKS)), -1.0, np.float32)
        if len(patches) == 0 or len(self.cards) == 0:
            return out
        sims = unit_rows(np.asarray(patches, np.float32)[:, :, :SPLIT]) @ self._glyph.T
        for k in np.unique(self._rank):
            out[:, k] = sims[:, self._rank == k].max(axis=1)
        return out

    def sharpen(self, ranks: Probs, patches: npt.NDArray[np.float32]) -> Probs:
        """The network's rank probabilities (N, 14), sharpened toward the taught rank whose glyph
        the patch matches closely: at least ``MATCH``, and ``MARGIN`` better than any other rank.
        Other patches are left to the network, and so is the suit always (blurred spade and club
        pips correlate too well for pixels to tell them apart; the network does better)."""
        ranks = ranks.copy()
        sims = self.match(patches)
        if sims.shape[1] < 2 or not len(sims):
            return ranks
        top2 = -np.partition(-sims, 1, axis=1)[:, :2]
        close = (top2[:, 0] >= MATCH) & (top2[:, 0] - top2[:, 1] >= MARGIN)
        if not close.any():
            return ranks
        q = np.exp((sims[close] - top2[close, :1]) / TEMP) * (sims[close] > -1)
        q /= q.sum(axis=1, keepdims=True)
        q = np.concatenate([q, np.zeros((len(q), 1), np.float32)], axis=1)  # "none" is never taught
        p = ranks[close] * (q + FLOOR)
        ranks[close] = p / p.sum(axis=1, keepdims=True)
        return ranks

    def save(self, path: str | Path) -> None:
        """Write the deck to ``path`` (``.npz``)."""
        np.savez_compressed(path, cards=np.array(self.cards), patches=self.patches, norm=INDEX_PAPER)

    @classmethod
    def load(cls, path: str | Path) -> TaughtDeck:
        """Read a deck written by :meth:`save`; a missing or foreign file is an ``ImageError``."""
        try:
            with np.load(path, allow_pickle=False) as z:
                cards = [str(c) for c in z["cards"]]
                patches = np.asarray(z["patches"])
                norm = stored_norm(z)
        except FileNotFoundError:
            raise ImageError(f"{path}: no such file (crib vision teach writes a taught deck)") from None
        except (OSError, KeyError, ValueError, EOFError):
            raise ImageError(f"{path}: not a taught deck (crib vision teach writes one)") from None
        if (patches.dtype != np.uint8 or patches.ndim != 4 or patches.shape[1:] != SHAPE
                or len(patches) != len(cards) or any(c not in CARDS for c in cards)
                or norm not in (WHOLE_WINDOW, INDEX_PAPER)):
            raise ImageError(f"{path}: not a taught deck (wrong contents)")
        return cls(cards, as_read(patches, norm))


def unit_rows(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Each patch flattened, less its mean, scaled to length 1 (so a dot product is the
    normalised correlation)."""
    f = x.reshape(len(x), int(np.prod(x.shape[1:]))).astype(np.float32)
    f = f - f.mean(axis=1, keepdims=True)
    return f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-6)
