"""The host side of the Pico link against the firmware's own parser and loop, over a pty and
over pyserial's loop://: good, corrupt, truncated, out-of-order frames; ping; idle pattern."""

from __future__ import annotations

import os
import select
import threading
import time
import zlib
from collections.abc import Iterator

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.layout import BoardLayout
from firmware.outputs import OutputUnavailable, open_output
from firmware.outputs.pico import FRAME, PicoOutput, packet
from firmware.pico import frames
from firmware.pico.main import VERSION, FakeStrip, Firmware, idle_frame, serve
from firmware.render import Frame, render_frame

LEDS = 8


class PtyPico:
    """The firmware's loop running in a thread on the master side of a pty."""

    def __init__(self, leds: int = LEDS, idle_ms: int = 5000) -> None:
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self.strip = FakeStrip(leds)
        self.fw = Firmware(self.strip, clock=lambda: int(time.monotonic() * 1000),
                           write=lambda data: os.write(self.master, data), idle_ms=idle_ms)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=serve, args=(self.fw, self.read, self.stop.is_set),
                                       daemon=True)
        self.thread.start()

    def read(self, wanted: int, timeout_ms: int) -> bytes:
        ready, _, _ = select.select([self.master], [], [], timeout_ms / 1000)
        return os.read(self.master, wanted) if ready else b""

    def wait_for(self, predicate, timeout: float = 3.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return True
            time.sleep(0.005)
        return predicate()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=2)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def pico() -> Iterator[PtyPico]:
    device = PtyPico()
    yield device
    device.close()


def frame_of(*rgb: tuple[int, int, int]) -> Frame:
    frame = Frame.blank(LEDS)
    for i, c in enumerate(rgb):
        frame.set(i, c)
    return frame


def test_host_and_firmware_encode_the_same_bytes() -> None:
    for kind, seq, payload in ((FRAME, 0, b""), (FRAME, 65535, bytes(range(30))),
                               (ord("P"), 7, b"")):
        assert packet(kind, seq, payload) == frames.encode(kind, seq, payload)
    data = bytes(range(256)) * 5
    assert frames.crc32_py(data) == zlib.crc32(data)


def test_ping_answers_the_version_and_frames_show_in_order(pico: PtyPico) -> None:
    host = PicoOutput(pico.path, LEDS)
    try:
        assert host.version is not None and host.version.startswith(VERSION)
        assert f"leds={LEDS}" in host.version
        shown = [frame_of((i, 2 * i, 3 * i)) for i in range(1, 6)]
        for f in shown:
            host.show(f)
        assert pico.wait_for(lambda: pico.fw.good == 5)
        assert pico.strip.shown[-5:] == [bytes(f.pixels) for f in shown]
        stats = host.ping()
        assert stats is not None and "good=5 crc=0" in stats
    finally:
        host.close()


def test_corrupt_and_truncated_frames_are_dropped_and_the_last_good_kept(pico: PtyPico) -> None:
    host = PicoOutput(pico.path, LEDS)
    try:
        good = frame_of((10, 20, 30))
        host.show(good)
        assert pico.wait_for(lambda: pico.fw.good == 1)
        # a bit flipped in the payload: CRC fails, nothing shown
        bad = bytearray(packet(FRAME, 2, frame_of((99, 99, 99)).pixels))
        bad[12] ^= 0x40
        host.port.write(bytes(bad))
        # a frame cut short, then a good one right behind it: the good one survives
        cut = packet(FRAME, 3, frame_of((1, 1, 1)).pixels)[:15]
        after = frame_of((5, 6, 7))
        host.port.write(cut + packet(FRAME, 4, after.pixels))
        assert pico.wait_for(lambda: pico.fw.good == 2)
        assert pico.strip.shown[-1] == bytes(after.pixels)
        assert bytes(frame_of((99, 99, 99)).pixels) not in pico.strip.shown
        assert pico.fw.parser.crc_errors >= 2
        # a frame cut short and then silence: dropped when it goes stale, last frame stays
        host.port.write(packet(FRAME, 5, frame_of((8, 8, 8)).pixels)[:20])
        assert pico.wait_for(lambda: pico.fw.parser.truncated >= 1)
        assert pico.strip.shown[-1] == bytes(after.pixels) and pico.fw.good == 2
        stats = host.ping()
        assert stats is not None and "good=2" in stats and "trunc=1" in stats
    finally:
        host.close()


def test_out_of_order_and_repeated_frames_are_dropped(pico: PtyPico) -> None:
    host = PicoOutput(pico.path, LEDS)
    try:
        port = host.port
        port.write(packet(FRAME, 5, frame_of((5, 0, 0)).pixels))
        port.write(packet(FRAME, 3, frame_of((3, 0, 0)).pixels))  # older
        port.write(packet(FRAME, 5, frame_of((55, 0, 0)).pixels))  # repeated number
        port.write(packet(FRAME, 6, frame_of((6, 0, 0)).pixels))
        assert pico.wait_for(lambda: pico.fw.good == 2)
        assert pico.wait_for(lambda: pico.fw.stale == 2)
        assert [s[0] for s in pico.strip.shown] == [5, 6]
        # a restarted host pings and may count from the start again
        assert host.ping() is not None
        host.show(frame_of((1, 0, 0)))
        assert pico.wait_for(lambda: pico.fw.good == 3)
        # sequence numbers wrap at 65536 (after a ping, any number starts)
        assert host.ping() is not None
        port.write(packet(FRAME, 65535, frame_of((7, 0, 0)).pixels))
        port.write(packet(FRAME, 0, frame_of((8, 0, 0)).pixels))
        assert pico.wait_for(lambda: pico.fw.good == 5)
    finally:
        host.close()


def test_idle_pattern_when_the_host_falls_silent() -> None:
    device = PtyPico(idle_ms=150)
    host = PicoOutput(device.path, LEDS)
    try:
        last = frame_of((200, 100, 40), (0, 0, 80))
        host.show(last)
        assert device.wait_for(lambda: device.fw.good == 1)
        assert device.wait_for(lambda: device.fw.idle_step >= 2)
        idle = device.strip.shown[-1]
        assert idle[:6] == bytes([50, 25, 10, 0, 0, 20]) or idle[:6] == idle_frame(
            bytes(last.pixels), LEDS, device.fw.idle_step)[:6]
        assert idle != bytes(last.pixels)
        fresh = frame_of((1, 2, 3))
        host.show(fresh)
        assert device.wait_for(lambda: device.fw.good == 2)
        assert device.strip.shown[-1] == bytes(fresh.pixels) and device.fw.idle_step == -1
    finally:
        host.close()
        device.close()


def test_frames_over_pyserial_loop_reach_the_firmware_parser() -> None:
    board = BoardLayout.standard(tracks=2)
    host = open_output("pico:loop://", board, ping=False)
    assert isinstance(host, PicoOutput)
    strip = FakeStrip(board.led_count)
    fw = Firmware(strip, clock=lambda: 0)
    frames_sent = [render_frame(board, {"A": (s, s - 1), "B": (2 * s, s)}) for s in range(1, 31)]
    for f in frames_sent:
        host.show(f)
        fw.feed(host.port.read(host.port.in_waiting))
    host.close()
    assert strip.shown == [bytes(f.pixels) for f in frames_sent]


def test_no_firmware_answering_is_a_clear_error() -> None:
    master, slave = os.openpty()
    try:
        with pytest.raises(OutputUnavailable, match="no answer"):
            PicoOutput(os.ttyname(slave), LEDS, timeout=0.2)
    finally:
        os.close(master)
        os.close(slave)
    with pytest.raises(OutputUnavailable, match="cannot open"):
        PicoOutput("/dev/does-not-exist", LEDS)


def test_firmware_rejects_frames_of_the_wrong_shape() -> None:
    strip = FakeStrip(2)
    fw = Firmware(strip, clock=lambda: 0)
    fw.feed(frames.encode(frames.KIND_FRAME, 1, b"\x01\x02"))  # not whole LEDs
    fw.feed(frames.encode(frames.KIND_FRAME, 2, bytes(9)))  # longer than the strip
    assert strip.shown == [] and fw.bad_length == 1 and fw.parser.bad_headers >= 1
    fw.feed(frames.encode(frames.KIND_QUIT, 0, b""))
    assert fw.quit


packets = st.lists(st.tuples(st.integers(0, 65535), st.binary(max_size=24)), max_size=6)


@settings(max_examples=150, deadline=None)
@given(packets, st.lists(st.binary(max_size=40), min_size=7, max_size=7), st.integers(1, 9))
def test_parser_finds_every_good_packet_among_noise(items, noise, chunk) -> None:
    """Line noise between packets (even noise that looks like a header) loses no good packet."""
    stream = b""
    for (seq, payload), junk in zip(items, noise, strict=False):
        stream += junk + frames.encode(frames.KIND_FRAME, seq, payload)
    stream += noise[-1]
    parser = frames.Parser(max_payload=64)
    found = []
    for i in range(0, len(stream), chunk):
        found += parser.feed(stream[i : i + chunk], now_ms=0)
    found += parser.expire(now_ms=10_000)
    got = [(seq, payload) for kind, seq, payload in found if kind == frames.KIND_FRAME]
    # noise may by chance hold a valid packet only with a 1-in-2**32 CRC: ignore extras
    it = iter(got)
    assert all(any(g == want for g in it) for want in items)
    assert parser.buf == b""


def test_pico_output_is_chosen_by_spec_and_needs_a_port() -> None:
    board = BoardLayout.standard()
    with pytest.raises(OutputUnavailable, match="needs a serial port"):
        open_output("pico", board)
    with pytest.raises(serial.SerialException):
        serial.serial_for_url("/dev/does-not-exist")
