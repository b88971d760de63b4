"""Settings shared by every test folder.

Hypothesis runs a fixed, derandomised set of examples under CI (``CI`` set, as ``.ci/run``
is called), so a red CI always means a reproducible failure; on a developer's machine it
explores new examples each run and keeps failures in ``.hypothesis/``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def pytest_collection_finish(session: pytest.Session) -> None:
    """On a machine that has not rendered the deal videos the tracker's tests follow, render
    them beside the tests (``python -m vision.synth.golden --prerender``), on the second core
    while the first runs the tests before them; a test that needs a video still being rendered
    waits for it (a file lock), then reads it."""
    if not any("tests/track/" in item.nodeid and item.get_closest_marker("slow") for item in session.items):
        return
    global _prerender
    _prerender = subprocess.Popen([sys.executable, "-m", "vision.synth.golden", "--prerender"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _prerender is not None and _prerender.poll() is None:
        _prerender.terminate()
        _prerender.wait(timeout=30)


_prerender: subprocess.Popen[bytes] | None = None
