"""What the camera saw, as the game's events: the rules filter the camera.

The :class:`Follower` feeds frames to a :class:`~vision.track.tracker.Tracker` and turns each
card it reports as laid into the event the game expects at that moment, the way players read a
table:

* a card face up in the centre before the play is the **starter**;
* a card laid in a seat's zone during the play is that seat's **play** (goes and new series
  are inferred by the game from what is laid: a seat laying out of turn, or a card that cannot
  fit the count);
* after the play, a seat's **show** is counted once every card it laid shows face up again;
* four new cards face up in the centre after the hands are the **crib**.

The game has the last word: an event it refuses, a card read twice in two places, or something
card-like never read surely becomes a :class:`Flag` for the players to accept, fix or dismiss
(:meth:`Follower.resolve`), never a silent peg or a silent drop. Each event carries
``source: camera`` provenance in ``seen``: the frame, the confidence and a crop of the card.

>>> from vision.track.zones import Zones
>>> class Table:  # the game, as the follower uses it
...     def __init__(self): self.sent = []
...     def state(self): return {"phase": "deal", "next": None, "players": [{"seat": "A"}, {"seat": "B"}],
...                              "hands": {}, "starter": None, "shows": [], "crib": {"known": []}}
...     def apply(self, event): self.sent.append(event); return self.state()
>>> table = Table()
>>> follower = Follower(table, Tracker(Zones.default(2), reader=lambda image: ([], [])))
>>> follower.status()["flagged"]
[]
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from cribbage.cards import parse_card
from cribbage.errors import CribbageError
from vision.track.tracker import Doubt, Sighting, TableCard, Tracker
from vision.track.zones import CENTRE

__all__ = ["Flag", "Follower", "GamePort"]

log = logging.getLogger("vision.track")

BGR = npt.NDArray[np.uint8]
CropSaver = Callable[[BGR, str], str | None]
"""Saves a crop under a name stem; returns its path relative to the data folder (``crops/...``)."""


class GamePort(Protocol):
    """The game as the follower sees it: its state JSON, and applying an event (raises
    :class:`~cribbage.errors.CribbageError` when the rules refuse it). A port that also lists
    its stored events (``events()``, as :meth:`cribbage.gamelog.GameStore.events`) lets the
    follower correct a dealer the table contradicts."""

    def state(self) -> dict[str, Any]: ...

    def apply(self, event: dict[str, Any]) -> dict[str, Any]: ...


@dataclass
class Flag:
    """A reading waiting for the players: ``event`` is what the camera would send (None where it
    needs a card named), ``reason`` why it was not sent (for the log), ``say`` the same in
    players' words and ``choices`` the answers a player can give in one tap."""

    id: int
    frame: int
    zone: str | None
    card: str | None
    confidence: float
    likely: list[str]
    reason: str
    crop: str | None
    event: dict[str, Any] | None
    center: tuple[float, float] = (0.0, 0.0)
    kind: str = "play"  # starter, play, crib or crib-all: what a card named here becomes
    say: str = ""
    choices: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "frame": self.frame, "zone": self.zone, "card": self.card,
                "confidence": round(self.confidence, 3), "likely": self.likely, "reason": self.reason,
                "crop": self.crop, "event": self.event, "kind": self.kind, "say": self.say or self.reason,
                "choices": self.choices}


@dataclass
class Applied:
    """An event the camera sent and the game took, with the frame it was committed at."""

    event: dict[str, Any]
    frame: int
    confidence: float | None
    state: dict[str, Any] = field(repr=False)


def _deal_cards(state: dict[str, Any]) -> set[str]:
    """Every card the game already places in this deal (laid, starter, crib, shown)."""
    seen: set[str] = set()
    for hand in (state.get("hands") or {}).values():
        seen.update(hand.get("laid") or [])
        seen.update(hand.get("kept") or [])
    if state.get("starter"):
        seen.add(state["starter"])
    seen.update((state.get("crib") or {}).get("known") or [])
    for show in state.get("shows") or []:
        seen.update(show.get("cards") or [])
    return seen


def _names(state: dict[str, Any]) -> dict[str, str]:
    """Each seat's player's name (``{"A": "Ann", ...}``)."""
    return {p["seat"]: p.get("name") or f"Player {i + 1}" for i, p in enumerate(state.get("players") or [])}


def _pretty(card: str | None) -> str:
    """A card as players write it: ``"QH"`` → ``"Q♥"``, ``"TD"`` → ``"10♦"``.

    >>> _pretty("QH"), _pretty("TD")
    ('Q♥', '10♦')
    """
    if not card:
        return "?"
    rank = "10" if card[0] == "T" else card[0]
    return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(card[1], card[1])


def _refused_words(exc: CribbageError, event: dict[str, Any], where: str,
                   state: dict[str, Any]) -> str:
    """A card the rules refuse, asked about in players' words: seat names and card symbols,
    never the engine's letters (its text stays in the flag's ``reason``, for the log).

    >>> from cribbage.errors import RuleError
    >>> state = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}],
    ...          "next": "A", "count": 25}
    >>> play = {"type": "play", "seat": "B", "card": "9C"}
    >>> _refused_words(RuleError("B cannot lay 9C out of turn: it is A's turn", rule="turn"),
    ...                play, "Bob's row", state)
    "9♣ in Bob's row, but it is Ann's turn: which card is it, or whose?"
    >>> _refused_words(RuleError("...", rule="thirty-one"), play, "Bob's row", state)
    "9♣ in Bob's row would take the count past 31 (it is 25): which card is it, or whose?"
    """
    card = _pretty(event.get("card"))
    rule = getattr(exc, "rule", "")
    if event.get("type") == "starter":
        why = "it was seen already this deal" if rule == "card-seen" else "the rules refuse it there"
        return f"{card} as the starter, but {why}: which card is it?"
    names = _names(state)
    nxt, seat = state.get("next"), event.get("seat")
    if rule == "turn" and isinstance(nxt, str) and nxt in names and nxt != seat:
        why = f", but it is {names[nxt]}'s turn"
    elif rule == "thirty-one":
        why = f" would take the count past 31 (it is {int(state.get('count') or 0)})"
    elif rule == "card-seen":
        why = f", but {card} was seen already this deal"
    elif rule in ("not-in-hand", "hand-size"):
        why = f", but it is not one of {names.get(str(seat), 'their')}'s cards"
    else:
        why = ", but the rules refuse it there"
    return f"{card} in {where}{why}: which card is it, or whose?"


CRIB_WAIT = 4  # frames after the last crib card read before a crib short of four is flagged
RESYNC = 30  # frames: cards read this soon before the table shows the game's deal belong to it
HEAL = 0.9  # card widths: a card read this near a flag's place is the card the flag waits for
DEADLINE = 30  # frames (3 s at 10 frames/s) of a still table after which a wait is healed or flagged


class Follower:
    """Frames in, the game's events out (see the module's doc).

    ``game`` is applied to (``state()``, ``apply(event)``); ``tracker`` reads the frames;
    ``save_crop`` keeps the crops (None: crops are not kept). ``on_change`` is called (no
    arguments) whenever the flagged list or the tracker's state changes. ``ids`` numbers the
    flags (default: from 1); the camera service gives every game's follower the same count, so
    a flag's number is never another game's and a late answer cannot settle a new game's flag.
    """

    def __init__(self, game: GamePort, tracker: Tracker, *, save_crop: CropSaver | None = None,
                 on_change: Callable[[], None] | None = None,
                 ids: Iterator[int] | None = None) -> None:
        self.game = game
        self.tracker = tracker
        self.save_crop = save_crop
        self.on_change = on_change
        self.flags: list[Flag] = []
        self.applied: list[Applied] = []
        self._ids = itertools.count(1) if ids is None else ids
        self._crib: list[tuple[str, Sighting]] = []
        self._crib_again = False  # the centre was read afresh for a crib short of a card
        self._early: list[Sighting] = []  # the next deal's cards, read while this one waits
        self._swept = False  # the crib read so far is swept: the table is in the next deal
        self._crib_at = -1  # the frame the last crib card was read
        self._held: list[tuple[dict[str, Any], Sighting]] = []  # plays waiting behind a flag
        self._sent_at: dict[str, tuple[float, float]] = {}  # where the camera saw each card of this deal
        self._shown: dict[str, list[str]] = {}  # cards turned up for the show that were never played
        self._lock = threading.RLock()
        self._deal_key: tuple[Any, Any] | None = None
        self._last_status: str | None = None
        self._synced: bool | None = None  # None: decided at the first frame
        self._before_sync: list[Sighting] = []  # cards read while the table did not show the game's deal
        self._seen_placed: set[str] = set()
        self._last: dict[str, Any] | None = None
        self._number = -1
        self._wait: tuple[Any, ...] | None = None  # what the follower waits for from the table now
        self._wait_since = 0  # the frame that wait began
        self._wait_over = False  # its deadline has passed (healed or flagged)
        self._cut_starter: Sighting | None = None  # the starter seen before the dealer is known
        self._swap: tuple[int, str] | None = None  # the dealer event to correct and who dealt

    # -- frames ----------------------------------------------------------------------------

    def feed(self, image: BGR, number: int, lores: npt.NDArray[np.uint8] | None = None) -> list[Applied]:
        """Feed frame ``number``; returns the events the game took at this frame."""
        with self._lock:
            before = len(self.applied)
            self._number = number
            found = self.tracker.feed(image, number, lores)
            state = self.game.state()
            early = self._follow_deal(state)
            if early:  # cards of this deal read while the last one waited for its crib
                found = [*early, *found]
            self._see_swept(state)
            changed = self._resync(state, found)
            if changed and self._synced and self._before_sync:
                found = [*self._still_lying(), *found]
            for item in found:
                if not self._synced:
                    if isinstance(item, Sighting):
                        self._before_sync.append(item)
                    continue
                if isinstance(item, Sighting):
                    state = self._sighted(item, state)
                else:
                    changed |= self._doubted(item, state)
            if self._synced:
                if found or state.get("phase") == "show":
                    state = self._shows(state, number)
                changed |= self._crib_short(state, number)
            changed |= self._moot(state)
            state, overdue = self._watch(state, number)
            changed |= overdue
            self._expect(state)
            if changed or self.tracker.status != self._last_status or len(self.applied) > before:
                self._last_status = self.tracker.status
                self._changed()
            return self.applied[before:]

    def status(self) -> dict[str, Any]:
        """``{"tracker": ..., "flagged": [...], "expect": ..., "last": ...}`` for the page:
        what the tracker is doing, the readings waiting for the players, what the camera waits
        for next (in players' words) and the last card it read."""
        with self._lock:
            doing = "waiting for a confirmation" if self.flags else self.tracker.status
            return {"tracker": doing, "flagged": [f.to_json() for f in self.flags],
                    "expect": self._expect_words(self.game.state()), "last": self._last}

    # -- the players' answers --------------------------------------------------------------

    def resolve(self, flag_id: int, action: str, card: str | None = None,
                seat: str | None = None) -> dict[str, Any]:
        """Answer flag ``flag_id``: ``accept`` (send it as read), ``fix`` (send it with ``card``),
        ``dismiss`` (not a card); ``seat`` says whose card it is where its zone does not.
        Returns the game's state after (``{}`` for a dismissal). Raises ``KeyError`` for an
        unknown flag and ``CribbageError`` when the game refuses; the flag then stays. Plays the
        camera held behind the flag follow it into the game, in the order they were laid."""
        with self._lock:
            flag = next((f for f in self.flags if f.id == flag_id), None)
            if flag is None:
                raise KeyError(flag_id)
            if action == "dismiss":
                self.flags.remove(flag)
                self._wait = None  # what was waited for is waited for again, with a new deadline
                state = self._release(self.game.state())
                self._changed()
                return {} if not self.applied else state
            if flag.kind == "sync" and action == "accept":
                self.flags.remove(flag)
                self._synced = True
                state = self.game.state()
                for s in self._still_lying(recent=None):
                    state = self._sighted(s, state)
                self._changed()
                return state
            if action not in ("accept", "fix"):
                raise CribbageError(f"a flagged reading is accepted, fixed or dismissed, not {action!r}")
            if action == "fix":
                if not card:
                    raise CribbageError("name the card to fix a flagged reading with")
                name = parse_card(card).name
            else:
                name = flag.card or (flag.likely[0] if flag.likely else None)
                if name is None:
                    raise CribbageError("this reading names no card: fix it with the card it is")
            state = self._answer(flag, name, seat)
            self._changed()
            return state

    def accept_oldest(self) -> dict[str, Any] | None:
        """The board's next/confirm button: accept the oldest flag that names a card (and, for a
        card whose seat is unknown, names its seat too)."""
        with self._lock:
            for flag in self.flags:
                if (flag.card or flag.likely) and not (flag.kind == "play" and _seat_of(flag) is None):
                    try:
                        return self.resolve(flag.id, "accept")
                    except CribbageError as exc:
                        log.info("confirm: flag %d refused: %s", flag.id, exc)
            return None

    def _answer(self, flag: Flag, name: str, seat: str | None) -> dict[str, Any]:
        """Send what flag ``flag`` waited for, as card ``name`` (of ``seat``); then the plays held
        behind it. The flag stays when the game refuses it."""
        state = self.game.state()
        if flag.kind == "dealer" and self._swap is not None:
            number, dealer = self._swap
            state = self.game.apply({"type": "correct", "event": number,
                                     "with": {"type": "dealer", "seat": dealer}})
            self._swap = None
            flag.kind = "play"  # the card is then the pone's first of the play
        if flag.kind == "show":
            seat = str((flag.choices[0] if flag.choices else {}).get("seat") or seat or "")
            self.flags.remove(flag)
            self._shown.setdefault(seat, []).append(name)
            return self._shows(state, flag.frame, overdue=True)
        if flag.kind == "crib":
            self.flags.remove(flag)
            self._remember(name, flag)
            self._crib.append((name, _sighting_of(flag, name)))
            return self._shows(state, flag.frame)
        if flag.kind == "crib-all":
            self.flags.remove(flag)
            event = {"type": "crib", "cards": [parse_card(c).name for c in flag.likely]}
            state = self.game.apply(event)
            self.applied.append(Applied(event, flag.frame, None, state))
            return state
        event = dict(flag.event or {"type": flag.kind})
        if flag.kind == "play":
            letters = [p["seat"] for p in state.get("players", [])]
            if seat is not None:
                if seat not in letters:
                    raise CribbageError(f"no seat {seat!r} at this table")
                event["seat"] = seat
            elif "seat" not in event:
                event["seat"] = _seat_of(flag)
                if event["seat"] is None:
                    raise CribbageError("say whose card this is")
        event["card"] = name
        state = self.game.apply(event)
        self.flags.remove(flag)
        self._remember(name, flag)
        self._sent_at[name] = flag.center
        self.applied.append(Applied(event, flag.frame, None, state))
        self._last = self._last_words(event, flag.frame, state)
        return self._release(state)

    # -- what a sighting means now -----------------------------------------------------------

    def _follow_deal(self, state: dict[str, Any]) -> list[Sighting]:
        """Start afresh when the game's deal changes; returns the cards read early for it (laid
        while the last deal waited for its crib), now this deal's."""
        key = (state.get("game"), state.get("deal"))
        early: list[Sighting] = []
        if self._deal_key is not None and key != self._deal_key:
            if self._swept and key[0] == self._deal_key[0]:
                early = [s for s in self._early if self.tracker.adopt(s.card, s.center)]
            else:
                self.tracker.new_deal()
            self._early, self._swept = [], False
            self._crib = []
            self._crib_again = False
            self._held = []
            self._sent_at = {}
            self._shown = {}
            self._swap = None
            self.flags = []  # a deal gone by is fixed from the Fix tab, not from the camera's doubts
        self._deal_key = key
        return early

    def _see_swept(self, state: dict[str, Any]) -> None:
        """The crib read so far gone from the table while the game still waits on it: the table
        is swept and the next deal begun. The tracker starts the next deal now (a card of it is
        not the last deal's same card), and what is read waits for the game to get there."""
        if state.get("phase") != "show" or not self._crib or self._swept:
            return
        crib = {n for n, _ in self._crib}
        if not any(c.card in crib for c in self.tracker.visible()):
            self._swept = True
            self.tracker.new_deal()
            log.info("camera: the crib is swept while the game waits on it: the next deal's cards wait")

    def _resync(self, state: dict[str, Any], found: list[Sighting | Doubt]) -> bool:
        """Whether the camera sees the game's own deal. A follower that starts on a game in
        progress, or a source whose frame numbers began again (a camera restarted, a video played
        from its start), applies nothing until the table shows the deal the game is in: its
        starter in the centre, or two of its cards (nothing to see yet: at once). Until then
        another deal's cards (a video replaying an earlier deal) are let by, never applied."""
        if self.tracker.restarted:
            self.tracker.restarted = False
            self._synced, self._before_sync, self._seen_placed = False, [], set()
        placed = _deal_cards(state) if state.get("phase") not in (None, "cut", "over") else set()
        if self._synced is None or (self._synced is False and not placed):
            self._synced = not placed
            return True
        if self._synced:
            return False
        self._seen_placed |= {i.card for i in found if isinstance(i, Sighting) and i.card in placed}
        starter = state.get("starter")
        turned = any(isinstance(i, Sighting) and i.card == starter and i.zone == CENTRE for i in found)
        if (starter and turned) or len(self._seen_placed) >= 2 or (not starter and self._seen_placed):
            self._synced = True
            log.info("camera: the table shows the deal in progress again")
            return True
        return False

    def _still_lying(self, recent: int | None = RESYNC) -> list[Sighting]:
        """The cards read just before the table showed the game's deal (within ``recent`` frames:
        the same look at the whole table; None: whenever) that still lie where they were read,
        laid while the camera was away; the others were another deal's, and are let go."""
        keep = []
        lying = self.tracker.visible()
        for s in self._before_sync:
            fresh = recent is None or self._number - s.frame <= recent
            if fresh and any(c.card == s.card and c.center == s.center for c in lying):
                keep.append(s)
            else:
                self.tracker.unlay(s.card, s.center)
        self._before_sync = []
        return keep

    def _moot(self, state: dict[str, Any]) -> bool:
        """Drop the doubts the game has answered since: a card it now holds in this deal, a card
        in doubt in the centre once the starter is turned (or the crib counted), one in a seat's
        zone once the play is over. Other flags that name a card, or that the game refused, stay
        for the players."""
        phase = state.get("phase")
        placed = _deal_cards(state)
        keep = [f for f in self.flags if f.card not in placed or f.kind == "crib-all"]
        keep = [f for f in keep if f.card is not None or f.reason.startswith("the game refuses")
                or (f.kind == "starter" and phase == "deal") or (f.kind == "play" and phase == "play")
                or (f.kind == "crib" and phase == "show")]
        if len(keep) == len(self.flags):
            return False
        self.flags = keep
        return True

    def _sighted(self, s: Sighting, state: dict[str, Any]) -> dict[str, Any]:
        phase = state.get("phase")
        if s.lying and s.zone != CENTRE and phase in ("cut", "deal") and not _deal_cards(state):
            return self._left_be(s, state)
        if phase == "cut":
            return self._find_dealer(s, state)
        if phase in (None, "over"):
            return state
        if phase == "show" and self._swept:
            self._early.append(s)  # the crib read so far is swept away: a card of the next deal
            return state
        healed = self._heal(s, state)
        if healed is not None:
            return healed
        if s.card in _deal_cards(state):
            where = self._sent_at.get(s.card)
            if where is not None and _dist(where, s.center) > self.tracker.card_width:
                # a card the camera already saw elsewhere in this deal: this one is misread
                kind = "play" if phase == "play" else ("crib" if phase == "show" else "starter")
                where = self._where_words(s.zone, state)
                return self._flag(s, kind, f"read as {s.card}, already on the table", None, state=state,
                                  say=f"A card in {where} read as {_pretty(s.card)}, which is already on "
                                      "the table: which card is it?", name_card=False)
            return state  # already placed by the game (a camera that came back, a card pegged by hand)
        seats = [p["seat"] for p in state.get("players", [])]
        if phase == "deal":
            if s.zone == CENTRE:
                return self._send({"type": "starter", "card": s.card}, s, state)
            if s.zone in seats and any(f.kind == "starter" for f in self.flags):
                self._held.append(({"type": "play", "seat": s.zone, "card": s.card}, s))  # after the starter
                return state
            where = self._where_words(s.zone, state)
            return self._flag(s, "starter", f"a card in {where} before the starter is turned",
                              {"type": "starter", "card": s.card}, state=state,
                              say=f"{_pretty(s.card)} in {where}: is it the starter?")
        if phase == "play":
            s = self._seat_from_card(s, state)
            if s.zone in seats:
                event = {"type": "play", "seat": s.zone, "card": s.card}
                if self._blocked():
                    self._held.append((event, s))  # the game waits for the card flagged before it
                    return state
                dealt = self._dealer_told_wrong(s, state)
                if dealt is not None:
                    return self._flag_dealer(s, event, dealt, state)
                return self._send(event, s, state)
            where = self._where_words(s.zone, state)
            return self._flag(s, "play", f"a card laid in {where}: whose is it?", None,
                              state=state, say=f"{_pretty(s.card)} laid in {where}: whose is it?")
        if phase == "show" and (s.zone == CENTRE or state.get("next") == "crib"):
            # every card the seats laid is on the table already: a new card now is the crib's,
            # even where its spread reaches into a seat's zone
            if all(c != s.card for c, _ in self._crib):
                self._crib.append((s.card, s))
                self._crib_at = s.frame
                self._last = {"card": s.card, "say": f"{_pretty(s.card)} in the crib", "frame": s.frame}
                self._drop_crib_short()  # asked again, if still short, naming the cards read now
            return state
        if phase == "show" and s.zone in seats \
                and self._unplayed(s.zone, state) > len(self._shown.get(s.zone, [])):
            self._shown.setdefault(s.zone, []).append(s.card)  # a card of the hand never played
            return self._shows(state, s.frame)
        where = self._where_words(s.zone, state)
        if phase == "show":  # after the play a new card can only be the crib's, spread early
            return self._flag(s, "crib", f"a new card in {where} before the hands are counted", None,
                              state=state, say=f"{_pretty(s.card)} in {where} after the play: a crib card?")
        return self._flag(s, "play", f"a new card in {where} during the {phase}", None,
                          state=state, say=f"{_pretty(s.card)}, a new card in {where} during the {phase}: "
                                           "whose is it?")

    def _dealer_told_wrong(self, s: Sighting, state: dict[str, Any]) -> tuple[int, str] | None:
        """The first card of the first deal's play laid by another seat than the pone the dealer
        told makes: the table says the seat before it dealt. Returns the number of the dealer
        event to correct and the seat that dealt, or None where the table agrees (or seats are
        still to be found from this very card, or no dealer event can be corrected)."""
        seats = [p["seat"] for p in state.get("players", [])]
        if s.zone == state.get("next") or s.zone not in seats or self._held or self.flags:
            return None
        if any((hand or {}).get("laid") for hand in (state.get("hands") or {}).values()):
            return None
        if self.tracker.seats is not None and not self.tracker.seats.settled:
            return None
        events = getattr(self.game, "events", None)
        if events is None:
            return None
        told = [e for e in events() if e["event"].get("type") in ("dealer", "cut")
                and e.get("superseded_by") is None]
        if len(told) != 1 or told[0]["event"]["type"] != "dealer" or state.get("deal") != 1:
            return None
        return int(told[0]["id"]), seats[(seats.index(str(s.zone)) - 1) % len(seats)]

    def _flag_dealer(self, s: Sighting, event: dict[str, Any], dealt: tuple[int, str],
                     state: dict[str, Any]) -> dict[str, Any]:
        """Say that the table contradicts the dealer told, with a one-tap swap."""
        names = _names(state)
        who, told = names.get(str(s.zone), s.zone), names.get(str(state.get("dealer")), state.get("dealer"))
        dealer = names.get(dealt[1], dealt[1])
        reason = f"the first card is {s.zone}'s: {dealt[1]} dealt, not {state.get('dealer')}"
        say = f"{who} laid the first card ({_pretty(s.card)}), so {dealer} dealt, not {told}"
        after = self._flag(s, "dealer", reason, event, state=state, say=say)
        flag = self.flags[-1]
        if flag.kind == "dealer":
            flag.choices = [{"label": f"{dealer} dealt: swap", "action": "accept"},
                            {"label": "Not a card", "action": "dismiss"}]
            self._swap = dealt
        return after

    def _left_be(self, s: Sighting, state: dict[str, Any]) -> dict[str, Any]:
        """A card face up beside a seat from the camera's first look, before the starter: never
        seen laid, it is no card of the play (a card left out, an ace printed on a felt). It is
        neither pegged nor asked about, nor taken as the first card of the play to find the
        dealer; the status says it is left be. The tracker holds it where it lies and never
        reports it there again (:meth:`vision.track.Tracker.leave_be`), in this game or the next,
        after the camera came back too; moved and laid, it is a new card."""
        where = self._where_words(s.zone, state)
        self.tracker.leave_be(s.card, s.center)
        log.info("camera: %s lay in %s before the camera watched: left be", s.card, where)
        self._last = {"card": s.card, "say": f"{_pretty(s.card)} lay in {where} before I watched: I "
                      "leave it be (a card of the play counts once it is laid)", "frame": s.frame}
        return state

    def _find_dealer(self, s: Sighting, state: dict[str, Any]) -> dict[str, Any]:
        """A game begun with no dealer (none tapped, a game the camera started): the table says
        who dealt. A card face up in the centre is the starter, kept until the first card of the
        play; that card is the pone's, so the seat before the pone dealt. The dealer is then sent
        (``source: camera``), the starter after it, and the card as the first of the play."""
        seats = [p["seat"] for p in state.get("players", [])]
        if s.zone == CENTRE:
            self._cut_starter = s
            self._last = {"card": s.card, "say": f"{_pretty(s.card)} in the centre: the starter, once the "
                          "first card of the play says who dealt", "frame": s.frame}
            return state
        if s.zone not in seats:
            return state
        pone = seats.index(str(s.zone))
        dealer = seats[(pone - 1) % len(seats)]
        try:
            after = self.game.apply({"type": "dealer", "seat": dealer})
        except CribbageError as exc:
            log.info("camera: the dealer found from the table was refused: %s", exc)
            return state
        self.applied.append(Applied({"type": "dealer", "seat": dealer}, s.frame, None, after))
        names = _names(after)
        log.info("camera: %s laid first, so %s dealt", names.get(str(s.zone)), names.get(dealer))
        self._deal_key = (after.get("game"), after.get("deal"))
        starter, self._cut_starter = self._cut_starter, None
        if starter is not None and any(c.card == starter.card for c in self.tracker.visible(CENTRE)):
            after = self._sighted(starter, after)
        after = self._sighted(s, after)
        if self._last is not None and self._last.get("card") == s.card:
            self._last["say"] += f" (first of the play: {names.get(dealer, dealer)} dealt)"
        return after

    def _seat_from_card(self, s: Sighting, state: dict[str, Any]) -> Sighting:
        """Seats found from the cards (``--zones auto``, :mod:`vision.track.seats`): the first
        card of a deal's play, before any other is laid, held or flagged, is the pone's, and where
        it lies says where the pone sits, so where every seat sits. Once settled, each card is
        in the zone it lies in by the seats found."""
        seats = self.tracker.seats
        if seats is None:
            return s
        w, h = self.tracker.size
        if not seats.settled and s.zone != CENTRE and not self._held \
                and not any(f.kind == "play" for f in self.flags) \
                and not any((hand or {}).get("laid") for hand in (state.get("hands") or {}).values()):
            pone = state.get("next")
            if isinstance(pone, str) and seats.settle(pone, s.center, s.down, (w, h), s.frame) is not None:
                self.tracker.rezone(seats.zones)
                log.info("camera: seats found from %s's first card (%s edge): turned %d quarter(s)",
                         pone, seats.by[1] if seats.by else "?", seats.turn)
        if not seats.settled or not (w and h):
            return s
        return replace(s, zone=self.tracker.zones.zone_of(s.center[0], s.center[1], w, h))

    def _heal(self, s: Sighting, state: dict[str, Any]) -> dict[str, Any] | None:
        """A card read now where a flag waits for a card (turned up for the show, or read on a
        later look): later evidence answers the flag, and the play is taken in its own order."""
        if s.card in _deal_cards(state):
            return None
        for flag in self.flags:
            if _crib_short_flag(flag):
                continue  # it asks for cards, not for one at its place: a crib card read is taken as read
            again = self._all_laid(s.zone, state) or not self.tracker.moved_since(flag.center, flag.frame)
            if flag.kind == "play" and not (flag.zone == s.zone and again):
                continue  # a card laid beside a flagged one is the seat's next play, not a re-reading
            if flag.kind in ("play", "starter", "crib") and flag.card != s.card \
                    and _dist(flag.center, s.center) < HEAL * self.tracker.card_width:
                try:
                    after = self._answer(flag, s.card, None)
                except CribbageError as exc:
                    log.info("camera: %s read where flag %d waits, refused: %s", s.card, flag.id, exc)
                    return None
                log.info("camera: flag %d answered by a later reading: %s", flag.id, s.card)
                self._changed()
                return after
        return None

    def _unplayed(self, seat: str | None, state: dict[str, Any]) -> int:
        """Cards ``seat`` kept but never laid (the five-card game's play stops at the first go)."""
        if state.get("phase") != "show":
            return 0
        return int(((state.get("hands") or {}).get(seat or "") or {}).get("left") or 0)

    def _all_laid(self, seat: str | None, state: dict[str, Any]) -> bool:
        """Whether every card ``seat`` holds for the play is on the table: pegged, held behind a
        flag or flagged (so a card read in its row now is one of those, read again)."""
        hand = (state.get("hands") or {}).get(seat or "") or {}
        left = int(hand.get("left") or 0)
        waiting = sum(1 for event, _ in self._held if event.get("seat") == seat)
        waiting += sum(1 for f in self.flags if f.kind == "play" and _seat_of(f) == seat)
        return waiting >= left

    def _blocked(self) -> bool:
        """Whether a flag of the play or the starter waits for the players: the plays after it
        wait too, so the game takes each card in the order it was laid."""
        return any(f.kind in ("play", "starter", "dealer") for f in self.flags)

    def _release(self, state: dict[str, Any]) -> dict[str, Any]:
        """Send the plays held behind a flag, in order, once none blocks them."""
        while self._held and not self._blocked():
            event, s = self._held.pop(0)
            if event["card"] in _deal_cards(state):
                continue
            state = self._send(event, s, state)
        return state

    def _doubted(self, d: Doubt, state: dict[str, Any]) -> bool:
        """A doubt is flagged where the game now expects a card (once a card, however often
        it is seen)."""
        phase = state.get("phase")
        seats = [p["seat"] for p in state.get("players", [])]
        if phase == "deal" and d.zone == CENTRE:
            kind, event = "starter", {"type": "starter"}
        elif phase == "play" and d.zone in seats:
            kind, event = "play", {"type": "play", "seat": d.zone}
        elif phase == "play" and d.what == "card":
            kind, event = "play", None  # a face-up card outside the rows: whose is it?
        elif phase == "show" and d.zone == CENTRE and state.get("next") == "crib":
            kind, event = "crib", None
        else:
            return False
        width = self.tracker.card_width
        if any(_dist(f.center, d.center) < HEAL * width for f in self.flags if not _crib_short_flag(f)):
            return False  # that card is flagged already
        # a card read there already (an index of it, half covered): of this deal, or of the last
        # one, still lying (anywhere on it: the next deal's cards come once it is cleared)
        deal = self.tracker.deal
        if d.what == "index" and any(_dist(c.center, d.center) < (0.5 if c.deal == deal else 0.85) * width
                                     for c in self.tracker.cards if c.visible):
            return False
        placed = _deal_cards(state)
        likely = [c for c in d.likely if c not in placed]
        reason = ("read as more than one card" if len(d.likely) > 1 else
                  "below the confidence threshold" if d.likely else "not read surely")
        names = _names(state)
        where = self._where_words(d.zone, state)
        if kind == "starter":
            say = "The starter: I can't read it" + (f" ({_pretty(likely[0])}?)" if likely else "")
        elif kind == "crib":
            say = "A crib card I can't read" + (f" ({_pretty(likely[0])}?)" if likely else "")
        else:
            say = f"A card in {where} I can't read" + (f" ({_pretty(likely[0])}?)" if likely else "")
        flag = Flag(next(self._ids), d.frame, d.zone, likely[0] if likely else None, d.confidence, likely,
                    reason, self._keep_crop(d.crop, d.frame, d.zone), event, d.center, kind, say)
        if event is not None and flag.card:
            flag.event = {**event, "card": flag.card}
        flag.choices = self._choices(flag, names)
        if kind == "crib":
            self._drop_crib_short()
        self.flags.append(flag)
        return True

    def _choices(self, flag: Flag, names: dict[str, str]) -> list[dict[str, Any]]:
        """The one-tap answers to ``flag``, in players' words."""
        out: list[dict[str, Any]] = []
        card = flag.card
        if flag.kind == "play" and _seat_of(flag) is None:
            for letter, name in names.items():
                out.append({"label": f"{name}'s card" + (f": {_pretty(card)}" if card else ""),
                            "action": "accept" if card else "fix", "seat": letter})
        elif card and flag.kind == "starter":
            out.append({"label": f"Accept {_pretty(card)} as the starter", "action": "accept"})
        elif card and flag.kind == "crib":
            out.append({"label": f"Accept {_pretty(card)} in the crib", "action": "accept"})
        elif card and flag.kind == "play":
            out.append({"label": f"Accept {_pretty(card)} as {names.get(flag.zone or '', 'their')}'s card",
                        "action": "accept"})
        elif card and flag.kind == "crib-all":
            out.append({"label": "Accept this crib", "action": "accept"})
        out.append({"label": "Another card…" if card else "Name the card…", "action": "fix"})  # none read
        out.append({"label": "Not a card", "action": "dismiss"})
        return out

    def _send(self, event: dict[str, Any], s: Sighting, state: dict[str, Any]) -> dict[str, Any]:
        crop = self._keep_crop(s.crop, s.frame, s.zone)
        seen: dict[str, Any] = {"frame": s.frame, "confidence": round(min(1.0, s.confidence), 3)}
        if crop:
            seen["crop"] = crop
        try:
            after = self.game.apply({**event, "seen": seen})
        except CribbageError as exc:
            closed = self._closing_go(event, s, state)
            if closed is not None:
                return closed
            what = "the starter" if event["type"] == "starter" else self._where_words(s.zone, state)
            self._flag(s, event["type"], f"the game refuses it: {exc}", event, crop=crop, state=state,
                       say=_refused_words(exc, event, what, state))
            return state
        self.applied.append(Applied({**event, "seen": seen}, s.frame, s.confidence, after))
        self._sent_at[s.card] = s.center
        self._last = self._last_words(event, s.frame, after)
        return after

    def _closing_go(self, event: dict[str, Any], s: Sighting, state: dict[str, Any]) -> dict[str, Any] | None:
        """The five-card game's play stops at the first go, which no card shows: a card laid
        that cannot follow the count is a card of the hand turned up for the show, so every seat
        to play said go. Returns the state after those goes (the card kept for its seat's show),
        or None where the card is not such a one."""
        if state.get("variant") != "five-card" or event.get("type") != "play":
            return None
        count = int(state.get("count") or 0)
        if count + _value(event["card"]) <= 31:
            return None
        after = state
        for _ in range(len(state.get("players") or [])):
            if after.get("phase") != "play":
                break
            go = {"type": "go", "seat": after.get("next"), "seen": {"frame": s.frame}}
            try:
                after = self.game.apply(go)
            except CribbageError as exc:
                log.info("camera: the closing go was refused: %s", exc)
                return None
            self.applied.append(Applied(go, s.frame, None, after))
        if after.get("phase") != "show":
            return None
        self._shown.setdefault(str(event["seat"]), []).append(event["card"])
        return self._shows(after, s.frame)

    def _flag(self, s: Sighting, kind: str, reason: str, event: dict[str, Any] | None,
              crop: str | None = None, *, state: dict[str, Any], say: str = "",
              name_card: bool = True) -> dict[str, Any]:
        width = self.tracker.card_width
        if any(_dist(f.center, s.center) < HEAL * width and f.card == s.card for f in self.flags):
            self.tracker.unlay(s.card, s.center)
            return self.game.state()  # that card is flagged already: one flag a card
        crop = crop or self._keep_crop(s.crop, s.frame, s.zone)
        card = s.card if name_card else None
        flag = Flag(next(self._ids), s.frame, s.zone, card, s.confidence, [s.card] if name_card else [],
                    reason, crop, event, s.center, kind, say)
        flag.choices = self._choices(flag, _names(state))
        self.flags.append(flag)
        self.tracker.unlay(s.card, s.center)  # not on the table until the players say so
        self._changed()
        return self.game.state()

    def _drop_crib_short(self) -> None:
        """Take back the flag of a crib short of a card: a card of it was read since, or found
        in doubt (which is flagged at its own place)."""
        self.flags = [f for f in self.flags if not _crib_short_flag(f)]

    def _crib_short(self, state: dict[str, Any], number: int) -> bool:
        """The crib spread with fewer than four cards read, a second after the last was read,
        and no card of it in doubt: flagged, naming the cards read, never left waiting unsaid."""
        if state.get("phase") != "show" or state.get("next") != "crib":
            return False
        cards = [c for c, _ in self._crib if c not in _deal_cards(state)]
        size = int((state.get("crib") or {}).get("size") or 4)
        if not cards or len(cards) >= size or number - self._crib_at < CRIB_WAIT:
            return False
        if any(f.kind in ("crib", "crib-all") for f in self.flags):
            return False
        if not self._crib_again:  # and read the centre afresh, once: a card found heals the flag
            self._crib_again = True
            self.tracker.look_again(CENTRE)
        xs = [s.center for _, s in self._crib]
        centre = (float(np.mean([x for x, _ in xs])), float(np.mean([y for _, y in xs])))
        missing = size - len(cards)
        say = (f"The crib: I read {' '.join(_pretty(c) for c in cards)}; "
               f"{'which is the last card?' if missing == 1 else f'which are the other {missing}?'}")
        crop = self._crib[-1][1].crop
        flag = Flag(next(self._ids), number, CENTRE, None, 0.0, [], f"the crib: {len(cards)} of {size} read",
                    self._keep_crop(crop, number, CENTRE), None, centre, "crib", say)
        flag.choices = self._choices(flag, _names(state))
        self.flags.append(flag)
        return True

    def _shows(self, state: dict[str, Any], number: int, overdue: bool = False) -> dict[str, Any]:
        """Count each hand once every card its seat laid shows again, or once the table says the
        show is past (the crib spread) or the deadline says it (``overdue``): the hand is known
        from the play. Then the crib."""
        while state.get("phase") == "show":
            nxt = state.get("next")
            if nxt == "crib":
                size = int((state.get("crib") or {}).get("size") or 4)
                cards = [c for c, _ in self._crib if c not in _deal_cards(state)][:size]
                if len(cards) < size:
                    return state
                sightings = [s for c, s in self._crib if c in cards]
                event = {"type": "crib", "cards": cards,
                         "seen": {"frame": number,
                                  "confidence": round(min(min(s.confidence for s in sightings), 1.0), 3)}}
                try:
                    state = self.game.apply(event)
                except CribbageError as exc:
                    self._crib = []
                    self.flags.append(Flag(next(self._ids), number, CENTRE, None, 0.0, cards,
                                           f"the game refuses the crib {' '.join(cards)}: {exc}", None,
                                           {"type": "crib", "cards": cards}, kind="crib-all",
                                           say=f"The crib read as {' '.join(_pretty(c) for c in cards)}: the "
                                               f"rules refuse it ({exc})",
                                           choices=[{"label": "Another card…", "action": "fix"},
                                                    {"label": "Not the crib", "action": "dismiss"}]))
                    self._changed()
                    return state
                self.flags = [f for f in self.flags if f.kind != "crib"]
                self.applied.append(Applied(event, number, None, state))
                self._last = {"card": cards[-1], "say": "the crib counted", "frame": number}
                return state
            laid = ((state.get("hands") or {}).get(nxt) or {}).get("laid") or []
            up = {c.card for c in self.tracker.visible()}
            past = overdue or bool(self._crib)
            if not (laid and set(laid) <= up) and not past:
                return state
            event = {"type": "show", "seat": nxt, "seen": {"frame": number}}
            unplayed = self._unplayed(nxt, state)
            if unplayed:  # the five-card game: cards left in hand when the play stopped
                extra = self._shown.get(str(nxt), [])
                if len(extra) < unplayed:
                    if overdue:
                        short = unplayed - len(extra)
                        self._flag_wait(number, "show", f"{nxt}'s hand: {short} unplayed card(s) unread",
                                        f"{_names(state).get(str(nxt), nxt)}'s hand: I can't read the "
                                        f"card{'s' if short > 1 else ''} never played",
                                        [{"label": "Name the card…", "action": "fix", "seat": nxt}])
                    return state
                event["cards"] = [*laid, *extra[:unplayed]]
            try:
                state = self.game.apply(event)
            except CribbageError as exc:
                log.info("show %s refused: %s", nxt, exc)
                return state
            self.applied.append(Applied(event, number, None, state))
        return state

    # -- the deadline on every wait ----------------------------------------------------------

    def _waiting(self, state: dict[str, Any]) -> tuple[Any, ...] | None:
        """What the follower waits for the table to show now, if anything: the deal in progress
        (a camera come back), a hand or the crib for the show. The deal and the play wait on the
        players, not on the camera: a card laid is read, or flagged, as it comes."""
        if self._synced is False:
            return ("sync", state.get("deal"))
        if state.get("phase") == "show":
            return ("show", state.get("deal"), state.get("next"), len(self._crib))
        return None

    def finish(self) -> list[str]:
        """The frames have ended (a recording played to its end): every wait's deadline is now.
        Returns what is left for the players, in their words: each flag unanswered, and what the
        game still waits for from the table (empty when nothing is left)."""
        with self._lock:
            state = self.game.state()
            if self._wait == self._waiting(state):
                self._wait_over = False
            state, changed = self._watch(state, self._number, final=True)
            if changed:
                self._changed()
            left = [f"flag {f.id} (frame {f.frame}): {f.say or f.reason}" for f in self.flags]
            if not self.flags and self._waiting(state) is not None:
                left.append(f"the game waits for {self._expect_words(state)}")
            return left

    def _watch(self, state: dict[str, Any], number: int, final: bool = False) -> tuple[dict[str, Any], bool]:
        """The one watchdog over the follower's waits: whatever it waits for (:meth:`_waiting`)
        either comes, or ``DEADLINE`` frames after the table last moved (and after the wait
        began) it is healed from what is known or becomes a flag in players' words. A wait is
        flagged once; answering (or dismissing) the flag arms the deadline again."""
        key = self._waiting(state)
        if key != self._wait:
            self._wait, self._wait_since, self._wait_over = key, number, False
        if key is None or self._wait_over or self.flags:
            return state, False
        if not final and min(number - self._wait_since, self.tracker.quiet()) < DEADLINE:
            return state, False
        self._wait_over = True
        if key[0] == "sync":
            return state, self._flag_wait(
                number, "sync", "the camera came back: this deal's cards are not in view",
                "The camera is back but can't see this deal's cards: go on from what it sees now?",
                [{"label": "Go on from here", "action": "accept"},
                 {"label": "Keep waiting", "action": "dismiss"}])
        if state.get("next") != "crib":
            after = self._shows(state, number, overdue=True)
            if after is not state:
                return after, True
        if state.get("phase") == "show" and not self._crib:
            return state, self._flag_wait(
                number, "crib", "the crib: no card of it read",
                "The crib: I can't see it. Spread it face up in the centre, or name its cards",
                [{"label": "Name a crib card…", "action": "fix"}])
        return state, False

    def _flag_wait(self, number: int, kind: str, reason: str, say: str,
                   choices: list[dict[str, Any]]) -> bool:
        """Flag what the table did not show by its deadline."""
        self.flags.append(Flag(next(self._ids), number, CENTRE, None, 0.0, [], reason, None, None,
                               kind=kind, say=say, choices=[*choices]))
        log.info("camera: %s (frame %d)", reason, number)
        return True

    # -- what the camera waits for ----------------------------------------------------------

    def _expect(self, state: dict[str, Any]) -> None:
        """Tell the tracker which zone to read first: where the rules expect the next card."""
        phase, nxt = state.get("phase"), state.get("next")
        if phase == "deal" or (phase == "show" and nxt == "crib"):
            self.tracker.expect = (CENTRE,)
        elif phase in ("play", "show") and isinstance(nxt, str):
            self.tracker.expect = (nxt,)
        else:
            self.tracker.expect = ()

    def _expect_words(self, state: dict[str, Any]) -> str:
        """What the camera waits for, in players' words."""
        names = _names(state)
        phase, nxt = state.get("phase"), state.get("next")
        if self._synced is False:
            return "the camera is back: show it this deal's cards"
        if self.flags:
            return "waiting for you to check a card"
        if phase == "deal":
            return "the starter"
        if phase == "play" and nxt in names:
            return f"{names[nxt]} to play"
        if phase == "show" and nxt == "crib":
            return "waiting for the crib"
        if phase == "show" and nxt in names:
            return f"{names[nxt]}'s hand"
        if phase == "over":
            return "the game is over"
        if phase == "cut":
            return "the cut for deal"
        return "the next deal"

    def _last_words(self, event: dict[str, Any], frame: int, state: dict[str, Any]) -> dict[str, Any]:
        card = event.get("card")
        if event["type"] == "starter":
            say = f"{_pretty(card)} turned as the starter"
        else:
            say = f"{_pretty(card)} played by {_names(state).get(event.get('seat', ''), '?')}"
        return {"card": card, "say": say, "frame": frame}

    # -- helpers ---------------------------------------------------------------------------

    def _remember(self, card: str, flag: Flag) -> None:
        """A card the players named: the tracker holds it as lying where the flag was."""
        self.tracker.cards.append(TableCard(card, flag.center, 10.0, flag.zone, flag.frame,
                                            deal=self.tracker.deal, named=True))

    def _keep_crop(self, crop: BGR, frame: int, zone: str | None) -> str | None:
        if self.save_crop is None or crop.size == 0:
            return None
        try:
            return self.save_crop(crop, f"{frame:06d}-{zone or 'none'}")
        except OSError as exc:
            log.warning("could not keep a crop: %s", exc)
            return None

    def _where_words(self, zone: str | None, state: dict[str, Any]) -> str:
        """A zone in players' words: "Ann's row", "the centre", "no player's place"."""
        if zone is None:
            return "no player's place"
        if zone == CENTRE:
            return "the centre"
        return f"{_names(state).get(zone, zone)}'s row"

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:  # a listener's failure must not stop the camera
                log.exception("camera listener failed")


def _value(card: str) -> int:
    """A card's value in the count: ``"KD"`` → 10, ``"5S"`` → 5, ``"AH"`` → 1."""
    return parse_card(card).value


def _crib_short_flag(flag: Flag) -> bool:
    """Whether ``flag`` asks for the cards of a crib read short (not for one card at its place)."""
    return flag.kind == "crib" and flag.reason.startswith("the crib: ")


def _seat_of(flag: Flag) -> str | None:
    """The seat a flagged play belongs to by where it lies, if a seat's zone."""
    if (flag.event or {}).get("seat"):
        return str((flag.event or {})["seat"])
    return flag.zone if flag.zone not in (None, CENTRE) else None


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


def _near(a: tuple[float, float], b: tuple[float, float], r: float = 40.0) -> bool:
    return abs(a[0] - b[0]) < r and abs(a[1] - b[1]) < r


def _sighting_of(flag: Flag, card: str) -> Sighting:
    no_crop = np.zeros((0, 0, 3), np.uint8)
    return Sighting(card, flag.zone, flag.center, flag.frame, 1.0, flag.frame, 0, no_crop)


def events_json(applied: Iterable[Applied]) -> list[dict[str, Any]]:
    """The applied events in ``crib track``'s form: type, seat, card(s), frame, confidence."""
    out = []
    for a in applied:
        e = {k: v for k, v in a.event.items() if k != "seen"}
        e["frame"] = a.frame
        if a.confidence is not None:
            e["confidence"] = round(min(1.0, a.confidence), 3)
        out.append(e)
    return out
