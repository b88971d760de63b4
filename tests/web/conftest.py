"""Fixtures for the page: a real companion (SQLite store in a temporary folder) and Flask's
test client with the session's CSRF token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from webhelpers import Api

from companion.service import Companion
from cribbage.gamelog import GameStore
from web import create_app


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Companion]:
    table = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    yield table
    table.close()


@pytest.fixture
def sim_companion(tmp_path: Path) -> Iterator[Companion]:
    table = Companion(GameStore(tmp_path / "games.sqlite3"), leds="sim")
    yield table
    table.close()


@pytest.fixture
def app(companion: Companion, tmp_path: Path) -> Flask:
    return create_app(companion, {"DATA_DIR": tmp_path, "TESTING": True})


@pytest.fixture
def api(app: Flask) -> Api:
    return Api(app.test_client())


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say clearly when the browser tests did not run."""
    from browserkit import chromium_path

    if chromium_path() is None:
        terminalreporter.write_line(
            "browser tests SKIPPED: Chromium not found (apt-get install -y chromium); "
            "the page was tested with Flask's test client only",
            yellow=True, bold=True,
        )


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium driven by Playwright, for a module of browser tests (each module skips
    itself first when Chromium or Playwright is missing)."""
    from browserkit import CHROMIUM_ARGS, chromium_path
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``crib serve`` (no LEDs) on a fresh data folder, for a module of browser tests."""
    from browserkit import start_server, stop_server

    proc, url = start_server(tmp_path_factory.mktemp(request.module.__name__), "--leds", "none")
    yield url
    stop_server(proc)


@pytest.fixture
def page(browser: object, server: str) -> Iterator[object]:
    """The page on a 390x844 phone; the test fails on any script error."""
    from browserkit import open_page

    page = open_page(browser, server)
    yield page
    errors = page.errors
    page.context.close()
    assert errors == [], errors


@pytest.fixture(params=[(390, 844), (844, 390)], ids=["390x844", "844x390"])
def phone(request: pytest.FixtureRequest, browser: object, server: str) -> Iterator[object]:
    """The page on a phone held upright (390x844) and on its side (844x390); the test fails on
    any script error."""
    from browserkit import open_page

    page = open_page(browser, server, *request.param)
    yield page
    errors = page.errors
    page.context.close()
    assert errors == [], errors
