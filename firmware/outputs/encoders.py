"""Byte streams for LED chips driven straight from an SPI bus, as their datasheets define them.

APA102 / SK9822 (clock + data)::

    start frame: 32 bits of 0
    per LED:     0b111 + 5-bit global brightness, then blue, green, red (8 bits each)
    end frame:   at least n/2 bits of 1 (the data lags half a clock per LED), and at least 32

WS2812 / SK6812 (one wire, 800 kHz, each bit a high pulse of 0.4 µs for 0 or 0.8 µs for 1 in a
1.25 µs slot) sent as SPI bytes: every data bit becomes a fixed SPI pattern.

* ``bits=8`` (what adafruit-circuitpython-neopixel-spi sends): 8 SPI bits per data bit at
  6.4 MHz, 0 → ``0b11000000`` (0.31 µs high), 1 → ``0b11110000`` (0.63 µs high), with a reset
  of ``round(6.4e6 * 80e-6 / 8) = 64`` zero bytes before and after.
* ``bits=3``: 3 SPI bits per data bit at 2.4 MHz, 0 → ``0b100``, 1 → ``0b110``, packed MSB
  first (9 SPI bytes per LED), for SPI drivers with small buffers.

Colour bytes go out in the strip's order ("GRB" for WS2812B), most significant bit first.

>>> apa102_bytes(bytes([1, 2, 3])).hex()
'00000000ff030201ffffffff'
>>> ws2812_spi_bytes(bytes([0, 0, 0]), bits=3, reset=0).hex()
'924924924924924924'
"""

from __future__ import annotations

__all__ = ["WS2812_RESET_S", "apa102_bytes", "ws2812_reset_bytes", "ws2812_spi_bytes"]

WS2812_RESET_S = 80e-6  # neopixel_spi's default reset (low) time
_BIT8 = (0b11000000, 0b11110000)


def apa102_bytes(pixels: bytes | bytearray, brightness: int = 31) -> bytes:
    """The APA102 stream for ``pixels`` (R, G, B per LED) at a 5-bit global ``brightness``.

    >>> len(apa102_bytes(bytes(3 * 100)))  # 4 + 4*100 + max(4, ceil(100/16))
    411
    """
    if not 0 <= brightness <= 31:
        raise ValueError(f"APA102 brightness is 5 bits (0..31), not {brightness}")
    if len(pixels) % 3:
        raise ValueError("pixels must hold 3 bytes (R, G, B) per LED")
    n = len(pixels) // 3
    out = bytearray(4 + 4 * n)
    head = 0xE0 | brightness
    for i in range(n):
        r, g, b = pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2]
        out[4 + 4 * i : 8 + 4 * i] = bytes((head, b, g, r))
    out += b"\xff" * max(4, (n + 15) // 16)
    return bytes(out)


def ws2812_reset_bytes(frequency: int = 6_400_000, reset_s: float = WS2812_RESET_S) -> int:
    """Zero bytes that hold the line low for ``reset_s`` at ``frequency`` (64 at 6.4 MHz)."""
    return round(frequency * reset_s / 8)


def ws2812_spi_bytes(
    pixels: bytes | bytearray,
    order: str = "GRB",
    bits: int = 8,
    reset: int | None = None,
) -> bytes:
    """The SPI bytes that send ``pixels`` (R, G, B per LED) to a WS2812 strip.

    ``reset`` zero bytes go before and after (default: 80 µs at the mode's clock: 64 for
    ``bits=8`` at 6.4 MHz, 24 for ``bits=3`` at 2.4 MHz).

    >>> ws2812_spi_bytes(bytes([0, 0x80, 0]), reset=0)[:8].hex()  # green first: 0x80
    'f0c0c0c0c0c0c0c0'
    """
    if bits not in (3, 8):
        raise ValueError("bits must be 3 or 8 SPI bits per data bit")
    if sorted(order) != ["B", "G", "R"]:
        raise ValueError(f"order must be a permutation of RGB, not {order!r}")
    if len(pixels) % 3:
        raise ValueError("pixels must hold 3 bytes (R, G, B) per LED")
    pick = ["RGB".index(c) for c in order]
    data = bytearray(len(pixels))
    for i in range(0, len(pixels), 3):
        for j, k in enumerate(pick):
            data[i + j] = pixels[i + k]
    if reset is None:
        reset = ws2812_reset_bytes(6_400_000 if bits == 8 else 2_400_000)
    pad = bytes(reset)
    if bits == 8:
        out = bytearray(8 * len(data))
        k = 0
        for byte in data:
            for i in range(7, -1, -1):
                out[k] = _BIT8[(byte >> i) & 1]
                k += 1
        return pad + bytes(out) + pad
    out = bytearray()
    for byte in data:
        word = 0
        for i in range(7, -1, -1):
            word = (word << 3) | (0b110 if (byte >> i) & 1 else 0b100)
        out += word.to_bytes(3, "big")
    return pad + bytes(out) + pad
