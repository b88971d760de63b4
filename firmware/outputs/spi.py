"""LED strips straight on the Raspberry Pi's SPI bus (MOSI GPIO10, SCLK GPIO11).

Both backends are written against their library's documented API and import it in the
constructor; here (no Pi, no library) they raise :class:`OutputUnavailable` with one line.

* APA102/SK9822: `apa102-pi <https://github.com/tinue/apa102-pi>`_, ``APA102(num_led, order,
  bus_speed_hz, global_brightness)``, ``set_pixel(i, r, g, b)``, ``show()``, ``cleanup()``.
  apa102-pi frames the data as :func:`~firmware.outputs.encoders.apa102_bytes` does, except
  that its end frame is zeros (SK9822 compatible) where the APA102 datasheet asks for ones.
* WS2812 over SPI: `adafruit-circuitpython-neopixel-spi`, ``NeoPixel_SPI(board.SPI(), n,
  pixel_order=GRB, auto_write=False)``, ``pixels[i] = (r, g, b)``, ``show()``. It sends
  :func:`~firmware.outputs.encoders.ws2812_spi_bytes` with ``bits=8``: 8 SPI bytes per colour
  byte, so **24 bytes per LED** plus 2 x 64 reset bytes in ONE transfer. The kernel's spidev
  driver refuses transfers over ``spidev.bufsiz`` bytes (default **4096**: 165 LEDs), and a
  split transfer would put a gap (a reset) in the middle of the strip. A 366-LED board needs
  8,912 bytes: add ``spidev.bufsiz=32768`` to ``/boot/firmware/cmdline.txt`` and reboot. The
  constructor reads ``/sys/module/spidev/parameters/bufsiz`` and refuses a strip that does not
  fit, saying so.
"""

from __future__ import annotations

from pathlib import Path

from firmware.outputs import LedOutput, OutputUnavailable
from firmware.outputs.encoders import ws2812_reset_bytes
from firmware.render import Frame

__all__ = ["SPIDEV_BUFSIZ", "Apa102Output", "Ws2812SpiOutput", "spidev_bufsiz", "ws2812_transfer"]

SPIDEV_BUFSIZ = Path("/sys/module/spidev/parameters/bufsiz")


def spidev_bufsiz(path: Path = SPIDEV_BUFSIZ) -> int | None:
    """The kernel's spidev transfer limit in bytes, or None when spidev is not loaded."""
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def ws2812_transfer(leds: int, hz: int = 6_400_000) -> int:
    """Bytes neopixel_spi writes in one transfer for ``leds`` RGB LEDs.

    >>> ws2812_transfer(366), ws2812_transfer(165)
    (8912, 4088)
    """
    return 24 * leds + 2 * ws2812_reset_bytes(hz)


class Apa102Output(LedOutput):
    """APA102/SK9822 through apa102-pi."""

    name = "spi-apa102"

    def __init__(self, leds: int, bus: int = 0, hz: int = 8_000_000, brightness: int = 31) -> None:
        super().__init__(leds)
        try:
            from apa102_pi.driver import apa102  # Pi only
        except ImportError as exc:
            raise OutputUnavailable(
                f"spi-apa102 needs apa102-pi on a Raspberry Pi with SPI enabled "
                f"(pip install apa102-pi): {exc}") from None
        try:
            self.strip = apa102.APA102(num_led=leds, order="rgb", spi_bus=bus,
                                       bus_speed_hz=hz, global_brightness=brightness)
        except Exception as exc:  # the library raises whatever Blinka raises off a Pi
            raise OutputUnavailable(f"spi-apa102: cannot open SPI bus {bus}: {exc}") from None

    def show(self, frame: Frame) -> None:
        self._check(frame)
        p = frame.pixels
        for i in range(self.leds):
            self.strip.set_pixel(i, p[3 * i], p[3 * i + 1], p[3 * i + 2])
        self.strip.show()

    def close(self) -> None:
        self.strip.cleanup()


class Ws2812SpiOutput(LedOutput):
    """WS2812/SK6812 through adafruit-circuitpython-neopixel-spi."""

    name = "spi-ws2812"

    def __init__(self, leds: int, hz: int = 6_400_000, order: str = "GRB") -> None:
        super().__init__(leds)
        try:
            import board  # Adafruit Blinka, Pi only
            import neopixel_spi
        except (ImportError, NotImplementedError, RuntimeError) as exc:
            raise OutputUnavailable(
                f"spi-ws2812 needs adafruit-circuitpython-neopixel-spi on a Raspberry Pi with "
                f"SPI enabled (pip install adafruit-circuitpython-neopixel-spi): {exc}") from None
        need, limit = ws2812_transfer(leds, hz), spidev_bufsiz()
        if limit is not None and need > limit:
            raise OutputUnavailable(
                f"spi-ws2812: {leds} LEDs need a {need}-byte SPI transfer but spidev.bufsiz is "
                f"{limit}; add spidev.bufsiz=32768 to /boot/firmware/cmdline.txt and reboot")
        try:
            self.pixels = neopixel_spi.NeoPixel_SPI(
                board.SPI(), leds, pixel_order=order, auto_write=False, frequency=hz)
        except Exception as exc:
            raise OutputUnavailable(f"spi-ws2812: cannot open the SPI bus: {exc}") from None

    def show(self, frame: Frame) -> None:
        self._check(frame)
        p = frame.pixels
        px = self.pixels
        for i in range(self.leds):
            px[i] = (p[3 * i], p[3 * i + 1], p[3 * i + 2])
        px.show()

    def close(self) -> None:
        self.pixels.deinit()
