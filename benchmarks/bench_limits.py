"""Reading a body within the limits: what :func:`cribbage.game.limits.load_json` adds to
``json.loads`` for a real event, and how long the worst 16 KB bodies take to refuse.

Run: ``.venv/bin/python benchmarks/bench_limits.py``. Pinned to one core.
"""

from __future__ import annotations

import contextlib
import json
import os
import timeit

from cribbage.errors import InputError
from cribbage.game.limits import MAX_EVENT_BYTES, load_json

EVENT = json.dumps({"type": "show", "seat": "A", "cards": ["5C", "5D", "JS", "6H"], "claim": 12,
                    "seen": {"frame": 812, "confidence": 0.97, "crop": "crops/f812-a.jpg"}})
WORST = {
    "16 KB of [": "[" * MAX_EVENT_BYTES,
    "16 KB unterminated string of \\\"[": '"' + '\\"[' * ((MAX_EVENT_BYTES - 1) // 3),
    "16 KB of one-digit numbers": "[" + ",".join(["1"] * (MAX_EVENT_BYTES // 2 - 1)) + "]",
    "16 KB of strings": json.dumps(["Ann"] * (MAX_EVENT_BYTES // 7 - 1)),
}


def per_call(fn: object, n: int) -> float:
    return min(timeit.repeat(fn, number=n, repeat=5)) / n * 1e6  # type: ignore[arg-type]


def attempt(text: str) -> None:
    with contextlib.suppress(InputError, ValueError):  # refused or read: the time is the same
        load_json(text)


def main() -> int:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    plain = per_call(lambda: json.loads(EVENT), 20_000)
    bounded = per_call(lambda: load_json(EVENT), 20_000)
    print(f"a show event ({len(EVENT)} bytes): json.loads {plain:.1f} µs, load_json {bounded:.1f} µs")
    for name, text in WORST.items():
        assert len(text.encode()) <= MAX_EVENT_BYTES, name
        print(f"{name}: {per_call(lambda t=text: attempt(t), 50) / 1000:.2f} ms")  # type: ignore[misc]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
