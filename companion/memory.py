"""Freed memory handed back to the system between deals, so ``crib serve`` stays flat on a Pi.

The server's threads (waitress's, the camera's, the tracker's) each allocate from one of glibc's
malloc arenas; what they free stays in the arena, in holes the arena keeps for later, and the
process's resident memory creeps up deal after deal though the Python objects do not grow.
:func:`limit_arenas` keeps the arenas to :data:`ARENAS` (``crib serve`` sets it at start),
:func:`release_free_memory` asks glibc to give those free pages back (``malloc_trim(0)``: every
arena, holes too), and :class:`FreeBetweenDeals`, a companion listener, does so when a deal
begins or a game is started or replaced, at most once every ``every_s`` seconds. Where the C
library is not glibc (musl, macOS, Windows) there is nothing to call and nothing happens.

>>> free = FreeBetweenDeals(every_s=0.0, release=lambda: True)
>>> free("games", {"latest": 1}), free("state", {"game_id": 1, "state": {"deal": None}})
(True, False)
>>> free("state", {"game_id": 1, "state": {"deal": 1}}), free("state", {"game_id": 1, "state": {"deal": 1}})
(True, False)
>>> free("leds", {"frame": 3})
False
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["ARENAS", "FreeBetweenDeals", "limit_arenas", "release_free_memory"]

ARENAS = 2
"""malloc arenas ``crib serve`` allows (glibc's default is eight per core): its 80 threads share
two, so memory one thread frees another reuses, rather than each arena keeping its own holes."""
M_ARENA_MAX = -8  # mallopt's parameter number (malloc.h)

EVERY_S = 10.0
"""The least time between two releases: a deal lasts minutes, a release a few milliseconds."""


@functools.cache
def _glibc() -> ctypes.CDLL | None:
    """The C library when it is glibc (it has ``malloc_trim``), else None."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim  # noqa: B018  (glibc's own: musl and macOS have none)
    except (OSError, AttributeError):
        return None
    return libc


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Let malloc keep at most ``arenas`` arenas (glibc ``mallopt(M_ARENA_MAX)``, as the
    ``MALLOC_ARENA_MAX`` variable does), before the threads start; whether it was set.

    >>> limit_arenas.__name__
    'limit_arenas'
    """
    libc = _glibc()
    return libc is not None and bool(libc.mallopt(M_ARENA_MAX, arenas))


@functools.cache
def _glibc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library is another."""
    libc = _glibc()
    if libc is None:
        return None
    trim = libc.malloc_trim
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


def release_free_memory() -> bool:
    """Hand the memory malloc holds free back to the system (glibc ``malloc_trim(0)``); whether
    any was handed back (False too where the C library is not glibc).

    >>> release_free_memory() in (True, False)
    True
    """
    trim = _glibc_trim()
    return bool(trim(0)) if trim is not None else False


class FreeBetweenDeals:
    """A companion listener (:meth:`companion.service.Companion.add_listener`) that calls
    ``release`` when a game's deal number changes (a deal begins) or a game is started or
    replaced (``games``), never twice within ``every_s`` seconds. Called as a listener, it answers
    whether it released."""

    def __init__(self, every_s: float = EVERY_S,
                 release: Callable[[], bool] = release_free_memory) -> None:
        self.every_s = every_s
        self.release = release
        self.releases = 0
        self._deals: dict[int, Any] = {}  # the deal number each game was last told at
        self._last = float("-inf")
        self._lock = threading.Lock()

    def __call__(self, topic: str, data: dict[str, Any]) -> bool:
        if topic == "state":
            game, deal = data.get("game_id"), (data.get("state") or {}).get("deal")
            with self._lock:
                # a deal begun in the game being played (a game first heard of was told as games)
                begun = game in self._deals and self._deals[game] != deal
                self._deals = {game: deal}  # only the game being played is remembered
            if not begun:
                return False
        elif topic != "games":
            return False
        with self._lock:
            now = time.monotonic()
            if now - self._last < self.every_s:
                return False
            self._last = now
        self.release()
        self.releases += 1
        return True
