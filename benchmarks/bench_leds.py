"""LED figures: frame rendering time, and the Pico serial link's frame rate for 400 LEDs.

Run: ``.venv/bin/python benchmarks/bench_leds.py`` (a few seconds). Targets from issue 6: a
three-track 121-hole frame renders in under 2 ms; the link carries 30 frames/s for 400 LEDs.

The link is measured on this machine: the host's :class:`PicoOutput` writes packets into a pty
and the firmware's own loop (``firmware/pico/main.py``, same parser as on the Pico) reads them in
a thread. That shows the protocol and both ends' code keep up; the Pico's own limits are
computed, not measured (no Pico here): the USB wire time at full speed and the WS2812 data time.
"""

from __future__ import annotations

import os
import random
import select
import statistics
import threading
import time

from firmware.layout import BoardLayout
from firmware.outputs.pico import PicoOutput
from firmware.pico import frames
from firmware.pico.main import FakeStrip, Firmware, serve
from firmware.render import Frame, RenderOptions, render_frame


def bench_render() -> None:
    board = BoardLayout.standard(tracks=3, laps=1)
    options = RenderOptions(street_marks=True)
    pegs = [{"A": (a, max(0, a - 5)), "B": (min(121, a + 17), a), "C": (a // 2, a // 3)}
            for a in range(0, 121)]
    for p in pegs[:50]:
        render_frame(board, p, options=options)
    times = []
    for _ in range(5):
        for p in pegs:
            t = time.perf_counter()
            render_frame(board, p, options=options)
            times.append(time.perf_counter() - t)
    times.sort()
    print(f"render_frame, 3 tracks x 121 holes ({board.led_count} LEDs, street marks on): "
          f"median {statistics.median(times) * 1e3:.3f} ms, p99 "
          f"{times[int(len(times) * 0.99)] * 1e3:.3f} ms over {len(times)} frames (target < 2 ms)")


class TimedStrip(FakeStrip):
    """Records when each frame reached the strip."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.times: list[float] = []

    def show_rgb(self, payload: bytes) -> None:
        self.times.append(time.perf_counter())
        super().show_rgb(payload)


def bench_link(leds: int = 400, count: int = 600, paced: int = 90) -> None:
    master, slave = os.openpty()
    strip = TimedStrip(leds)
    fw = Firmware(strip, clock=lambda: int(time.monotonic() * 1000),
                  write=lambda data: os.write(master, data))
    stop = threading.Event()

    def read(wanted: int, timeout_ms: int) -> bytes:
        ready, _, _ = select.select([master], [], [], timeout_ms / 1000)
        return os.read(master, max(wanted, 4096)) if ready else b""

    thread = threading.Thread(target=serve, args=(fw, read, stop.is_set), daemon=True)
    thread.start()
    host = PicoOutput(os.ttyname(slave), leds)
    rng = random.Random(1)
    # paced as the game sends them: 30 frames/s, latency from write to the strip
    written = []
    t0 = time.perf_counter()
    for i in range(paced):
        while time.perf_counter() < t0 + i / 30:
            time.sleep(0.0005)
        f = Frame.blank(leds)
        f.pixels[:] = rng.randbytes(3 * leds)
        written.append(time.perf_counter())
        host.show(f)
    while fw.good < paced and time.perf_counter() - t0 < 30:
        time.sleep(0.001)
    span = strip.times[-1] - strip.times[0] if len(strip.times) > 1 else 0.0
    lat = sorted(b - a for a, b in zip(written, strip.times, strict=False))
    print(f"serial link paced at 30 frames/s, {leds} LEDs: {fw.good} of {paced} frames shown at "
          f"{(len(strip.times) - 1) / span:.1f} frames/s, write to shown median "
          f"{statistics.median(lat) * 1e3:.2f} ms, max {lat[-1] * 1e3:.2f} ms")
    strip.shown.clear()
    strip.times.clear()
    base = fw.good
    sent = []
    for _ in range(count):
        f = Frame.blank(leds)
        f.pixels[:] = rng.randbytes(3 * leds)
        sent.append(f)
    start = time.perf_counter()
    for f in sent:
        host.show(f)
    host.port.flush()
    while fw.good < base + count and time.perf_counter() - start < 60:
        time.sleep(0.001)
    elapsed = time.perf_counter() - start
    ok = strip.shown == [bytes(f.pixels) for f in sent]
    stop.set()
    thread.join(2)
    host.close()
    os.close(master)
    os.close(slave)
    size = len(frames.encode(frames.KIND_FRAME, 0, bytes(3 * leds)))
    print(f"serial link flat out, host PicoOutput -> firmware parser over a pty: {count} frames of "
          f"{leds} LEDs ({size} bytes each) in {elapsed:.3f} s = {count / elapsed:.0f} frames/s, "
          f"all received intact in order: {ok} (target 30/s)")
    # the parser's own cost per frame, C CRC (binascii) and the pure-Python fallback
    packet = frames.encode(frames.KIND_FRAME, 1, bytes(3 * leds))
    parser = frames.Parser()
    t = time.perf_counter()
    for i in range(300):
        parser.feed(frames.encode(frames.KIND_FRAME, i, packet[7:-4]))
    per = (time.perf_counter() - t) / 300
    t = time.perf_counter()
    for _ in range(20):
        frames.crc32_py(packet)
    crc_py = (time.perf_counter() - t) / 20
    print(f"firmware parser on CPython: {per * 1e6:.0f} us a frame (CRC in C); "
          f"pure-Python CRC of one frame: {crc_py * 1e3:.2f} ms")
    # what the Pico's wire and strip allow (computed)
    wire = 30 * size
    usb_ceiling = 19 * 64 * 1000  # full-speed bulk: at most 19 x 64-byte packets a 1 ms frame
    ws2812 = leds * 24 * 1.25e-6 + 280e-6  # WS2812B-V5 datasheet: reset >= 280 us
    print(f"at 30 frames/s the link carries {wire / 1000:.1f} kB/s; USB full speed's bulk ceiling "
          f"is {usb_ceiling / 1e6:.2f} MB/s, so one frame takes >= {size / usb_ceiling * 1e3:.2f} ms"
          f" on the wire ({usb_ceiling / size:.0f} frames/s at most; the baud rate is ignored by "
          f"USB CDC). Even at a pessimistic 100 kB/s for MicroPython's CDC stack: "
          f"{size / 100e3 * 1e3:.1f} ms a frame, {100e3 / size:.0f} frames/s.")
    print(f"WS2812 data time for {leds} LEDs: {ws2812 * 1e3:.2f} ms a frame "
          f"({1 / ws2812:.0f} frames/s at most on the strip itself). Not measured here: the "
          f"Pico's MicroPython time to copy a frame into the neopixel buffer (no Pico attached).")


if __name__ == "__main__":
    bench_render()
    bench_link()
