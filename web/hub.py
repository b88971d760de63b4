"""The live hub: fans each game change out to every open page (server-sent events).

Each open page holds one :class:`Subscription`, a small queue the hub fills. A subscription keeps
only the newest message per topic (``"state:7"`` for game 7, ``"leds"``), so a slow phone never
makes the hub wait or grow: it just skips to the latest state. The hub counts open streams and
refuses more than ``max_streams`` (the page then falls back to polling), so streams can never
take every server thread.

>>> hub = Hub(max_streams=2)
>>> sub = hub.subscribe()
>>> hub.publish("state:7", '{"version": 3}')
>>> sub.get(timeout=0.1)
('state:7', '{"version": 3}')
>>> sub.get(timeout=0.01) is None
True
>>> hub.open_streams
1
>>> sub.close(); hub.open_streams
0
"""

from __future__ import annotations

import threading
from typing import Any


class HubFull(Exception):
    """Raised by :meth:`Hub.subscribe` when ``max_streams`` pages are already listening."""


class Subscription:
    """One open page's mailbox: the newest message per game, in arrival order."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub
        self._cond = threading.Condition()
        self._pending: dict[str, Any] = {}
        self.closed = False

    def put(self, topic: str, message: Any) -> None:
        with self._cond:
            self._pending.pop(topic, None)
            self._pending[topic] = message
            self._cond.notify()

    def get(self, timeout: float) -> tuple[str, Any] | None:
        """The oldest pending ``(topic, message)``, or ``None`` after ``timeout`` seconds."""
        with self._cond:
            if not self._pending and not self.closed:
                self._cond.wait(timeout)
            if not self._pending:
                return None
            topic = next(iter(self._pending))
            return topic, self._pending.pop(topic)

    def close(self) -> None:
        """Stop listening (idempotent); wakes a waiting :meth:`get`."""
        with self._cond:
            if self.closed:
                return
            self.closed = True
            self._cond.notify_all()
        self._hub._drop(self)


class Hub:
    """Thread-safe publish/subscribe for game changes."""

    def __init__(self, max_streams: int = 48) -> None:
        self.max_streams = max_streams
        self._lock = threading.Lock()
        self._subs: set[Subscription] = set()
        self.published = 0

    @property
    def open_streams(self) -> int:
        with self._lock:
            return len(self._subs)

    def subscribe(self) -> Subscription:
        """A new subscription; raises :class:`HubFull` at ``max_streams``."""
        sub = Subscription(self)
        with self._lock:
            if len(self._subs) >= self.max_streams:
                raise HubFull(f"{self.max_streams} pages are already following live")
            self._subs.add(sub)
        return sub

    def publish(self, topic: str, message: Any) -> None:
        """Hand ``message`` on ``topic`` to every subscription; never blocks on a page."""
        with self._lock:
            subs = list(self._subs)
            self.published += 1
        for sub in subs:
            sub.put(topic, message)

    def close_all(self) -> None:
        """Close every subscription (server shutting down): each stream ends at once."""
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            sub.close()

    def _drop(self, sub: Subscription) -> None:
        with self._lock:
            self._subs.discard(sub)
