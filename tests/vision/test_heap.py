"""The reader's process keeps the memory a frame frees for the next frame (vision.heap)."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# where a frame-sized array (4 MB, as a 1280x720 frame's label image is) is put: on the heap, where
# freed memory is kept for the next one, or in a mapping of its own, handed back when freed
WHERE = """
import sys
import numpy as np
from vision.heap import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory()
frame = np.ones(4 << 20, np.uint8)
address = frame.ctypes.data
for line in open("/proc/self/maps"):
    if line.rstrip().endswith("[heap]"):
        low, high = (int(x, 16) for x in line.split()[0].split("-"))
        print("heap" if low <= address < high else "own mapping")
        break
else:
    print("own mapping")
"""


def _where(mode: str) -> str:
    done = subprocess.run([sys.executable, "-c", WHERE, mode], capture_output=True, text=True, cwd=ROOT,
                          check=True)
    return done.stdout.strip()


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                    reason="mallopt and /proc/self/maps are glibc's and Linux's")
def test_a_frame_sized_array_comes_from_the_kept_heap():
    assert _where("default") == "own mapping"  # glibc's default: mapped alone, unmapped when freed
    assert _where("keep") == "heap"


def test_keeping_freed_memory_is_asked_once_per_process():
    from vision.heap import keep_freed_memory

    assert keep_freed_memory() is keep_freed_memory()
