"""``crib serve`` on 127.0.0.1 says the address is for this computer, and how to let phones in."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from browserkit import stop_server


def test_a_localhost_server_says_how_to_let_phones_in(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", "0",
         "--data", str(tmp_path / "data"), "--leds", "none"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    try:
        first = proc.stdout.readline()  # printed once it listens
        second = proc.stdout.readline()  # printed with it, before the server waits for requests
    finally:
        stop_server(proc)
    assert re.search(r"open (http://127\.0\.0\.1:\d+/)", first), first  # as browserkit reads it
    assert "phone" not in first and "this computer's browser" in first
    assert "crib serve --host 0.0.0.0" in second and "make run HOST=0.0.0.0" in second
