"""Helpers for the browser tests and the benchmark: find Chromium, run ``crib serve`` (or the app
on waitress in this process), open a phone's page."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

TIMEOUT = 10_000  # ms: generous for a shared two-core machine; speed is in the benchmark

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def chromium_path() -> str | None:
    """Debian's Chromium (``apt-get install chromium``), or None when it is not installed.

    ``CHROMIUM=/path`` picks another binary; ``CHROMIUM=none`` skips the browser tests.
    """
    if os.environ.get("CHROMIUM") == "none":
        return None
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def spawn_server(
    data: Path, *args: str, host: str = "127.0.0.1", stderr: int = subprocess.DEVNULL
) -> subprocess.Popen[str]:
    """``crib serve --host HOST`` on a free port in a subprocess, its lines on ``proc.stdout``
    (the first printed once it listens)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--host", host, "--port", "0",
         "--data", str(data), *args],
        stdout=subprocess.PIPE, stderr=stderr, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    return proc


def start_server(
    data: Path, *args: str, stderr: int = subprocess.DEVNULL
) -> tuple[subprocess.Popen[str], str]:
    """``crib serve`` on 127.0.0.1, a free port, in a subprocess; returns it and its address.

    ``stderr=subprocess.PIPE`` keeps its log for the test to read.
    """
    proc = spawn_server(data, *args, stderr=stderr)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"open (http://127\.0\.0\.1:\d+/)", line)
    if not match:
        proc.kill()
        log = proc.stderr.read() if proc.stderr is not None else ""
        raise RuntimeError(f"crib serve did not start: {line!r} {log}")
    return proc, match.group(1)


def stop_server(proc: subprocess.Popen[str]) -> int:
    """Stop it as systemd would (SIGTERM); kill it if it does not stop in 15 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            return proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
    return proc.wait(5)


def open_page(browser: Any, server: str, width: int = 390, height: int = 844) -> Any:
    """A page of ``server`` in a fresh context at a phone's size; script errors are collected
    in ``page.errors``."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(server)
    page.wait_for_load_state("load")
    return page


@contextmanager
def served_in_process(app: Any, threads: int = 6) -> Iterator[str]:
    """``app`` on waitress in this process (a real server, on a free port), for tests that hold
    the companion or its camera in hand; yields its address. On leaving, the live streams end
    first (as ``crib serve`` ends them), then the server."""
    from waitress import create_server

    server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    stop = threading.Event()

    def run() -> None:  # waitress's loop, stoppable: close() belongs to the loop's thread
        while not stop.is_set():
            server.asyncore.loop(timeout=0.1, map=server._map, count=1)
        server.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}/"
    finally:
        hub = app.extensions["crib"].hub
        hub.close_all()
        deadline = time.monotonic() + 3
        while hub.open_streams and time.monotonic() < deadline:
            time.sleep(0.05)
        stop.set()
        thread.join(5)


@contextmanager
def phone_page(url: str, size: tuple[int, int] = (390, 844)) -> Iterator[Any]:
    """Chromium at 390x844 (touch; or ``size``, say a phone on its side, 844x390) on ``url``, once
    its live stream is up; no script error may happen while it is open."""
    import pytest

    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="browser tests skipped: pip install playwright")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        context = chromium.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url)
        sync_api.expect(page.locator("#live")).to_have_text("live")
        yield page
        context.close()
        chromium.close()
        assert errors == [], errors
