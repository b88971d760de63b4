"""The host side of the Pico link: frames over USB serial (pyserial) to ``firmware/pico``.

Packets are ``A5 5A | kind | seq (u16 LE) | length (u16 LE) | payload | CRC-32 (u32 LE)`` with
the CRC over kind..payload (see ``firmware/pico/frames.py``, the firmware's side). This module
builds and reads them on its own (``zlib.crc32``, ``struct``), so the tests check two separate
implementations against each other.

USB CDC ignores the baud rate (the Pico's full-speed USB moves about 1 MB/s in practice); a
366-LED frame is 1,109 bytes.

>>> packet(ord("F"), 1, b"\\x01\\x02\\x03").hex()
'a55a4601000300010203683cfac1'
"""

from __future__ import annotations

import struct
import time
import zlib
from typing import Any

from firmware.outputs import LedOutput, OutputUnavailable
from firmware.render import Frame

__all__ = ["PicoOutput", "packet", "read_packet"]

SYNC = b"\xa5\x5a"
FRAME, PING, QUIT, VERSION = ord("F"), ord("P"), ord("Q"), ord("V")


def packet(kind: int, seq: int, payload: bytes | bytearray) -> bytes:
    """One packet (host's own encoder)."""
    body = struct.pack("<BHH", kind, seq & 0xFFFF, len(payload)) + bytes(payload)
    return SYNC + body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)


def read_packet(port: Any, timeout: float = 1.0) -> tuple[int, int, bytes] | None:
    """Read the next good packet from a pyserial port within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    buf = b""
    while time.monotonic() < deadline:
        chunk = port.read(max(1, port.in_waiting))
        if chunk:
            buf += chunk
        start = buf.find(SYNC)
        if start < 0:
            buf = buf[-1:]
            continue
        buf = buf[start:]
        if len(buf) < 7:
            continue
        kind, seq, length = struct.unpack("<BHH", buf[2:7])
        if len(buf) < 11 + length:
            continue
        (crc,) = struct.unpack("<I", buf[7 + length : 11 + length])
        if zlib.crc32(buf[2 : 7 + length]) & 0xFFFFFFFF == crc:
            return kind, seq, buf[7 : 7 + length]
        buf = buf[1:]
    return None


class PicoOutput(LedOutput):
    """Frames to the Pico on ``port`` (a device path or any pyserial URL such as ``loop://``).

    With ``ping=True`` the constructor pings and fails with :class:`OutputUnavailable` when no
    firmware answers; ``version`` then holds its answer.
    """

    name = "pico"

    def __init__(self, port: str, leds: int, *, ping: bool = True, timeout: float = 1.0,
                 serial_port: Any = None) -> None:
        super().__init__(leds)
        self.port_name = port
        self.seq = 0
        self.version: str | None = None
        if serial_port is not None:
            self.port = serial_port
        else:
            import serial

            try:
                self.port = serial.serial_for_url(port, baudrate=115200, timeout=0.05,
                                                  write_timeout=2.0)
            except (serial.SerialException, ValueError, OSError) as exc:
                raise OutputUnavailable(f"pico: cannot open {port}: {exc}") from None
        if ping:
            self.version = self.ping(timeout)
            if self.version is None:
                self.port.close()
                raise OutputUnavailable(f"pico: no answer from the firmware on {port}")

    def ping(self, timeout: float = 1.0) -> str | None:
        """Ask the firmware for its version and counters; restarts its sequence check and tells
        it how many LEDs a frame has (it then refuses any longer packet at once)."""
        self.port.reset_input_buffer()
        self.port.write(packet(PING, 0, struct.pack("<H", self.leds)))
        self.port.flush()
        self.seq = 0
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            reply = read_packet(self.port, left)
            if reply is not None and reply[0] == VERSION:
                return reply[2].decode("ascii", "replace")
        return None

    def show(self, frame: Frame) -> None:
        self._check(frame)
        self.seq = (self.seq + 1) & 0xFFFF
        self.port.write(packet(FRAME, self.seq, frame.pixels))

    def release(self) -> None:
        """Stop the firmware's loop and give its REPL back (to copy new firmware on)."""
        self.port.write(packet(QUIT, 0, b""))
        self.port.flush()

    def close(self) -> None:
        try:
            self.port.flush()
        finally:
            self.port.close()
