"""The Pico's LED strip: WS2812/SK6812 through MicroPython's ``neopixel`` module.

The only firmware module that touches the hardware; ``machine`` and ``neopixel`` are imported
in the constructor, so the tests swap in any object with the same three members (``n``,
``show_rgb(payload)``, ``blank()``).
"""


class NeoStrip:
    """``n`` LEDs on GPIO ``pin``; frames arrive as R, G, B and go out in the strip's order
    (``order`` names where R, G and B sit in the LED's 3 bytes: "GRB" for WS2812B)."""

    def __init__(self, pin=0, n=366, order="GRB"):
        import machine  # MicroPython only
        import neopixel

        self.n = n
        self.np = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), n)
        self.buf = self.np.buf  # the bytes neopixel.write() clocks out, in strip order
        self.offsets = (order.index("R"), order.index("G"), order.index("B"))

    def show_rgb(self, payload):
        """Show a frame: 3 bytes per LED, R G B; a short frame leaves the rest dark."""
        buf = self.buf
        ro, go, bo = self.offsets
        n = min(len(payload) // 3, self.n)
        for i in range(len(buf)):
            buf[i] = 0
        for i in range(0, 3 * n, 3):
            buf[i + ro] = payload[i]
            buf[i + go] = payload[i + 1]
            buf[i + bo] = payload[i + 2]
        self.np.write()

    def blank(self):
        self.show_rgb(b"")
