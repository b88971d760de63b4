"""The game as a state machine: the state is the fold of the events the table sent.

:class:`Game` never changes in place from the outside: :meth:`Game.apply` returns a new game
with the event applied, or raises :class:`~cribbage.errors.RuleError` naming the rule broken,
leaving the old game as it was. Corrections and undo are events too: they supersede earlier
events and the whole game is folded again, so every later score is recomputed.

>>> game = Game(Settings.from_json({"players": "Ann,Bob"}))
>>> for event in [
...     {"type": "dealer", "seat": "B"},
...     {"type": "starter", "card": "JH"},
...     {"type": "play", "seat": "A", "card": "5S"},
...     {"type": "play", "seat": "B", "card": "TS"},
... ]:
...     game = game.apply(event)
>>> game.scores, game.phase, game.count
({'A': 0, 'B': 4}, 'play', 15)
>>> [a.item.kind for a in game.last]
['fifteen']
>>> game.apply({"type": "play", "seat": "B", "card": "5H"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cribbage.errors.RuleError: B cannot lay 5H out of turn: it is A's turn, and A cannot have passed (...)
>>> game.apply({"type": "undo"}).scores
{'A': 0, 'B': 2}
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cribbage.cards import PACK, Card, parse_card, parse_cards
from cribbage.errors import RuleError
from cribbage.game.deal import Deal
from cribbage.game.events import META_TYPES, normalize
from cribbage.game.settings import Settings, seat_letter, skunk_lines, skunk_of
from cribbage.items import Item
from cribbage.play import Award as PlayAward
from cribbage.play import Play
from cribbage.show import score_hand

__all__ = ["HANDLERS", "Award", "Game", "resolve"]

_CARD_MEMO: dict[int, Any] = {id(c): c for c in PACK}
_GAME_POINTS = {None: 1, "skunk": 2, "double": 4}


_letter = seat_letter


def _names(cards: Iterable[Card]) -> list[str]:
    return [c.name for c in cards]


def _and(seats: Sequence[str]) -> str:
    """Seat letters as a list in words: ``A``, ``A and B``, ``A, B and C``."""
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]


@dataclass(frozen=True, slots=True)
class Award:
    """Points pegged by ``seat`` (for its ``side``) for ``item``.

    ``pegged`` is what moved the peg: the item's points, or fewer when the side reached the
    target (the game hole is the last hole; 0 for an item scored after it by the same event).
    What is said is always the item's points: "thirty-one for two", even when one took the
    side out. ``reason`` is set for adjustments.
    """

    seat: int
    side: str
    item: Item
    pegged: int
    reason: str = ""
    detail: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "side", "kind", "cards", "points", "pegged"}``, and ``reason`` for an
        adjustment, ``detail`` (the true count, itemised) for a claim or a muggins."""
        out = {"seat": _letter(self.seat), "side": self.side, **self.item.to_json()}
        out["pegged"] = self.pegged
        if self.reason:
            out["reason"] = self.reason
        if self.detail:
            out["detail"] = list(self.detail)
        return out


def resolve(log: Sequence[dict[str, Any]]) -> tuple[list[tuple[int, dict[str, Any]]], dict[int, int]]:
    """The table events in force, and which event superseded which.

    ``log`` holds every event in order (numbered from 1). A ``correct`` replaces the content of
    an earlier table event in place; an ``undo`` cancels the latest event still in force (a
    table event or a correction). Returns ``[(number, event), ...]`` in order and
    ``{number: superseding number}``.

    >>> log = [{"type": "dealer", "seat": "A"}, {"type": "starter", "card": "5H"},
    ...        {"type": "correct", "event": 2, "with": {"type": "starter", "card": "6H"}},
    ...        {"type": "play", "seat": "B", "card": "9S"}, {"type": "undo"}]
    >>> events, superseded = resolve(log)
    >>> [(n, e.get("card")) for n, e in events], superseded
    ([(1, None), (2, '6H')], {2: 3, 4: 5})
    """
    active: list[int] = []
    superseded: dict[int, int] = {}
    for number, event in enumerate(log, 1):
        kind = event["type"]
        if kind == "undo":
            if not active:
                raise RuleError("nothing to undo", rule="undo")
            superseded[active.pop()] = number
        elif kind == "correct":
            target = event["event"]
            if not 1 <= target < number:
                raise RuleError(f"there is no event {target} to correct", rule="correct")
            if log[target - 1]["type"] in META_TYPES:
                raise RuleError(
                    f"event {target} is a {log[target - 1]['type']}; correct the table event "
                    "itself", rule="correct"
                )
            if target not in active:
                raise RuleError(f"event {target} was undone; it cannot be corrected", rule="correct")
            active.append(number)
        else:
            active.append(number)
    content: dict[int, dict[str, Any]] = {}
    latest: dict[int, int] = {}
    order: list[int] = []
    for number in active:
        event = log[number - 1]
        if event["type"] == "correct":
            target = event["event"]
            if target in latest:
                superseded[latest[target]] = number
            superseded[target] = number
            latest[target] = number
            content[target] = event["with"]
        else:
            order.append(number)
            content[number] = event
    return [(n, content[n]) for n in order], dict(sorted(superseded.items()))


def carry_to_shows(
    log: Sequence[dict[str, Any]], events: list[tuple[int, dict[str, Any]]]
) -> tuple[list[tuple[int, dict[str, Any]]], list[dict[str, Any]]]:
    """The events in force with each show following the corrections of the cards it lists.

    A show names the seat's cards laid as they were known when it was counted. A later
    correction of one of those cards (the same seat's play in the same deal, a different card)
    carries into the show: the show counts the corrected card. Returns the events and what was
    carried: ``[{"event": show number, "from": card, "to": card}, ...]``.

    >>> log = [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "KH"},
    ...        {"type": "play", "seat": "A", "card": "TC"},
    ...        {"type": "show", "seat": "A", "cards": ["4S", "4H", "4D", "TC"]},
    ...        {"type": "correct", "event": 3, "with": {"type": "play", "seat": "A", "card": "TH"}}]
    >>> events, carried = carry_to_shows(log, resolve(log)[0])
    >>> events[3][1]["cards"], carried
    (['4S', '4H', '4D', 'TH'], [{'event': 4, 'from': 'TC', 'to': 'TH'}])
    """
    last_fix = max((n for n, e in enumerate(log, 1) if e["type"] == "correct"), default=0)
    now = dict(events)
    out: list[tuple[int, dict[str, Any]]] = []
    carried: list[dict[str, Any]] = []
    for number, event in events:
        if event["type"] == "show" and event.get("cards") and number < last_fix:
            then = resolve(log[:number])[0]  # the cards as known when the show was counted
            deal = max((n for n, e in then if e["type"] == "starter"), default=0)
            swap = {
                e["card"]: now[n]["card"] for n, e in then
                if n > deal and e["type"] == "play" and e["seat"] == event["seat"]
                and n in now and now[n]["type"] == "play" and now[n]["seat"] == e["seat"]
                and now[n]["card"] != e["card"]
            }
            cards = [swap.get(c, c) for c in event["cards"]]
            if cards != event["cards"] and len(set(cards)) == len(cards):
                carried += [{"event": number, "from": c, "to": swap[c]} for c in event["cards"] if c in swap]
                event = {**event, "cards": cards}
        out.append((number, event))
    return out, carried


def _event_words(players: Sequence[str], event: dict[str, Any]) -> str:
    """A table event as the players name it: ``"Bob's 9♣"``, ``"Ann's go"``, ``"the crib"``.

    >>> _event_words(["Ann", "Bob"], {"type": "play", "seat": "B", "card": "9C"})
    "Bob's 9♣"
    >>> _event_words(["Ann", "Bob"], {"type": "show", "seat": "A", "cards": ["5C", "5D", "JS", "6H"]})
    "Ann's show (5♣ 5♦ J♠ 6♥)"
    """
    kind = event["type"]
    name = players[ord(event["seat"]) - 65] if "seat" in event else ""
    cards = " ".join(parse_card(c).symbol for c in event.get("cards", []))
    shown = f" ({cards})" if cards else ""
    if kind == "play":
        return f"{name}'s {parse_card(event['card']).symbol}"
    if kind in ("go", "hand", "discard", "show", "muggins"):
        return f"{name}'s {kind}{shown}"
    if kind == "starter":
        return f"the starter {parse_card(event['card']).symbol}"
    if kind == "crib-card":
        return f"the card dealt to the crib, {parse_card(event['card']).symbol}"
    if kind == "crib":
        return f"the crib{shown}"
    if kind == "dealer":
        return f"{name} as the first dealer"
    if kind == "adjust":
        return f"{event['points']} pegged by hand for {name}"
    return f"the {kind}"


def _change_words(
    players: Sequence[str], log: Sequence[dict[str, Any]], event: dict[str, Any]
) -> str:
    """What ``event`` (a correction or an undo sent after ``log``) changes, in words.

    >>> log = [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "KH"},
    ...        {"type": "play", "seat": "A", "card": "2C"}]
    >>> fix = {"type": "correct", "event": 3, "with": {"type": "play", "seat": "A", "card": "AC"}}
    >>> _change_words(["Ann", "Bob"], log, fix)
    "correcting event 3 (Ann's 2♣ to A♣)"
    """
    if event["type"] != "correct":
        return "this undo" if event["type"] == "undo" else "this change"
    target = event["event"]
    try:
        now = dict(resolve(log)[0]).get(target)
    except RuleError:
        now = None
    if now is None:
        return f"correcting event {target}"
    was = _event_words(players, now).split(" ")
    to = _event_words(players, event["with"]).split(" ")
    same = 0  # "Ann's 2♣ to A♣", not "Ann's 2♣ to Ann's A♣"
    while same < min(len(was), len(to)) - 1 and was[same] == to[same]:
        same += 1
    return f"correcting event {target} ({' '.join(was)} to {' '.join(to[same:])})"


def _cannot_stand(
    players: Sequence[str], number: int, event: dict[str, Any], exc: RuleError, change: str,
    count: int | None, corrected: bool,
) -> str:
    """Why a correction (or undo) is refused because event ``number`` cannot stand, in the
    players' words: which event, why, and what the players must fix. ``count`` is the count
    of the play before the event (None outside the play); ``corrected`` when the event is the
    correction's own replacement.

    >>> exc = RuleError("A cannot lay 9H out of turn: ...", rule="turn")
    >>> _cannot_stand(["Ann", "Bob"], 7, {"type": "play", "seat": "A", "card": "9H"}, exc,
    ...               "correcting event 5 (Ann's 2♣ to A♣)", 25, False)
    "correcting event 5 (Ann's 2♣ to A♣) leaves event 7, Ann's 9♥, unable to stand: the count \
would be 34, past 31: A cannot lay 9H out of turn: .... To fix: correct event 7 first, or undo \
back through it."
    """
    why = str(exc)
    if event["type"] == "play" and count is not None:
        total = count + parse_card(event["card"]).value
        if total > 31:
            why = f"the count would be {total}, past 31: {why}"
    words = _event_words(players, event)
    if corrected:
        held = (
            ". To fix: a show counts the cards laid; correct the misread card where it was laid "
            "in the play, and the show follows it"
            if event["type"] == "show" and exc.rule == "show" else ""
        )
        return f"event {number} as corrected, {words}, does not hold: {why}{held}"
    if event["type"] in ("show", "crib") and exc.rule == "show":
        fix = (
            f"event {number} counts the cards as known before this correction, and a count "
            "must hold the cards laid, so it cannot be corrected first: undo back through "
            f"event {number}, make this correction, then count again"
        )
    else:
        fix = f"correct event {number} first, or undo back through it"
    return f"{change} leaves event {number}, {words}, unable to stand: {why}. To fix: {fix}."


class Game:
    """A game of cribbage folded from events. See the module docstring for an example."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.seats = settings.seats
        self.side_ids = [side for side, _ in settings.sides]
        self.log: list[dict[str, Any]] = []
        self.superseded: dict[int, int] = {}
        self.results: dict[int, dict[str, Any]] = {}
        self.scores: dict[str, int] = dict.fromkeys(self.side_ids, 0)
        self.backs: dict[str, int] = dict.fromkeys(self.side_ids, 0)
        self.phase = "cut"
        self.deal: Deal | None = None
        self.deals = 0
        self.history: list[dict[str, Any]] = []
        self.winner: str | None = None
        self.skunk: str | None = None
        self.last: list[Award] = []
        self.last_event: int | None = None
        self.pending: list[dict[str, Any]] = []
        self.cuts: list[dict[str, Any]] = []
        self.set_aside: list[dict[str, Any]] = []
        self.carried: list[dict[str, Any]] = []
        self._awards: list[Award] = []

    # -- folding ---------------------------------------------------------------------------

    @classmethod
    def replay(cls, settings: Settings, log: Sequence[dict[str, Any]]) -> Game:
        """Fold a whole log (table events, corrections and undos) into a game.

        After a correction the fold re-derives what follows the corrected event: a ``go``
        event (said at the table, or pressed on the board) that can no longer have been said,
        or that the corrected cards made redundant (the series already ended, the play is
        over), is set aside: it stays in the log, takes no part in the fold and is listed in
        :attr:`set_aside` with why. The goes the later cards show are inferred from the cards
        instead, as for a camera. Any other event that no longer holds refuses the fold with
        :class:`RuleError`, naming the event in the players' words, why it cannot stand and what
        to fix (see :func:`_cannot_stand`); so does a correction whose own event does not hold.
        """
        events, superseded = resolve(log)
        events, carried = carry_to_shows(log, events)
        corrected = [e["event"] for e in log if e["type"] == "correct"]
        first = min(corrected, default=len(log) + 1)  # no event up to it can change
        latest = log[-1] if log else {"type": "none"}
        change = _change_words(settings.players, log[:-1], latest)
        target = latest["event"] if latest["type"] == "correct" else None
        game = cls(settings)
        for number, event in events:
            if event["type"] == "go" and number > first:
                trial = game.copy()  # a go that fails must leave no trace in the fold
                try:
                    trial._table_event(number, event)
                except RuleError as exc:
                    if number == target:
                        raise RuleError(
                            _cannot_stand(settings.players, number, event, exc, change, None, True),
                            rule=exc.rule,
                        ) from None
                    game.set_aside.append({
                        "event": number, "type": "go", "seat": event["seat"],
                        "rule": exc.rule, "reason": str(exc),
                    })
                    continue
                game = trial
                continue
            count = game.count if game.phase == "play" else None
            try:
                game._table_event(number, event)
            except RuleError as exc:
                raise RuleError(
                    _cannot_stand(
                        settings.players, number, event, exc, change, count, number == target
                    ),
                    rule=exc.rule,
                ) from None
        game.log = list(log)
        game.superseded = superseded
        game.carried = carried
        return game

    def apply(self, event: dict[str, Any]) -> Game:
        """A new game with ``event`` applied; raises :class:`RuleError` and leaves this one."""
        event = normalize(event, self.seats)
        if event["type"] in META_TYPES:
            return Game.replay(self.settings, [*self.log, event])
        game = self.copy()
        game._table_event(len(self.log) + 1, event)
        game.log.append(event)
        return game

    def copy(self) -> Game:
        """A copy that can change without touching this game (the log is shared until then)."""
        game = object.__new__(Game)
        game.__dict__.update(self.__dict__)
        game.log = list(self.log)
        game.superseded = dict(self.superseded)
        game.results = dict(self.results)
        game.scores = dict(self.scores)
        game.backs = dict(self.backs)
        game.history = list(self.history)
        game.pending = list(self.pending)
        game.cuts = list(self.cuts)
        game.set_aside = list(self.set_aside)
        game.carried = list(self.carried)
        game.deal = copy.deepcopy(self.deal, dict(_CARD_MEMO))
        return game

    def _table_event(self, number: int, event: dict[str, Any]) -> None:
        kind = event["type"]
        if self.phase == "over":
            raise RuleError(
                f"the game is over ({self.side_name(self.winner)} won); {kind} is refused",
                rule="phase",
            )
        if kind not in ("muggins", "adjust"):
            self.pending = []
        self._awards = []
        before = dict(self.scores)
        HANDLERS[kind](self, number, event)
        for side in self.side_ids:
            if self.scores[side] != before[side]:
                self.backs[side] = before[side]
        if self._awards:
            self.last = list(self._awards)
            self.last_event = number
        self.results[number] = {
            "points": [a.to_json() for a in self._awards],
            "scores": dict(self.scores),
        }

    # -- pegging ---------------------------------------------------------------------------

    def _peg(
        self, seat: int, item: Item, category: str, reason: str = "",
        detail: Sequence[dict[str, Any]] = (),
    ) -> None:
        if item.points <= 0:
            return
        side = self.settings.side_of(seat)
        if self.winner is not None:
            # the game ended on an earlier item of this event: the winner's other items are
            # still what was scored and said ("thirty-one for two and a pair for two"), but the
            # peg is in the game hole already
            if side == self.winner and self._awards:
                self._awards.append(Award(seat, side, item, 0, reason, tuple(detail)))
            return
        pegged = min(item.points, self.settings.target - self.scores[side])
        self.scores[side] += pegged
        self._awards.append(Award(seat, side, item, pegged, reason, tuple(detail)))
        if self.deal is not None:
            self.deal.add_points(side, category, pegged)
        if self.scores[side] >= self.settings.target:
            self._win(side)

    def _win(self, side: str) -> None:
        self.winner = side
        self.phase = "over"
        self.pending = []
        runner_up = max(s for k, s in self.scores.items() if k != side)
        self.skunk = skunk_of(self.settings.target, runner_up)
        if self.deal is not None:
            self.history.append(self._deal_summary(self.deal))

    def _peg_claim(
        self, number: int, seat: int, items: Sequence[Item], claim: int | None,
        cards: Sequence[Card], what: str,
    ) -> dict[str, Any]:
        """Peg a count, as counted (auto, or no claim) or as claimed (claim counting)."""
        truth = sum(i.points for i in items)
        record: dict[str, Any] = {"total": truth, "claimed": claim}
        if claim is None or self.settings.counting == "auto" or claim == truth:
            for item in items:
                self._peg(seat, item, what)
            return record
        who = _letter(seat)
        if claim > truth:
            if self.settings.overclaim != "peg":
                spelled = ", ".join(str(i) for i in items) or "nothing"
                raise RuleError(
                    f"{who} claims {claim} for the {what} but it counts {truth}: {spelled}",
                    rule="over-claim",
                )
            for item in items:
                self._peg(seat, item, what)
            self._peg(seat, Item("over-claim", tuple(cards), claim - truth), what)
            return record
        truth_items = [i.to_json() for i in items]
        self._peg(seat, Item("claim", tuple(cards), claim), what, detail=truth_items)
        missed = truth - claim
        record["missed"] = missed
        if self.settings.muggins and self.winner is None:
            side = self.settings.side_of(seat)
            self.pending.append({
                "event": number,
                "seat": who,
                "side": side,
                "what": what,
                "cards": _names(cards),
                "claimed": claim,
                "total": truth,
                "points": missed,
                "items": truth_items,
                "callers": [
                    _letter(s) for s in range(self.seats) if self.settings.side_of(s) != side
                ],
            })
        return record

    # -- the deal --------------------------------------------------------------------------

    def _require(self, *phases: str, kind: str) -> Deal:
        if self.phase not in phases:
            raise RuleError(
                f"{kind} is not allowed in the {self.phase} phase (only in {' or '.join(phases)})",
                rule="phase",
            )
        assert self.deal is not None or self.phase == "cut"
        return self.deal  # type: ignore[return-value]

    def _start(self, dealer: int) -> None:
        self._new_deal(dealer)
        if self.settings.three_for_last:
            pone = (dealer + 1) % self.seats
            self._peg(pone, Item("three-for-last", (), 3), "other")

    def _new_deal(self, dealer: int) -> None:
        self.deals += 1
        v = self.settings.variant
        self.deal = Deal(number=self.deals, dealer=dealer, seats=self.seats, kept=v.kept)
        self.phase = "deal"

    def _check_unseen(self, deal: Deal, card: Card, allowed: Iterable[str] = ()) -> None:
        owner = deal.owner.get(card)
        if owner is not None and owner not in allowed:
            where = {"crib": "in the crib", "starter": "the starter"}.get(owner, f"with {owner}")
            raise RuleError(f"{card} has already been seen this deal ({where})", rule="card-seen")

    def _on_dealer(self, number: int, event: dict[str, Any]) -> None:
        self._require("cut", kind="dealer")
        self._start(ord(event["seat"]) - 65)

    @property
    def cutting(self) -> list[str]:
        """The seats that cut for deal next: every seat, or after equal lowest cuts only the
        seats tied for lowest (the others' cuts stand, and lost); ``[]`` once a dealer is
        chosen.

        >>> from cribbage.game.settings import Settings
        >>> game = Game(Settings.from_json({"variant": "three-player", "players": "Ann,Ben,Cat"}))
        >>> game.cutting
        ['A', 'B', 'C']
        >>> game = game.apply({"type": "cut", "cards": {"A": "7S", "B": "7H", "C": "KD"}})
        >>> game.cutting
        ['A', 'B']
        >>> game.apply({"type": "cut", "cards": {"A": "9C", "B": "3D"}}).dealer
        'B'
        """
        if self.phase != "cut":
            return []
        if self.cuts and self.cuts[-1]["again"]:
            return list(self.cuts[-1]["again"])
        return [_letter(i) for i in range(self.seats)]

    def _on_cut(self, number: int, event: dict[str, Any]) -> None:
        self._require("cut", kind="cut")
        cutting = self.cutting
        named = sorted(event["cards"])
        missing = [seat for seat in cutting if seat not in named]
        if missing:
            raise RuleError(f"cut needs a card for every seat; missing {missing}", rule="event")
        others = [seat for seat in named if seat not in cutting]
        if others:
            raise RuleError(
                f"only {_and(cutting)} cut again (equal lowest cuts), not {_and(others)}",
                rule="event",
            )
        cards = {seat: parse_card(name) for seat, name in event["cards"].items()}
        low = min(c.rank for c in cards.values())
        lowest = sorted(s for s, c in cards.items() if c.rank == low)
        tie = len(lowest) > 1
        self.cuts.append({
            "cards": dict(event["cards"]), "tie": tie,
            "again": lowest if tie else [], "dealer": None if tie else lowest[0],
        })
        if not tie:
            self._start(ord(lowest[0]) - 65)

    def _on_new_deal(self, number: int, event: dict[str, Any]) -> None:
        """A marker that the cards are being dealt; the game starts each deal by itself."""
        deal = self._require("deal", kind="new-deal")
        if deal.dealt or deal.kept_given or deal.discards or deal.crib_card or deal.starter:
            raise RuleError(f"deal {deal.number} is already under way", rule="phase")
        if "dealer" in event and event["dealer"] != _letter(deal.dealer):
            raise RuleError(
                f"it is {_letter(deal.dealer)}'s deal, not {event['dealer']}'s (the deal "
                "passes to the left after each hand)", rule="deal-turn",
            )

    def _on_misdeal(self, number: int, event: dict[str, Any]) -> None:
        deal = self._require("deal", kind="misdeal")
        deal.misdeal = True
        self.history.append(self._deal_summary(deal))
        to = ord(event["seat"]) - 65 if "seat" in event else deal.pone
        self._new_deal(deal.dealer)
        self._peg(to, Item("misdeal", (), event["penalty"]), "other", "misdeal")

    def _on_adjust(self, number: int, event: dict[str, Any]) -> None:
        self._peg(
            ord(event["seat"]) - 65, Item("adjust", (), event["points"]), "other",
            event.get("reason", "") or "adjustment",
        )

    def _on_hand(self, number: int, event: dict[str, Any]) -> None:
        deal = self._require("deal", kind="hand")
        v = self.settings.variant
        seat = ord(event["seat"]) - 65
        letter = event["seat"]
        cards = parse_cards(event["cards"])
        if seat in deal.dealt or seat in deal.kept_given:
            raise RuleError(
                f"{letter}'s hand is already known this deal; correct that event instead",
                rule="hand",
            )
        if len(cards) not in (v.dealt, v.kept):
            raise RuleError(
                f"a hand in the {v.name} game is {v.dealt} cards dealt or {v.kept} kept, "
                f"not {len(cards)}", rule="hand-size",
            )
        discards = deal.discards.get(seat, [])
        for card in cards:
            allowed = ("crib",) if len(cards) == v.dealt and card in discards else ()
            self._check_unseen(deal, card, allowed)
        if len(cards) == v.dealt:
            missing = [c for c in discards if c not in cards]
            if missing:
                raise RuleError(
                    f"{letter} laid away {' '.join(_names(missing))}, which is not in this hand",
                    rule="not-in-hand",
                )
            deal.dealt[seat] = cards
        else:
            deal.kept_given[seat] = cards
        for card in cards:
            if card not in discards:
                deal.owner[card] = letter

    def _on_discard(self, number: int, event: dict[str, Any]) -> None:
        deal = self._require("deal", kind="discard")
        v = self.settings.variant
        seat = ord(event["seat"]) - 65
        letter = event["seat"]
        cards = parse_cards(event["cards"])
        if seat in deal.discards:
            raise RuleError(f"{letter} has already laid away to the crib", rule="discard")
        if len(cards) != v.discard:
            raise RuleError(
                f"each player lays away {v.discard} in the {v.name} game, not {len(cards)}",
                rule="hand-size",
            )
        dealt = deal.dealt.get(seat)
        for card in cards:
            if dealt is not None and card not in dealt:
                raise RuleError(f"{card} is not in {letter}'s hand", rule="not-in-hand")
            if seat in deal.kept_given and card in deal.kept_given[seat]:
                raise RuleError(f"{card} is in the hand {letter} keeps", rule="card-seen")
            self._check_unseen(deal, card, (letter,))
        deal.discards[seat] = cards
        for card in cards:
            deal.owner[card] = "crib"

    def _on_crib_card(self, number: int, event: dict[str, Any]) -> None:
        deal = self._require("deal", kind="crib-card")
        if not self.settings.variant.crib_from_pack:
            raise RuleError(
                "only the three-player game deals a card to the crib", rule="variant"
            )
        if deal.crib_card is not None:
            raise RuleError("the card dealt to the crib is already known", rule="crib-card")
        card = parse_card(event["card"])
        self._check_unseen(deal, card)
        deal.crib_card = card
        deal.owner[card] = "crib"

    def _on_starter(self, number: int, event: dict[str, Any]) -> None:
        deal = self._require("deal", kind="starter")
        card = parse_card(event["card"])
        self._check_unseen(deal, card)
        deal.starter = card
        deal.owner[card] = "starter"
        deal.play = Play(
            self.seats, lead=0, single_series=self.settings.variant.single_series
        )
        self.phase = "play"
        if card.rank == 11:
            self._peg(deal.dealer, Item("heels", (card,), 2), "heels")

    # -- the play --------------------------------------------------------------------------

    def _go_refusal(self, deal: Deal, seat: int) -> str | None:
        """Why ``seat`` cannot say go now, or None when it may."""
        assert deal.play is not None
        count = deal.play.count
        if deal.left(seat) == 0:
            return None
        laid = deal.laid.get(seat, [])
        hand = deal.kept_hand(seat)
        if hand is not None:
            fits = [c for c in hand if c not in laid and count + c.value <= 31]
            if fits:
                return f"{_letter(seat)} holds {fits[0]}, which fits at a count of {count}"
            return None
        if seat in deal.dealt:  # dealt hand known, discards not: some of these cards are held
            letter = _letter(seat)
            maybe = [c for c in deal.dealt[seat] if c not in laid and deal.owner.get(c) == letter]
            too_big = [c for c in maybe if count + c.value > 31]
            if len(too_big) < deal.left(seat):
                return (
                    f"{letter} holds {deal.left(seat)} of {' '.join(_names(maybe))}, so a card "
                    f"that fits at a count of {count}"
                )
            return None
        if count + 10 <= 31:
            return f"any card fits at a count of {count}"
        return None

    def _settle(self, deal: Deal) -> list[PlayAward]:
        """Seats out of cards pass; when every card is laid the last card pegs."""
        play = deal.play
        assert play is not None
        awards: list[PlayAward] = []
        while not play.over:
            if all(deal.left(s) == 0 for s in range(self.seats)):
                awards += play.finish()
                break
            nxt = play.next_seat
            if nxt is None or deal.left(deal.table_seat(nxt)) > 0:
                break
            awards += play.go(nxt)
        return awards

    def _infer_goes(
        self, deal: Deal, seat: int, action: str, because: str = ""
    ) -> list[PlayAward]:
        """Goes the table did not say but the event shows (a camera sees only cards laid).

        When ``seat`` acts out of turn, each seat passed over is taken to have said go;
        refused (rule ``turn``) when one of them cannot have: a known hand holding a card
        that fits, or a count of 21 or less, where any card fits. ``because`` opens the reason
        given (why the turn is where it is). The goes that end a series when a card does not
        fit the count are :meth:`_end_series`'s business.
        """
        play = deal.play
        assert play is not None
        awards: list[PlayAward] = []
        target = deal.play_seat(seat)
        while play.next_seat != target:
            if play.next_seat is None:
                raise RuleError(f"the play is over; {_letter(seat)} cannot {action}", rule="phase")
            other = deal.table_seat(play.next_seat)
            why = self._go_refusal(deal, other)
            if why is not None:
                if play.count == 0:
                    why = "the count is 0, so any card fits"
                raise RuleError(
                    f"{_letter(seat)} cannot {action} out of turn: {because}it is "
                    f"{_letter(other)}'s turn, and {_letter(other)} cannot have passed ({why})",
                    rule="turn",
                )
            awards += play.go(play.next_seat)
            awards += self._settle(deal)
        return awards

    def _end_series(self, deal: Deal, seat: int, card: Card) -> list[PlayAward]:
        """The goes a card shows when it does not fit the count, on ``seat``'s own turn.

        A seat lays a card that would pass 31 only after every seat has said go: the seat
        itself, then each seat still in the series in turn, until the last to lay pegs 1 for
        last card and the count restarts. Each go is checked as a said one: the laying seat's
        own is refused (``thirty-one``) when its known hand holds a card that fits (a seat
        that can play must play), another seat's (``turn``) when it cannot have passed. The
        five-card game's play is one series that stops at the first go, so no card can follow
        there (``thirty-one``).
        """
        play = deal.play
        assert play is not None
        count = play.count
        letter = _letter(seat)
        total = count + card.value
        if play.single_series:
            raise RuleError(
                f"{letter} cannot lay {card}: it would take the count to {total}, past 31, and "
                f"in the {self.settings.variant.name} game the play is one series that stops at "
                f"the first go, so no card follows a count of {count}; {letter} says go instead",
                rule="thirty-one",
            )
        awards: list[PlayAward] = []
        series = play.series_number
        while play.series_number == series and play.next_seat is not None:
            other = deal.table_seat(play.next_seat)
            why = self._go_refusal(deal, other)
            if why is not None and other == seat:
                raise RuleError(
                    f"{letter} cannot lay {card}: it would take the count to {total}, past 31, "
                    f"and {why} (a seat that can play must play)", rule="thirty-one",
                )
            if why is not None:
                raise RuleError(
                    f"{letter} cannot lay {card} at a count of {count}: it does not fit, so "
                    f"every seat must have said go, and {_letter(other)} cannot have ({why})",
                    rule="turn",
                )
            awards += play.go(play.next_seat)
            awards += self._settle(deal)
        return awards

    def _peg_play_awards(self, deal: Deal, awards: Iterable[PlayAward]) -> None:
        for award in awards:
            self._peg(deal.table_seat(award.seat), award.item, "play")

    def _on_play(self, number: int, event: dict[str, Any]) -> None:
        deal = self._require("play", kind="play")
        seat = ord(event["seat"]) - 65
        letter = event["seat"]
        card = parse_card(event["card"])
        laid = deal.laid.setdefault(seat, [])
        if card in laid:
            raise RuleError(f"{letter} has already laid {card}", rule="card-seen")
        if deal.left(seat) == 0:
            raise RuleError(
                f"{letter} has laid all {deal.kept} cards of the hand; a card more is not in it",
                rule="hand-size",
            )
        self._check_unseen(deal, card, (letter,))
        hand = deal.kept_hand(seat) or deal.dealt.get(seat)
        if hand is not None and card not in hand:
            raise RuleError(f"{card} is not in {letter}'s hand", rule="not-in-hand")
        play = deal.play
        assert play is not None
        before = self._infer_goes(deal, seat, f"lay {card}")
        count = play.count
        if count + card.value > 31:  # every seat said go: a new series, then the card
            before += self._end_series(deal, seat, card)
            before += self._infer_goes(
                deal, seat, f"lay {card}",
                f"{card} does not fit at a count of {count}, so every seat said go and the "
                "count restarted; ",
            )
        mine = play.lay(deal.play_seat(seat), card)
        laid.append(card)
        deal.owner[card] = letter
        mine += self._settle(deal)
        self._peg_play_awards(deal, before)
        own = [a.item for a in mine if deal.table_seat(a.seat) == seat]
        self._peg_play_awards(deal, [a for a in mine if deal.table_seat(a.seat) != seat])
        if self.winner is None:
            self._peg_claim(number, seat, own, event.get("claim"), (card,), "play")
        self._after_play(deal)

    def _on_go(self, number: int, event: dict[str, Any]) -> None:
        deal = self._require("play", kind="go")
        seat = ord(event["seat"]) - 65
        play = deal.play
        assert play is not None
        if deal.left(seat) == 0:
            raise RuleError(
                f"{event['seat']} has laid every card and is out of the play", rule="go"
            )
        awards = self._infer_goes(deal, seat, "say go")
        why = self._go_refusal(deal, seat)
        if why is not None:
            raise RuleError(f"{_letter(seat)} cannot say go: {why}", rule="go")
        awards += play.go(deal.play_seat(seat))
        awards += self._settle(deal)
        self._peg_play_awards(deal, awards)
        self._after_play(deal)

    def _after_play(self, deal: Deal) -> None:
        assert deal.play is not None
        if deal.play.over and self.phase == "play":
            self.phase = "show"

    # -- the show --------------------------------------------------------------------------

    def _on_show(self, number: int, event: dict[str, Any]) -> None:
        deal = self._require("show", kind="show")
        seat = ord(event["seat"]) - 65
        letter = event["seat"]
        order = deal.show_order
        if deal.show_index >= len(order):
            raise RuleError("every hand has been counted; the crib is next", rule="show-order")
        expected = order[deal.show_index]
        if seat != expected:
            raise RuleError(
                f"{_letter(expected)} counts before {letter} (pone first, the dealer last)",
                rule="show-order",
            )
        v = self.settings.variant
        known = deal.kept_hand(seat)
        given = parse_cards(event["cards"]) if "cards" in event else None
        if given is None:
            if known is None:
                raise RuleError(
                    f"{letter}'s hand is not known: show it with its cards", rule="show"
                )
            cards = known
        else:
            if len(given) != v.kept:
                raise RuleError(
                    f"a hand shows {v.kept} cards in the {v.name} game, not {len(given)}",
                    rule="hand-size",
                )
            if known is not None and set(given) != set(known):
                raise RuleError(
                    f"{letter}'s hand is {' '.join(_names(known))}, not "
                    f"{' '.join(_names(given))}", rule="show",
                )
            for card in given:
                self._check_unseen(deal, card, (letter,))
            dealt = deal.dealt.get(seat)
            stray = [c for c in given if dealt is not None and c not in dealt]
            if stray:
                raise RuleError(f"{stray[0]} is not in {letter}'s hand", rule="not-in-hand")
            unshown = [c for c in deal.laid.get(seat, []) if c not in given]
            if unshown:
                raise RuleError(
                    f"{letter} laid {unshown[0]} in the play, so it is in the hand", rule="show"
                )
            cards = given
        assert deal.starter is not None
        score = score_hand(cards, deal.starter)
        for card in cards:
            deal.owner[card] = letter
        record = self._peg_claim(number, seat, score.items, event.get("claim"), cards, "show")
        deal.shows.append({
            "seat": letter, "crib": False, "cards": _names(cards), "spoken": score.spoken,
            "items": [i.to_json() for i in score.items], **record,
        })
        deal.show_index += 1

    def _on_crib(self, number: int, event: dict[str, Any]) -> None:
        deal = self._require("show", kind="crib")
        if deal.show_index < len(deal.show_order):
            nxt = _letter(deal.show_order[deal.show_index])
            raise RuleError(f"the crib is counted last; {nxt} counts now", rule="show-order")
        v = self.settings.variant
        known = deal.known_crib()
        given = parse_cards(event["cards"]) if "cards" in event else None
        if given is None:
            if len(known) < v.crib_size:
                raise RuleError("the crib is not known: show it with its cards", rule="show")
            cards = known
        else:
            if len(given) != v.crib_size:
                raise RuleError(
                    f"the crib holds {v.crib_size} cards, not {len(given)}", rule="hand-size"
                )
            missing = [c for c in known if c not in given]
            if missing:
                raise RuleError(f"{missing[0]} was laid away, so it is in the crib", rule="show")
            for card in given:
                self._check_unseen(deal, card, ("crib",))
            cards = given
        assert deal.starter is not None
        score = score_hand(cards, deal.starter, crib=True)
        for card in cards:
            deal.owner[card] = "crib"
        record = self._peg_claim(
            number, deal.dealer, score.items, event.get("claim"), cards, "crib"
        )
        deal.shows.append({
            "seat": _letter(deal.dealer), "crib": True, "cards": _names(cards),
            "spoken": score.spoken, "items": [i.to_json() for i in score.items], **record,
        })
        if self.winner is None:
            self.history.append(self._deal_summary(deal))
            self._new_deal((deal.dealer + 1) % self.seats)

    # -- muggins ---------------------------------------------------------------------------

    def _on_muggins(self, number: int, event: dict[str, Any]) -> None:
        if not self.settings.muggins:
            raise RuleError("muggins is off in this game", rule="muggins")
        if self.settings.counting != "claim":
            raise RuleError(
                "with automatic counting nothing is missed, so there is no muggins to call",
                rule="muggins",
            )
        if not self.pending:
            raise RuleError("there are no missed points to call muggins on", rule="muggins")
        chosen = self.pending[-1]
        if "event" in event:
            matches = [p for p in self.pending if p["event"] == event["event"]]
            if not matches:
                raise RuleError(
                    f"event {event['event']} left no missed points open", rule="muggins"
                )
            chosen = matches[0]
        caller = event["seat"]
        if caller not in chosen["callers"]:
            raise RuleError(
                f"{caller} cannot call muggins on {chosen['seat']}'s own count; "
                f"an opponent ({', '.join(chosen['callers'])}) can", rule="muggins",
            )
        self.pending = [p for p in self.pending if p is not chosen]
        cards = tuple(parse_card(c) for c in chosen["cards"])
        self._peg(
            ord(caller) - 65, Item("muggins", cards, chosen["points"]), "muggins",
            f"{chosen['seat']} claimed {chosen['claimed']} of {chosen['total']}",
            chosen["items"],
        )

    # -- reading the state -----------------------------------------------------------------

    def rows(self) -> list[dict[str, Any]]:
        """What each event of the log did, in log order (for the history and the chart).

        Each: ``superseded_by`` (or None), ``points`` (awards in the game as it now stands) and
        ``scores`` (after it, in the game as it now stands; None when superseded). A table event
        in force shows its own awards; a correction in force shows the awards of the event it
        replaced (``corrects``); an undo shows none (``undoes``); a go the fold set aside after
        a correction carries ``set_aside`` (why) and no points; a show that counts a card
        corrected after it was counted carries ``carried`` (``[{"from": card, "to": card}]``).
        Walking the rows in order and taking each ``scores`` that is not None draws the score
        over time.
        """
        running = dict.fromkeys(self.side_ids, 0)
        out: list[dict[str, Any]] = []
        undone = {
            by: n for n, by in self.superseded.items() if self.log[by - 1]["type"] == "undo"
        }
        aside = {entry["event"]: entry["reason"] for entry in self.set_aside}
        carried: dict[int, list[dict[str, str]]] = {}
        for entry in self.carried:
            carried.setdefault(entry["event"], []).append({"from": entry["from"], "to": entry["to"]})
        for number, event in enumerate(self.log, 1):
            result = self.results.get(number)
            if result is not None:
                running = result["scores"]
            row: dict[str, Any] = {
                "superseded_by": self.superseded.get(number), "points": [], "scores": None,
            }
            if number in aside:
                row["set_aside"] = aside[number]
            if number in carried:
                row["carried"] = carried[number]
            if row["superseded_by"] is None:
                row["scores"] = dict(running)
                if event["type"] == "correct":
                    row["corrects"] = event["event"]
                    row["points"] = list(self.results[event["event"]]["points"])
                elif event["type"] == "undo":
                    row["undoes"] = undone.get(number)
                elif result is not None:
                    row["points"] = list(result["points"])
            out.append(row)
        return out


    @property
    def count(self) -> int:
        """The running count of the play (0 outside the play)."""
        deal = self.deal
        return deal.play.count if deal is not None and deal.play is not None else 0

    @property
    def dealer(self) -> str | None:
        """The dealer's letter in the current deal."""
        return _letter(self.deal.dealer) if self.deal is not None else None

    def side_name(self, side: str | None) -> str | None:
        """The name of a side (a player's name, or ``Ann & Cat``)."""
        return dict(self.settings.sides).get(side) if side is not None else None

    @property
    def next(self) -> str | None:
        """Whose turn: the seat to lay or say go, the seat to count, ``crib``, or None."""
        deal = self.deal
        if deal is None or self.phase not in ("play", "show"):
            return None
        if self.phase == "play":
            assert deal.play is not None
            nxt = deal.play.next_seat
            return _letter(deal.table_seat(nxt)) if nxt is not None else None
        if deal.show_index < len(deal.show_order):
            return _letter(deal.show_order[deal.show_index])
        return "crib"

    def _plays_json(self, deal: Deal) -> list[dict[str, Any]]:
        if deal.play is None:
            return []
        out = []
        for entry in deal.play.entries:
            data = entry.to_json()
            data["seat"] = _letter(deal.table_seat(entry.seat))
            data["count"] = entry.count
            out.append(data)
        return out

    def _deal_summary(self, deal: Deal) -> dict[str, Any]:
        return {
            "deal": deal.number,
            "dealer": _letter(deal.dealer),
            "starter": deal.starter.name if deal.starter else None,
            "misdeal": deal.misdeal,
            "points": {side: dict(p) for side, p in deal.points.items()},
            "plays": self._plays_json(deal),
            "shows": list(deal.shows),
            "hands": self._known_hands(deal),
        }

    def _known_hands(self, deal: Deal) -> dict[str, dict[str, list[str]]]:
        """Each seat whose whole deal is known (the cards dealt and those laid away): what the
        coach's review of the discard needs."""
        out = {}
        for seat in range(self.seats):
            dealt, kept = deal.dealt_hand(seat), deal.kept_hand(seat)
            if dealt is None or kept is None or len(kept) != deal.kept or not set(kept) <= set(dealt):
                continue
            away = [c for c in dealt if c not in kept]
            out[_letter(seat)] = {"dealt": _names(dealt), "kept": _names(kept), "discards": _names(away)}
        return out

    def to_json(self) -> dict[str, Any]:
        """The state as JSON (documented in docs/game.md): fresh objects, safe to change."""
        return json.loads(json.dumps(self._state_json()))

    def _state_json(self) -> dict[str, Any]:
        s = self.settings
        deal = self.deal
        play = deal.play if deal is not None else None
        line, double = skunk_lines(s.target)
        hands: dict[str, Any] = {}
        if deal is not None:
            for seat in range(self.seats):
                kept = deal.kept_hand(seat)
                hands[_letter(seat)] = {
                    "dealt": _names(deal.dealt[seat]) if seat in deal.dealt else None,
                    "kept": _names(kept) if kept is not None else None,
                    "discards": _names(deal.discards[seat]) if seat in deal.discards else None,
                    "laid": _names(deal.laid.get(seat, [])),
                    "left": deal.left(seat),
                }
        return {
            "settings": s.to_json(),
            "variant": s.variant.name,
            "target": s.target,
            "players": [
                {"seat": _letter(i), "name": name, "side": s.side_of(i)}
                for i, name in enumerate(s.players)
            ],
            "sides": [
                {
                    "id": side,
                    "name": name,
                    "seats": [_letter(i) for i in range(self.seats) if s.side_of(i) == side],
                    "colour": s.colours[k],
                }
                for k, (side, name) in enumerate(s.sides)
            ],
            "scores": dict(self.scores),
            "pegs": {side: [self.scores[side], self.backs[side]] for side in self.side_ids},
            "phase": self.phase,
            "deal": deal.number if deal is not None else 0,
            "dealer": self.dealer,
            "pone": _letter(deal.pone) if deal is not None else None,
            "next": self.next,
            "count": self.count,
            "series": _names(play.series) if play is not None else [],
            "gone": sorted(_letter(deal.table_seat(g)) for g in play.gone)
            if play is not None and deal is not None else [],
            "starter": deal.starter.name if deal is not None and deal.starter else None,
            "plays": self._plays_json(deal) if deal is not None else [],
            "hands": hands,
            "crib": {
                "known": _names(deal.known_crib()) if deal is not None else [],
                "size": s.variant.crib_size,
            },
            "shows": list(deal.shows) if deal is not None else [],
            "cuts": list(self.cuts),
            "cutting": self.cutting,
            "winner": self.winner,
            "winner_name": self.side_name(self.winner),
            "skunk": self.skunk,
            "game_points": _GAME_POINTS[self.skunk] if self.winner else None,
            "skunk_lines": {"skunk": line, "double": double},
            "muggins": list(self.pending),
            "events": len(self.log),
            "last": [a.to_json() for a in self.last],
            "last_event": self.last_event,
            "history": list(self.history),
            "set_aside": list(self.set_aside),
            "carried": list(self.carried),
        }


Handler = Callable[[Game, int, dict[str, Any]], None]
"""A table event's handler: the game, the event's number in the log and the normalized event."""

HANDLERS: dict[str, Handler] = {
    "dealer": Game._on_dealer,
    "cut": Game._on_cut,
    "new-deal": Game._on_new_deal,
    "hand": Game._on_hand,
    "discard": Game._on_discard,
    "crib-card": Game._on_crib_card,
    "starter": Game._on_starter,
    "play": Game._on_play,
    "go": Game._on_go,
    "show": Game._on_show,
    "crib": Game._on_crib,
    "muggins": Game._on_muggins,
    "adjust": Game._on_adjust,
    "misdeal": Game._on_misdeal,
}
"""The method that applies each table event (:data:`~cribbage.game.events.TABLE_TYPES`), in
the order of that list; ``correct`` and ``undo`` are not applied but fold the log again
(:meth:`Game.apply`)."""
