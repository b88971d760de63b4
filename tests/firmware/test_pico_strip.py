"""The Pico firmware's hardware module (``firmware/pico/strip.py``) with ``machine`` and
``neopixel`` swapped for fakes, and the firmware's CRC against zlib's. (The serial link itself,
host against firmware over a pty, is tested in ``test_pico_link.py``.)"""

from __future__ import annotations

import sys
import types

import pytest

from firmware.pico import frames
from firmware.pico.main import Firmware


def test_crc_matches_zlib() -> None:
    import zlib

    for data in (b"", b"123456789", bytes(range(256)) * 3):
        assert frames.crc32_py(data) == zlib.crc32(data) == frames.crc32(data)


def test_the_strip_module_with_its_hardware_swapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """strip.py (the only module touching the Pico's hardware) against fake machine/neopixel."""
    written: list[bytes] = []

    class NeoPixel:
        def __init__(self, pin: object, n: int) -> None:
            self.pin, self.n, self.buf = pin, n, bytearray(3 * n)

        def write(self) -> None:
            written.append(bytes(self.buf))

    machine = types.ModuleType("machine")

    class Pin:
        OUT = 1

        def __init__(self, number: int, mode: int) -> None:
            self.number, self.mode = number, mode

    machine.Pin = Pin  # type: ignore[attr-defined]
    neopixel = types.ModuleType("neopixel")
    neopixel.NeoPixel = NeoPixel  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "neopixel", neopixel)
    from firmware.pico.strip import NeoStrip

    strip = NeoStrip(pin=2, n=3, order="GRB")
    assert strip.np.pin.number == 2
    strip.show_rgb(bytes([1, 2, 3, 4, 5, 6]))  # R G B per LED in; G R B out; the rest dark
    assert written[-1] == bytes([2, 1, 3, 5, 4, 6, 0, 0, 0])
    strip.blank()
    assert written[-1] == bytes(9)
    # the whole firmware on that strip
    fw = Firmware(strip, clock=lambda: 0)
    fw.feed(frames.encode(frames.KIND_FRAME, 1, bytes([10, 20, 30] * 3)), now=1)
    assert written[-1] == bytes([20, 10, 30] * 3)
