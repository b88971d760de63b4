"""The Pico's program run in MicroPython's own interpreter, fed the bytes ``crib serve`` sends.

MicroPython's WebAssembly port (npm ``@micropython/micropython-webassembly-pyscript``) runs
``firmware/pico/main.py`` unchanged under node, with the stand-ins of ``micropython/board.py`` for
``machine``, ``neopixel`` and the USB serial (see its docstring: the clock moves only while the
program waits, ``read`` blocks until its bytes come, a 0x03 interrupts unless ``kbd_intr(-1)``).
The host's side is the companion's own: :class:`firmware.outputs.pico.PicoOutput` writing to a
recorder, frames drawn by :func:`firmware.render.render_frame` for the 366-LED board.

Install the port once (``.ci/run`` does it when npm is there; without it these tests skip)::

    npm install --prefix firmware/.mpy-wasm --no-save @micropython/micropython-webassembly-pyscript@1.27.0
"""

from __future__ import annotations

import shutil
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

import firmware.pico
from firmware.layout import BoardLayout
from firmware.outputs.pico import PicoOutput, packet
from firmware.pico.main import IDLE_MS, LEDS, idle_frame
from firmware.render import Frame, render_frame

ROOT = Path(__file__).parents[2]
PORT = (ROOT / "firmware/.mpy-wasm/node_modules/@micropython/micropython-webassembly-pyscript"
        / "micropython.mjs")
RUNNER = Path(__file__).parent / "micropython" / "run_pico.mjs"
NODE = shutil.which("node")
INSTALL = ("npm install --prefix firmware/.mpy-wasm --no-save "
           "@micropython/micropython-webassembly-pyscript@1.27.0")
pytestmark = [
    pytest.mark.skipif(NODE is None, reason="node is not installed (apt-get install nodejs npm)"),
    pytest.mark.skipif(not PORT.is_file(),
                       reason=f"MicroPython's WebAssembly port is not installed: {INSTALL}"),
]


class Recorder:
    """A serial port that keeps each write: what the Pico would receive, packet by packet."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.writes.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def reset_input_buffer(self) -> None:
        pass

    def read(self, n: int) -> bytes:
        return b""

    in_waiting = 0


@dataclass
class Run:
    leds: list[bytes]  # the strip's bytes (GRB) at each NeoPixel.write()
    replies: list[bytes]
    kbd: list[int]
    pins: list[int]
    end: str

    def counters(self) -> str:
        """The last ``V`` reply's words (``cribpeg 1.0 leds=.. good=.. crc=..``)."""
        assert self.replies, "no reply"
        return self.replies[-1][7:-4].decode()


def run_pico(tape: list[tuple[int, bytes]], tmp_path: Path, *, honour_kbd_intr: bool = True) -> Run:
    """Run ``main.run()`` in MicroPython on the host bytes of ``tape`` ((arrival ms, bytes))."""
    path = tmp_path / "tape.bin"
    path.write_bytes(b"".join(struct.pack("<II", at, len(b)) + b for at, b in tape))
    argv = [str(NODE), str(RUNNER), str(PORT), str(Path(firmware.pico.__file__).parent), str(path)]
    if not honour_kbd_intr:
        argv.append("keep-ctrl-c")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    out = Run([], [], [], [], "")
    for line in done.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word == "LED":
            out.leds.append(bytes.fromhex(rest))
        elif word == "REPLY":
            out.replies.append(bytes.fromhex(rest))
        elif word == "KBD":
            out.kbd.append(int(rest))
        elif word == "PIN":
            out.pins.append(int(rest))
        elif word == "END":
            out.end = rest
    assert out.end, f"the run did not finish: {done.stdout[-500:]} {done.stderr[-2000:]}"
    return out


def grb(pixels: bytes) -> bytes:
    """The strip's bytes for R, G, B pixels (a WS2812B takes green first), LEDS long."""
    out = bytearray(3 * LEDS)
    for i in range(0, min(len(pixels), 3 * LEDS), 3):
        out[i], out[i + 1], out[i + 2] = pixels[i + 1], pixels[i], pixels[i + 2]
    return bytes(out)


def board_frames(count: int) -> list[Frame]:
    """Frames as ``crib serve`` draws them on the three-track board: pegs moving up."""
    layout = BoardLayout.standard(tracks=3)
    assert layout.led_count == LEDS
    return [render_frame(layout, {"A": (5 * s + 3, 5 * s), "B": (4 * s + 2, 4 * s),
                                  "C": (s + 1, s)}) for s in range(1, count + 1)]


def host_writes(frames: list[Frame], quit: bool = True) -> list[bytes]:
    """What the companion writes: a ping with its LED count, each frame, then ``Q`` (release)."""
    port = Recorder()
    host = PicoOutput("recorder", LEDS, ping=False, serial_port=port)
    assert host.ping(timeout=0) is None
    for frame in frames:
        host.show(frame)
    if quit:
        host.release()
    return port.writes


def spaced(writes: list[bytes], gap_ms: int = 50) -> list[tuple[int, bytes]]:
    return [(i * gap_ms, data) for i, data in enumerate(writes)]


def ping() -> bytes:
    return packet(ord("P"), 0, struct.pack("<H", LEDS))


def test_the_frames_crib_serve_sends_light_the_strip(tmp_path: Path) -> None:
    frames = board_frames(3)
    run = run_pico(spaced(host_writes(frames)), tmp_path)
    assert run.end.startswith("quit")
    assert run.pins == [0]
    assert run.kbd == [-1, 3]  # Ctrl-C off while the loop runs, back on when it leaves
    blank = bytes(3 * LEDS)
    assert run.leds == [blank] + [grb(f.pixels) for f in frames]
    assert all(any(f.pixels) for f in frames) and len({bytes(f.pixels) for f in frames}) == 3
    reply = run.counters()
    assert reply.startswith(f"cribpeg 1.0 leds={LEDS} good=0 crc=0") and reply.endswith(f"host={LEDS}")


def test_a_corrupted_frame_is_dropped_and_the_next_one_shown(tmp_path: Path) -> None:
    frames = board_frames(3)
    writes = host_writes(frames, quit=False)
    bad = bytearray(writes[2])  # [ping, frame 1, frame 2, frame 3]
    bad[100] ^= 0x5A
    writes[2] = bytes(bad)
    run = run_pico(spaced([*writes, ping()]), tmp_path)
    assert run.leds == [bytes(3 * LEDS), grb(frames[0].pixels), grb(frames[2].pixels)]
    assert " good=2 crc=1 " in run.counters()
    assert run.end.startswith("tape")


def test_a_frame_cut_short_costs_that_frame_only(tmp_path: Path) -> None:
    frames = board_frames(3)
    writes = host_writes(frames, quit=False)
    writes[2] = writes[2][:500]  # the host stopped mid-frame; frame 3 comes a second later
    tape = [(0, writes[0]), (50, writes[1]), (100, writes[2]), (1100, writes[3]), (1200, ping())]
    run = run_pico(tape, tmp_path)
    assert run.leds == [bytes(3 * LEDS), grb(frames[0].pixels), grb(frames[2].pixels)]
    assert " good=2 " in run.counters()


def test_a_frame_cut_short_with_nothing_after_keeps_the_last_frame(tmp_path: Path) -> None:
    frames = board_frames(2)
    writes = host_writes(frames, quit=False)
    run = run_pico(spaced([writes[0], writes[1], writes[2][:300]]), tmp_path)
    assert run.leds == [bytes(3 * LEDS), grb(frames[0].pixels)]
    assert run.end.startswith("tape")  # still waiting for the rest, the strip unchanged


def ctrl_c_frame() -> Frame:
    frame = Frame.blank(LEDS)
    for i in range(0, LEDS, 3):
        frame.set(i, (3, 3, 3))
        frame.set(i + 1, (3, 200, 0))
    return frame


def test_ctrl_c_bytes_in_a_frame_are_light_not_an_interrupt(tmp_path: Path) -> None:
    frame = ctrl_c_frame()
    writes = host_writes([frame])
    assert writes[1].count(3) > 200
    run = run_pico(spaced(writes), tmp_path)
    assert run.end.startswith("quit")
    assert run.leds[-1] == grb(frame.pixels)


def test_the_stand_in_interrupts_on_ctrl_c_when_it_is_on(tmp_path: Path) -> None:
    """The check above has teeth: with Ctrl-C left on, the same frame stops the program."""
    run = run_pico(spaced(host_writes([ctrl_c_frame()])), tmp_path, honour_kbd_intr=False)
    assert run.end.startswith("KeyboardInterrupt")
    assert len(run.leds) == 1  # only the blank strip at start


def test_a_silent_host_gets_the_idle_pattern_then_the_frame_back(tmp_path: Path) -> None:
    frames = board_frames(1)
    writes = host_writes(frames, quit=False)
    quiet = IDLE_MS + 400
    run = run_pico([(0, writes[0]), (10, writes[1]), (quiet, ping()),
                    (quiet + 10, packet(ord("Q"), 0, b""))], tmp_path)
    shown = run.leds[2:]
    steps = [idle_frame(frames[0].pixels, LEDS, k) for k in range(len(shown) - 1)]
    assert len(shown) >= 3
    assert shown[:-1] == [grb(s) for s in steps]
    assert shown[-1] == grb(frames[0].pixels)  # the ping: the host is back
    assert run.end.startswith("quit")
