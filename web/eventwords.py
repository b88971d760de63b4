"""Each event of a game as players say it, for the Fix tab and Undo: who did what, with names and
cards as 7♥ (``"Ann laid 4♣"``, ``"Ann cut 9♠, Gus cut 4♥"``), and the points it pegged in the
Table's words (``"Dee: thirty-one for two, and game"``: :func:`web.words.awards_words`). The
page keeps no words of its own for events.

>>> state = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}],
...          "settings": {"variant": "six-card"}}
>>> event_words({"type": "play", "seat": "A", "card": "4C"}, state)
'Ann laid 4♣'
>>> event_words({"type": "correct", "event": 3, "with": {"type": "starter", "card": "TD"}}, state)
'Correction of #3: Starter 10♦'
"""

from __future__ import annotations

from typing import Any

from cribbage.game.settings import VARIANTS
from web.words import EVENT_WORDS, awards_words, card_symbols, names_of


def _cards(event: dict[str, Any]) -> str:
    if event.get("card"):
        return card_symbols(str(event["card"]))
    cards = event.get("cards")
    if isinstance(cards, list):
        return " ".join(card_symbols(str(c)) for c in cards)
    return ""


_SAID = {
    "undo": "Undo",
    "dealer": "{who} deals",
    "starter": "Starter {cards}",
    "play": "{who} laid {cards}",
    "go": "{who}: go",
    "discard": "{who} laid away {cards}",
    "crib-card": "Card dealt to the crib: {cards}",
    "muggins": "Muggins! called by {who}",
}
"""The events said in one fixed sentence, with who sent them and their cards."""


def _kept(state: dict[str, Any] | None) -> int:
    settings = (state or {}).get("settings") or {}
    variant = VARIANTS.get(str(settings.get("variant") or (state or {}).get("variant") or ""))
    return variant.kept if variant else 4


def event_words(event: dict[str, Any], state: dict[str, Any] | None) -> str:
    """One event (as sent: ``{"type": "play", "seat": "A", "card": "4C"}``) in players' words,
    with the names of ``state``'s players; never a code, JSON or an event type.

    >>> state = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Gus"}]}
    >>> event_words({"type": "cut", "cards": {"A": "9S", "B": "4H"}}, state)
    'Ann cut 9♠, Gus cut 4♥'
    >>> event_words({"type": "show", "seat": "B", "cards": ["5S", "TD", "9C", "9H"], "claim": 6}, state)
    "Gus's hand: 5♠ 10♦ 9♣ 9♥, claims 6"
    >>> event_words({"type": "hand", "seat": "A", "cards": ["5S", "TD", "9C", "9H", "2C", "3C"]}, state)
    "Ann's cards dealt: 5♠ 10♦ 9♣ 9♥ 2♣ 3♣"
    """
    names = names_of(state)
    kind = str(event.get("type"))
    seat = event.get("seat")
    who = names.get(str(seat), str(seat)) if seat else ""
    cards = _cards(event)
    claim = event.get("claim")
    claimed = f", claims {claim}" if claim is not None else ""
    if kind in _SAID:
        return _SAID[kind].format(who=who, cards=cards)
    if kind == "correct":
        inner = event.get("with") if isinstance(event.get("with"), dict) else {}
        return f"Correction of #{event.get('event')}: {event_words(inner, state)}"
    if kind == "cut":
        cut = event.get("cards")
        if isinstance(cut, dict):
            return ", ".join(f"{names.get(str(s), str(s))} cut {card_symbols(str(c))}"
                             for s, c in cut.items())
        return "Cut for deal"
    if kind == "new-deal":
        dealer = event.get("dealer")
        return "New deal" + (f": {names.get(str(dealer), str(dealer))} deals" if dealer else "")
    if kind == "misdeal":
        return "Misdeal" + (f" (penalty {event['penalty']})" if "penalty" in event else "")
    if kind == "hand":
        many = isinstance(event.get("cards"), list) and len(event["cards"]) > _kept(state)
        return f"{who}'s {'cards dealt' if many else 'hand'}: {cards}"
    if kind in ("show", "crib"):
        counted = f"{who}'s hand" if kind == "show" else "The crib"
        return counted + (f": {cards}" if cards else "") + claimed
    if kind == "adjust":
        points = event.get("points")
        sign = "+" if isinstance(points, int) and points >= 0 else ""
        return f"{who} {sign}{points} ({event.get('reason') or 'no reason'})"
    what = EVENT_WORDS.get(kind, kind.replace("-", " "))
    return f"{who} {what} {cards}{claimed}".strip()


def _winning_row(rows: list[dict[str, Any]], state: dict[str, Any] | None) -> int | None:
    """The number of the event in force that pegged the winner's last points, or None."""
    winner = (state or {}).get("winner")
    if not winner:
        return None
    found = None
    for row in rows:
        if row.get("superseded_by") is None and any(
                a.get("side", a.get("seat")) == winner and a.get("pegged")
                for a in row.get("points") or [] if isinstance(a, dict)):
            found = row.get("id")
    return found


def with_words(rows: list[dict[str, Any]], state: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The game's events (:meth:`cribbage.gamelog.GameStore.events`), each with ``said`` (the
    event in words) and ``points_said`` (the points it pegged as the Table says them, ``""``
    for none): copies, the rows are not touched.

    >>> state = {"players": [{"seat": "B", "name": "Dee"}], "winner": "B"}
    >>> rows = [{"id": 9, "event": {"type": "play", "seat": "B", "card": "AH"}, "superseded_by": None,
    ...          "points": [{"seat": "B", "side": "B", "kind": "thirty-one", "points": 2, "pegged": 1}]}]
    >>> [(r["said"], r["points_said"]) for r in with_words(rows, state)]
    [('Dee laid A♥', 'Dee: thirty-one for two, and game')]
    """
    won = _winning_row(rows, state)
    out = []
    for row in rows:
        event = row.get("event") if isinstance(row.get("event"), dict) else {}
        pegged = [a for a in row.get("points") or [] if isinstance(a, dict) and a.get("pegged")]
        said = awards_words(pegged, state)
        if said and row.get("id") == won:
            said += ", and game"
        out.append({**row, "said": event_words(event, state), "points_said": said})
    return out


def undone_event(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The row an undo would cancel now: the newest event in force that is not itself an undo
    (a table event or a correction, as :func:`cribbage.game.game.resolve` pops it), or None.

    >>> undone_event([{"id": 1, "event": {"type": "dealer"}, "superseded_by": None},
    ...               {"id": 2, "event": {"type": "play"}, "superseded_by": 3},
    ...               {"id": 3, "event": {"type": "undo"}, "superseded_by": None}])["id"]
    1
    """
    for row in reversed(rows):
        event = row.get("event") if isinstance(row.get("event"), dict) else {}
        if row.get("superseded_by") is None and event.get("type") != "undo":
            return row
    return None
