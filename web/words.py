"""The latest scoring in words, as the table would say it: ``"Bob: fifteen two and a pair is four"``.

A show is said as its running count (the engine's spoken count); points in the play as the
players peg them ("fifteen for two"); anything else by its name.

>>> state = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}],
...          "last": [{"seat": "B", "kind": "fifteen", "cards": ["5S", "TS"], "points": 2}],
...          "shows": [], "history": []}
>>> scoring_words(state)
'Bob: fifteen for two'
>>> state["last"] = [{"seat": "A", "kind": "fifteen", "cards": ["5C", "TD"], "points": 2},
...                  {"seat": "A", "kind": "pair", "cards": ["5C", "5D"], "points": 2}]
>>> state["shows"] = [{"seat": "A", "crib": False, "spoken": "fifteen two and a pair is four",
...                    "items": state["last"]}]
>>> scoring_words(state)
'Ann: fifteen two and a pair is four'
"""

from __future__ import annotations

from typing import Any

from cribbage.spoken import number_words

PLAY_WORDS = {
    "fifteen": "fifteen",
    "thirty-one": "thirty-one",
    "go": "go (last card)",
    "heels": "his heels",
    "three-for-last": "three for last",
    "muggins": "muggins!",
    "misdeal": "misdeal penalty",
    "adjust": "adjusted",
    "over-claim": "over-claim pegged",
}
PAIR_WORDS = {2: "a pair", 6: "a pair royal", 12: "a double pair royal"}


def _key(items: list[dict[str, Any]]) -> list[tuple[str, tuple[str, ...], int]]:
    return [(str(i.get("kind")), tuple(i.get("cards") or ()), int(i.get("points", 0))) for i in items]


def _item_words(item: dict[str, Any]) -> str:
    kind, points = str(item.get("kind")), int(item.get("pegged", item.get("points", 0)))
    if kind == "claim":
        return f"claims {number_words(points)}"
    if kind == "pair":
        what = PAIR_WORDS.get(int(item.get("points", 0)), "a pair")
    elif kind == "run":
        what = f"a run of {number_words(int(item.get('points', 0)))}"
    else:
        what = PLAY_WORDS.get(kind, kind.replace("-", " "))
    text = f"{what} for {number_words(points)}"
    if item.get("reason"):
        text += f" ({item['reason']})"
    return text


def scoring_words(state: dict[str, Any]) -> str:
    """The latest scoring of ``state`` (the game's JSON) in words, or ``""`` before any."""
    last = [a for a in state.get("last") or [] if isinstance(a, dict)]
    if not last:
        return ""
    names = {p.get("seat"): p.get("name") for p in state.get("players") or []}
    seat = last[0].get("seat")
    name = names.get(seat, seat)
    shows = list(state.get("shows") or [])
    for deal in reversed(state.get("history") or []):
        shows = list(deal.get("shows") or []) + shows
        break
    wanted = _key(last)
    for show in reversed(shows):
        if show.get("seat") == seat and _key(show.get("items") or []) == wanted:
            return f"{name}: {show.get('spoken')}"
    phrases = [_item_words(a) for a in last if a.get("seat") == seat]
    others = [a for a in last if a.get("seat") != seat]
    text = f"{name}: " + ", ".join(phrases)
    if others:
        other = others[0].get("seat")
        text += f"; {names.get(other, other)}: " + ", ".join(
            _item_words(a) for a in others if a.get("seat") == other
        )
    return text


def enrich(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` with ``said``: the latest scoring in words (a copy; the state is not touched)."""
    try:
        said = scoring_words(state)
    except (TypeError, ValueError, KeyError):
        said = ""
    return {**state, "said": said}
