"""Where frames go: one small interface, backends chosen by a string like gpiozero's pin
factories. Pi-only libraries are imported inside the backend's constructor, never here.

============================  =================================================================
spec                          backend
============================  =================================================================
``sim``                       :class:`~firmware.outputs.sim.SimOutput`: keeps the last frame,
                              draws it as PNG (``latest_png()``) for the page and the CLI
``pico:/dev/ttyACM0``         :class:`~firmware.outputs.pico.PicoOutput`: USB serial to the
                              Pico firmware in ``firmware/pico`` (any pyserial URL works:
                              ``pico:loop://``, ``pico:socket://host:port``)
``spi-apa102[:bus=0,hz=N]``   :class:`~firmware.outputs.spi.Apa102Output` (apa102-pi)
``spi-ws2812[:hz=6400000]``   :class:`~firmware.outputs.spi.Ws2812SpiOutput`
                              (adafruit-circuitpython-neopixel-spi); mind ``spidev.bufsiz``
============================  =================================================================

>>> from firmware.layout import BoardLayout
>>> out = open_output("sim", BoardLayout.standard())
>>> out.name, out.leds
('sim', 244)
>>> open_output("lamp", BoardLayout.standard())  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
firmware.outputs.OutputUnavailable: unknown LED output 'lamp': use sim, pico:PORT, ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware.layout import BoardLayout
    from firmware.render import Frame

__all__ = ["LedOutput", "OutputUnavailable", "open_output", "parse_options"]


class OutputUnavailable(RuntimeError):
    """The chosen output cannot run here (library, device or permission missing); one line."""


class LedOutput:
    """Shows frames on LEDs. ``show`` must not block for long (one frame's transfer)."""

    name = "output"

    def __init__(self, leds: int) -> None:
        self.leds = leds

    def show(self, frame: Frame) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device (turning the LEDs off where the device allows)."""

    def __enter__(self) -> LedOutput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check(self, frame: Frame) -> None:
        if frame.leds != self.leds:
            raise ValueError(f"{self.name}: frame has {frame.leds} LEDs, the strip {self.leds}")


def parse_options(text: str) -> dict[str, str]:
    """``"bus=0,hz=8000000"`` → ``{"bus": "0", "hz": "8000000"}``.

    >>> parse_options("bus=1, hz=4000000")
    {'bus': '1', 'hz': '4000000'}
    """
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise OutputUnavailable(f"bad output option {part!r}: use key=value")
        out[key.strip()] = value.strip()
    return out


def _int_option(options: dict[str, str], key: str, default: int) -> int:
    try:
        return int(options.pop(key, default))
    except ValueError:
        raise OutputUnavailable(f"output option {key} must be a whole number") from None


def open_output(spec: str, layout: BoardLayout, **kwargs: object) -> LedOutput:
    """The output named by ``spec`` for ``layout``'s LEDs (see the table above)."""
    kind, _, rest = spec.strip().partition(":")
    kind = kind.lower()
    leds = layout.led_count
    if kind == "sim":
        from firmware.outputs.sim import SimOutput

        return SimOutput(layout, **kwargs)  # type: ignore[arg-type]
    if kind == "pico":
        if not rest:
            raise OutputUnavailable("pico needs a serial port: pico:/dev/ttyACM0")
        from firmware.outputs.pico import PicoOutput

        return PicoOutput(rest, leds, **kwargs)  # type: ignore[arg-type]
    if kind in ("spi-apa102", "spi-ws2812"):
        options = parse_options(rest)
        from firmware.outputs import spi

        if kind == "spi-apa102":
            out: LedOutput = spi.Apa102Output(
                leds, bus=_int_option(options, "bus", 0),
                hz=_int_option(options, "hz", 8_000_000),
                brightness=_int_option(options, "brightness", 31))
        else:
            out = spi.Ws2812SpiOutput(leds, hz=_int_option(options, "hz", 6_400_000))
        if options:
            out.close()
            raise OutputUnavailable(f"{kind}: unknown option(s) {', '.join(options)}")
        return out
    raise OutputUnavailable(
        f"unknown LED output {spec!r}: use sim, pico:PORT, spi-apa102 or spi-ws2812")
