"""Discard advice: every way to lay away to the crib, valued exactly with the crib included.

For each choice of discard the coach gives the kept hand's show over every unseen starter
(``hand``) and the crib's show over every starter and every way the other crib cards may
fall (``crib``), each with its minimum, maximum and standard deviation, and the ``total``
for the seat: ``hand + crib`` for the dealer, ``hand - crib`` for the pone. The other crib
cards are taken as uniformly random among the unseen ones (an opponent who lays away at
random, and in the three-player game the card from the pack). The pegging figure from
:mod:`cribbage.coach.pegging` is shown beside these and never added to ``total``.

Method. The unseen cards are the 47 (or 46) not dealt to us, whatever we keep, so both
parts are exact distributions over a few hundred rank classes instead of every card:

* hand: for each starter rank, the rank points of the kept cards with it come from the
  multiset table (:mod:`cribbage.coach.tables`); each of the four starter suits is then a
  card, unseen or not, with the flush (4, or 5 with the starter; 3 and 4 in the five-card
  game) and nobs (a kept jack of the starter's suit) added. 13 x 4 weighted values an option.
* crib: the starter's rank ``rs`` and the sorted ranks ``q`` of the other unknown crib cards
  form a class (13 x 91 of them with two discards, 13 x 455 with one). Its number of card
  outcomes is ``k[rs] * prod(k[q_i] - off_i) / sym`` from the unseen count ``k`` of each rank;
  its rank points are one table row per discard. Suits enter only through two exact counts
  per class: nobs (a jack in the crib of the starter's suit: one of our discards, or an
  unseen jack among ``q``, counted by symmetry over that rank's unseen cards) and the
  five-card flush (our discards of one suit, the starter and ``q`` of that suit, all ranks
  different: at most one outcome, its cards fixed). Inclusion-exclusion splits each class
  into outcomes worth +0, +1 (nobs), +5 (flush) and +6 (both).

``crib_weighted`` (six-card game, a seat given) is the crib's average with each outcome
weighted by how often a reasonable opponent throws its two other cards' rank pair (the table
of :mod:`cribbage.coach.throw_table` for the opponent's seat). A class holds one rank pair, so the
same class sums (nobs and the flush included) give it exactly: ``sum(w * worth) / sum(w * count)``.

Each option's weighted values go into one histogram (``np.bincount``), from which the mean,
the population standard deviation, the minimum and the maximum are read: the same figures
as scoring all 45,540 (starter, opponent pair) outcomes one by one with
:func:`cribbage.show.show_total`, which the tests check. His heels belongs to the cut, not
to any show, and plays no part.

>>> from cribbage.cards import parse_cards
>>> advice = advise_discards(parse_cards("5H 5S JD QC 2H 9S"), "dealer")
>>> best = advice.options[0]
>>> [c.name for c in best.keep], [c.name for c in best.discard]
(['5H', '5S', 'JD', 'QC'], ['2H', '9S'])
>>> round(best.hand, 2), round(best.crib, 2), best.hand_min, best.hand_max
(12.7, 4.23, 10, 21)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from cribbage.cards import Card, require_distinct
from cribbage.coach.tables import JACK, crib_classes, crib_rank_table, points_by_key, sorted_key
from cribbage.coach.throw_table import card_pair_weights, throw_weights
from cribbage.errors import CardError
from cribbage.game.limits import shown
from cribbage.game.settings import VARIANTS, Variant

__all__ = ["ROLES", "DiscardAdvice", "DiscardOption", "advise_discards", "discard_histograms"]

ROLES = ("dealer", "pone")
"""The seats the coach advises: the crib is ours (dealer) or an opponent's (pone)."""
MAX_TOP = 20
"""The most choices the coach is asked to list (``crib discard --top``, the page's ``top``);
six cards dealt give 15."""

_BINS = 40


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One way to lay away: the cards, each part's exact figures, the total and the pegging."""

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    hand: float
    hand_min: int
    hand_max: int
    hand_sd: float
    crib: float
    crib_min: int
    crib_max: int
    crib_sd: float
    total: float
    pegging: float | None
    crib_weighted: float | None = None
    """The crib's average with the opponent's throw weighted by rank pair (see the module)."""

    def as_dict(self) -> dict[str, Any]:
        """As ``crib discard --json`` prints it (figures rounded to 4 places)."""
        return {
            "keep": [c.name for c in self.keep],
            "discard": [c.name for c in self.discard],
            "hand": round(self.hand, 4),
            "crib": round(self.crib, 4),
            "total": round(round(self.hand, 4) + round(self.total - self.hand, 4), 4),
            "pegging": None if self.pegging is None else round(self.pegging, 2),
            "hand_min": self.hand_min,
            "hand_max": self.hand_max,
            "hand_sd": round(self.hand_sd, 4),
            "crib_min": self.crib_min,
            "crib_max": self.crib_max,
            "crib_sd": round(self.crib_sd, 4),
            "crib_weighted": None if self.crib_weighted is None else round(self.crib_weighted, 4),
        }


@dataclass(frozen=True, slots=True)
class DiscardAdvice:
    """The options for one deal, best ``total`` first."""

    dealt: tuple[Card, ...]
    role: str | None
    variant: str
    options: tuple[DiscardOption, ...]

    def as_dict(self, top: int | None = None) -> dict[str, Any]:
        """``{"dealt": [...], "role": ..., "variant": ..., "options": [...]}``, the first ``top``."""
        return {
            "dealt": [c.name for c in self.dealt],
            "role": self.role,
            "variant": self.variant,
            "options": [o.as_dict() for o in self.options[:top]],
        }


class _CribParts(NamedTuple):
    points: npt.NDArray[np.int64]
    count: npt.NDArray[np.int64]
    nobs: npt.NDArray[np.int64]
    flush: npt.NDArray[np.int64]
    both: npt.NDArray[np.int64]
    q: npt.NDArray[np.int64]


@cache
def _choices(dealt: int, discard: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Positions kept and laid away for every choice, in ``combinations`` order of the kept."""
    keeps = list(combinations(range(dealt), dealt - discard))
    away = [[i for i in range(dealt) if i not in k] for k in keeps]
    return np.array(keeps, dtype=np.int64), np.array(away, dtype=np.int64).reshape(len(keeps), discard)


def _variant(dealt: int, variant: str | Variant | None) -> Variant:
    if isinstance(variant, Variant):
        v = variant
    elif variant is None:
        v = VARIANTS["six-card" if dealt == 6 else "five-card"]
    elif isinstance(variant, str) and variant in VARIANTS:
        v = VARIANTS[variant]
    else:
        raise CardError(f"no variant {shown(variant)}; choose {', '.join(VARIANTS)}")
    if v.dealt != dealt:
        raise CardError(f"the {v.name} game deals {v.dealt} cards, not {dealt}")
    return v


def discard_histograms(
    dealt: Sequence[Card], variant: str | Variant | None = None
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """How many outcomes give each show score, per choice: ``(hand, crib)`` of shape ``(O, 40)``.

    Choices are in the order of ``itertools.combinations`` of the kept positions; a hand
    row sums to the unseen starters, a crib row to starters times the other crib cards.
    """
    require_distinct(dealt)
    v = _variant(len(dealt), variant)
    hand, parts = _figures(tuple(dealt), v)
    return hand, _crib_histogram(parts, hand.shape[0])


def _figures(dealt: tuple[Card, ...], v: Variant) -> tuple[npt.NDArray[np.float64], _CribParts]:
    """The hand's histogram and the crib's parts for every choice."""
    require_distinct(dealt)
    idx = np.array([c.index for c in dealt], dtype=np.int64)
    ranks, suits = idx // 4, idx % 4
    unseen = np.ones(52, dtype=np.int64)
    unseen[idx] = 0
    u = unseen.reshape(13, 4)  # card index = rank * 4 + suit
    k = u.sum(axis=1)
    keep_at, away_at = _choices(len(dealt), v.discard)
    options = keep_at.shape[0]
    return _hand_histogram(ranks[keep_at], suits[keep_at], u), _crib_parts(
        ranks[away_at], suits[away_at], u, k, options
    )


def _hand_histogram(
    kr: npt.NDArray[np.int64], ks: npt.NDArray[np.int64], u: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    options, kept = kr.shape
    starters = np.broadcast_to(np.arange(13)[None, :, None], (options, 13, 1))
    every = np.concatenate([np.broadcast_to(kr[:, None, :], (options, 13, kept)), starters], axis=2)
    points = points_by_key(kept + 1)[sorted_key(every)].astype(np.int64)  # (O, 13)
    flush = (ks == ks[:, :1]).all(axis=1)
    suit_of_flush = ks[:, 0]
    t = np.arange(4)
    flush_points = flush[:, None] * (kept + (t[None, :] == suit_of_flush[:, None]))  # (O, 4)
    nobs = ((kr == JACK)[:, :, None] & (ks[:, :, None] == t[None, None, :])).any(axis=1)  # (O, 4)
    values = points[:, :, None] + flush_points[:, None, :] + nobs[:, None, :]  # (O, 13, 4)
    bins = values + (np.arange(options) * _BINS)[:, None, None]
    weights = np.broadcast_to(u[None, :, :], values.shape)
    return np.bincount(bins.ravel(), weights.ravel(), minlength=options * _BINS).reshape(options, _BINS)


def _crib_parts(
    dr: npt.NDArray[np.int64],
    ds: npt.NDArray[np.int64],
    u: npt.NDArray[np.int64],
    k: npt.NDArray[np.int64],
    options: int,
) -> _CribParts:
    """Per option and class: rank points, outcomes, and the outcomes with nobs, the flush, both."""
    d = dr.shape[1]
    cls = crib_classes(4 - d)
    keys, table = crib_rank_table(d)
    points = table[np.searchsorted(keys, sorted_key(dr))]  # (O, C), int64
    rs, q = cls.rs, cls.q
    # Ways to pick the other unknown crib cards once a starter of rank rs is turned.
    pick = np.where(k[rs] > 0, (k[q] - cls.off).prod(axis=1) // cls.sym, 0)
    count = k[rs] * pick
    # Nobs. Our jacks by suit; the starter suits of rank r whose jack we laid away (a) or is
    # unseen (b); picks holding one given unseen jack (every unseen jack alike, rs not a jack).
    jd = np.zeros((options, 4), dtype=np.int64)
    for i in range(d):
        jd[np.arange(options), ds[:, i]] |= dr[:, i] == JACK
    a = jd @ u.T  # (O, 13)
    b = np.where(np.arange(13) != JACK, u @ u[JACK], 0)  # (13,)
    with_jack = np.where(cls.jacks > 0, pick * cls.jacks // max(int(k[JACK]), 1), 0)
    nobs = a[:, rs] * pick + (b[rs] * with_jack)[None, :]
    # The five-card flush: our discards of one suit, then starter and q all of that suit.
    ut = u.T  # (4, 13)
    flush_by_suit = cls.distinct * ut[:, rs] * ut[:, q].prod(axis=2)  # (4, C)
    suited = (ds == ds[:, :1]).all(axis=1)
    suit = ds[:, 0]
    flush = suited[:, None] * flush_by_suit[suit]
    both = flush * (jd[np.arange(options), suit][:, None] | (cls.jacks > 0)[None, :])
    return _CribParts(points, count, nobs, flush, both, q)


def _crib_histogram(parts: _CribParts, options: int) -> npt.NDArray[np.float64]:
    """One histogram row per option: each class's outcomes at +0, moved to +1 / +5 / +6 where
    nobs / the flush / both score (table points are capped so that +6 stays in the row)."""
    points, count, nobs, flush, both = parts.points, parts.count, parts.nobs, parts.flush, parts.both
    bins = (points + (np.arange(options) * _BINS)[:, None]).ravel()
    size = options * _BINS
    hist = np.bincount(bins, (count[None, :] - nobs - flush + both).ravel(), minlength=size)
    if nobs.any():
        hist += np.bincount(bins + 1, (nobs - both).ravel(), minlength=size + 1)[:size]
    if flush.any():
        hist += np.bincount(bins + 5, (flush - both).ravel(), minlength=size + 5)[:size]
        hist += np.bincount(bins + 6, both.ravel(), minlength=size + 6)[:size]
    return hist.reshape(options, _BINS)


def _weighted_crib(parts: _CribParts, pair_weights: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each option's crib average with every outcome weighted by its other two cards' ranks.

    ``pair_weights[a, b]`` weighs each pair of unseen cards of ranks ``a`` and ``b``; a class
    holds one rank pair, so its outcomes (with nobs and the flush) take one weight. An outcome
    is worth its rank points, +1 with nobs and +5 with the flush (+6 with both).
    """
    w = pair_weights[parts.q[:, 0], parts.q[:, 1]]  # (C,)
    worth = parts.points * parts.count[None, :] + parts.nobs + 5 * parts.flush
    return (worth.astype(np.float64) @ w) / float(parts.count.astype(np.float64) @ w)


def _stats(hist: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], ...]:
    """Mean, population standard deviation, minimum and maximum of each histogram row."""
    v = np.arange(hist.shape[1], dtype=np.float64)
    n = hist.sum(axis=1)
    mean = hist @ v / n
    sd = np.sqrt(np.maximum(hist @ (v * v) / n - mean * mean, 0.0))
    present = hist > 0
    low = present.argmax(axis=1)
    high = hist.shape[1] - 1 - present[:, ::-1].argmax(axis=1)
    return mean, sd, low, high


def advise_discards(
    dealt: Sequence[Card],
    role: str | None = None,
    *,
    variant: str | Variant | None = None,
    pegging: bool = True,
    throws: Mapping[str, float] | None = None,
) -> DiscardAdvice:
    """Every choice of discard for the cards ``dealt``, best ``total`` first.

    ``role`` is ``"dealer"`` (the crib counts for us), ``"pone"`` (against us) or ``None``
    (the kept hand alone: ``total`` is ``hand``). ``variant`` is a name from
    :data:`cribbage.game.settings.VARIANTS`; by default ``six-card`` for 6 cards dealt and
    ``five-card`` for 5 (``three-player`` or ``four-player`` keep 4 of 5 and lay away one;
    their cribs are alike here, three cards besides ours unknown). Ties keep the order of
    ``itertools.combinations`` over the dealt cards, the higher ``hand`` first.

    ``crib_weighted`` (six-card game with a seat, else ``None``) weighs the opponent's two
    crib cards by ``throws``, counts by rank pair (:mod:`cribbage.coach.throw_table`); by default
    the shipped table for the opponent's seat.

    >>> from cribbage.cards import parse_cards
    >>> advice = advise_discards(parse_cards("5H 5S JD QC 2H"), "pone", variant="three-player")
    >>> [c.name for c in advice.options[0].discard], len(advice.options)
    (['2H'], 5)
    """
    if role is not None and role not in ROLES:
        raise CardError(f"the role is dealer or pone, not {role!r}")
    dealt = tuple(dealt)
    v = _variant(len(dealt), variant)
    hand_hist, parts = _figures(dealt, v)
    hand, hand_sd, hand_min, hand_max = _stats(hand_hist)
    crib, crib_sd, crib_min, crib_max = _stats(_crib_histogram(parts, hand_hist.shape[0]))
    weighted: list[float | None] = [None] * hand_hist.shape[0]
    if role is not None and v.name == "six-card":
        if throws is None:
            pair_weights = throw_weights("pone" if role == "dealer" else "dealer")
        else:
            pair_weights = card_pair_weights(throws)
        if pair_weights is not None and pair_weights.any():
            weighted = _weighted_crib(parts, pair_weights).tolist()
    sign = {"dealer": 1.0, "pone": -1.0, None: 0.0}[role]
    total = hand + sign * crib
    keep_at, away_at = _choices(len(dealt), v.discard)
    figure = None
    if pegging and role is not None:
        from cribbage.coach.pegging import pegging_figure

        figure = pegging_figure
    order = np.lexsort((-np.round(hand, 9), -np.round(total, 9))).tolist()
    figures = (hand, hand_min, hand_max, hand_sd, crib, crib_min, crib_max, crib_sd, total)
    columns = [x.tolist() for x in figures]
    keeps, aways = keep_at.tolist(), away_at.tolist()
    options = []
    for i in order:
        keep = tuple(dealt[j] for j in keeps[i])
        h, h_min, h_max, h_sd, c, c_min, c_max, c_sd, t = (col[i] for col in columns)
        options.append(
            DiscardOption(
                keep, tuple(dealt[j] for j in aways[i]), h, h_min, h_max, h_sd, c, c_min, c_max, c_sd, t,
                None if figure is None or role is None else figure(keep, role, v.name),
                weighted[i],
            )
        )
    return DiscardAdvice(dealt, role, v.name, tuple(options))
