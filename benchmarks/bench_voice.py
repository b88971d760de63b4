"""Voice figures (``crib serve --voice``): what a request pays to queue a line, and how long
espeak-ng takes to render the lines a deal says.

Run: ``.venv/bin/python benchmarks/bench_voice.py`` (a few seconds; the render figures need
espeak-ng). A request only queues its lines (:meth:`companion.voice.QueuedVoice.say`), so its
cost is microseconds even while espeak-ng is busy; the render time is how far behind the table
the voice can fall (a line is said once it is rendered; lines older than ``STALE_S`` are dropped).
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import threading
import time
import wave
from pathlib import Path

from companion.voice import STALE_S, QueuedVoice, open_voice

LINES = [
    "Bob: fifteen for two",
    "Ann: pair for two",
    "Bob: thirty-one for two and pair royal for six",
    "Bob: go",
    "Ann: last card for one",
    "Ann: fifteen two, fifteen four and a run of four is eight",
    "Bob's crib: fifteen two, fifteen four and a run of three is seven",
]


class Busy(QueuedVoice):
    """A voice that is always busy saying something: each line holds the worker 50 ms."""

    def render(self, text: str) -> None:
        threading.Event().wait(0.05)


def bench_say() -> None:
    voice = Busy()
    times = []
    for n in range(20_000):
        t = time.perf_counter()
        voice.say(LINES[n % len(LINES)])
        times.append(time.perf_counter() - t)
    voice.close()
    times.sort()
    print(f"say() while the voice is busy: median {statistics.median(times) * 1e6:.1f} µs, "
          f"99th percentile {times[len(times) * 99 // 100] * 1e6:.1f} µs, "
          f"max {times[-1] * 1e6:.0f} µs (20,000 lines; {voice.dropped} dropped as the queue overflowed)")


def bench_render() -> None:
    if shutil.which("espeak-ng") is None:
        print("espeak-ng render: skipped (espeak-ng is not installed: apt install espeak-ng)")
        return
    with tempfile.TemporaryDirectory() as folder:
        voice = open_voice(f"wav:{folder}")
        assert isinstance(voice, QueuedVoice)
        t = time.perf_counter()
        for line in LINES:
            voice.say(line)
        assert voice.wait_idle(120)
        took = time.perf_counter() - t
        voice.close()
        spoken = 0.0
        for path in Path(folder).glob("*.wav"):
            with wave.open(str(path)) as w:
                spoken += w.getnframes() / w.getframerate()
    print(f"espeak-ng render: {len(LINES)} lines of a deal in {took:.2f} s "
          f"({took / len(LINES) * 1000:.0f} ms a line) for {spoken:.1f} s of speech; "
          f"lines are dropped after waiting {STALE_S:.0f} s")


if __name__ == "__main__":
    bench_say()
    bench_render()
