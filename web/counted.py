"""The last hand or crib counted, itemised for the Table tab: which cards made each point.

The engine keeps every count of a deal in ``shows`` (and the deals before in ``history``) with
its items; :func:`last_count` picks the newest one and says each item as the table does. While
an opponent may still call muggins on it, the items stay hidden: spotting them is the game.

>>> state = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}],
...          "starter": "5D", "deal": 1, "muggins": [], "history": [],
...          "shows": [{"seat": "A", "crib": False, "cards": ["JC", "5H", "4H", "6D"],
...                     "total": 4, "claimed": None, "spoken": "fifteen two, fifteen four",
...                     "items": [{"kind": "fifteen", "cards": ["JC", "5H"], "points": 2},
...                               {"kind": "fifteen", "cards": ["JC", "5D"], "points": 2}]}]}
>>> count = last_count(state)
>>> count["title"], [i["text"] for i in count["items"]]
("Ann's hand: 4", ['fifteen: J♣ 5♥ = 2', 'fifteen: J♣ 5♦ = 2'])
>>> state["shows"] = [{"seat": "B", "crib": True, "cards": ["AS", "2S", "6S", "TS"],
...                    "total": 0, "claimed": None, "spoken": "nineteen (no points)", "items": []}]
>>> last_count(state)["title"]
"Bob's crib: nineteen (nothing)"
"""

from __future__ import annotations

from typing import Any

from cribbage.cards import parse_card
from cribbage.errors import CribbageError
from cribbage.spoken import number_words

__all__ = ["item_words", "last_count"]


def _symbols(cards: Any) -> str:
    out = []
    for name in cards or []:
        try:
            out.append(parse_card(str(name)).symbol)
        except CribbageError:
            out.append(str(name))
    return " ".join(out)


def item_words(item: dict[str, Any]) -> str:
    """One item of a count as the table says it, its cards and points.

    >>> item_words({"kind": "run", "cards": ["4H", "5D", "6D"], "points": 3})
    'run of three: 4♥ 5♦ 6♦ = 3'
    >>> item_words({"kind": "nobs", "cards": ["JD"], "points": 1})
    'his nobs: J♦ = 1'
    """
    kind, cards = str(item.get("kind")), list(item.get("cards") or [])
    if kind == "run":
        what = f"run of {number_words(len(cards))}"
    elif kind == "flush":
        what = f"flush of {number_words(len(cards))}"
    elif kind == "nobs":
        what = "his nobs"
    else:
        what = kind.replace("-", " ")
    return f"{what}: {_symbols(cards)} = {int(item.get('points', 0))}"


def _newest(state: dict[str, Any]) -> tuple[dict[str, Any], Any, Any] | None:
    """The newest count, with its deal's starter and number: this deal's, else the last
    deal's that had one."""
    shows = [s for s in state.get("shows") or [] if isinstance(s, dict)]
    if shows:
        return shows[-1], state.get("starter"), state.get("deal")
    for deal in reversed(state.get("history") or []):
        if not isinstance(deal, dict):
            continue
        shows = [s for s in deal.get("shows") or [] if isinstance(s, dict)]
        if shows:
            return shows[-1], deal.get("starter"), deal.get("deal")
    return None


def last_count(state: dict[str, Any]) -> dict[str, Any] | None:
    """The newest hand or crib counted, itemised, or None before any count.

    ``{"seat", "name", "crib", "cards", "starter", "deal", "total", "claimed", "missed",
    "open", "title", "items": [{"kind", "cards", "points", "text"}]}``; ``open`` (muggins may
    still be called on it) leaves ``items`` empty and ``total`` None.
    """
    found = _newest(state)
    if found is None:
        return None
    show, starter, deal = found
    names = {p.get("seat"): p.get("name") for p in state.get("players") or [] if isinstance(p, dict)}
    seat = show.get("seat")
    crib = bool(show.get("crib"))
    name = names.get(seat, seat)
    what = "crib" if crib else "hand"
    open_ = any(
        isinstance(m, dict) and m.get("seat") == seat and (m.get("what") == "crib") == crib
        for m in state.get("muggins") or []
    )
    total = int(show.get("total") or 0)
    claimed = show.get("claimed")
    out: dict[str, Any] = {
        "seat": seat, "name": name, "crib": crib, "cards": list(show.get("cards") or []),
        "starter": starter, "deal": deal, "claimed": claimed, "open": open_,
        "missed": None if open_ else show.get("missed"),
        "total": None if open_ else total, "items": [],
    }
    if open_:
        out["title"] = f"{name}'s {what}: claimed {claimed}, open to muggins"
        return out
    items = [i for i in show.get("items") or [] if isinstance(i, dict)]
    out["items"] = [
        {"kind": i.get("kind"), "cards": list(i.get("cards") or []),
         "points": int(i.get("points", 0)), "text": item_words(i)}
        for i in items
    ]
    out["title"] = f"{name}'s {what}: " + (str(total) if total else "nineteen (nothing)")
    return out
