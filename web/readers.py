"""Turns at the card reader: at most a few photos decoded and read at once, on their own threads.

Decoding a photo takes memory in proportion to its pixels (a PNG of 130 KB can hold 40 MP, which
OpenCV decodes with about 230 MB at its peak), so uploads take turns: ``readers`` at once (2 suits
a Raspberry Pi), the others wait up to ``wait_s`` for a turn and are then told to try again
(:class:`ReadersBusy`, answered 503 with ``Retry-After``). The reading itself runs on the queue's
own ``readers`` threads, not on the server's many request threads: the C library keeps memory a
thread freed for that thread's next use, so readings spread over 70 request threads would each
leave their own.

>>> queue = ReaderQueue(readers=1, wait_s=0.01)
>>> queue.read(sum, [1, 2, 3])
6
>>> with queue.turn():
...     queue.read(sum, [1, 2, 3])
Traceback (most recent call last):
...
web.readers.ReadersBusy: the card reader is busy with other photos: try again in 5 s
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

READERS = 2
WAIT_S = 10.0
RETRY_AFTER_S = 5

T = TypeVar("T")


class ReadersBusy(Exception):
    """No turn came within the wait; ``retry_after`` is the seconds to wait before trying again."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the card reader is busy with other photos: try again in {retry_after} s")
        self.retry_after = retry_after


class ReaderQueue:
    """At most ``readers`` readings at once, each on one of the queue's ``readers`` threads."""

    def __init__(self, readers: int = READERS, wait_s: float = WAIT_S,
                 retry_after: int = RETRY_AFTER_S) -> None:
        if readers < 1:
            raise ValueError("the card reader needs at least one turn at a time")
        self.readers, self.wait_s, self.retry_after = readers, wait_s, retry_after
        self._turns = threading.BoundedSemaphore(readers)
        self._threads = ThreadPoolExecutor(readers, thread_name_prefix="photo-reader")

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Hold one of the turns for the ``with`` block; :class:`ReadersBusy` when none came."""
        if not self._turns.acquire(timeout=self.wait_s):
            raise ReadersBusy(self.retry_after)
        try:
            yield
        finally:
            self._turns.release()

    def read(self, reader: Callable[..., T], *args: object) -> T:
        """``reader(*args)`` in a turn, on a reader thread; its result, or what it raised."""
        with self.turn():
            return self._threads.submit(reader, *args).result()
