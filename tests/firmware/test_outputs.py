"""Output backends: the SPI encoders byte-exact against the datasheets, the simulator, the
choice by spec string, and the Pi-only backends failing clearly where their library is missing."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from firmware.layout import BoardLayout
from firmware.outputs import OutputUnavailable, open_output, parse_options
from firmware.outputs.encoders import apa102_bytes, ws2812_reset_bytes, ws2812_spi_bytes
from firmware.outputs.sim import SimOutput
from firmware.outputs.spi import spidev_bufsiz, ws2812_transfer
from firmware.render import Frame, render_frame

BOARD = BoardLayout.standard(tracks=2)


def test_apa102_frame_layout_follows_the_datasheet() -> None:
    pixels = bytes([0x11, 0x22, 0x33, 0xFF, 0x00, 0x80])  # LED 0: R G B, LED 1: R G B
    out = apa102_bytes(pixels, brightness=31)
    assert out[:4] == b"\x00\x00\x00\x00"  # start frame: 32 zero bits
    assert out[4:8] == bytes([0b11111111, 0x33, 0x22, 0x11])  # 111 + 5-bit 31, then B, G, R
    assert out[8:12] == bytes([0xFF, 0x80, 0x00, 0xFF])
    assert out[12:] == b"\xff" * 4  # end frame: ones, at least 32 bits
    dim = apa102_bytes(pixels, brightness=3)
    assert dim[4] == 0b11100011 and dim[8] == 0b11100011
    # the end frame grows with the strip: at least n/2 clock edges of ones
    for n in (1, 64, 65, 300, 366):
        stream = apa102_bytes(bytes(3 * n))
        end = stream[4 + 4 * n :]
        assert set(end) == {0xFF} and len(end) * 8 >= max(32, n / 2)
    with pytest.raises(ValueError):
        apa102_bytes(pixels, brightness=32)
    with pytest.raises(ValueError):
        apa102_bytes(b"\x00\x00")


def test_ws2812_eight_spi_bits_per_bit_as_neopixel_spi() -> None:
    # neopixel_spi: 6.4 MHz, 0 -> 0b11000000, 1 -> 0b11110000, MSB first, GRB order
    r, g, b = 0x80, 0x01, 0xFF
    out = ws2812_spi_bytes(bytes([r, g, b]), reset=0)
    zero, one = 0b11000000, 0b11110000
    assert out[:8] == bytes([zero] * 7 + [one])  # green 0x01 first
    assert out[8:16] == bytes([one] + [zero] * 7)  # red 0x80
    assert out[16:24] == bytes([one] * 8)  # blue 0xFF
    assert len(out) == 24
    # the reset around the data: 80 us low at 6.4 MHz is 64 zero bytes, as neopixel_spi sends
    assert ws2812_reset_bytes() == 64
    full = ws2812_spi_bytes(bytes([r, g, b]))
    assert full[:64] == bytes(64) and full[-64:] == bytes(64) and full[64:-64] == out
    # pulse widths at 6.4 MHz (156 ns a bit): 0 is 2 bits high = 312 ns, 1 is 4 = 625 ns
    assert bin(zero).count("1") * 156.25 == pytest.approx(312.5)
    assert bin(one).count("1") * 156.25 == pytest.approx(625)


def test_ws2812_three_spi_bits_per_bit() -> None:
    # 2.4 MHz: 0 -> 100, 1 -> 110; a dark LED is 0x924924 x 3, a white one 0xDB6DB6 x 3
    assert ws2812_spi_bytes(bytes(3), bits=3, reset=0) == bytes.fromhex("924924" * 3)
    assert ws2812_spi_bytes(b"\xff\xff\xff", bits=3, reset=0) == bytes.fromhex("db6db6" * 3)
    # 0xA5 = 1010 0101 -> 110 100 110 100 100 110 100 110
    bits = int("110100110100100110100110", 2).to_bytes(3, "big")
    assert ws2812_spi_bytes(bytes([0, 0xA5, 0]), bits=3, reset=0)[:3] == bits  # G first
    assert ws2812_spi_bytes(bytes([0, 0xA5, 0]), order="RGB", bits=3, reset=0)[3:6] == bits
    with pytest.raises(ValueError):
        ws2812_spi_bytes(bytes(3), order="RGX")
    with pytest.raises(ValueError):
        ws2812_spi_bytes(bytes(3), bits=4)


def test_spidev_buffer_limit_is_documented_in_numbers(tmp_path) -> None:
    assert ws2812_transfer(165) <= 4096 < ws2812_transfer(166)
    assert ws2812_transfer(366) == len(ws2812_spi_bytes(bytes(3 * 366)))
    limit = tmp_path / "bufsiz"
    limit.write_text("4096\n")
    assert spidev_bufsiz(limit) == 4096
    assert spidev_bufsiz(tmp_path / "missing") is None


def test_sim_keeps_the_last_frame_and_draws_it() -> None:
    sim = open_output("sim", BOARD)
    assert isinstance(sim, SimOutput)
    assert sim.latest_png() is None
    frame = render_frame(BOARD, {"A": (45, 40), "B": (30, 28)})
    sim.show(frame)
    png = sim.latest_png()
    assert png is not None and sim.latest_png() is png  # cached until the next frame
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (round(BOARD.width * 4), round(BOARD.height * 4))
    hole = BOARD.hole(0, 45)
    red = image.getpixel((round(hole.x * 4), round(hole.y * 4)))
    assert red[0] > 200 and red[1] < 80  # A's front peg drawn red where the hole is
    dark = BOARD.hole(0, 50)
    assert max(image.getpixel((round(dark.x * 4), round(dark.y * 4)))) < 60
    with pytest.raises(ValueError):
        sim.show(Frame.blank(5))
    sim.close()


def test_sim_writes_png_files(tmp_path) -> None:
    target = tmp_path / "board.png"
    sim = SimOutput(BOARD, png_path=target)
    sim.show(render_frame(BOARD, {"A": (1, 0)}))
    assert target.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("spec", ["spi-apa102", "spi-ws2812", "spi-apa102:bus=1,hz=4000000"])
def test_pi_only_backends_fail_clearly_here(spec: str) -> None:
    try:
        import apa102_pi  # noqa: F401
        import neopixel_spi  # noqa: F401
    except ImportError:
        pass
    else:  # pragma: no cover - on a Pi with the libraries
        pytest.skip("the SPI libraries are installed")
    with pytest.raises(OutputUnavailable) as info:
        open_output(spec, BOARD)
    message = str(info.value)
    assert "\n" not in message and "pip install" in message


def test_spec_options_are_checked() -> None:
    assert parse_options("bus=0,hz=8000000") == {"bus": "0", "hz": "8000000"}
    with pytest.raises(OutputUnavailable):
        parse_options("fast")
    with pytest.raises(OutputUnavailable):
        open_output("spi-apa102:bus=zero", BOARD)
    with pytest.raises(OutputUnavailable, match="unknown LED output"):
        open_output("hdmi", BOARD)
