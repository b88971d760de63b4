"""``crib leds test --output pico:PORT`` end to end: the command, pyserial, and the firmware's own
program on the other side of a pseudo-terminal."""

from __future__ import annotations

import json
import os
import select
import threading
import time

import pytest

from companion.cli import main
from firmware.layout import BoardLayout
from firmware.pico.main import FakeStrip, Firmware, serve
from firmware.selftest import selftest_frames

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


def test_selftest_reaches_the_firmware(capsys: pytest.CaptureFixture) -> None:
    master, slave = os.openpty()
    strip = FakeStrip(244)
    fw = Firmware(strip, clock=lambda: int(time.monotonic() * 1000),
                  write=lambda data: os.write(master, data))
    stop = threading.Event()

    def read(wanted: int, timeout_ms: int) -> bytes:
        ready, _, _ = select.select([master], [], [], timeout_ms / 1000)
        return os.read(master, wanted) if ready else b""

    thread = threading.Thread(target=serve, args=(fw, read, stop.is_set), daemon=True)
    thread.start()
    try:
        status = main(["leds", "test", "--output", f"pico:{os.ttyname(slave)}", "--tracks", "2",
                       "--fps", "1000", "--json"])
        out = json.loads(capsys.readouterr().out)
        assert status == 0 and out["output"] == "pico" and out["leds"] == 244
        deadline = time.monotonic() + 5
        while fw.good < out["frames"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert fw.good == out["frames"] == 251
        assert fw.parser.crc_errors == 0 and fw.stale == 0
        # exactly the self-test pattern, in order, ending dark
        expected = [bytes(f.pixels) for f in selftest_frames(BoardLayout.standard(tracks=2))]
        assert strip.shown == expected and expected[-1] == bytes(3 * 244)
    finally:
        stop.set()
        thread.join(2)
        os.close(master)
        os.close(slave)
