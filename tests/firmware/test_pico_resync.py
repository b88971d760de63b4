"""One damaged length byte on the Pico link costs that frame only: the next good frame is shown
when it arrives, not when the frame after it comes.

The firmware's USB stdin cannot say how many bytes are waiting: its read is ``poll(timeout)``,
then a blocking ``read(n)`` that returns only when ``n`` bytes have come. :class:`SerialLine`
reads exactly so, on a simulated clock, with the host's writes arriving at set times (a pty
returns whatever has arrived, which hides the wait)."""

from __future__ import annotations

from firmware.outputs.pico import FRAME, PicoOutput, packet
from firmware.pico import frames
from firmware.pico.main import TICK_MS, FakeStrip, Firmware, serve
from firmware.render import Frame

STRIP = 366  # the firmware's strip: 3 tracks x 122
HOST = 122  # the host's frame is shorter: one track


class SerialLine:
    """Host → Pico bytes arriving at set times, read as the Pico's stdin reads them; the Pico's
    replies go back to the host at once. Also the host's pyserial port (write, read, ...)."""

    def __init__(self) -> None:
        self.now = 0  # ms, the one clock
        self.arrivals: list[tuple[int, bytes]] = []
        self.consumed = 0
        self.replies = bytearray()
        self.strip = TimedStrip(STRIP, self)
        self.fw = Firmware(self.strip, clock=lambda: self.now, write=self.replies.extend)

    # -- the host's side (pyserial) ---------------------------------------------------------
    def write(self, data: bytes) -> int:
        self.arrivals.append((self.now, bytes(data)))
        return len(data)

    def flush(self) -> None:
        pass

    def reset_input_buffer(self) -> None:
        self.replies.clear()

    @property
    def in_waiting(self) -> int:
        self.run(until=self.now)  # the Pico answers what has arrived
        return len(self.replies)

    def read(self, n: int) -> bytes:
        self.run(until=self.now)
        out = bytes(self.replies[:n])
        del self.replies[:n]
        return out

    def close(self) -> None:
        pass

    # -- the Pico's side ----------------------------------------------------------------------
    def _stream(self) -> bytes:
        return b"".join(data for _, data in self.arrivals)

    def _arrived_by(self, count: int) -> int | None:
        """When the ``count``-th byte arrives (None: never)."""
        total = 0
        for at, data in self.arrivals:
            total += len(data)
            if total >= count:
                return at
        return None

    def poll(self, timeout_ms: int, until: int) -> bool:
        at = self._arrived_by(self.consumed + 1)
        if at is not None and at <= min(self.now + timeout_ms, until):
            self.now = max(self.now, at)
            return True
        self.now = min(self.now + timeout_ms, until)
        return False

    def read_blocking(self, n: int, until: int) -> bytes:
        """``stdin.read(n)``: waits until ``n`` bytes have come (or the test's end)."""
        at = self._arrived_by(self.consumed + n)
        if at is None or at > until:
            self.now = until
            n = min(n, len(self._stream()) - self.consumed)
        else:
            self.now = max(self.now, at)
        out = self._stream()[self.consumed:self.consumed + n]
        self.consumed += len(out)
        return out

    def run(self, until: int) -> None:
        """The firmware's loop (``main.serve``) up to time ``until``."""
        def read(wanted: int, timeout_ms: int) -> bytes:  # as main.run() reads
            return self.read_blocking(wanted, until) if self.poll(timeout_ms, until) else b""

        def pending() -> bool:  # bytes that have arrived and are not read yet
            at = self._arrived_by(self.consumed + 1)
            return at is not None and at <= until

        while self.now < until or pending():
            serve(self.fw, read, stop=lambda: True)


class TimedStrip(FakeStrip):
    def __init__(self, n: int, line: SerialLine) -> None:
        super().__init__(n)
        self.line = line
        self.when: list[tuple[int, bytes]] = []

    def show_rgb(self, payload: bytes) -> None:
        super().show_rgb(payload)
        self.when.append((self.line.now, bytes(payload)))


def frame(k: int) -> Frame:
    f = Frame.blank(HOST)
    for i in range(HOST):
        f.set(i, ((7 * k + i) % 200, (3 * k) % 200, (11 * i) % 200))
    return f


def damaged_length(seq: int, f: Frame) -> bytes:
    """A frame whose length's high byte took a hit upward (366 → 878, under the strip's 1,098)."""
    bad = bytearray(packet(FRAME, seq, f.pixels))
    bad[6] += 2
    assert HOST * 3 < (bad[5] | bad[6] << 8) <= STRIP * 3
    return bytes(bad)


def shown_at(line: SerialLine, f: Frame) -> int | None:
    return next((at for at, data in line.strip.when if data == bytes(f.pixels)), None)


def test_after_a_damaged_length_the_next_frame_shows_when_it_arrives() -> None:
    line = SerialLine()
    host = PicoOutput("sim", HOST, serial_port=line)  # pings: the firmware learns the frame
    assert host.version is not None and f"leds={STRIP}" in host.version
    line.now = 10
    host.show(frame(1))
    line.now = 50
    line.write(damaged_length(host.seq + 1, frame(2)))
    host.seq += 1
    line.now = 100
    host.show(frame(3))
    line.now = 1000
    host.show(frame(4))
    line.now = 0
    line.run(until=2000)
    assert shown_at(line, frame(1)) == 10
    assert shown_at(line, frame(2)) is None
    assert shown_at(line, frame(3)) == 100  # at once, not at 1000 with frame 4
    assert shown_at(line, frame(4)) == 1000
    assert line.fw.parser.bad_headers >= 1 and line.fw.good == 3


def test_without_the_hosts_frame_size_a_damaged_length_goes_stale_quickly() -> None:
    """An older host pings without its LED count: the firmware knows the last good frame's
    length, reads a doubtful one byte by byte, and drops it once it stalls."""
    line = SerialLine()
    line.write(frames.encode(frames.KIND_PING, 0, b""))
    line.run(until=0)
    assert line.replies  # the firmware answered
    host = PicoOutput("sim", HOST, serial_port=line, ping=False)
    line.now = 10
    host.show(frame(1))
    line.now = 50
    line.write(damaged_length(host.seq + 1, frame(2)))
    host.seq += 1
    line.now = 100
    host.show(frame(3))
    line.now = 1000
    host.show(frame(4))
    line.now = 0
    line.run(until=2000)
    when = shown_at(line, frame(3))
    assert when is not None and 100 <= when <= 100 + line.fw.parser.stale_ms + 2 * TICK_MS
    assert shown_at(line, frame(4)) == 1000 and shown_at(line, frame(2)) is None
    assert line.fw.parser.truncated == 1


def test_a_ping_says_the_frame_size_and_a_new_ping_without_it_lifts_the_limit() -> None:
    line = SerialLine()
    host = PicoOutput("sim", HOST, serial_port=line)
    assert host.version is not None and f"host={HOST}" in host.version
    assert line.fw.parser.max_payload == 3 * HOST
    line.write(frames.encode(frames.KIND_PING, 0, b""))
    line.run(until=line.now)
    assert line.fw.parser.max_payload == 3 * STRIP and line.fw.parser.expected is None
