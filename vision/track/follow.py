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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
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
    :class:`~cribbage.errors.CribbageError` when the rules refuse it)."""

    def state(self) -> dict[str, Any]: ...

    def apply(self, event: dict[str, Any]) -> dict[str, Any]: ...


@dataclass
class Flag:
    """A reading waiting for the players: ``event`` is what the camera would send (None where it
    needs a card named), ``reason`` why it was not sent."""

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
    kind: str = "play"  # starter, play or crib: what a card named here becomes

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "frame": self.frame, "zone": self.zone, "card": self.card,
                "confidence": round(self.confidence, 3), "likely": self.likely, "reason": self.reason,
                "crop": self.crop, "event": self.event}


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


class Follower:
    """Frames in, the game's events out (see the module's doc).

    ``game`` is applied to (``state()``, ``apply(event)``); ``tracker`` reads the frames;
    ``save_crop`` keeps the crops (None: crops are not kept). ``on_change`` is called (no
    arguments) whenever the flagged list or the tracker's state changes.
    """

    def __init__(self, game: GamePort, tracker: Tracker, *, save_crop: CropSaver | None = None,
                 on_change: Callable[[], None] | None = None) -> None:
        self.game = game
        self.tracker = tracker
        self.save_crop = save_crop
        self.on_change = on_change
        self.flags: list[Flag] = []
        self.applied: list[Applied] = []
        self._ids = itertools.count(1)
        self._crib: list[tuple[str, Sighting]] = []
        self._lock = threading.RLock()
        self._deal_key: tuple[Any, Any] | None = None
        self._last_status: str | None = None

    # -- frames ----------------------------------------------------------------------------

    def feed(self, image: BGR, number: int, lores: npt.NDArray[np.uint8] | None = None) -> list[Applied]:
        """Feed frame ``number``; returns the events the game took at this frame."""
        with self._lock:
            before = len(self.applied)
            found = self.tracker.feed(image, number, lores)
            state = self.game.state()
            self._follow_deal(state)
            changed = False
            for item in found:
                if isinstance(item, Sighting):
                    state = self._sighted(item, state)
                else:
                    changed |= self._doubted(item, state)
            if found or state.get("phase") == "show":
                state = self._shows(state, number)
            changed |= self._moot(state)
            if changed or self.tracker.status != self._last_status or len(self.applied) > before:
                self._last_status = self.tracker.status
                self._changed()
            return self.applied[before:]

    def status(self) -> dict[str, Any]:
        """``{"tracker": ..., "flagged": [...]}`` for the page."""
        with self._lock:
            doing = "waiting for a confirmation" if self.flags else self.tracker.status
            return {"tracker": doing, "flagged": [f.to_json() for f in self.flags]}

    # -- the players' answers --------------------------------------------------------------

    def resolve(self, flag_id: int, action: str, card: str | None = None) -> dict[str, Any]:
        """Answer flag ``flag_id``: ``accept`` (send it as read), ``fix`` (send it with ``card``),
        ``dismiss`` (not a card). Returns the game's state after (``{}`` for a dismissal).
        Raises ``KeyError`` for an unknown flag and ``CribbageError`` when the game refuses; the
        flag then stays."""
        with self._lock:
            flag = next((f for f in self.flags if f.id == flag_id), None)
            if flag is None:
                raise KeyError(flag_id)
            if action == "dismiss":
                self.flags.remove(flag)
                self._changed()
                return {}
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
            state = self.game.state()
            if flag.kind == "crib":
                self.flags.remove(flag)
                self._remember(name, flag)
                self._crib.append((name, _sighting_of(flag, name)))
                state = self._shows(state, flag.frame)
                self._changed()
                return state
            event = dict(flag.event or {"type": flag.kind})
            if flag.kind == "play" and "seat" not in event:
                if flag.zone is None or flag.zone == CENTRE:
                    raise CribbageError("this card lies in no seat's zone: play it from the Play tab")
                event["seat"] = flag.zone
            event["card"] = name
            state = self.game.apply(event)
            self.flags.remove(flag)
            self._remember(name, flag)
            self.applied.append(Applied(event, flag.frame, None, state))
            self._changed()
            return state

    def accept_oldest(self) -> dict[str, Any] | None:
        """The board's next/confirm button: accept the oldest flag that names a card."""
        with self._lock:
            for flag in self.flags:
                if flag.card or flag.likely:
                    try:
                        return self.resolve(flag.id, "accept")
                    except CribbageError as exc:
                        log.info("confirm: flag %d refused: %s", flag.id, exc)
            return None

    # -- what a sighting means now -----------------------------------------------------------

    def _follow_deal(self, state: dict[str, Any]) -> None:
        key = (state.get("game"), state.get("deal"))
        if self._deal_key is not None and key != self._deal_key:
            self.tracker.new_deal()
            self._crib = []
            self.flags = []  # a deal gone by is fixed from the Fix tab, not from the camera's doubts
        self._deal_key = key

    def _moot(self, state: dict[str, Any]) -> bool:
        """Drop the doubts the game has answered since: a card it now holds in this deal, a card
        in doubt in the centre once the starter is turned (or the crib counted), one in a seat's
        zone once the play is over. Other flags that name a card, or that the game refused, stay
        for the players."""
        phase = state.get("phase")
        placed = _deal_cards(state)
        keep = [f for f in self.flags if f.card not in placed]
        keep = [f for f in keep if f.card is not None or f.reason.startswith("the game refuses")
                or (f.kind == "starter" and phase == "deal") or (f.kind == "play" and phase == "play")
                or (f.kind == "crib" and phase == "show")]
        if len(keep) == len(self.flags):
            return False
        self.flags = keep
        return True

    def _sighted(self, s: Sighting, state: dict[str, Any]) -> dict[str, Any]:
        phase = state.get("phase")
        if s.card in _deal_cards(state) or phase in (None, "over", "cut"):
            return state  # already placed by the game (a camera that came back), or no deal yet
        seats = [p["seat"] for p in state.get("players", [])]
        if phase == "deal":
            if s.zone == CENTRE:
                return self._send({"type": "starter", "card": s.card}, s, state)
            return self._flag(s, "starter", f"a card in {self._where(s.zone)} before the starter is turned",
                              {"type": "starter", "card": s.card})
        if phase == "play":
            if s.zone in seats:
                return self._send({"type": "play", "seat": s.zone, "card": s.card}, s, state)
            return self._flag(s, "play", f"a card laid in {self._where(s.zone)}: whose is it?", None)
        if phase == "show" and s.zone == CENTRE:
            if all(c != s.card for c, _ in self._crib):
                self._crib.append((s.card, s))
            return state
        return self._flag(s, "play", f"a new card in {self._where(s.zone)} during the {phase}", None)

    def _doubted(self, d: Doubt, state: dict[str, Any]) -> bool:
        """A doubt is flagged only where the game now expects a card."""
        phase = state.get("phase")
        seats = [p["seat"] for p in state.get("players", [])]
        if phase == "deal" and d.zone == CENTRE:
            kind, event = "starter", {"type": "starter"}
        elif phase == "play" and d.zone in seats:
            kind, event = "play", {"type": "play", "seat": d.zone}
        elif phase == "show" and d.zone == CENTRE:
            kind, event = "crib", None
        else:
            return False
        if any(_near(f.center, d.center) and f.kind == kind for f in self.flags):
            return False
        likely = [c for c in d.likely if c not in _deal_cards(state)]
        reason = ("read as more than one card" if len(d.likely) > 1 else
                  "below the confidence threshold" if d.likely else "not read surely")
        flag = Flag(next(self._ids), d.frame, d.zone, likely[0] if likely else None, d.confidence, likely,
                    reason, self._keep_crop(d.crop, d.frame, d.zone), event, d.center, kind)
        if event is not None and flag.card:
            event = {**event, "card": flag.card}
            flag.event = event
        self.flags.append(flag)
        return True

    def _send(self, event: dict[str, Any], s: Sighting, state: dict[str, Any]) -> dict[str, Any]:
        crop = self._keep_crop(s.crop, s.frame, s.zone)
        seen: dict[str, Any] = {"frame": s.frame, "confidence": round(min(1.0, s.confidence), 3)}
        if crop:
            seen["crop"] = crop
        try:
            after = self.game.apply({**event, "seen": seen})
        except CribbageError as exc:
            self._flag(s, event["type"], f"the game refuses it: {exc}", event, crop=crop)
            return state
        self.applied.append(Applied({**event, "seen": seen}, s.frame, s.confidence, after))
        return after

    def _flag(self, s: Sighting, kind: str, reason: str, event: dict[str, Any] | None,
              crop: str | None = None) -> dict[str, Any]:
        crop = crop or self._keep_crop(s.crop, s.frame, s.zone)
        self.flags.append(Flag(next(self._ids), s.frame, s.zone, s.card, s.confidence, [s.card], reason, crop,
                               event, s.center, kind))
        self.tracker.unlay(s.card, s.center)  # not on the table until the players say so
        self._changed()
        return self.game.state()

    def _shows(self, state: dict[str, Any], number: int) -> dict[str, Any]:
        """Count each hand once every card its seat laid shows again, then the crib."""
        while state.get("phase") == "show":
            nxt = state.get("next")
            if nxt == "crib":
                cards = [c for c, _ in self._crib if c not in _deal_cards(state)][:4]
                if len(cards) < 4:
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
                                           {"type": "crib", "cards": cards}, kind="crib-all"))
                    self._changed()
                    return state
                self.applied.append(Applied(event, number, None, state))
                return state
            laid = ((state.get("hands") or {}).get(nxt) or {}).get("laid") or []
            up = {c.card for c in self.tracker.visible()}
            if not laid or not set(laid) <= up:
                return state
            event = {"type": "show", "seat": nxt, "seen": {"frame": number}}
            try:
                state = self.game.apply(event)
            except CribbageError as exc:
                log.info("show %s refused: %s", nxt, exc)
                return state
            self.applied.append(Applied(event, number, None, state))
        return state

    # -- helpers ---------------------------------------------------------------------------

    def _remember(self, card: str, flag: Flag) -> None:
        """A card the players named: the tracker holds it as lying where the flag was."""
        self.tracker.cards.append(TableCard(card, flag.center, 10.0, flag.zone, flag.frame,
                                            deal=self.tracker.deal))

    def _keep_crop(self, crop: BGR, frame: int, zone: str | None) -> str | None:
        if self.save_crop is None or crop.size == 0:
            return None
        try:
            return self.save_crop(crop, f"{frame:06d}-{zone or 'none'}")
        except OSError as exc:
            log.warning("could not keep a crop: %s", exc)
            return None

    def _where(self, zone: str | None) -> str:
        if zone is None:
            return "no zone"
        return "the centre" if zone == CENTRE else f"{zone}'s zone"

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:  # a listener's failure must not stop the camera
                log.exception("camera listener failed")


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
