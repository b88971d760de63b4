"""The demo behind ``crib serve --demo``: a game of Ann and Bob that plays itself, slowly.

Two demos: :class:`DemoDealer` plays the random player's game by events (``crib serve --demo``);
:class:`VideoDemo` is the game the camera follows in a filmed table (``crib serve --demo
--camera video:PATH``), one game a pass of the video, each pass replacing the last in History
and in the game log. Both step aside for a game started on the page.

The moves are :func:`cribbage.game.simulate.random_events`' random player, with a fixed seed
(every demo plays the same game) and only what a camera would send: Bob deals first; then
each deal's starter, every card laid and every go, and the hands and the crib shown with their
cards, counted by the companion (``counting: auto``).

>>> events = demo_events()
>>> [next(events) for _ in range(2)]
[{'type': 'dealer', 'seat': 'B'}, {'type': 'starter', 'card': '7C'}]
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from companion.names import default_players
from cribbage.gamelog import DEMO_SOURCE

log = logging.getLogger("companion")

NAMES = tuple(default_players(2))
"""The demo's players: the names ``crib track`` gives too (:mod:`companion.names`)."""
SETTINGS: dict[str, Any] = {"players": list(NAMES), "variant": "six-card", "counting": "auto"}
"""The demo game's settings, as the page's new-game form sends them."""
SEED = 121
"""The shuffle's seed."""


def demo_events(seed: int = SEED, dealer: str = "B") -> Iterator[dict[str, Any]]:
    """The events of the demo game, from the first deal (Bob's unless ``dealer`` says) to the
    winning peg."""
    from cribbage.game.settings import Settings
    from cribbage.game.simulate import random_events

    rng = random.Random(seed)
    for _game, event in random_events(Settings.from_json(SETTINGS), rng, hands_known=False,
                                      dealer=dealer):
        yield event


class DemoTable(Protocol):
    """What the demo needs of the companion (:class:`companion.service.Companion` has it)."""

    def new_game(self, settings: dict[str, Any]) -> int: ...

    def apply(self, game_id: int, event: dict[str, Any], source: str = "page") -> dict[str, Any]: ...

    def latest_game(self) -> int | None: ...


class VideoTable(DemoTable, Protocol):
    """What the video demo needs besides: the game's state, and a way to replace a demo game a
    newer one took over (:meth:`companion.service.Companion.retire`: deleted from the log)."""

    def state(self, game_id: int) -> dict[str, Any]: ...

    def retire(self, game_id: int) -> None: ...


class VideoDemo:
    """The demo game the camera follows in a filmed table, one game a pass of the video.

    :meth:`begin_pass` starts the pass's game (the rendered deals' first dealer is A) and
    retires the last pass's game and any ``earlier`` demo game (an earlier run's), so History
    and the game log keep one demo game however long the video loops. :meth:`followed` is the
    game the camera reads into: the demo's own game, never another; while a game started on
    the page is in progress it is None (the camera pauses and the video's cards go nowhere),
    and a pass that begins then starts nothing. Once that game is over, the next pass starts
    the demo again. An earlier run's unfinished demo game is the demo's, not a game in progress.

    >>> from companion.service import Companion
    >>> from cribbage.gamelog import GameStore
    >>> table = Companion(GameStore(":memory:"))
    >>> demo = VideoDemo(table)
    >>> first = demo.begin_pass(); demo.followed() == first
    True
    >>> second = demo.begin_pass(); [g["id"] for g in table.store.games()] == [second]
    True
    >>> real = table.new_game({"players": ["Cy", "Dee"]})
    >>> demo.followed(), demo.begin_pass(), table.latest_game() == real
    (None, None, True)
    >>> table.close()
    """

    NAMES = NAMES
    DEALER = "A"  # who deals the video's first deal

    def __init__(self, table: VideoTable, earlier: Iterable[int] = (), dealer: str | None = None) -> None:
        self.table = table
        self.dealer = dealer or self.DEALER  # crib serve --dealer: who deals the video's first deal
        self.game_id: int | None = None  # the game the camera follows, None while paused
        self._mine: set[int] = set(earlier)  # demo games still kept: the last pass's, an earlier run's
        self._lock = threading.Lock()

    def _real_game_on(self) -> bool:
        """Whether the newest game is one of the table's own, still in progress."""
        latest = self.table.latest_game()
        if latest is None or latest == self.game_id or latest in self._mine:
            return False
        return self.table.state(latest).get("phase") != "over"

    def begin_pass(self) -> int | None:
        """A pass of the video begins: the demo's new game (the last pass's and an earlier run's
        retired), or None while a game started on the page is in progress."""
        with self._lock:
            if self._real_game_on():
                if self.game_id is not None:
                    log.info("demo: a game started on the page is in progress; the demo waits")
                self.game_id = None
                return None
            game = self.table.new_game(dict(SETTINGS, players=list(self.NAMES)))
            self.table.apply(game, {"type": "dealer", "seat": self.dealer}, source=DEMO_SOURCE)
            for old in sorted(self._mine - {game}):  # older than the new game: each can go
                self.table.retire(old)
            self._mine = {game}
            self.game_id = game
            return game

    def paused(self) -> str | None:
        """Why the camera reads into no game, in players' words, or None while it follows the
        demo's: a game started on the page is in progress, or it is over and the demo waits for
        the video to begin again.

        >>> from companion.service import Companion
        >>> from cribbage.gamelog import GameStore
        >>> table = Companion(GameStore(":memory:"))
        >>> demo = VideoDemo(table); _ = demo.begin_pass(); demo.paused() is None
        True
        >>> real = table.new_game({"players": ["Cy", "Dee"]}); demo.followed()
        >>> demo.paused()[:60]
        'The demo is paused while Cy v Dee, started on the page, is p'
        >>> table.close()
        """
        with self._lock:
            if self.game_id is not None:
                return None
            latest = self.table.latest_game()
            if latest is None or latest in self._mine:
                return "The demo begins when the video starts again."
            state = self.table.state(latest)
            sides = " v ".join(str(side.get("name")) for side in state.get("sides") or [])
            if state.get("phase") == "over":
                return (f"The demo is paused: {sides}, started on the page, is over; the demo goes on "
                        "when the video starts again.")
            return (f"The demo is paused while {sides}, started on the page, is played: it goes on "
                    "once that game is over.")

    def followed(self) -> int | None:
        """The game the camera follows: the demo's, unless a game started on the page is in
        progress (then None, and the demo's game of this pass is left as it is)."""
        with self._lock:
            if self.game_id is not None and self._real_game_on():
                log.info("demo: a game was started on the page; the camera leaves it alone")
                self.game_id = None
            return self.game_id


class DemoCameraView:
    """The companion as the demo's camera sees it: the same table, but its newest game is the one
    the demo follows (:meth:`VideoDemo.followed`), so a game started on the page never gets the
    video's cards."""

    def __init__(self, table: Any, demo: VideoDemo) -> None:
        self._table = table
        self._demo = demo

    def latest_game(self) -> int | None:
        return self._demo.followed()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)


class DemoDealer:
    """Plays the demo game into ``table``, one event every ``step_s`` seconds, on a thread.

    It stops at the end of the game, when someone starts another game (the page follows the
    newest one), when the game refuses an event (a player corrected the demo on the page), or
    at :meth:`stop`.
    """

    NAMES = NAMES

    def __init__(self, table: DemoTable, step_s: float = 2.5, seed: int = SEED,
                 dealer: str | None = None) -> None:
        self.table = table
        self.step_s = step_s
        self.seed = seed
        self.dealer = dealer or "B"  # who deals first (crib serve --dealer)
        self.game_id: int | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo", daemon=True)

    def start(self) -> int:
        """Start the demo game and its thread; the game's id."""
        self.game_id = self.table.new_game(dict(SETTINGS, players=list(NAMES)))
        self._thread.start()
        return self.game_id

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        assert self.game_id is not None
        for event in demo_events(self.seed, self.dealer):
            if self._stop.wait(self.step_s):
                return
            if self.table.latest_game() != self.game_id:
                log.info("demo: another game started; the demo stops")
                return
            try:
                self.table.apply(self.game_id, event, source=DEMO_SOURCE)
            except Exception:
                log.exception("demo: event refused; the demo stops")
                return
        log.info("demo: game over")
