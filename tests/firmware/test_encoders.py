"""The SPI byte streams, checked bit by bit against the chips' datasheets, and the SPI backends
against fakes of their libraries (the real ones run only on a Pi)."""

from __future__ import annotations

import sys
import types

import pytest

from firmware.layout import BoardLayout
from firmware.outputs import OutputUnavailable, open_output
from firmware.outputs.encoders import apa102_bytes, ws2812_reset_bytes, ws2812_spi_bytes
from firmware.outputs.spi import ws2812_transfer
from firmware.render import Frame

# --------------------------------------------------------------------------- APA102 / SK9822
# APA102 datasheet: start frame 32 bits "0"; LED frame "111" + 5-bit global brightness, then
# 8 bits blue, 8 bits green, 8 bits red, MSB first; end frame 32 bits "1" (and at least n/2
# clock edges, i.e. n/2 bits, for the data to reach the last of n LEDs).


def _bits(text: str) -> bytes:
    text = text.replace(" ", "")
    assert len(text) % 8 == 0
    return int(text, 2).to_bytes(len(text) // 8, "big")


def test_apa102_frame_as_the_datasheet_draws_it() -> None:
    pixels = bytes([0x12, 0x34, 0x56, 0xFF, 0x00, 0x80])  # (R, G, B) x 2
    expected = _bits(
        "00000000 00000000 00000000 00000000"  # start frame
        "111 11111 01010110 00110100 00010010"  # LED 1: brightness 31, B 0x56, G 0x34, R 0x12
        "111 11111 10000000 00000000 11111111"  # LED 2: B 0x80, G 0x00, R 0xFF
        "11111111 11111111 11111111 11111111"  # end frame
    )
    assert apa102_bytes(pixels) == expected
    dim = apa102_bytes(pixels, brightness=5)
    assert dim[4] == 0b111_00101 and dim[8] == 0b111_00101


@pytest.mark.parametrize("n", [1, 16, 64, 65, 200, 366])
def test_apa102_end_frame_reaches_the_last_led(n: int) -> None:
    out = apa102_bytes(bytes(3 * n))
    assert len(out) >= 4 + 4 * n + 4
    end = out[4 + 4 * n:]
    assert set(end) == {0xFF} and 8 * len(end) >= max(32, n / 2)
    assert out[:4] == bytes(4)


def test_apa102_refuses_bad_input() -> None:
    with pytest.raises(ValueError):
        apa102_bytes(bytes(3), brightness=32)
    with pytest.raises(ValueError):
        apa102_bytes(bytes(4))


# --------------------------------------------------------------------------- WS2812 / SK6812
# Data sheet timing tables (ns): high time of a 0 and a 1, low time of a 0 and a 1.
# WS2812B: 400 / 800 / 850 / 450 ns, each ±150 ns; SK6812: 300 / 600 / 900 / 600 ns, each ±150 ns.
WS2812B = {"T0H": (250, 550), "T1H": (650, 950), "T0L": (700, 1000), "T1L": (300, 600)}
SK6812 = {"T0H": (150, 450), "T1H": (450, 750), "T0L": (750, 1050), "T1L": (450, 750)}
PERIOD = (650, 1850)  # 1.25 µs ± 600 ns (WS2812B)


def _pulses(stream: bytes, bits_per_bit: int, hz: float, reset: int) -> tuple[list[int], list[dict]]:
    """Decode an SPI stream back into WS2812 data bits and each bit's high/low time (ns)."""
    body = stream[reset: len(stream) - reset]
    line = "".join(f"{b:08b}" for b in body)
    spi_ns = 1e9 / hz
    out_bits, timing = [], []
    for k in range(0, len(line), bits_per_bit):
        cell = line[k:k + bits_per_bit]
        high = len(cell) - len(cell.lstrip("1"))
        assert set(cell[high:]) <= {"0"}, "one high pulse per data bit, then low"
        bit = 1 if high * spi_ns > 470 else 0  # the chip reads the line about 0.5 µs in
        out_bits.append(bit)
        timing.append({"bit": bit, "high": high * spi_ns, "low": (bits_per_bit - high) * spi_ns})
    return out_bits, timing


def _data_bits(data: bytes) -> list[int]:
    return [int(c) for b in data for c in f"{b:08b}"]


@pytest.mark.parametrize(("bits", "hz"), [(8, 6_400_000), (3, 2_400_000)])
def test_ws2812_stream_carries_grb_msb_first(bits: int, hz: int) -> None:
    pixels = bytes([0x12, 0xA5, 0x0F, 0xFF, 0x00, 0x81])  # (R, G, B) x 2
    reset = ws2812_reset_bytes(hz)
    stream = ws2812_spi_bytes(pixels, bits=bits)
    assert stream[:reset] == bytes(reset) and stream[-reset:] == bytes(reset)
    decoded, _ = _pulses(stream, bits, hz, reset)
    assert decoded == _data_bits(bytes([0xA5, 0x12, 0x0F, 0x00, 0xFF, 0x81]))  # G R B per LED
    assert len(stream) == 2 * reset + (24 * bits // 8) * 2


def test_ws2812_8_bit_patterns_are_neopixel_spi_s() -> None:
    """adafruit-circuitpython-neopixel-spi sends 0b11000000 for 0, 0b11110000 for 1 at 6.4 MHz."""
    assert ws2812_spi_bytes(bytes([0x80, 0, 0]), order="RGB", reset=0)[:2] == bytes([0xF0, 0xC0])
    assert ws2812_reset_bytes(6_400_000) == 64  # 80 µs, neopixel_spi's reset
    assert ws2812_transfer(165) <= 4096 < ws2812_transfer(166)  # spidev's default bufsiz


def _check(timing: list[dict], table: dict[str, tuple[int, int]]) -> list[str]:
    bad = []
    for t in timing:
        hi, lo = ("T1H", "T1L") if t["bit"] else ("T0H", "T0L")
        if not table[hi][0] <= t["high"] <= table[hi][1]:
            bad.append(f"{hi}={t['high']:.1f}")
        if not table[lo][0] <= t["low"] <= table[lo][1]:
            bad.append(f"{lo}={t['low']:.1f}")
        assert PERIOD[0] <= t["high"] + t["low"] <= PERIOD[1]
    return sorted(set(bad))


def test_ws2812_timing_against_the_datasheets() -> None:
    pixels = bytes([0x55, 0xAA, 0xF0])
    _, t3 = _pulses(ws2812_spi_bytes(pixels, bits=3), 3, 2_400_000, ws2812_reset_bytes(2_400_000))
    _, t8 = _pulses(ws2812_spi_bytes(pixels, bits=8), 8, 6_400_000, 64)
    # 3 SPI bits a bit at 2.4 MHz: 417/833 ns, inside the WS2812B table; a 1 is 83 ns too long
    # high (and 33 ns too short low) for the SK6812 table
    assert _check(t3, WS2812B) == []
    assert _check(t3, SK6812) == ["T1H=833.3", "T1L=416.7"]
    # 8 SPI bits a bit at 6.4 MHz (neopixel_spi): inside SK6812's table; a 1 is 625 ns high and
    # 625 ns low, 25 ns outside the WS2812B table's ±150 ns (it works: the WS2812B samples the
    # line about 450-550 ns after the rising edge). docs/leds.md says so.
    assert _check(t8, SK6812) == []
    assert _check(t8, WS2812B) == ["T1H=625.0", "T1L=625.0"]


# --------------------------------------------------------------------------- the backends


def test_spi_backends_fail_here_with_one_line() -> None:
    board = BoardLayout.standard(tracks=2)
    for spec in ("spi-apa102", "spi-ws2812"):
        with pytest.raises(OutputUnavailable) as err:
            open_output(spec, board)
        assert "\n" not in str(err.value) and spec in str(err.value)
    with pytest.raises(OutputUnavailable, match="key=value"):
        open_output("spi-apa102:fast", board)


def test_importing_the_outputs_loads_no_pi_library() -> None:
    import firmware.outputs.spi  # noqa: F401

    for name in ("apa102_pi", "neopixel_spi", "board", "spidev", "lgpio", "RPi"):
        assert name not in sys.modules


def test_apa102_backend_drives_apa102_pi(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple] = []

    class APA102:
        def __init__(self, **kwargs: object) -> None:
            calls.append(("init", kwargs))

        def set_pixel(self, i: int, r: int, g: int, b: int) -> None:
            calls.append(("px", i, r, g, b))

        def show(self) -> None:
            calls.append(("show",))

        def cleanup(self) -> None:
            calls.append(("cleanup",))

    driver = types.ModuleType("apa102_pi.driver")
    driver.apa102 = types.SimpleNamespace(APA102=APA102)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "apa102_pi", types.ModuleType("apa102_pi"))
    monkeypatch.setitem(sys.modules, "apa102_pi.driver", driver)
    board = BoardLayout.standard(tracks=2)
    out = open_output("spi-apa102:bus=1,hz=4000000,brightness=7", board)
    assert calls[0] == ("init", {"num_led": 244, "order": "rgb", "spi_bus": 1,
                                 "bus_speed_hz": 4_000_000, "global_brightness": 7})
    frame = Frame.blank(244)
    frame.set(3, (9, 8, 7))
    out.show(frame)
    assert ("px", 3, 9, 8, 7) in calls and calls[-1] == ("show",)
    assert sum(1 for c in calls if c[0] == "px") == 244
    with pytest.raises(ValueError):
        out.show(Frame.blank(10))
    out.close()
    assert calls[-1] == ("cleanup",)
