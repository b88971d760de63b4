"""The latest scoring in words, as the table would say it: ``"Bob: fifteen two and a pair is four"``.

A show is said as its running count (the engine's spoken count); points in the play as the
players peg them ("fifteen for two", "last card for one"); anything else by its name. The words
are the engine's (:mod:`cribbage.spoken`), which ``crib serve --voice`` says aloud too.

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

import re
from typing import Any

from cribbage.cards import parse_card
from cribbage.errors import CribbageError
from cribbage.spoken import points_words
from web.counted import last_count


def _key(items: list[dict[str, Any]]) -> list[tuple[str, tuple[str, ...], int]]:
    return [(str(i.get("kind")), tuple(i.get("cards") or ()), int(i.get("points", 0))) for i in items]


def _item_words(item: dict[str, Any], state: dict[str, Any] | None = None) -> str:
    kind = str(item.get("kind"))
    text = points_words(kind, int(item.get("points", 0)))
    if item.get("reason") and item.get("reason") != kind:
        text += f" ({reason_words(str(item['reason']), state)})"
    return text


def _zero_show(state: dict[str, Any], last: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The newest show when it scored nothing and came after the latest points, else None.

    The engine keeps ``last`` (the latest points) when a count scores nothing, so without this
    the words of the count before would stay up.
    """
    events, last_event = state.get("events"), state.get("last_event")
    if last and isinstance(events, int) and isinstance(last_event, int) and last_event >= events:
        return None  # the newest event pegged points: those are the latest words
    current = [s for s in state.get("shows") or [] if isinstance(s, dict)]
    history = state.get("history") or []
    earlier = [s for s in (history[-1].get("shows") or [])] if history and isinstance(
        history[-1], dict) else []
    shows = current or earlier
    if not shows:
        return None
    newest = shows[-1]
    if newest.get("items") or int(newest.get("total") or 0) or newest.get("claimed"):
        return None
    if last:
        wanted = _key(last)
        for i, show in enumerate(shows):
            if _key(show.get("items") or []) == wanted and i == len(shows) - 1:
                return None
        if not current and (state.get("starter") or state.get("plays")):
            return None  # points pegged in this deal came after the last deal's count
    return newest


def scoring_words(state: dict[str, Any]) -> str:
    """The latest scoring of ``state`` (the game's JSON) in words, or ``""`` before any: the
    points as scored, even where fewer took a side out, and "and game" when they won it.

    >>> scoring_words({"players": [{"seat": "B", "name": "Dee"}], "winner": "B",
    ...                "last": [{"seat": "B", "kind": "thirty-one", "points": 2, "pegged": 1}]})
    'Dee: thirty-one for two, and game'
    """
    text = _scoring_words(state)
    last = [a for a in state.get("last") or [] if isinstance(a, dict)]
    if text and state.get("winner") and any(a.get("side", a.get("seat")) == state["winner"]
                                            for a in last):
        text += ", and game"
    return text


def _scoring_words(state: dict[str, Any]) -> str:
    last = [a for a in state.get("last") or [] if isinstance(a, dict)]
    names = {p.get("seat"): p.get("name") for p in state.get("players") or []}
    zero = _zero_show(state, last)
    if zero is not None:
        who = names.get(zero.get("seat"), zero.get("seat"))
        what = "crib" if zero.get("crib") else "hand"
        return f"{who}'s {what}: {zero.get('spoken') or 'nineteen (no points)'}"
    if not last:
        return ""
    seat = last[0].get("seat")
    name = names.get(seat, seat)
    shows = list(state.get("shows") or [])
    for deal in reversed(state.get("history") or []):
        shows = list(deal.get("shows") or []) + shows
        break
    wanted = _key(last)
    for show in reversed(shows):
        if show.get("seat") == seat and _key(show.get("items") or []) == wanted:
            whose = f"{name}'s crib" if show.get("crib") else name  # "Leo's crib: ...", as the voice says
            return f"{whose}: {show.get('spoken')}"
    return awards_words(last, state)


def awards_words(awards: list[dict[str, Any]], state: dict[str, Any] | None) -> str:
    """Points scored (the engine's awards) as the table says them, by player, the whole points
    even where fewer took a side to the game hole: the Table's latest scoring and each event on
    the Fix tab (:mod:`web.eventwords`) say them alike.

    >>> state = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}]}
    >>> awards_words([{"seat": "B", "kind": "pair", "points": 2}, {"seat": "A", "kind": "go",
    ...               "points": 1}, {"seat": "B", "kind": "fifteen", "points": 2}], state)
    'Bob: pair for two, fifteen for two; Ann: last card for one'
    """
    names = names_of(state)
    by_seat: dict[Any, list[str]] = {}
    for award in awards:
        by_seat.setdefault(award.get("seat"), []).append(_item_words(award, state))
    return "; ".join(f"{names.get(str(seat), seat)}: " + ", ".join(phrases)
                     for seat, phrases in by_seat.items())


def _symbol(name: Any) -> str:
    try:
        return parse_card(str(name)).symbol
    except CribbageError:
        return str(name)


_CARD_CODE = re.compile(r"(?<![\w'&])([A2-9TJQK][SHDC])(?![\w'])")


def card_symbols(text: str, state: dict[str, Any] | None = None) -> str:
    """``text`` with every card written as players read it (``7H`` → ``7♥``, ``TD`` → ``10♦``):
    the one place the page turns the engine's card codes into cards. A partnership's id (``AC``:
    Ann & Cat) is a side, never the ace of clubs.

    >>> card_symbols("fifteen (7H 8C) 2, run (6S 7H 8C) 3")
    'fifteen (7♥ 8♣) 2, run (6♠ 7♥ 8♣) 3'
    >>> card_symbols("Gus has already laid KS; TD is not in AC's hand", {"sides": [{"id": "AC"}]})
    "Gus has already laid K♠; 10♦ is not in AC's hand"
    """
    sides = {str(s.get("id")) for s in (state or {}).get("sides") or [] if isinstance(s, dict)}
    return _CARD_CODE.sub(lambda m: m.group(1) if m.group(1) in sides else _symbol(m.group(1)), text)


def cut_words(state: dict[str, Any]) -> str:
    """The latest cut for deal in words, while it matters: in the cut, and in the first deal
    until the starter is turned; ``""`` otherwise. Who cuts again and who deals are the
    engine's (each cut's ``again`` and ``dealer``): after equal lowest cuts only the seats tied
    cut again, and the lower of them deals.

    >>> state = {"phase": "cut", "deal": 0, "players": [{"seat": "A", "name": "Ann"},
    ...          {"seat": "B", "name": "Ben"}, {"seat": "C", "name": "Cat"}],
    ...          "cuts": [{"cards": {"A": "7S", "B": "7H", "C": "KD"}, "tie": True,
    ...                    "again": ["A", "B"], "dealer": None}]}
    >>> cut_words(state)
    'Ann cut 7♠, Ben cut 7♥, Cat cut K♦: equal lowest cuts, so Ann and Ben cut again.'
    >>> state["cuts"].append({"cards": {"A": "9C", "B": "3D"}, "tie": False, "again": [],
    ...                       "dealer": "B"})
    >>> state.update(phase="deal", deal=1)
    >>> cut_words(state)
    'Ann cut 9♣, Ben cut 3♦: Ben cut lower and deals first.'
    """
    cuts = [c for c in state.get("cuts") or [] if isinstance(c, dict)]
    phase, deal = state.get("phase"), state.get("deal")
    if not cuts or not (phase == "cut" or (phase == "deal" and deal == 1 and not state.get("starter"))):
        return ""
    cut = cuts[-1]
    cards = {str(k): str(v) for k, v in (cut.get("cards") or {}).items()}
    names = names_of(state)
    said = ", ".join(f"{names.get(seat, seat)} cut {_symbol(card)}" for seat, card in sorted(cards.items()))
    again = [str(seat) for seat in cut.get("again") or []]
    if again:
        who = " and ".join(names.get(seat, seat) for seat in again)
        return f"{said}: equal lowest cuts, so {who} cut again."
    dealer = cut.get("dealer")
    if dealer:
        return f"{said}: {names.get(str(dealer), str(dealer))} cut lower and deals first."
    return said + "."


def aside_words(state: dict[str, Any]) -> dict[str, Any] | None:
    """The goes a correction set aside (``state["set_aside"]``), each named with why, and what
    the players must check at the table; None when none was set aside.

    >>> state = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}],
    ...          "phase": "play", "count": 9, "next": "B", "set_aside": [{"event": 7,
    ...          "type": "go", "seat": "A", "rule": "go",
    ...          "reason": "A cannot say go: any card fits at a count of 0"}]}
    >>> aside = aside_words(state)
    >>> aside["goes"]
    ["Ann's go (event 7): Ann cannot say go: any card fits at a count of 0."]
    >>> aside["check"]  # doctest: +ELLIPSIS
    'The goes now come from the cards. Check at the table: the count is 9 and Bob is to play. ...'
    """
    entries = [e for e in state.get("set_aside") or [] if isinstance(e, dict)]
    if not entries:
        return None
    names = names_of(state)
    goes = []
    for entry in entries:
        who = names.get(str(entry.get("seat")), str(entry.get("seat")))
        why = refusal_words(str(entry.get("reason") or ""), state).rstrip(".")
        goes.append(f"{who}'s go (event {entry.get('event')}): {why}.")
    check = "The goes now come from the cards. Check at the table: "
    nxt = state.get("next")
    if state.get("phase") == "play" and nxt:
        check += f"the count is {state.get('count')} and {names.get(str(nxt), nxt)} is to play. "
    else:
        check += "the points pegged in that play. "
    check += ("If a go set aside was really said, a card laid before it was read wrong: "
              "correct that card on the Fix tab.")
    return {"goes": goes, "check": check}


def enrich(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` with the page's words (a copy; the state is not touched): ``said`` (the latest
    scoring), ``counted`` (the last count, itemised: :func:`web.counted.last_count`),
    ``cut_said`` (:func:`cut_words`) and ``aside`` (:func:`aside_words`)."""
    out: dict[str, Any] = {**state}
    for key, words, empty in (
        ("said", scoring_words, ""), ("counted", last_count, None),
        ("cut_said", cut_words, ""), ("aside", aside_words, None),
    ):
        try:
            out[key] = words(state)
        except (TypeError, ValueError, KeyError, AttributeError):
            out[key] = empty
    return out


# --- refusals in players' words -----------------------------------------------------------
# The engine's messages name seats by letter ("C cannot say go: ...") and events and phases by
# their type ("show is not allowed in the play phase (only in show)"); the CLI keeps them. The
# page says them as players do. Letters are replaced only where the engine puts a seat: before
# "'s" or one of the verbs it uses, and in a few fixed phrases, so "A" as an article, the A of a
# card ("AS") or a letter inside a word are never touched.

_VERBS = (
    "cannot", "claims", "claimed", "holds", "has", "laid", "counts", "says", "keeps", "won",
    "is", "leads", "deals",
)
_SEAT_AT = re.compile(r"(?<![\w'&])([A-D])(?=('s\b| (?:" + "|".join(_VERBS) + r")\b))")
_SEAT_PHRASES = (
    re.compile(r"(?<=\bit is )([A-D])(?='s)"),
    re.compile(r"(?<=\bbefore )([A-D])(?= \()"),
    re.compile(r"(?<=\(with )([A-D])(?=\))"),
    re.compile(r"(?<=\bnot )([A-D])(?='s)"),
)
_OPPONENTS = re.compile(r"an opponent \(([A-D](?:, [A-D])*)\) can")
_CLAIMED = re.compile(r"^([A-D]{1,2}) claimed (\d+) of (\d+)$")

PHASE_WORDS = {
    "cut": "choosing the dealer",
    "deal": "the deal",
    "play": "the play",
    "show": "counting the hands",
    "over": "game over",
}
"""Each phase of the engine (``state["phase"]``) as the table says it."""

EVENT_WORDS = {
    "dealer": "choosing the dealer", "cut": "cutting for deal", "new-deal": "a new deal",
    "hand": "a hand", "discard": "laying away to the crib", "crib-card": "a crib card",
    "starter": "turning the starter", "play": "playing a card", "go": "go",
    "show": "counting a hand", "crib": "counting the crib", "muggins": "muggins",
    "adjust": "adjusting points", "misdeal": "a misdeal",
}
"""Each event type as players say it."""

_DEALER_KINDS = ("dealer", "cut")
_COUNT_KINDS = ("show", "crib")
_DEAL_KINDS = ("misdeal", "new-deal")
_PLAY_KINDS = ("play", "go")


def _not_now(kind: str, phase: str) -> str:
    """Why ``kind`` does not fit ``phase``, as the table would say it."""
    if phase == "cut":
        return "Choose the dealer first."
    if phase == "over":
        return "The game is over."
    if kind in _DEAL_KINDS and phase in ("play", "show"):
        return "The cards are in play: a misdeal or a new deal is called before the starter is turned."
    if kind in _DEALER_KINDS:
        return {"deal": "The dealer is already chosen: turn the starter.",
                "play": "The dealer is already chosen: finish the play.",
                "show": "The dealer is already chosen: count the hands."}.get(phase, "Not now.")
    if phase == "deal" and kind in _PLAY_KINDS + _COUNT_KINDS + ("muggins",):
        return "Turn the starter first."
    if phase == "play" and kind in _COUNT_KINDS:
        return "Hands are counted after the play."
    if phase == "show" and kind in _PLAY_KINDS:
        return "The play is over: count the hands."
    what = EVENT_WORDS.get(kind, kind.replace("-", " "))
    return f"Not now: {what} does not fit {PHASE_WORDS.get(phase, 'this moment')}."


_PHASE = re.compile(r"^(?P<kind>[\w-]+) is not allowed in the (?P<phase>\w+) phase \(only in [\w ]+\)$")
_OVER = re.compile(r"^the game is over \((?P<who>.*) won\); [\w-]+ is refused$")
_CUT_MISSING = re.compile(r"^cut needs a card for every seat; missing \[(?P<seats>[^\]]*)\]$")
_CUT_AGAIN = re.compile(
    r"^only (?P<again>[A-D ,and]+) cut again \(equal lowest cuts\), not (?P<others>[A-D ,and]+)$"
)


def names_of(state: dict[str, Any] | None) -> dict[str, str]:
    """Seat letters and side ids to names: ``{"A": "Ann", "AC": "Ann & Cat"}``."""
    out: dict[str, str] = {}
    for p in (state or {}).get("players") or []:
        if isinstance(p, dict) and p.get("seat") and p.get("name"):
            out[str(p["seat"])] = str(p["name"])
    for s in (state or {}).get("sides") or []:
        if isinstance(s, dict) and s.get("id") and s.get("name"):
            out.setdefault(str(s["id"]), str(s["name"]))
    return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def name_seats(text: str, state: dict[str, Any] | None) -> str:
    """``text`` (an engine message) with the seats it names replaced by the players' names.

    >>> state = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "C", "name": "Cy"}]}
    >>> name_seats("C cannot say go: A holds 5H", state)
    'Cy cannot say go: Ann holds 5H'
    >>> name_seats("A hand shows 4 cards; AS is not in A's hand", state)
    "A hand shows 4 cards; AS is not in Ann's hand"
    """
    names = names_of(state)

    def one(match: re.Match[str]) -> str:
        return names.get(match.group(1), match.group(1))

    def many(match: re.Match[str]) -> str:
        who = [names.get(s, s) for s in match.group(1).split(", ")]
        return ("an opponent (" + " or ".join(who) + ") can") if len(who) > 1 else f"{who[0]} can"

    def seat_at(match: re.Match[str]) -> str:
        letter = match.group(1)
        if letter not in names:
            return letter
        # "A is ..." could be an article only before a noun: a seat is followed by a verb
        return names[letter]

    text = _OPPONENTS.sub(many, text)
    for pattern in _SEAT_PHRASES:
        text = pattern.sub(one, text)
    return _SEAT_AT.sub(seat_at, text)


def refusal_words(message: str, state: dict[str, Any] | None = None, rule: str = "") -> str:
    """An engine refusal as the page says it: names, not letters; players' words, not types.

    >>> state = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}]}
    >>> refusal_words("show is not allowed in the play phase (only in show)", state)
    'Hands are counted after the play.'
    >>> refusal_words("B claims 10 for the show but it counts 8: fifteen (5C TD) 2", state)
    'Bob claims 10 for the hand but it counts 8: fifteen (5♣ 10♦) 2'
    >>> refusal_words("cut needs a card for every seat; missing ['B']", state)
    "Tap a cut card for each player: Bob's is missing"
    >>> three = {"players": [*state["players"], {"seat": "C", "name": "Cat"}], "cutting": ["A", "B"]}
    >>> refusal_words("cut needs a card for every seat; missing ['B']", three)
    "Tap a cut card for each player cutting again: Bob's is missing"
    >>> refusal_words("only A and B cut again (equal lowest cuts), not C",
    ...               {"players": [*state["players"], {"seat": "C", "name": "Cat"}]})
    'Only Ann and Bob cut again (equal lowest cuts), not Cat'
    """
    text = str(message)
    phase = _PHASE.match(text)
    if phase:
        return _not_now(phase.group("kind"), phase.group("phase"))
    cut = _CUT_MISSING.match(text)
    if cut:
        names = names_of(state)
        who = [f"{names.get(s, s)}'s" for s in re.findall(r"[A-D]", cut.group("seats"))]
        verb = "is" if len(who) == 1 else "are"
        again = state is not None and 0 < len(state.get("cutting") or []) < len(state.get("players") or [])
        players = "each player cutting again" if again else "each player"
        return f"Tap a cut card for {players}: {' and '.join(who)} {verb} missing"
    again = _CUT_AGAIN.match(text)
    if again:
        names = names_of(state)
        tied, others = (" and ".join(names.get(s, s) for s in re.findall(r"\b[A-D]\b", again.group(k)))
                        for k in ("again", "others"))
        return f"Only {tied} cut again (equal lowest cuts), not {others}"
    over = _OVER.match(text)
    if over:
        who = names_of(state).get(over.group("who"), over.group("who"))
        return f"The game is over: {who} won."
    text = name_seats(text, state)
    text = re.sub(r"\bfor the show\b", "for the hand", text)
    text = text.replace("show it with its cards", "pick its cards")
    text = re.sub(r"\b(?:in|the) the (show|play) phase\b", r"in \1", text)
    return _capital(card_symbols(text, state))


_SEAT_WORD = re.compile(r"\bseat ([A-D])\b")


def zones_words(message: str, state: dict[str, Any] | None) -> str:
    """A refusal of zones (:class:`vision.track.ZonesError`) with names, never seat letters:
    the game's players, or their places at the table ("Player 1") before a game.

    >>> zones_words("seat A's zone and seat B's zone are (nearly) the same",
    ...             {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}]})
    "Ann's zone and Bob's zone are (nearly) the same"
    >>> zones_words("seat C's zone lies inside the centre", None)
    "Player 3's zone lies inside the centre"
    """
    names = names_of(state)
    return _capital(_SEAT_WORD.sub(lambda m: names.get(m.group(1)) or f"Player {ord(m.group(1)) - 64}",
                                   message))


def reason_words(reason: str, state: dict[str, Any] | None) -> str:
    """An award's reason with names: ``"B claimed 19 of 21"`` → ``"Bob claimed 19 of 21"``."""
    match = _CLAIMED.match(reason)
    if match:
        who = names_of(state).get(match.group(1), match.group(1))
        return f"{who} claimed {match.group(2)} of {match.group(3)}"
    return name_seats(reason, state)
