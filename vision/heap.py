"""Keep the memory a reading frees for the next reading (glibc's ``mallopt``).

Reading a 1280x720 frame makes a few dozen arrays of 1-4 MB each (the darkness map, each ink
level's mask and labels) and frees them. glibc gives blocks that big their own ``mmap`` and hands
them back to the kernel when freed, or trims the heap once more than twice that is free at its top,
so the next frame asks the kernel again, and the kernel zeroes every 4 KB page on its first touch.
Measured with ``crib detect`` on this machine: a frame read in 47 ms by a process whose heap was
already big took 77-113 ms in a fresh one, every frame. (Only a process that had itself made and
freed bigger arrays first, such as the benchmark rendering its frames, ran at the fast speed.)

:func:`keep_freed_memory` tells glibc (``mallopt(3)``: ``M_MMAP_THRESHOLD``, ``M_TRIM_THRESHOLD``)
to serve blocks up to 32 MB from the heap and keep up to 256 MB of freed heap, so the heap grows
once, in the first frames, to what a frame's reading needs (about 25 MB for 1280x720) and stays.
Nothing is touched ahead: a reserve touched at start cost 28 MB of resident memory on a Pi Zero
2 W's budget to save about 7 ms on the first frame only. It is called once per process, before
the first reading, as loading the network is. On a C library without ``mallopt`` (macOS, say) it
does nothing and says so. The companion hands the freed heap back between deals
(:mod:`companion.memory`).

>>> keep_freed_memory() in (True, False)
True
>>> keep_freed_memory() is keep_freed_memory()  # once per process
True
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from functools import lru_cache

log = logging.getLogger(__name__)

M_TRIM_THRESHOLD = -1  # mallopt(3) parameter numbers (malloc.h)
M_MMAP_THRESHOLD = -3
MMAP_AT = 32 << 20  # blocks this big or bigger still get their own mmap (glibc's own maximum)
KEEP = 256 << 20  # freed heap kept, not handed back to the kernel


@lru_cache(maxsize=1)
def keep_freed_memory() -> bool:
    """Ask the C library to keep freed memory for the next frame; whether it could."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        log.info("no mallopt in this C library: freed memory goes back to the system")
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    if not (mallopt(M_MMAP_THRESHOLD, MMAP_AT) and mallopt(M_TRIM_THRESHOLD, KEEP)):
        log.info("mallopt refused: freed memory goes back to the system")
        return False
    return True
