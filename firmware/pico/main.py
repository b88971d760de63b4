"""The Pico's peg-board program: frames in over USB serial, light out on the strip.

Copy ``frames.py``, ``strip.py`` and this file to the Pico (``mpremote cp firmware/pico/*.py :``)
and set ``PIN``/``LEDS``/``ORDER`` below. It runs at power-up and:

* shows every good frame (``F`` packet), in order: a frame whose sequence number is not newer
  than the last one shown is dropped as stale (out of order or repeated);
* drops corrupt or truncated packets and keeps showing the last good frame;
* when the host has sent nothing for ``IDLE_MS`` shows an idle pattern (the last frame at a
  quarter strength with a slow white dot running along the strip) until frames come again;
* answers a ping (``P``) with its version and counters (``V``) and restarts the sequence check,
  so a restarted host may begin again at 0; a ping that carries the host's LED count sets the
  longest packet taken to the host's frame (``host=`` in the counters);
* ``Q`` leaves the loop and gives the REPL back (Ctrl-C is off while the loop runs, because a
  frame may hold the byte 0x03).

The USB stdin of the rp2 port cannot say how many bytes are waiting, and reading more than
have arrived blocks: the loop polls for the first byte, then reads exactly what the packet in
progress still needs (the header, then the rest). The host writes every packet in one write, so
these reads finish at once. A read never asks for more than a valid packet can carry: a length
over the host's frame is refused at the header, and a frame of another length than the last good
one is read byte by byte (see ``frames.Parser.wanted``), so one damaged length byte costs that
frame only, and the next good frame shows when it arrives. Only a host that dies mid-packet leaves
the read waiting until it comes back (the strip keeps the last frame meanwhile; the late bytes
then fail the CRC and the parser resyncs).

>>> fw = Firmware(FakeStrip(2), clock=lambda: 0)
>>> fw.feed(frames.encode(frames.KIND_FRAME, 1, bytes([9, 8, 7, 6, 5, 4])), now=10)
>>> fw.strip.shown[-1], fw.good
(b'\\t\\x08\\x07\\x06\\x05\\x04', 1)
"""

try:  # on the Pico the modules sit side by side
    import frames
except ImportError:  # in CPython (tests, benchmarks) they are a package
    from firmware.pico import frames

VERSION = "cribpeg 1.0"
PIN = 0  # GPIO of the strip's data line (through a 74AHCT125 level shifter)
LEDS = 366  # one LED per hole: 3 tracks x 122
ORDER = "GRB"
IDLE_MS = 5000  # host silent this long: idle pattern
TICK_MS = 40  # idle pattern step and the poll timeout


class FakeStrip:
    """A strip for tests: remembers what was shown."""

    def __init__(self, n):
        self.n = n
        self.shown = []

    def show_rgb(self, payload):
        self.shown.append(bytes(payload))

    def blank(self):
        self.shown.append(b"")


class Firmware:
    """The program's state: parser, last good frame, counters. ``clock`` gives milliseconds."""

    def __init__(self, strip, clock, write=None, idle_ms=IDLE_MS):
        self.strip = strip
        self.clock = clock
        self.write = write  # sends bytes to the host (replies); None: no replies
        self.idle_ms = idle_ms
        self.parser = frames.Parser(max_payload=3 * strip.n)
        self.last_seq = None
        self.last_frame = b""
        self.last_rx = clock()
        self.idle_step = -1
        self.next_idle = 0
        self.good = 0
        self.stale = 0
        self.bad_length = 0
        self.host_leds = 0  # as the host's last ping said (0: not said)
        self.quit = False

    def stats(self):
        p = self.parser
        return (f"{VERSION} leds={self.strip.n} good={self.good} crc={p.crc_errors}"
                f" trunc={p.truncated} stale={self.stale} len={self.bad_length}"
                f" host={self.host_leds}")

    def feed(self, data, now=None):
        """Handle bytes from the host."""
        if now is None:
            now = self.clock()
        for kind, seq, payload in self.parser.feed(data, now):
            self.handle(kind, seq, payload, now)

    def handle(self, kind, seq, payload, now):
        self.last_rx = now
        if kind == frames.KIND_FRAME:
            if len(payload) % 3:
                self.bad_length += 1
                return
            if self.last_seq is not None and not frames.seq_newer(seq, self.last_seq):
                self.stale += 1
                return
            self.last_seq = seq
            self.last_frame = payload
            self.parser.expected = len(payload)
            self.idle_step = -1
            self.good += 1
            self.strip.show_rgb(payload)
        elif kind == frames.KIND_PING:
            self.last_seq = None
            self.host_leds = payload[0] | (payload[1] << 8) if len(payload) == 2 else 0
            self.parser.host_frame(3 * self.host_leds)
            if self.idle_step >= 0:  # leave the idle pattern: the host is back
                self.idle_step = -1
                self.strip.show_rgb(self.last_frame)
            if self.write is not None:
                self.write(frames.encode(frames.KIND_VERSION, seq, self.stats().encode()))
        elif kind == frames.KIND_QUIT:
            self.quit = True

    def tick(self, now=None):
        """Drop a stale partial packet; step the idle pattern when the host is silent."""
        if now is None:
            now = self.clock()
        for kind, seq, payload in self.parser.expire(now):
            self.handle(kind, seq, payload, now)
        if _diff(now, self.last_rx) < self.idle_ms:
            return
        if self.idle_step >= 0 and _diff(now, self.next_idle) < 0:
            return
        self.idle_step += 1
        self.next_idle = _add(now, TICK_MS * 2)
        self.strip.show_rgb(idle_frame(self.last_frame, self.strip.n, self.idle_step))


def idle_frame(last, n, step):
    """The idle pattern: the last frame at a quarter strength, a dim white dot at ``step``.

    >>> idle_frame(bytes([200, 100, 40]), 2, 1)
    b'2\\x19\\n\\x18\\x18\\x18'
    """
    out = bytearray(3 * n)
    for i in range(min(len(last), 3 * n)):
        out[i] = last[i] >> 2
    dot = 3 * (step % n) if n else 0
    if n:
        out[dot] = out[dot + 1] = out[dot + 2] = 24
    return bytes(out)


def serve(fw, read, stop=None):
    """The loop: ``read(wanted, timeout_ms)`` returns the bytes that came (b"" on timeout)."""
    while not fw.quit:
        data = read(fw.parser.wanted(), TICK_MS)
        now = fw.clock()
        if data:
            fw.feed(data, now)
        fw.tick(now)
        if stop is not None and stop():
            break


def _diff(a, b):
    try:
        from time import ticks_diff
    except ImportError:
        return a - b
    return ticks_diff(a, b)  # pragma: no cover - MicroPython


def _add(a, b):
    try:
        from time import ticks_add
    except ImportError:
        return a + b
    return ticks_add(a, b)  # pragma: no cover - MicroPython's clock wraps


def run():  # pragma: no cover - runs on the Pico
    import select
    import sys
    import time

    import micropython
    from strip import NeoStrip

    micropython.kbd_intr(-1)  # frames carry 0x03; Ctrl-C would break the loop
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)

    def read(wanted, timeout_ms):
        if not poller.poll(timeout_ms):
            return b""
        return stdin.read(wanted)

    strip = NeoStrip(PIN, LEDS, ORDER)
    strip.blank()
    fw = Firmware(strip, time.ticks_ms, stdout.write)
    try:
        serve(fw, read)
    finally:
        micropython.kbd_intr(3)


if __name__ == "__main__":
    run()
