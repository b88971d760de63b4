"""Read the cards in a photo: the public API of the card reader.

``load_image`` decodes a photo (EXIF orientation honoured); ``read_cards`` finds every corner index
(:mod:`vision.index`), classifies rank and suit (:mod:`vision.cnn`, model in ``vision/models``),
merges the two indices of one card (a deck has no duplicates), attaches card outlines
(:mod:`vision.quads`) and reports cards below the confidence threshold as unreadable.

>>> import numpy as np
>>> r = read_cards(np.full((240, 320, 3), 120, np.uint8))
>>> r.cards, r.unreadable
([], [])
>>> sorted(r.to_json("table.jpg", 320, 240))
['cards', 'height', 'image', 'ms', 'unreadable', 'width']
>>> read_cards(np.full((1, 1, 3), 200, np.uint8)).cards  # too small to hold a card
[]
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from cribbage.cards import Card
from vision import tuning
from vision.cnn import GATE, MODEL_SUITS, SECOND, IndexNet, class_name, read_indices
from vision.heap import keep_freed_memory
from vision.image import load_image
from vision.index import Candidate, Look, first_look, look_again, look_unread
from vision.index.closer import closer_regions
from vision.index.tiling import outside, small_tiles
from vision.patch import Pyramid, cut_patches, narrowed, nudged, pip_tint
from vision.plane import plane_view
from vision.proportions import fills_photo, in_own_outline, stretches, unstretched
from vision.quads import by_opposite_corners, find_quads, inside_all, opposite, order_quad, spanned
from vision.results import CardRead, IndexSeen, Reading, Unreadable
from vision.taught import TaughtDeck

__all__ = ["CardRead", "IndexSeen", "Reading", "Unreadable", "load_image", "read_cards", "read_with_patches"]

BLUE, RED = 0, 2  # channels of a BGR patch
RED_SUITS = np.array([MODEL_SUITS.index("D"), MODEL_SUITS.index("H")])  # their suit classes
SCORE_BLOCK = 256
"""Candidates whose patches are cut and read at once (3 MB of patches; a multiple of the
network's batch)."""


@dataclass(frozen=True, eq=False)
class _Scored:
    cand: Candidate
    card: str
    conf: float
    patch: np.ndarray
    ranks: np.ndarray  # the network's rank probabilities (A-K, none)
    suits: np.ndarray  # and suit probabilities (MODEL_SUITS, none)
    joint: bool = False  # conf is already the joint of this card's two views (_two_views_of_one_card)
    contrary: bool = False  # its pip's colour contradicted the suit the network saw (_not_red_unless_red)


def _opposite(a: _Scored, b: _Scored) -> bool:
    """:func:`vision.quads.opposite` for two readings."""
    return opposite(a.cand, b.cand)


def _score(pyramid: Pyramid, cands: list[Candidate], deck: TaughtDeck | None = None) -> list[_Scored]:
    """Classify each candidate's upright index patch, cut from the photo's ``pyramid`` (shared by
    the first and second look and the outlines); keep those the network calls a card. With a
    taught deck, a patch close to one of its indices is sharpened toward that card. A card named
    with doubt (confidence from ``tuning.LOOK_CLOSER`` up to the threshold) is looked at again
    (:func:`_closer`).
    A glyph under ``tuning.MIN_GLYPH`` px is not read at all. The candidates are read
    :data:`SCORE_BLOCK` at a time, so a frame of a thousand candidates holds a block's patches at
    once, not all of them."""
    cands = [c for c in cands if c.size >= tuning.MIN_GLYPH]
    return [scored for b in range(0, len(cands), SCORE_BLOCK)
            for scored in _score_block(pyramid, cands[b : b + SCORE_BLOCK], deck)]


def _score_block(pyramid: Pyramid, cands: list[Candidate], deck: TaughtDeck | None) -> list[_Scored]:
    """:func:`_score` for one block of candidates."""
    if not cands:
        return []
    x = cut_patches(pyramid, [(c.rank_pos, c.suit_pos) for c in cands])
    pr, ps = read_indices(x)
    if deck is not None:
        pr = deck.sharpen(pr, x)
    best_r, best_s = pr[:, :-1].max(axis=1), ps[:, :-1].max(axis=1)
    conf = best_r * best_s
    doubt = np.nonzero((best_r > pr[:, -1]) & (best_s > ps[:, -1]) & (conf >= tuning.LOOK_CLOSER)
                       & (conf < tuning.THRESHOLD) & ~np.array([c.guessed for c in cands]))[0]
    if len(doubt):
        pr[doubt], ps[doubt] = _closer(pyramid, [cands[k] for k in doubt], x[doubt], pr[doubt], ps[doubt],
                                       deck=deck)
    contrary, ps = _not_red_unless_red(pyramid, x, pr, ps)
    out = []
    for k, c in enumerate(cands):
        r, s = int(pr[k, :-1].argmax()), int(ps[k, :-1].argmax())
        if pr[k, -1] >= pr[k, r] or ps[k, -1] >= ps[k, s]:
            continue
        conf_k = float(pr[k, r] * ps[k, s])
        if contrary[k]:  # colour and shape disagree: at most in doubt
            conf_k = min(conf_k, tuning.IN_DOUBT)
        if conf_k < (tuning.GUESSED_MIN if c.guessed else tuning.MIN_EVIDENCE):
            continue
        out.append(_Scored(c, class_name(r, s), conf_k, x[k].copy(), pr[k].copy(), ps[k].copy(),
                               contrary=bool(contrary[k])))  # copies: the block's arrays go
    return out


def _not_red_unless_red(pyramid: Pyramid, x: np.ndarray, pr: np.ndarray,
                        ps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A heart is printed red, and a diamond red or (in a four-colour deck) blue. Where the suit
    pip of a patch read as one is neither (:func:`vision.patch.pip_tint`: black, grey or green
    print), the two red suits' probabilities of ``ps`` are set to 0 and the rest scaled up to sum
    to 1: the patch reads as the black suit the network found likelier. Such readings are
    returned ((N,) bool, "contrary") with the suits' probabilities so changed (a new array), and
    :func:`_score` holds them in doubt: a card only where the card's other index agrees. Only
    readings that could be a card are looked at (a suit and a rank each likelier than none, their
    product at least ``tuning.MIN_EVIDENCE``; ``pr`` holds the ranks' probabilities), and not in a
    greyscale photo, where every pip is grey (:func:`vision.patch.in_colour`).

    The network reads colour but leans on shape: a drawn five of diamonds printed black reads as
    a five of diamonds at 1.0, and a small, blurred spade of a deck it has not seen (held-out
    orell's, whose spade narrows to a point) as a diamond at 0.95.

    >>> import numpy as np
    >>> x = np.ones((1, 3, 40, 24), np.float32); x[0, :, 26:31, 10:15] = 0.2  # a black pip
    >>> img = np.zeros((40, 40, 3), np.uint8); img[::2, ::2, 2] = 200  # a photo in colour
    >>> ps = np.array([[0.02, 0.9, 0.03, 0.04, 0.01]], np.float32)  # C D H S none: "a diamond"
    >>> pr = np.eye(14, dtype=np.float32)[4:5]  # "a five"
    >>> contrary, suits = _not_red_unless_red(Pyramid(img), x, pr, ps)
    >>> contrary.tolist(), [round(float(p), 2) for p in suits[0]]
    ([True], [0.29, 0.0, 0.0, 0.57, 0.14])
    """
    best = ps[:, :-1].max(axis=1)
    red_suits = ((ps[:, :-1].argmax(axis=1)[:, None] == RED_SUITS).any(axis=1) & (best > ps[:, -1])
                 & (pr[:, :-1].max(axis=1) * best >= tuning.MIN_EVIDENCE))
    contrary = np.zeros(len(ps), bool)
    if not red_suits.any() or not pyramid.in_colour:
        return contrary, ps
    tint = pip_tint(x[red_suits])
    neither = (tint[:, RED] < tuning.NOT_RED) & (tint[:, BLUE] < tuning.NOT_BLUE)  # (a pip with no ink too)
    contrary[np.nonzero(red_suits)[0][neither]] = True
    ps = ps.copy()
    ps[np.ix_(contrary, RED_SUITS)] = 0
    ps[contrary] /= np.maximum(ps[contrary].sum(axis=1, keepdims=True), 1e-6)
    return contrary, ps


def _closer(pyramid: Pyramid, cands: list[Candidate], x: np.ndarray, pr: np.ndarray, ps: np.ndarray, *,
            deck: TaughtDeck | None) -> tuple[np.ndarray, np.ndarray]:
    """A second opinion on indices read with doubt (their patches ``x``, read ``pr``, ``ps``):
    each patch cut again from six windows a little moved and scaled (:func:`vision.patch.nudged`),
    and the seven readings' probabilities joined (geometric mean). A real index reads the same
    from all of them; a near-miss does not.

    Then the index alone: the seven windows narrowed (:func:`vision.patch.narrowed`), so that what
    lies beside a one-glyph index (the edge of the card over it, the last card's index in a tight
    spread) no longer speaks. Their joined reading is taken where it names the same card, surer.
    (A clear black three and seven of a real spread read 0.26 and 0.23 with the last card's index at the
    window's side, 0.79 and 0.61 without it.) Not for a "10" read as one: its window is centred
    between its digits, and narrowing it cuts them.

    >>> import numpy as np
    >>> img = np.full((80, 60, 3), 220, np.uint8)
    >>> c = Candidate((30, 40), (0, 1), 10, (30, 35), (30, 45), (1, 2))
    >>> x = cut_patches(Pyramid(img), [(c.rank_pos, c.suit_pos)])
    >>> pr, ps = np.full((1, 14), 1 / 14), np.full((1, 5), 0.2)
    >>> r, s = _closer(Pyramid(img), [c], x, pr, ps, deck=None)
    >>> r.shape, s.shape, round(float(r.sum()), 3), round(float(s.sum()), 3)
    ((1, 14), (1, 5), 1.0, 1.0)
    """
    moved = [p for c in cands for p in nudged(c.rank_pos, c.suit_pos, tuning.NUDGE)]
    n = len(cands)
    m = len(moved) // n
    xm = cut_patches(pyramid, moved)
    net = IndexNet.load()
    qr, qs = net.predict(xm)
    if deck is not None:
        qr = deck.sharpen(qr, xm)

    def joined(p: np.ndarray, q: np.ndarray, k: int) -> np.ndarray:
        logs = np.log(p + 1e-6) + np.log(q.reshape(k, m, -1) + 1e-6).sum(axis=1)
        e = np.exp(logs / (m + 1))
        return e / e.sum(axis=1, keepdims=True)

    jr, js = joined(pr, qr, n), joined(ps, qs, n)
    one = np.nonzero([len(c.labels) == 2 for c in cands])[0]  # a glyph and its pip
    if len(one):
        k = len(one)
        shape = xm.shape[1:]
        xa = narrowed(np.concatenate([x[one], xm.reshape(n, m, *shape)[one].reshape(k * m, *shape)]))
        ar, as_ = net.predict(xa)
        if deck is not None:
            ar = deck.sharpen(ar, xa)
        nr, ns = joined(ar[:k], ar[k:], k), joined(as_[:k], as_[k:], k)
        r1, s1, r0, s0 = nr[:, :-1], ns[:, :-1], jr[one, :-1], js[one, :-1]  # the cards' probabilities
        same = (r1.argmax(axis=1) == r0.argmax(axis=1)) & (s1.argmax(axis=1) == s0.argmax(axis=1))
        surer = r1.max(axis=1) * s1.max(axis=1) > r0.max(axis=1) * s0.max(axis=1)
        take = same & surer
        jr[one[take]], js[one[take]] = nr[take], ns[take]
    return jr, js


def _suppress(scored: list[_Scored]) -> list[_Scored]:
    """One reading per index: the most confident of candidates sharing ink or a place. Where
    another candidate on the same ink (the finder offers a "10" whole and its "1" alone, at more
    than one ink level) is read as a different card, sure enough to be reported too, the index is
    read from both (:func:`_join`): two confident readings that contradict each other leave it in
    doubt, not certain of whichever won by a hair (a ten of spades of an unseen deck, read as a
    club at 0.780 from one window and as a spade at 0.779 from the other).

    >>> def seen(labels, x, suits):
    ...     c = Candidate((x, 50), (0, 1), 20, (x, 45), (x, 60), labels)
    ...     ranks = np.eye(14)[9] * 0.94 + 0.004
    ...     return _Scored(c, "T" + MODEL_SUITS[int(np.argmax(suits[:4]))], 0.94 * max(suits), np.zeros(0),
    ...                    ranks, np.array(suits))
    >>> club, spade = seen((1, 2), 50, [0.83, 0, 0, 0.11, 0.06]), seen((1,), 47, [0.13, 0, 0, 0.82, 0.05])
    >>> [(s.card, round(s.conf, 2)) for s in _suppress([club, spade])]
    [('TC', 0.46)]
    >>> [(s.card, round(s.conf, 2)) for s in _suppress([seen((1, 2), 50, [0.83, 0, 0, 0.11, 0.06])])]
    [('TC', 0.78)]
    """
    scored = sorted(scored, key=lambda s: -s.conf)
    kept: list[_Scored] = []
    used: set[int] = set()
    for s in scored:
        if used.intersection(s.cand.labels):
            continue
        if any(math.hypot(s.cand.center[0] - k.cand.center[0], s.cand.center[1] - k.cand.center[1])
               < 0.8 * max(s.cand.size, k.cand.size) for k in kept):
            continue
        kept.append(s)
        used.update(s.cand.labels)
    sure: dict[int, list[_Scored]] = {}  # ink blob → the readings on it sure enough to report
    for r in scored:
        if r.conf >= tuning.THRESHOLD:
            for label in r.cand.labels:
                sure.setdefault(label, []).append(r)
    for i, k in enumerate(kept):
        rivals = list({id(r): r for label in k.cand.labels for r in sure.get(label, ())
                       if r.card != k.card}.values())
        if rivals:
            kept[i] = _join(k, rivals)
    return kept


def _join(s: _Scored, rivals: list[_Scored]) -> _Scored:
    """``s`` read again from its own probabilities and its rivals' (their geometric mean); a new
    reading (the rivals and ``s`` itself stay as read, for a later call)."""
    n = 1 + len(rivals)
    pr = np.exp(sum(np.log(v.ranks + 1e-6) for v in [s, *rivals]) / n)
    ps = np.exp(sum(np.log(v.suits + 1e-6) for v in [s, *rivals]) / n)
    pr, ps = pr / pr.sum(), ps / ps.sum()
    r, u = int(pr[:-1].argmax()), int(ps[:-1].argmax())
    return replace(s, card=class_name(r, u), conf=float(pr[r] * ps[u]), ranks=pr, suits=ps)


def _one_scale_per_card(kept: list[_Scored], quads: list[np.ndarray]) -> list[_Scored]:
    """Inside one card outline, indices are all one size: drop readings of a much larger or smaller
    glyph than most of the readings there (a big centre pip read as a rank, say). The size that
    counts is the one with the most confidence behind it: an outline round a whole row holds many
    indices of one size, and one confident reading of something else does not outvote them.

    >>> def seen(name, size, conf):
    ...     return _Scored(Candidate((50, 50), (0, 1), size, (50, 45), (50, 55), (1,)), name, conf,
    ...                    np.zeros(0), np.zeros(14), np.zeros(5))
    >>> row = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], float)
    >>> held = [seen("8C", 21, 0.96), seen("5H", 22, 0.95), seen("KD", 23, 0.87), seen("2H", 11, 0.98)]
    >>> [s.card for s in _one_scale_per_card(held, [row])]
    ['8C', '5H', 'KD']
    """
    drop: set[int] = set()
    at = inside_all(quads, [s.cand.center for s in kept])
    for here in at:
        held = np.nonzero(here)[0].tolist()
        if len(held) < 2:
            continue

        def alike(k: int, ref: float) -> bool:
            return ref / 1.5 < kept[k].cand.size < ref * 1.5

        ref = max((kept[k].cand.size for k in held),
                  key=lambda r: (sum(kept[k].conf for k in held if alike(k, r)), r))
        names = {kept[k].card for k in held if alike(k, ref)}
        drop.update(k for k in held if not alike(k, ref) and kept[k].card not in names)
    return [s for k, s in enumerate(kept) if k not in drop]


def _two_views_of_one_card(kept: list[_Scored], quads: list[np.ndarray]) -> list[_Scored]:
    """A card's two corner indices are point-symmetric about its centre. Two readings of different
    names inside one card outline, pointing opposite ways, by opposite corners, whose midpoint is
    the outline's centre, are one card seen twice, one view misread (a spade's index taken for a
    club's, say): both are read again from the product of their rank and suit probabilities (new
    readings in their places; those given stay as read). Not two contrary readings
    (:func:`_not_red_unless_red`), which are suits the network did not see.

    >>> import numpy as np
    >>> def seen(x, y, down, suits):
    ...     ranks = np.eye(14)[8] * 0.97 + 0.002
    ...     c = Candidate((x, y), down, 10, (x, y), (x, y + 1), (1,))
    ...     return _Scored(c, "9" + MODEL_SUITS[np.argmax(suits)], 0.8, np.zeros(0), ranks, np.array(suits))
    >>> card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], float)
    >>> a = seen(15, 20, (0, 1), [0.86, 0, 0, 0.12, 0.02])  # the top index, read as a club...
    >>> b = seen(85, 120, (0, -1), [0.05, 0, 0, 0.93, 0.02])  # ...the bottom one, as a spade
    >>> [(s.card, round(s.conf, 2)) for s in _two_views_of_one_card([a, b], [card])]
    [('9S', 0.72), ('9S', 0.72)]
    >>> a = seen(15, 20, (0, 1), [0.9, 0, 0, 0.06, 0.04])  # a club and a spade, each as sure: in doubt
    >>> b = seen(85, 120, (0, -1), [0.06, 0, 0, 0.89, 0.05])
    >>> [(s.card, round(s.conf, 2)) for s in _two_views_of_one_card([a, b], [card])]
    [('9C', 0.5), ('9C', 0.5)]
    """
    out = list(kept)
    at = inside_all(quads, [s.cand.center for s in kept])
    for q, here in zip(quads, at, strict=True):
        both = np.nonzero(here)[0].tolist()
        if len(both) != 2:  # an outline round a row or a stack holds more indices than one card's
            continue
        a, b = out[both[0]], out[both[1]]
        short = min(np.linalg.norm(q[k] - q[(k + 1) % 4]) for k in range(4))
        # (two cards side by side can make one card-shaped outline too)
        mid = (np.array(a.cand.center) + np.array(b.cand.center)) / 2
        if (a.card == b.card or (a.contrary and b.contrary) or not _by_opposite_corners(q, a, b, 0.5)
                or np.linalg.norm(mid - q.mean(axis=0)) > tuning.SYMMETRY * short):
            continue
        both_r, both_u = a.ranks[:-1] * b.ranks[:-1], a.suits[:-1] * b.suits[:-1]
        r, u = int(np.argmax(both_r)), int(np.argmax(both_u))
        # the confidence is the joint's: two views that contradict each other (a club and a spade
        # just as sure) leave the card in doubt, not certain
        joint = float(both_r[r] / both_r.sum() * both_u[u] / both_u.sum())
        for k in both:
            out[k] = replace(out[k], card=class_name(r, u), conf=joint, joint=True)
    return out


def _one_card(group: list[_Scored]) -> list[_Scored]:
    """The readings of one name that belong to the card its surest reading sees: that reading, and
    the card's other indices: pointing the opposite way within ``tuning.OTHER_INDEX`` glyph sizes, or the
    same way within ``tuning.SAME_SIDE`` (a deck with an index in all four corners). A deck holds one card
    of each name, so a reading of the name further off is a misreading of some other card: it must
    not move this card's centre, add to its confidence or be taught as it.

    >>> def seen(x, y, down, conf):
    ...     c = Candidate((x, y), down, 20, (x, y), (x, y + 1), (1,))
    ...     return _Scored(c, "2C", conf, np.zeros(0), np.zeros(14), np.zeros(5))
    >>> top, bottom = seen(133, 28, (0, 1), 0.87), seen(236, 150, (0, -1), 0.83)
    >>> elsewhere = seen(133, 549, (0, 1), 0.46)  # the two of spades' index, four cards down
    >>> [s.conf for s in _one_card([top, elsewhere, bottom])]
    [0.87, 0.83]
    """
    best = max(group, key=lambda s: s.conf)
    return [s for s in group if s is best or _one_cards_indices(s, best)]


def _gap(a: _Scored, b: _Scored) -> float:
    """The distance between two readings' index centres."""
    return float(np.hypot(a.cand.center[0] - b.cand.center[0], a.cand.center[1] - b.cand.center[1]))


def _one_cards_indices(a: _Scored, b: _Scored) -> bool:
    """Whether two readings can be indices of one card: pointing opposite ways within
    ``tuning.OTHER_INDEX`` glyph sizes, or the same way within ``tuning.SAME_SIDE``."""
    reach = tuning.OTHER_INDEX if _opposite(a, b) else tuning.SAME_SIDE
    return _gap(a, b) < reach * max(a.cand.size, b.cand.size)


def _combined(group: list[_Scored]) -> float:
    """The confidence in one card from its readings: two readings that point opposite ways (a
    card's two corner indices are turned 180 degrees to each other) add up; otherwise the best
    one counts alone (two weak "5"s in a line of print are not one card seen twice). Two contrary
    readings (:func:`_not_red_unless_red`) do not add up: each is a suit the network did not see.

    >>> at = lambda down: Candidate((0, 0), down, 10, (0, 0), (0, 1), (1,))
    >>> c = lambda conf, down: _Scored(at(down), "5S", conf, np.zeros(0), np.zeros(14), np.zeros(5))
    >>> round(_combined([c(0.5, (0, 1)), c(0.5, (0, -1))]), 2), _combined([c(0.5, (0, 1)), c(0.5, (0, 1))])
    (0.75, 0.5)
    """
    best = max(s.conf for s in group)
    for k, a in enumerate(group):
        for b in group[k + 1:]:
            if _opposite(a, b) and not (a.joint and b.joint) and not (a.contrary and b.contrary):
                best = max(best, 1 - (1 - a.conf) * (1 - b.conf))
    return best


def _in_doubt(groups: dict[str, list[_Scored]], by_card: dict[str, list[_Scored]]) -> list[_Scored]:
    """The readings of cards not read (``groups`` less ``by_card``, the cards read) that are to be
    reported as unreadable: all but those within ``tuning.NEAR_READ`` glyph sizes of an index read (that
    index seen again, not another card), and a contrary reading (:func:`_not_red_unless_red`) that
    is a card read's other index: the same rank, pointing the opposite way, within its reach (a
    three of diamonds read by one corner, its other corner's pip paler than red).

    >>> def seen(name, x, conf, down=(0, 1), contrary=False):
    ...     c = Candidate((x, 50), down, 14, (x, 45), (x, 60), (1,))
    ...     return _Scored(c, name, conf, np.zeros(0), np.zeros(14), np.zeros(5), contrary=contrary)
    >>> read = {"3D": [seen("3D", 100, 0.93)]}
    >>> doubt = {"4H": [seen("4H", 130, 0.45)], "4D": [seen("4D", 110, 0.4)]}  # a row's next card
    >>> [s.card for s in _in_doubt({**read, **doubt}, read)]
    ['4H']
    >>> other = {"3S": [seen("3S", 250, 0.59, (0, -1), contrary=True)]}  # the 3D's other corner
    >>> _in_doubt({**read, **other}, read)
    []
    """
    read = [g for grp in by_card.values() for g in grp]

    def seen_again(s: _Scored) -> bool:
        return any(_gap(s, g) < tuning.NEAR_READ * s.cand.size
                   or (s.contrary and g.card[0] == s.card[0] and _opposite(s, g) and _one_cards_indices(s, g))
                   for g in read)

    return [s for name, group in groups.items() if name not in by_card for s in group if not seen_again(s)]


def _likely(doubt: _Scored, groups: dict[str, list[_Scored]]) -> tuple[str, ...]:
    """The names an index in doubt was read as, surest first: its own reading and those of the
    other readings of the same index (within ``tuning.NEAR_READ`` glyph sizes)."""
    near = [s for group in groups.values() for s in group
            if s is doubt or _gap(s, doubt) < tuning.NEAR_READ * doubt.cand.size]
    names: dict[str, float] = {}
    for s in sorted(near, key=lambda s: -s.conf):
        names.setdefault(s.card, s.conf)
    return tuple(names)


def _whole_photo(group: list[_Scored], shape: tuple[int, ...]) -> np.ndarray | None:
    """The photo's own border as the card's outline, when the photo is one card cropped tight to
    its edges (a scan, a crop): card-shaped, with the card's two indices read, pointing opposite
    ways, each by its own corner of the photo, the two corners opposite.

    >>> def seen(x, y, down):
    ...     c = Candidate((x, y), down, 10, (x, y), (x, y + 1), (1,))
    ...     return _Scored(c, "9S", 0.9, np.zeros(0), np.zeros(14), np.zeros(5))
    >>> _whole_photo([seen(15, 25, (0, 1)), seen(185, 255, (0, -1))], (280, 200)).tolist()
    [[0.0, 0.0], [200.0, 0.0], [200.0, 280.0], [0.0, 280.0]]
    >>> _whole_photo([seen(15, 25, (0, 1)), seen(100, 140, (0, -1))], (280, 200)) is None  # one mid-photo
    True
    """
    h, w = shape[:2]
    if not 1.2 < max(h, w) / min(h, w) < 1.75:
        return None
    rect = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    if any(_by_opposite_corners(rect, a, b, 0.3) for k, a in enumerate(group) for b in group[k + 1:]):
        return rect
    return None


def _by_opposite_corners(q: np.ndarray, a: _Scored, b: _Scored, reach: float) -> bool:
    """:func:`vision.quads.by_opposite_corners`, ``reach`` in short sides of the outline."""
    short = min(np.linalg.norm(q[k] - q[(k + 1) % 4]) for k in range(4))
    return by_opposite_corners(q, a.cand, b.cand, reach * short)


def _explained(quads: list[np.ndarray], sure: list[_Scored]) -> list[np.ndarray]:
    """The outlines whose ink the cards read so far (``sure``) explain, so that it is not looked at
    again (:func:`vision.index.look_again`, :func:`vision.index.look_unread`): an outline holding
    a card read at full size (a glyph over ``tuning.SECOND_LOOK_MAX``: the tiny blobs of its picture are
    its own print, not small cards), or holding both corner indices of one card read, each by a
    corner of its own, the two corners opposite (a small card: its outline is its own, not two
    cards side by side, which can make one card-shaped outline too, nor the board they lie on).

    >>> def seen(name, x, y, down, size=8.0):
    ...     c = Candidate((x, y), down, size, (x, y), (x, y + 1), (1,))
    ...     return _Scored(c, name, 0.9, np.zeros(0), np.zeros(14), np.zeros(5))
    >>> card = np.array([[0, 0], [70, 0], [70, 100], [0, 100]], float)
    >>> pair = np.array([[0, 0], [140, 0], [140, 100], [0, 100]], float)  # it and the card beside it
    >>> small = [seen("2S", 8, 12, (0, 1)), seen("2S", 62, 88, (0, -1))]
    >>> [len(q) for q in _explained([card, pair], small)]  # its own outline only
    [4]
    >>> len(_explained([pair], [seen("KH", 20, 30, (0, 1), 30)]))  # a card read at full size
    1
    """
    at = inside_all(quads, [s.cand.center for s in sure])
    out = []
    for q, here in zip(quads, at, strict=True):
        held = [s for s, h in zip(sure, here, strict=True) if h]
        if (any(s.cand.size > tuning.SECOND_LOOK_MAX for s in held)
                or any(a.card == b.card and _by_opposite_corners(q, a, b, 0.5)
                       for k, a in enumerate(held) for b in held[k + 1:])):
            out.append(q)
    # a card read by both its corner indices whose outline was not found (a weave or a card beside
    # it broke its edge) explains the part of it they span
    for k, a in enumerate(sure):
        for b in sure[k + 1:]:
            if a.card == b.card and _one_cards_indices(a, b):
                q = spanned(a.cand, b.cand, max(a.cand.size, b.cand.size))
                if q is not None and not inside_all(out, [a.cand.center, b.cand.center]).all(axis=1).any():
                    out.append(q)
    return out


def _print_too_small(quad: np.ndarray, group: list[_Scored]) -> bool:
    """Whether a card's readings (``group``) are all print too small to be the index of a card with
    the outline ``quad`` (glyphs under ``tuning.PRINT_SHARE`` of its short side).

    >>> def seen(size):
    ...     c = Candidate((50, 40), (0, 1), size, (50, 40), (50, 41), (1,))
    ...     return _Scored(c, "TD", 0.8, np.zeros(0), np.zeros(14), np.zeros(5))
    >>> back = np.array([[0, 0], [340, 0], [340, 475], [0, 475]], float)
    >>> _print_too_small(back, [seen(6.0)]), _print_too_small(back, [seen(6.0), seen(30.0)])
    (True, False)
    """
    short = min(float(np.linalg.norm(quad[k] - quad[(k + 1) % 4])) for k in range(4))
    return all(s.cand.size < tuning.PRINT_SHARE * short for s in group)


def _quads(pyramid: Pyramid) -> list[np.ndarray]:
    """Card outlines, found on the half-size image when that is big enough (4x less work)."""
    if min(pyramid.level(0).shape[:2]) < 400:
        return find_quads(pyramid.level(0))
    return [q * 2 + 0.5 for q in find_quads(pyramid.level(1), min_side=20)]


def read_cards(image_bgr: np.ndarray, deck: TaughtDeck | None = None) -> Reading:
    """Every card whose corner index shows in ``image_bgr`` (BGR uint8), each once; ``deck``: the
    players' own deck, taught with :mod:`vision.teach` (optional)."""
    return _read(image_bgr, deck, False)[0]


def read_with_patches(image_bgr: np.ndarray,
                      deck: TaughtDeck | None = None) -> tuple[Reading, dict[str, np.ndarray]]:
    """:func:`read_cards`, and for each card read, or read only in doubt (below the threshold, not
    reported), the upright index patches read as it (N, 3, 40, 24): what :func:`vision.teach.teach`
    keeps of the cards a photo is said to hold, however hesitant."""
    return _read(image_bgr, deck, True)


def _read(image_bgr: np.ndarray, deck: TaughtDeck | None,
          patches: bool) -> tuple[Reading, dict[str, np.ndarray]]:
    _ready()  # once per process, and not part of the reading time
    t0 = time.perf_counter()
    reading, kept = _reading(image_bgr, deck, patches)
    return replace(reading, ms=(time.perf_counter() - t0) * 1000), kept


@lru_cache(maxsize=1)
def _ready() -> None:
    """What a process does once before its first reading, as a camera does before its first frame:
    load the networks, keep the memory one frame frees for the next (:mod:`vision.heap`), and read a
    small drawn index once, so that OpenCV sets up its routines then and not in the first photo
    (a process's first frame is otherwise about half as slow again as the next)."""
    IndexNet.load(), IndexNet.load(str(GATE)), IndexNet.load(str(SECOND)), keep_freed_memory()
    img = np.full((120, 160, 3), 225, np.uint8)
    cv2.putText(img, "7", (40, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (30, 30, 30), 2)
    cv2.circle(img, (52, 70), 8, (30, 30, 30), -1)
    _reading(img, None, False)


def _reading(image_bgr: np.ndarray, deck: TaughtDeck | None,
             patches: bool) -> tuple[Reading, dict[str, np.ndarray]]:
    """:func:`_read` without the set-up and the clock. A near-square photo, largely paper, may be one
    card resized out of its proportions (:mod:`vision.proportions`): it is read stretched back to a
    card's shape first, and that reading is kept when the stretched photo is one card (and the photo
    shows no outline in a card's own proportions round that card's indices)."""
    h, w = image_bgr.shape[:2]
    for fx, fy in stretches(image_bgr) if min(h, w) >= tuning.MIN_SIDE else []:
        size = (round(w * fx), round(h * fy))
        stretched, kept = _as_shot(cv2.resize(image_bgr, size, interpolation=cv2.INTER_CUBIC), deck, patches)
        if len(stretched.cards) == 1 and fills_photo(stretched.cards[0].indices, *size):
            back = unstretched(stretched, w, h)
            if not in_own_outline(image_bgr, back.cards[0].indices):
                return back, kept
    return _as_shot(image_bgr, deck, patches)


# The reading of a photo as it is, in stages, each a new value: the photo scaled (_Photo); its
# indices found and classified, first look then second (_Seen); both indices of each card merged
# (_Merged); each card's outline (_Placed); the report (Reading).


@dataclass(frozen=True)
class _Photo:
    """The photo as read: ``img``, the photo (``width`` x ``height``) scaled by ``scale``."""

    img: np.ndarray
    scale: float
    width: int
    height: int


@dataclass(frozen=True)
class _Seen:
    """The indices found in a photo and read: the first look's readings, the second look's
    (``again``), the card outlines found, and what the second look builds on."""

    first: list[_Scored]
    again: list[_Scored]
    quads: list[np.ndarray]
    look: Look
    pyramid: Pyramid


@dataclass(frozen=True)
class _Merged:
    """The readings merged into cards: every reading kept, by the name it reads (``groups``), each
    name's readings of the one card its surest reading sees (``own``) and their confidence
    (``combined``), and the cards read (``by_card``: combined confidence at the threshold)."""

    groups: dict[str, list[_Scored]]
    own: dict[str, list[_Scored]]
    combined: dict[str, float]
    by_card: dict[str, list[_Scored]]


@dataclass(frozen=True)
class _Placed:
    """A card read, its readings (``group``) and its outline (``quad``, or None)."""

    name: str
    group: list[_Scored]
    quad: np.ndarray | None


def _as_shot(image_bgr: np.ndarray, deck: TaughtDeck | None,
             patches: bool) -> tuple[Reading, dict[str, np.ndarray]]:
    """The reading of the photo as it is: find and classify (:func:`_first_look_read`,
    :func:`_second_look_read`), merge both indices (:func:`_merge`), outlines (:func:`_outlines`),
    report (:func:`_report`)."""
    h, w = image_bgr.shape[:2]
    if min(h, w) < tuning.MIN_SIDE:
        return Reading(width=w, height=h), {}
    photo = _scaled(image_bgr)
    seen = _closer_read(image_bgr, photo, _second_look_read(_first_look_read(photo, deck), deck), deck)
    merged = _merge(seen)
    reading = _report(_outlines(merged, seen.quads, photo.img.shape[:2]), merged, photo)
    if not patches:
        return reading, {}
    return reading, {name: np.stack([s.patch for s in g]) for name, g in merged.own.items()}


def _scaled(image_bgr: np.ndarray) -> _Photo:
    """The photo at the size it is read: enlarged twice if small, at most ``tuning.MAX_SIDE``."""
    h, w = image_bgr.shape[:2]
    scale = 2.0 if max(h, w) < tuning.SMALL_PHOTO else min(1.0, tuning.MAX_SIDE / max(h, w))
    how = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    img = image_bgr if scale == 1.0 else cv2.resize(image_bgr, None, fx=scale, fy=scale, interpolation=how)
    return _Photo(img, scale, w, h)


def _first_look_read(photo: _Photo, deck: TaughtDeck | None) -> _Seen:
    """The first look's candidates (:func:`vision.index.first_look`), classified, and the card
    outlines where any was read."""
    look = first_look(photo.img)
    pyramid = Pyramid(photo.img)  # its halving serves the patches of big indices and the outlines alike
    quads = _quads(pyramid) if look.found else []
    pyramid.view = plane_view(quads, photo.img.shape)
    scored = _score(pyramid, look.found, deck)
    return _Seen(scored, [], quads if scored else [], look, pyramid)


def _second_look_read(seen: _Seen, deck: TaughtDeck | None) -> _Seen:
    """``seen`` with the second look's readings: small glyphs looked at again, and ink the cards read
    surely do not explain (the palest level only where no card at all was read)."""
    sure = [s for s in _suppress(seen.first) if s.conf >= tuning.THRESHOLD]
    explained = _explained(seen.quads, sure)
    again = _score(seen.pyramid, look_again(seen.look, explained=explained)
                   + look_unread(seen.look, explained, [s.cand.rank_pos for s in sure], pale=not sure), deck)
    quads = _quads(seen.pyramid) if again and not seen.quads else seen.quads
    return replace(seen, again=again, quads=quads)


def _closer_read(image_bgr: np.ndarray, photo: _Photo, seen: _Seen, deck: TaughtDeck | None) -> _Seen:
    """``seen`` with the readings of the places a photo read shrunk holds cards too small to read
    at that size (:func:`vision.index.closer.closer_regions`: the card outlines found that the
    cards read do not explain, :func:`_explained`), each cut from the photo's own pixels at the
    scale that brings its card to a readable width, found and read as a photo of its own (first
    and second look), and its readings put back in the shrunk photo's pixels. The merge that
    follows (:func:`_merge`) keeps one reading per index and joins a card's two indices, whichever
    look saw them. A photo read at its own size (a camera's frame) costs nothing here."""
    if photo.scale >= 1.0:
        return seen
    outlines = find_quads(seen.pyramid.level(0), min_side=tuning.CLOSE_MIN_SIDE)  # small ones too
    sure = [s for s in _suppress(seen.first + seen.again) if s.conf >= tuning.THRESHOLD]
    explained = _explained(outlines, sure)
    # an outline inside a card read is that card's print (a pip, a court's frame), not a card
    white = _white(photo.img)
    within = inside_all(explained, [tuple(q.mean(axis=0)) for q in outlines]).any(axis=0)
    small = [q for q, w in zip(outlines, within, strict=True) if not w and _holds_paper(q, photo.img, white)]
    # tiny glyph-like blobs in no outline (of a card read, or about to be read closer): small cards
    # whose outline was not found
    around = [*explained, *small]
    tiles = small_tiles(photo.img.shape[:2], outside(seen.look.small, around))
    regions = closer_regions(small, photo.scale, image_bgr.shape[:2], tiles)
    extra: list[_Scored] = []
    for k, region in enumerate(regions, 1):
        x0, y0, x1, y1 = region.box
        f = region.scale
        crop = image_bgr[y0:y1, x0:x1]
        if f < 1.0:
            crop = cv2.resize(crop, (max(1, round(crop.shape[1] * f)), max(1, round(crop.shape[0] * f))),
                              interpolation=cv2.INTER_AREA)
        if min(crop.shape[:2]) < tuning.MIN_SIDE:
            continue
        near = _second_look_read(_first_look_read(_Photo(crop, 1.0, *crop.shape[1::-1]), deck), deck)
        extra += [replace(s, cand=_put_back(s.cand, (x0, y0), f, photo.scale, k * tuning.CLOSE_LOOK))
                  for s in near.first + near.again]
    if not extra:
        return seen
    return replace(seen, again=seen.again + extra, quads=seen.quads or _quads(seen.pyramid))


def _holds_paper(q: np.ndarray, img: np.ndarray, white: float) -> bool:
    """Whether the outline ``q`` is largely paper, as a card face up is: the brightest quarter of
    it (in its darkest channel) at least ``tuning.CLOSE_PAPER`` of the photo's ``white``
    (:func:`_white`); a box printed on a dark felt, a chip or a card back is not.

    >>> img = np.full((100, 200, 3), 60, np.uint8); img[20:80, 20:60] = 230  # a card on a dark felt
    >>> card = np.float32([[20, 20], [60, 20], [60, 80], [20, 80]])
    >>> _holds_paper(card, img, _white(img)), _holds_paper(card + [100, 0], img, _white(img))
    (True, False)
    """
    x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 1
    here = img[y0:y1, x0:x1].min(axis=2)
    if here.size == 0:
        return False
    mask = np.zeros(here.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(q - [x0, y0]).astype(np.int32).reshape(-1, 1, 2), 1)
    inside = here[mask > 0]
    return bool(inside.size) and float(np.percentile(inside, 75)) >= tuning.CLOSE_PAPER * white


def _white(img: np.ndarray) -> float:
    """The photo's white: the 99th percentile of its darkest channel (every fourth pixel)."""
    return max(float(np.percentile(img[::4, ::4].min(axis=2), 99)), 1.0)


def _put_back(c: Candidate, origin: tuple[int, int], f: float, scale: float, look: int) -> Candidate:
    """A candidate found in a place cut from the photo at ``origin`` (the photo's own pixels) and
    read at ``f`` of its own size, in the pixels of the photo shrunk by ``scale``; its ink blobs
    numbered as looks from ``look`` (no other look's).

    >>> from vision.index import BlobId
    >>> c = Candidate((20, 30), (0, 1), 10, (20, 25), (20, 35), (BlobId(1, 7),))
    >>> back = _put_back(c, (400, 200), 0.5, 0.25, 10_000)
    >>> back.center, back.size, back.labels
    ((109.75, 64.75), 5.0, (BlobId(look=10001, blob=7, scale=1),))
    """
    g = scale / f

    def put(p: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] + 0.5) * g + origin[0] * scale - 0.5, (p[1] + 0.5) * g + origin[1] * scale - 0.5)

    return replace(c, center=put(c.center), size=c.size * g, rank_pos=put(c.rank_pos),
                   suit_pos=put(c.suit_pos),
                   labels=tuple(replace(b, look=b.look + look) for b in c.labels))


def _merge(seen: _Seen) -> _Merged:
    """One reading per index, and the readings of one card (both its corner indices) merged."""
    # off-scale readings go before one reading per index is chosen: a confident misreading of part
    # of an index (its pip's outline, say) would otherwise take the place of the index's own reading
    kept = _suppress(_one_scale_per_card(seen.first + seen.again, seen.quads))
    kept = _two_views_of_one_card(kept, seen.quads)
    # both indices of one card agreeing is more evidence than either: combine them before the
    # threshold (a deck has no duplicates, so one name is one card; see _combined)
    groups: dict[str, list[_Scored]] = {}
    for s in kept:
        groups.setdefault(s.card, []).append(s)
    own = {name: _one_card(g) for name, g in groups.items()}
    combined = {name: _combined(g) for name, g in own.items()}
    by_card = {name: own[name] for name in groups if combined[name] >= tuning.THRESHOLD}
    return _Merged(groups, own, combined, by_card)


def _outlines(merged: _Merged, quads: list[np.ndarray], shape: tuple[int, ...]) -> list[_Placed]:
    """Each card read with its outline: one that holds its own indices and no other card's (or, for
    a photo of one card cropped to its edges, the photo's border); a card whose print is too small
    for every outline it lies in is a card back's pattern, and left out."""
    by_card = merged.by_card
    owners = [name for name, g in by_card.items() for _ in g]
    at = inside_all(quads, [s.cand.center for g in by_card.values() for s in g])
    placed = []
    for name, group in by_card.items():
        k = owners.index(name) + max(range(len(group)), key=lambda i: group[i].conf)  # its surest reading
        mine = np.array([o == name for o in owners], bool)
        held = [q for q, here in zip(quads, at, strict=True) if here[k] and not here[~mine].any()]
        if not held and len(by_card) == 1 and (whole := _whole_photo(group, shape)) is not None:
            held = [whole]
        fits = [q for q in held if not _print_too_small(q, group)]
        if held and not fits:  # print too small for every outline it lies in: a card back's pattern
            continue
        placed.append(_Placed(name, group, fits[0] if fits else None))
    return placed


def _report(placed: list[_Placed], merged: _Merged, photo: _Photo) -> Reading:
    """The reading in the photo's own pixels: the cards placed, top to bottom, and the indices in
    doubt that are no card's (:func:`_in_doubt`) as unreadable."""
    scale = photo.scale
    cards = []
    for p in placed:
        if p.quad is not None:
            cx, cy = p.quad.mean(axis=0)
            qj = [[round(float(x) / scale, 1), round(float(y) / scale, 1)] for x, y in order_quad(p.quad)]
        else:
            cx = float(np.mean([s.cand.center[0] for s in p.group]))
            cy = float(np.mean([s.cand.center[1] for s in p.group]))
            qj = None
        seen = [IndexSeen((float(s.cand.center[0]) / scale, float(s.cand.center[1]) / scale),
                          (float(s.cand.down[0]), float(s.cand.down[1])), float(s.cand.size) / scale)
                for s in p.group]
        center = (float(cx) / scale, float(cy) / scale)
        cards.append(CardRead(Card(p.name), min(merged.combined[p.name], 0.999), center, qj, seen))
    unreadable = [Unreadable((s.cand.center[0] / scale, s.cand.center[1] / scale), float(s.cand.size) / scale,
                             _likely(s, merged.groups))
                  for s in _in_doubt(merged.groups, merged.by_card)]
    cards.sort(key=lambda c: (c.center[1], c.center[0]))
    return Reading(cards, unreadable, width=photo.width, height=photo.height)
