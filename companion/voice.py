"""The count aloud (``crib serve --voice``): each score said as players say it, so the table
hears that the camera saw a card without looking at a phone.

A voice says lines of text (:meth:`Voice.say`) and never holds up its caller: the lines wait in
a short queue for one worker thread, and a line that waited too long is dropped rather than
said late. :func:`open_voice` picks one by name, like the LED outputs:

- ``espeak`` (or ``espeak:VOICE``): espeak-ng through the default sound device (ALSA on a
  Raspberry Pi), voice ``en-gb`` unless named;
- ``wav:DIR``: each line rendered by espeak-ng to a WAV file in ``DIR`` (tests, and a Pi
  without speakers to check what it would say);
- ``none``: nothing said.

:class:`Announcer` is the companion's listener: it turns each change to a game into the lines
said at the table, in the engine's words (:mod:`cribbage.spoken`) with the players' names.

>>> names = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}]}
>>> before = {**names, "events": 6, "phase": "play", "deal": 1, "next": "A", "gone": [],
...           "plays": [{}, {}, {}, {}]}
>>> lines_for(Seen.of(before), {**before, "events": 7, "next": "B", "gone": ["A"]})
['Ann: go']
>>> scored = [{"seat": "B", "kind": "thirty-one", "points": 2, "pegged": 2}]
>>> lines_for(Seen.of(before), {**before, "events": 7, "last_event": 7, "last": scored,
...                             "plays": [{}] * 5})
['Bob: thirty-one for two']
"""

from __future__ import annotations

import collections
import logging
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from cribbage.spoken import GO, join_phrases, number_words, points_words

log = logging.getLogger("companion.voice")

ESPEAK = "espeak-ng"
DEFAULT_VOICE = "en-gb"
WORDS_PER_MINUTE = 160
STALE_S = 12.0
"""A line not started within this many seconds of being said is dropped: the table has moved on."""
MAX_PENDING = 4
"""Lines waiting at most; when more come, the oldest waiting line is dropped."""
LINE_TIMEOUT_S = 30.0
"""The longest one line may take to say or render before espeak-ng is stopped."""
SPECS = "espeak, espeak:VOICE, wav:DIR or none"
MAX_LINE = 200
"""The most characters one line says (a few seconds aloud); a longer one is cut at a word.
Names are at most :data:`cribbage.game.limits.MAX_NAME` characters, so lines said at the table
are far shorter."""
KEEP_WAVS = 500
"""``wav:DIR`` keeps the newest this many lines' WAV files (about 50 MB); older ones go."""


class Voice(Protocol):
    """Something that says lines of text without holding up its caller."""

    def say(self, text: str) -> None: ...

    def close(self) -> None: ...


class Silent:
    """``none``: says nothing."""

    def say(self, text: str) -> None:
        pass

    def wait_idle(self, timeout: float = 5.0) -> bool:
        return True

    def close(self) -> None:
        pass


class QueuedVoice:
    """A voice whose lines are said one at a time on a worker thread by :meth:`render`.

    :meth:`say` only queues the line. At most ``max_pending`` lines wait (the oldest is dropped
    when another comes), and a line that waited longer than ``stale_s`` seconds is dropped
    (``None``: lines never go stale). ``spoken``, ``dropped`` and ``failed`` count the lines.
    """

    def __init__(self, *, max_pending: int = MAX_PENDING, stale_s: float | None = STALE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_pending = max_pending
        self.stale_s = stale_s
        self._clock = clock
        self._cond = threading.Condition()
        self._pending: collections.deque[tuple[float, str]] = collections.deque()
        self._busy = False
        self._stop = False
        self.spoken = 0
        self.dropped = 0
        self.failed = 0
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        text = " ".join(str(text).split())
        if len(text) > MAX_LINE:
            text = text[:MAX_LINE].rsplit(" ", 1)[0]
        if not text:
            return
        with self._cond:
            if self._stop:
                return
            self._pending.append((self._clock(), text))
            while len(self._pending) > self.max_pending:
                self._pending.popleft()
                self.dropped += 1
            self._cond.notify_all()

    def render(self, text: str) -> None:
        """Say one line (on the worker thread); raise to count it as failed."""
        raise NotImplementedError

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every queued line is said or dropped (tests, and a clean stop)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def _next(self) -> str | None:
        with self._cond:
            while True:
                while not self._pending and not self._stop:
                    self._cond.wait()
                if self._stop:
                    return None
                queued, text = self._pending.popleft()
                if self.stale_s is not None and self._clock() - queued > self.stale_s:
                    self.dropped += 1
                    self._cond.notify_all()
                    continue
                self._busy = True
                return text

    def _run(self) -> None:
        while True:
            text = self._next()
            if text is None:
                return
            try:
                self.render(text)
                self.spoken += 1
            except Exception as exc:  # a voice that fails must not stop the table
                self.failed += 1
                (log.warning if self.failed == 1 else log.debug)("voice: %r not said: %s", text, exc)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def close(self, timeout: float = 2.0) -> None:
        with self._cond:
            self._stop = True
            self._pending.clear()
            self._cond.notify_all()
        self._thread.join(timeout=timeout)


def _run_espeak(command: Sequence[str], text: str, timeout: float) -> None:
    """Run espeak-ng with ``text`` on its standard input (so no line is read as an option)."""
    done = subprocess.run(list(command), input=text.encode(), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, timeout=timeout, check=False)
    errors = [line for line in done.stderr.decode(errors="replace").splitlines() if line.strip()]
    if done.returncode != 0 or any(line.startswith("error") for line in errors):
        # espeak-ng exits 0 when the sound device cannot be opened: its last line says so
        raise RuntimeError(f"{command[0]} exit {done.returncode}: {errors[-1] if errors else 'no message'}"
                           " (is a sound device set up? see docs/voice.md)")


class Espeak(QueuedVoice):
    """``espeak``: each line spoken by espeak-ng (``command``, a started program per line)."""

    def __init__(self, command: Sequence[str] = (ESPEAK,), voice: str = DEFAULT_VOICE,
                 words_per_minute: int = WORDS_PER_MINUTE, **kw: Any) -> None:
        self.command = [*command, "-v", voice, "-s", str(words_per_minute)]
        super().__init__(**kw)

    def render(self, text: str) -> None:
        _run_espeak(self.command, text, LINE_TIMEOUT_S)


_WAV = re.compile(r"(\d{4,})-[a-z0-9-]*\.wav")


class WavFiles(QueuedVoice):
    """``wav:DIR``: each line rendered to ``DIR/0001-ann-fifteen-for-two.wav`` (numbered in
    the order said, on from the files an earlier run left), nothing played. Lines are kept,
    never dropped as stale; the folder keeps the newest ``keep`` lines' files (a run of days
    does not fill the card), older ones are deleted. ``files`` lists this run's files."""

    def __init__(self, folder: Path, command: Sequence[str] = (ESPEAK,), voice: str = DEFAULT_VOICE,
                 words_per_minute: int = WORDS_PER_MINUTE, keep: int = KEEP_WAVS, **kw: Any) -> None:
        self.folder = folder
        self.command = [*command, "-v", voice, "-s", str(words_per_minute)]
        self.keep = keep
        self.files: list[Path] = []
        self._number = max((n for n, _ in self._kept()), default=0)
        kw.setdefault("max_pending", 100)
        kw.setdefault("stale_s", None)
        super().__init__(**kw)

    def _kept(self) -> list[tuple[int, Path]]:
        """The line files in the folder (this run's and earlier runs'), oldest first."""
        found = ((_WAV.fullmatch(p.name), p) for p in self.folder.iterdir())
        return sorted((int(m.group(1)), p) for m, p in found if m)

    def render(self, text: str) -> None:
        slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:48].strip("-")
        self._number += 1
        path = self.folder / f"{self._number:04d}-{slug or 'line'}.wav"
        _run_espeak([*self.command, "-w", str(path)], text, LINE_TIMEOUT_S)
        self.files.append(path)
        kept = self._kept()
        for _, old in kept[: max(0, len(kept) - self.keep)]:
            old.unlink(missing_ok=True)


def check_spec(spec: str) -> str:
    """``spec`` when it names a voice, else ValueError with what would (a wrong ``--voice``).

    >>> check_spec("wav:/tmp/said"), check_spec("espeak:en-us")
    ('wav:/tmp/said', 'espeak:en-us')
    >>> check_spec("loud")
    Traceback (most recent call last):
    ValueError: --voice is espeak, espeak:VOICE, wav:DIR or none, not 'loud'
    """
    kind, colon, arg = spec.partition(":")
    if (kind == "none" and not colon) or (kind == "espeak" and (not colon or re.fullmatch(r"[\w+-]+", arg))):
        return spec
    if kind == "wav" and arg:
        return spec
    raise ValueError(f"--voice is {SPECS}, not {spec!r}")


def open_voice(spec: str, command: Sequence[str] = (ESPEAK,)) -> QueuedVoice | Silent:
    """The voice ``spec`` names (see :func:`check_spec`). Without espeak-ng it is silent, with
    one warning saying how to install it; ``wav:DIR`` makes ``DIR`` (OSError when it cannot).
    """
    kind, _, arg = check_spec(spec).partition(":")
    if kind == "none":
        return Silent()
    if shutil.which(command[0]) is None:
        log.warning("voice: %s is not installed (sudo apt install espeak-ng): the count is not "
                    "spoken", command[0])
        return Silent()
    if kind == "wav":
        folder = Path(arg).expanduser()
        folder.mkdir(parents=True, exist_ok=True)
        return WavFiles(folder, command)
    return Espeak(command, voice=arg or DEFAULT_VOICE)


# --- what is said ------------------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """What the announcer remembers of a game's last state: enough to see what one event did."""

    events: int
    phase: str
    deal: int
    next: str | None
    gone: tuple[str, ...]
    plays: int
    shows: int
    winner: str | None

    @classmethod
    def of(cls, state: Mapping[str, Any]) -> Seen:
        return cls(
            events=int(state.get("events") or 0), phase=str(state.get("phase") or ""),
            deal=int(state.get("deal") or 0),
            next=str(state["next"]) if state.get("next") else None,
            gone=tuple(str(s) for s in state.get("gone") or ()),
            plays=len(state.get("plays") or ()), shows=len(state.get("shows") or ()),
            winner=str(state["winner"]) if state.get("winner") else None,
        )


def _names(state: Mapping[str, Any]) -> dict[str, str]:
    names: dict[str, str] = {}
    for p in state.get("players") or []:
        if isinstance(p, dict) and p.get("seat"):
            names[str(p["seat"])] = str(p.get("name") or p["seat"])
    return names


def _new_shows(before: Seen, state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The hands and crib counted by the latest event (the crib ends the deal: it is in history)."""
    deal = int(state.get("deal") or 0)
    if deal == before.deal:
        shows = list(state.get("shows") or [])
    elif deal == before.deal + 1 and state.get("history"):
        shows = list(state["history"][-1].get("shows") or [])
    else:
        return []
    return [s for s in shows[before.shows:] if isinstance(s, dict)]


def _show_line(show: Mapping[str, Any], names: Mapping[str, str]) -> str:
    seat = str(show.get("seat"))
    who = names.get(seat, seat) + ("'s crib" if show.get("crib") else "")
    claimed, total = show.get("claimed"), show.get("total")
    if claimed is not None and claimed != total:
        return f"{who}: {points_words('claim', int(claimed))}"
    spoken = str(show.get("spoken") or "nineteen")
    return f"{who}: {spoken.replace(' (no points)', '')}"


def _points_lines(state: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """The points pegged by the latest event, one line per seat that pegged them."""
    by_seat: dict[str, list[str]] = {}
    for item in state.get("last") or []:
        if isinstance(item, dict):
            seat = str(item.get("seat"))
            by_seat.setdefault(seat, []).append(
                points_words(str(item.get("kind")), int(item.get("points") or 0)))
    return [f"{names.get(seat, seat)}: {join_phrases(phrases)}" for seat, phrases in by_seat.items()]


def _winner_line(state: Mapping[str, Any]) -> str:
    winner = str(state.get("winner"))
    name = str(state.get("winner_name") or winner)
    scores = {str(k): int(v) for k, v in (state.get("scores") or {}).items()}
    others = sorted((v for k, v in scores.items() if k != winner), reverse=True)
    line = f"{name} wins"
    if winner in scores and others:
        line += f", {number_words(scores[winner])} to {join_phrases([number_words(v) for v in others])}"
    skunk = state.get("skunk")
    if skunk:
        line += ": a double skunk" if skunk == "double" else ": a skunk"
    return line


def lines_for(before: Seen | None, state: Mapping[str, Any]) -> list[str]:
    """What the table hears when a game goes from ``before`` to ``state`` (the game's JSON):
    the goes said, the points pegged (a hand or crib as its running count) and the winner.

    Only one new event is said: a game seen for the first time, an undo or a correction that
    folds the game again, or a state seen twice says nothing new.
    """
    now = Seen.of(state)
    if before is None or now.events != before.events + 1:
        return []
    names = _names(state)
    lines: list[str] = []
    last = [a for a in state.get("last") or [] if isinstance(a, dict)]
    pegged = bool(last) and state.get("last_event") == now.events
    if before.phase == "play" and now.deal == before.deal:
        gone = [s for s in now.gone if s not in before.gone]
        ended = pegged and all(a.get("kind") == "go" for a in last) and now.plays == before.plays
        if not gone and ended and before.next and all(a.get("seat") != before.next for a in last):
            gone = [before.next]  # a go that ended the count (the one who laid last pegs one)
        lines += [f"{names.get(s, s)}: {GO}" for s in gone]
    shows = _new_shows(before, state)
    if shows:
        lines += [_show_line(show, names) for show in shows]
    elif pegged:
        lines += _points_lines(state, names)
    if now.winner and not before.winner:
        lines.append(_winner_line(state))
    return lines


class Announcer:
    """The companion's listener (``companion.add_listener``): says what each change to a game
    brings, on ``voice``. It remembers a little of each game's last state (the newest 16 games).
    """

    GAMES = 16

    def __init__(self, voice: Voice) -> None:
        self.voice = voice
        self._seen: collections.OrderedDict[int, Seen] = collections.OrderedDict()
        self._lock = threading.Lock()

    def remember(self, game_id: int, state: Mapping[str, Any]) -> Seen | None:
        """Take ``state`` as what the table knows of the game; returns what it knew before."""
        with self._lock:
            before = self._seen.get(game_id)
            self._seen[game_id] = Seen.of(state)
            self._seen.move_to_end(game_id)
            while len(self._seen) > self.GAMES:
                self._seen.popitem(last=False)
        return before

    def __call__(self, topic: str, data: dict[str, Any]) -> None:
        if topic != "state" or not isinstance(data.get("state"), dict):
            return
        game_id, state = int(data["game_id"]), data["state"]
        before = self.remember(game_id, state)
        for line in lines_for(before, state):
            self.voice.say(line)


class Heard(Protocol):
    """What the voice needs of the table it speaks for (:class:`companion.service.Companion` has
    it): the newest game, a game's state, and to hear every change. The voice never imports the
    service: the service imports the voice.

    >>> class Table:
    ...     def __init__(self): self.listeners = []
    ...     def latest_game(self): return None
    ...     def state(self, game_id): return {}
    ...     def add_listener(self, listener): self.listeners.append(listener)
    >>> table: Heard = Table()
    >>> isinstance(attach_voice(table, "none"), Silent), table.listeners
    (True, [])
    """

    def latest_game(self) -> int | None: ...

    def state(self, game_id: int) -> dict[str, Any]: ...

    def add_listener(self, listener: Callable[[str, dict[str, Any]], None]) -> None: ...


def code_words(code: str) -> str:
    """The table code said a character at a time, for a Pi with no screen to show it on.

    >>> code_words("K7MX3P")
    'The table code is K, 7, M, X, 3, P.'
    """
    return f"The table code is {', '.join(code)}."


def attach_voice(companion: Heard, spec: str) -> QueuedVoice | Silent:
    """Speak ``companion``'s games on the voice ``spec`` names (``crib serve --voice``)."""
    try:
        voice = open_voice(spec)
    except (OSError, ValueError) as exc:  # crib serve checks the spec first
        log.warning("voice: %s: %s; the count is not spoken", spec, exc)
        return Silent()
    if isinstance(voice, Silent):
        return voice
    announcer = Announcer(voice)
    latest = companion.latest_game()
    if latest is not None:
        try:
            announcer.remember(latest, companion.state(latest))
        except Exception:  # a damaged game: its next change is remembered, not said
            log.debug("voice: the newest game cannot be read", exc_info=True)
    companion.add_listener(announcer)
    log.info("voice: %s", spec)
    return voice
