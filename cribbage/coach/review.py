"""The review after each deal: what a seat kept, the best choice for its seat and the expected
points given away (the best choice's total less the kept one's, never below 0).

A deal is reviewed for each seat whose cards dealt and laid away the game knows (hands entered
on the page, or the kept hand and the discards); the seat's role is ``dealer`` when the crib is
its side's (the dealer, and the dealer's partner in the four-player game), else ``pone``.

>>> from cribbage.cards import parse_cards
>>> r = review_discard(parse_cards("5H 5S JD QC 2H 9S"), parse_cards("5H 5S"), "pone")
>>> [c.name for c in r.best.keep], round(r.given_away, 2), r.rank
(['5H', '5S', 'JD', 'QC'], 15.23, 15)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cribbage.cards import Card, parse_cards
from cribbage.coach.discard import DiscardOption, advise_discards
from cribbage.errors import CribbageError

__all__ = ["DiscardReview", "review_discard", "review_game"]


@dataclass(frozen=True, slots=True)
class DiscardReview:
    """One seat's discard in one deal beside the best one for its seat."""

    dealt: tuple[Card, ...]
    role: str
    variant: str
    chosen: DiscardOption
    best: DiscardOption
    rank: int
    """Where the kept cards rank among every choice (1: the best)."""
    choices: int

    @property
    def given_away(self) -> float:
        """The expected points given away: the best total less the kept cards' (0 at best)."""
        return max(0.0, self.best.total - self.chosen.total)

    def as_dict(self) -> dict[str, Any]:
        """``{"dealt", "role", "kept", "discards", "total", "best": {"keep", "discard",
        "total"}, "given_away", "rank", "choices"}`` (figures to 4 places)."""
        chosen, best = self.chosen.as_dict(), self.best.as_dict()
        return {
            "dealt": [c.name for c in self.dealt],
            "role": self.role,
            "kept": chosen["keep"],
            "discards": chosen["discard"],
            "total": chosen["total"],
            "best": {"keep": best["keep"], "discard": best["discard"], "total": best["total"]},
            "given_away": round(self.given_away, 4),
            "rank": self.rank,
            "choices": self.choices,
        }


def review_discard(
    dealt: Sequence[Card], discards: Sequence[Card], role: str, *, variant: str | None = None
) -> DiscardReview:
    """Review laying away ``discards`` from the cards ``dealt``, for ``role`` in ``variant``
    (by default the game of that many cards dealt). Raises :class:`CribbageError` when the
    discards are not a choice from those cards."""
    return _review(tuple(dealt), frozenset(discards), role, variant)


@lru_cache(maxsize=2048)
def _review(
    dealt: tuple[Card, ...], discards: frozenset[Card], role: str, variant: str | None
) -> DiscardReview:
    advice = advise_discards(dealt, role, variant=variant, pegging=False)
    for rank, option in enumerate(advice.options, 1):
        if frozenset(option.discard) == discards:
            return DiscardReview(advice.dealt, role, advice.variant, option, advice.options[0], rank,
                                 len(advice.options))
    laid = " ".join(c.name for c in sorted(discards, key=lambda c: (c.rank, c.suit)))
    raise CribbageError(f"{laid or 'nothing'} is no discard from {' '.join(c.name for c in dealt)}")


def _role(state: dict[str, Any], dealer: str, seat: str) -> str:
    """``dealer`` when ``seat``'s side owns the crib of ``dealer``'s deal, else ``pone``."""
    side = {p.get("seat"): p.get("side", p.get("seat")) for p in state.get("players") or []}
    return "dealer" if side.get(seat, seat) == side.get(dealer, dealer) else "pone"


def review_game(state: dict[str, Any]) -> dict[str, Any]:
    """The review of every finished deal of a game, from its state (``Game.to_json()``).

    ``{"variant", "deals": [{"deal", "dealer", "seats": {letter: review}}], "players":
    [{"seat", "name", "deals", "given_away"}]}``: each seat's review as
    :meth:`DiscardReview.as_dict` for the deals whose hands the game knows (a misdeal is
    skipped), and each player's total expected points given away over the reviewed deals.

    >>> review_game({"variant": "six-card", "players": [{"seat": "A", "name": "Ann"}],
    ...              "history": []})["players"]
    [{'seat': 'A', 'name': 'Ann', 'deals': 0, 'given_away': 0.0}]
    """
    variant = state.get("variant")
    players = [p for p in state.get("players") or [] if isinstance(p, dict)]
    totals = {p.get("seat"): [0, 0.0] for p in players}
    deals = []
    for summary in state.get("history") or []:
        hands = summary.get("hands") or {}
        dealer = summary.get("dealer")
        if summary.get("misdeal") or not hands or not isinstance(dealer, str):
            continue
        seats = {}
        for seat, hand in sorted(hands.items()):
            review = review_discard(parse_cards(hand["dealt"]), parse_cards(hand["discards"]),
                                    _role(state, dealer, seat), variant=variant)
            seats[seat] = review.as_dict()
            tally = totals.setdefault(seat, [0, 0.0])
            tally[0] += 1
            tally[1] += review.given_away
        deals.append({"deal": summary.get("deal"), "dealer": dealer, "seats": seats})
    return {
        "variant": variant,
        "deals": deals,
        "players": [
            {"seat": p.get("seat"), "name": p.get("name"), "deals": totals[p.get("seat")][0],
             "given_away": round(totals[p.get("seat")][1], 4)}
            for p in players
        ],
    }
