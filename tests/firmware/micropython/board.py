"""Stand-ins for the Pico's board, in MicroPython: ``machine.Pin``, ``neopixel.NeoPixel`` and the
USB serial (``sys.stdin.buffer``, ``sys.stdout.buffer``, ``select.poll``), with the clock
(``time.ticks_ms``) and ``micropython.kbd_intr``; then ``main.run()`` as the Pico runs it.

The host's bytes come from a tape: (arrival ms, bytes) records. The clock moves only when the
program waits: ``poll(timeout)`` with nothing arrived moves it to the next arrival, or by the
timeout when that comes later (and ends the run when the tape has nothing more);
``stdin.read(n)`` blocks, as the rp2 port's does, until ``n`` bytes have come, so a frame cut
short waits for the host's next bytes. While ``kbd_intr(3)`` is in force
(MicroPython's default) a 0x03 byte never reaches ``read``: it raises ``KeyboardInterrupt``, as the
rp2 port's USB serial does.

Printed, one line each: ``LED <hex>`` (the strip's bytes at each ``NeoPixel.write()``), ``PIN
<n>`` (the strip's GPIO), ``REPLY <hex>`` (what the program wrote to the host), ``KBD <n>`` (each
``kbd_intr``) and ``END <why>`` (``quit``: the loop returned; ``tape``: the host's bytes ran out
with the program still waiting; ``KeyboardInterrupt``; or another exception).
"""

import binascii as _binascii
import struct
import sys
import time as _time

import micropython as _micropython

_real_sys = sys


def _hex(data):
    return _binascii.hexlify(bytes(data)).decode()


class TapeEnd(Exception):
    pass


class Usb:
    """The host end of the USB serial: a tape of (arrival ms, bytes), and the clock."""

    def __init__(self, path):
        self.now = 0
        self.chunks = []
        with open(path, "rb") as f:
            data = f.read()
        i = 0
        while i < len(data):
            at, n = struct.unpack("<II", data[i:i + 8])
            self.chunks.append((at, data[i + 8:i + 8 + n]))
            i += 8 + n
        self.pending = b""  # arrived, not yet read
        self.intr = 3

    def _arrive(self):
        """Everything due by now joins the pending bytes."""
        while self.chunks and self.chunks[0][0] <= self.now:
            self.pending += self.chunks.pop(0)[1]
            self._interrupts()

    def _interrupts(self):
        at = self.pending.find(b"\x03") if self.intr == 3 else -1
        if at >= 0:
            self.pending = self.pending[at + 1:]
            raise KeyboardInterrupt

    def wait(self, timeout_ms):
        """True when bytes are waiting, moving the clock up to ``timeout_ms`` (None: for ever)."""
        self._arrive()
        if self.pending:
            return True
        if not self.chunks:  # the host has nothing more to say: the run ends here
            raise TapeEnd
        due = self.chunks[0][0]
        if timeout_ms is not None and due > self.now + timeout_ms:
            self.now += timeout_ms
            return False
        self.now = max(self.now, due)
        self._arrive()
        return bool(self.pending)

    def read(self, n):
        while len(self.pending) < n:  # block until the host's next bytes come
            if not self.chunks:
                raise TapeEnd
            self.now = max(self.now, self.chunks[0][0])
            self._arrive()
        out, self.pending = self.pending[:n], self.pending[n:]
        return out


class Stdin:
    def __init__(self, usb):
        self.buffer = self
        self.usb = usb

    def read(self, n):
        return self.usb.read(n)


class Stdout:
    def __init__(self):
        self.buffer = self

    def write(self, data):
        print("REPLY", _hex(data))
        return len(data)


class Poll:
    def __init__(self, usb):
        self.usb = usb
        self.registered = []

    def register(self, stream, mask=1):
        self.registered.append(stream)

    def poll(self, timeout_ms=-1):
        if not self.registered:
            raise OSError("nothing registered")
        ready = self.usb.wait(None if timeout_ms < 0 else timeout_ms)
        return [(self.registered[0], 1)] if ready else []


class Module:
    """A module object from a dict of members."""

    def __init__(self, name, members):
        self.__name__ = name
        for key in members:
            setattr(self, key, members[key])


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, n, mode=-1):
        self.n = n
        print("PIN", n)


class NeoPixel:
    """MicroPython's ``neopixel.NeoPixel``: ``buf`` holds the strip's bytes in its order (GRB for
    the default ``bpp=3``); ``write()`` sends them (here: prints them)."""

    def __init__(self, pin, n, bpp=3, timing=1):
        if not isinstance(pin, Pin):
            raise TypeError("pin must be a machine.Pin")
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)

    def write(self):
        print("LED", _hex(self.buf))


def install(usb, honour_kbd_intr=True):
    """Put the stand-ins where ``import`` finds them first (``honour_kbd_intr`` False: Ctrl-C stays
    on whatever the program asks)."""

    def kbd_intr(c):
        print("KBD", c)
        if honour_kbd_intr:
            usb.intr = c
            _micropython.kbd_intr(c)

    def ticks_ms():
        return usb.now

    modules = _real_sys.modules
    modules["machine"] = Module("machine", {"Pin": Pin})
    modules["neopixel"] = Module("neopixel", {"NeoPixel": NeoPixel})
    modules["select"] = Module("select", {"poll": lambda: Poll(usb), "POLLIN": 1})
    modules["micropython"] = Module("micropython", {"kbd_intr": kbd_intr,
                                                    "const": _micropython.const})
    modules["time"] = Module("time", {"ticks_ms": ticks_ms, "ticks_diff": _time.ticks_diff,
                                      "ticks_add": _time.ticks_add})
    modules["sys"] = Module("sys", {"stdin": Stdin(usb), "stdout": Stdout(),
                                    "implementation": _real_sys.implementation,
                                    "modules": modules, "path": _real_sys.path})


def run(tape, honour_kbd_intr=True):
    usb = Usb(tape)
    install(usb, honour_kbd_intr)
    try:
        import main

        main.run()
        why = "quit"
    except TapeEnd:
        why = "tape"
    except KeyboardInterrupt:
        why = "KeyboardInterrupt"
    except Exception as exc:
        why = "error " + type(exc).__name__ + ": " + str(exc)
    print("END", why, "at", usb.now)
