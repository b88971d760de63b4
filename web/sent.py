"""Which events each phone sent, so Undo asks before undoing another phone's (or the camera's)
event: a phone is its session's ``device`` (a random id in the signed session cookie), and the
page remembers the numbers of the events each device sent to each game, in memory (after a
restart every undo asks first).

>>> sent = SentLog()
>>> sent.record(7, "d1", 4)
>>> sent.sent_by(7, "d1", 4), sent.sent_by(7, "d2", 4), sent.sent_by(8, "d1", 4)
(True, False, False)
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict, deque


class SentLog:
    """The newest ``per_device`` event numbers each device sent to each game, for the newest
    ``keys`` (game, device) pairs: bounded however many phones come and go."""

    def __init__(self, *, keys: int = 256, per_device: int = 64) -> None:
        self._sent: OrderedDict[tuple[int, str], deque[int]] = OrderedDict()
        self._keys = keys
        self._per_device = per_device
        self._lock = threading.Lock()

    def record(self, game_id: int, device: str, event: int) -> None:
        """``device`` sent event number ``event`` of game ``game_id``."""
        with self._lock:
            key = (game_id, device)
            numbers = self._sent.pop(key, None) or deque(maxlen=self._per_device)
            numbers.append(event)
            self._sent[key] = numbers
            while len(self._sent) > self._keys:
                self._sent.popitem(last=False)

    def sent_by(self, game_id: int, device: str, event: int) -> bool:
        """Whether ``device`` sent event number ``event`` of game ``game_id``."""
        with self._lock:
            return event in self._sent.get((game_id, device), ())


def new_device_id() -> str:
    """A phone's id: 16 random hex digits."""
    return secrets.token_hex(8)
