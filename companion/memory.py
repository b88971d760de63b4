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
from pathlib import Path
from typing import Any

__all__ = ["ARENAS", "FreeBetweenDeals", "limit_arenas", "live_pages", "machine_memory",
           "release_free_memory"]

ARENAS = 1
"""malloc arenas ``crib serve`` allows (glibc's default is eight per core): its threads share
one, so memory one thread frees another reuses, rather than each arena keeping its own holes
(a real-deck deal peaks 5 MB lower than with two, at the same speed: the threads take turns
under the GIL anyway)."""
M_ARENA_MAX = -8  # mallopt's parameter number (malloc.h)

EVERY_S = 10.0
"""The least time between two releases: a deal lasts minutes, a release a few milliseconds."""


LIVE_PAGES = 64
"""Pages that may follow the game live at once (each holds a server thread) on a machine with
:data:`SMALL` or more memory ..."""
LIVE_PAGES_SMALL = 16
"""... and on a smaller one (a Pi Zero 2 W, a 1 GB Pi, a container held to less): a table's
players and a few onlookers, in 56 fewer threads."""
SMALL = 1 << 30


def machine_memory(meminfo: str = "/proc/meminfo", cgroup: str = "/proc/self/cgroup",
                   root: str = "/sys/fs/cgroup") -> int | None:
    r"""The memory this process may use, in bytes: the machine's (``MemTotal``, what Linux has
    after the camera's reserve) or its memory cgroup's limit where that is smaller (v2
    ``memory.max``, v1 ``memory.limit_in_bytes``); None where neither can be read (not Linux).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "meminfo").write_text("MemTotal:         439316 kB\nMemFree: 1 kB\n")
    >>> machine_memory(str(d / "meminfo"), str(d / "none"), str(d)) // (1 << 20)
    429
    >>> _ = (d / "cgroup").write_text("0::/crib\n"); (d / "crib").mkdir()
    >>> _ = (d / "crib" / "memory.max").write_text("268435456\n")
    >>> machine_memory(str(d / "meminfo"), str(d / "cgroup"), str(d)) >> 20
    256
    """
    sizes = []
    try:
        for line in Path(meminfo).read_text().splitlines():
            if line.startswith("MemTotal:"):
                sizes.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    try:
        groups = Path(cgroup).read_text().splitlines()
    except OSError:
        groups = []
    for line in groups:
        _, controllers, path = line.split(":", 2)
        if controllers in ("", "memory") or "memory" in controllers.split(","):
            folder = Path(root) / ("" if controllers == "" else "memory") / path.lstrip("/")
            for name in ("memory.max", "memory.limit_in_bytes"):
                try:
                    value = (folder / name).read_text().strip()
                except OSError:
                    continue
                if value.isdigit() and int(value) < 1 << 60:  # v1's "no limit" is near 2**63
                    sizes.append(int(value))
    return min(sizes) if sizes else None


def live_pages(memory: int | None = None) -> int:
    """How many pages ``crib serve`` lets follow live at once by default, for a machine with
    ``memory`` bytes (:func:`machine_memory` when not given).

    >>> live_pages(512 << 20), live_pages(4 << 30)
    (16, 64)
    """
    memory = machine_memory() if memory is None else memory
    return LIVE_PAGES_SMALL if memory is not None and memory < SMALL else LIVE_PAGES


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
