"""The Camera tab's Set-up step in real Chromium at 390×844: a real companion whose camera plays
a ``frames:`` folder of synthetic set-up frames, on waitress in this process. The step's script
is fetched only when its button is pressed; it shows each check with ✓/✗, its advice and a
picture, refreshes about once a second, and ends with "Lay one card in front of each player".
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browserkit import chromium_path, phone_page, served_in_process
from test_web_setup import NAMES, write_frames

from companion.camera import CameraService
from companion.service import Companion
from cribbage.gamelog import GameStore
from web import create_app

CHROMIUM = chromium_path()
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")]


@contextmanager
def serve(tmp_path: Path, frames: list[Any], folder_name: str = "frames") -> Iterator[str]:
    """The app on waitress (a real server) with a camera looping over ``frames`` at 10 frames/s."""
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    folder = write_frames(tmp_path / folder_name, frames)
    camera = CameraService(companion, f"frames:{folder}", tmp_path, realtime=True, loop=True)
    companion.attach_camera(camera)
    camera.start()
    app = create_app(companion, {"DATA_DIR": tmp_path, "SSE_HEARTBEAT": 1.0})
    try:
        with served_in_process(app) as url:
            yield url
    finally:
        companion.close()


def expect(locator: Any) -> Any:
    return pytest.importorskip("playwright.sync_api").expect(locator)


@pytest.fixture(scope="module")
def good() -> Any:
    from vision.synth.setup_frames import good_frame

    return good_frame(3, "procedural-7", "wood_light")[0]


@pytest.fixture
def good_page(tmp_path: Path, good: Any) -> Iterator[Any]:
    with serve(tmp_path, [good] * 3) as url, phone_page(url) as page:
        yield page


@pytest.fixture
def dark_page(tmp_path: Path, good: Any) -> Iterator[Any]:
    from vision.synth.setup_frames import too_dark

    with serve(tmp_path, [too_dark(good, 0.12, seed=k) for k in range(3)]) as url, phone_page(url) as page:
        yield page


def open_setup(page: Any) -> Any:
    page.click('#tabs a[data-tab="camera"]')
    button = page.locator("#cam-setup-open")
    expect(button).to_have_text("Set up the camera")
    assert page.locator('script[src$="/setup.js"]').count() == 0  # not fetched until pressed
    button.click()
    step = page.locator("#cam-setup")
    expect(step).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    return step


def test_the_set_up_step_shows_the_checks_live_and_ends_with_laying_the_cards(good_page: Any) -> None:
    page = good_page
    step = open_setup(page)
    checks = step.locator("#setup-checks li")
    expect(checks).to_have_count(len(NAMES))
    assert [checks.nth(k).get_attribute("data-check") for k in range(len(NAMES))] == NAMES
    expect(page.locator("#setup-verdict")).to_have_text("Ready to play")
    for k in range(len(NAMES)):
        item = checks.nth(k)
        expect(item).to_have_attribute("data-ok", "yes")
        expect(item.locator(".setup-mark")).to_have_text("✓")
        expect(item.locator(".setup-say")).not_to_be_empty()
        expect(item.locator(".setup-pic svg")).to_be_visible()  # the picture of what it means
        box = item.locator(".setup-pic svg").bounding_box()
        assert box["width"] <= 48 and box["height"] <= 48
    expect(checks.nth(0).locator(".setup-say")).to_contain_text("Light is good")
    # the step ends with the cards to lay
    last = step.locator("#setup-last")
    expect(last).to_contain_text("Lay one card in front of each player")
    assert last.bounding_box()["y"] > checks.nth(len(NAMES) - 1).bounding_box()["y"]
    expect(page.locator("#setup-cards")).to_contain_text(re.compile(r"\d+ cards seen"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    # live: asked again about once a second, each time of a newer frame
    frame = int(page.locator("#setup-checks").get_attribute("data-frame"))
    with page.expect_request(re.compile(r"/api/camera/checks$")):
        pass
    expect(page.locator("#setup-checks")).not_to_have_attribute("data-frame", str(frame))
    # Done closes it and the asking stops; the button opens it again
    page.click("#setup-done")
    expect(step).to_be_hidden()
    expect(page.locator("#cam-setup-open")).to_have_attribute("aria-expanded", "false")
    page.click("#cam-setup-open")
    expect(step).to_be_visible()
    expect(checks).to_have_count(len(NAMES))


def test_a_dark_table_says_turn_on_a_lamp(dark_page: Any) -> None:
    page = dark_page
    step = open_setup(page)
    light = step.locator('#setup-checks li[data-check="light"]')
    expect(light).to_have_attribute("data-ok", "no")
    expect(light.locator(".setup-mark")).to_have_text("✗")
    expect(light.locator(".setup-say")).to_contain_text("Too dark: turn on a lamp over the table")
    expect(page.locator("#setup-verdict")).to_contain_text("Fix before the first deal: light on the table")
    expect(step.locator("#setup-last")).to_contain_text("Lay one card in front of each player")


SIZES = [pytest.param((390, 844), id="390x844"), pytest.param((844, 390), id="844x390")]


@pytest.mark.parametrize("size", SIZES)
def test_an_empty_table_shows_the_checks_on_cards_waiting_not_ticked(tmp_path: Path,
                                                                     size: tuple[int, int]) -> None:
    import numpy as np

    from vision.synth.compose import mild, table_image

    rng = np.random.default_rng(9)
    empty = mild(table_image(rng, 720, 1280, "wood_light"), rng)
    with serve(tmp_path, [empty] * 3) as url, phone_page(url, size) as page:
        step = open_setup(page)
        checks = step.locator("#setup-checks li")
        expect(checks).to_have_count(len(NAMES))
        expect(page.locator("#setup-verdict")).to_have_text("Now lay the cards: the checks wait for them")
        waiting = step.locator('#setup-checks li[data-ok="wait"]')
        expect(waiting).to_have_count(6)  # light, focus, distance, glare, contrast, tilt: flicker is judged
        for k in range(6):
            item = waiting.nth(k)
            expect(item.locator(".setup-mark")).to_have_text("…")
            expect(item.locator(".setup-mark")).to_have_attribute("aria-label", "waiting")
            expect(item.locator(".setup-say")).to_contain_text("in front of each player")
        assert step.locator('#setup-checks li[data-ok="no"]').count() == 0
        assert page.locator("#setup-verdict").get_attribute("data-ok") == "wait"
        last = step.locator("#setup-last")
        expect(last).to_have_attribute("data-ok", "no")
        expect(last.locator("#setup-last-mark")).to_have_text("→")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("size", SIZES)
def test_a_blurred_table_says_focus_first_with_no_lens_setting_nor_card_size(tmp_path: Path, good: Any,
                                                                             size: tuple[int, int]) -> None:
    from vision.synth.setup_frames import out_of_focus

    blurred = out_of_focus(good, 0.03 * 130)  # cards ~130 px wide: blurred 3% of their width
    with serve(tmp_path, [blurred] * 3) as url, phone_page(url, size) as page:
        step = open_setup(page)
        focus = step.locator('#setup-checks li[data-check="focus"]')
        expect(focus).to_have_attribute("data-ok", "no")
        expect(focus.locator(".setup-say")).to_contain_text("The picture is blurred")
        expect(focus.locator(".setup-say")).to_contain_text("focus first: turn the lens")
        distance = step.locator('#setup-checks li[data-check="distance"]')
        expect(distance).to_have_attribute("data-ok", "wait")
        expect(distance.locator(".setup-say")).to_contain_text("focus first")
        text = step.inner_text()
        assert "LensPosition" not in text and "lens=" not in text and " cm" not in text, text
        assert "px wide" not in text  # no card size from a blurred picture
        # cards seen but none read: "Lay one card in front of each player" is not ticked
        expect(page.locator("#setup-cards")).to_contain_text(re.compile(r"\d+ cards seen, 0 read"))
        last = step.locator("#setup-last")
        expect(last).to_have_attribute("data-ok", "no")
        expect(last.locator("#setup-last-mark")).to_have_text("→")


@pytest.mark.parametrize("size", SIZES)
def test_the_camera_status_counts_frames_while_open_and_a_long_path_stays_on_screen(
        tmp_path: Path, good: Any, size: tuple[int, int]) -> None:
    folder = "a-folder-of-frames-kept-for-the-table-camera-set-up-on-the-kitchen-table-" * 2
    with serve(tmp_path, [good] * 3, folder_name=folder) as url, phone_page(url, size) as page:
        page.click('#tabs a[data-tab="camera"]')
        state = page.locator("#cam-state")
        expect(state).to_contain_text(re.compile(r"\d+ frames"))
        assert folder[:40] in state.inner_text()  # the source, by its folder's name
        first = int(re.search(r"(\d+) frames", state.inner_text())[1])
        # the count goes on while the tab is open (the stream pushes changes only; the tab asks)
        page.wait_for_function("n => +(/(\\d+) frames/.exec(document.querySelector('#cam-state').textContent)"
                               " || [0, 0])[1] > n + 5", arg=first)
        box = state.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 1, box  # wrapped, not off the screen
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_without_the_stream_the_camera_tab_asks_its_status_once_every_2_s(tmp_path: Path, good: Any) -> None:
    """Polling (no live stream), camera-watch.js asks GET /api/camera every 2 s: the Camera tab's
    snapshot loop does not ask a second time."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from browserkit import CHROMIUM_ARGS, TIMEOUT

    with serve(tmp_path, [good] * 3) as url, sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.set_default_timeout(TIMEOUT)
        page.route("**/api/stream*", lambda route: route.abort())
        asked: list[tuple[str, float]] = []
        page.on("request", lambda r: asked.append((r.url.split("?")[0].removeprefix(url.rstrip("/")),
                                                   time.monotonic())))
        page.goto(url)
        expect(page.locator("#live")).to_have_text("polling")
        page.click('#tabs a[data-tab="camera"]')
        snapshots = lambda: [t for path, t in asked if path == "/api/camera/snapshot.jpg"]  # noqa: E731
        page.wait_for_function("() => document.querySelector('#cam-img').src.startsWith('blob:')")
        while len(snapshots()) < 20:  # about ten seconds of the tab: the snapshot every 0.5 s
            page.wait_for_event("request", predicate=lambda r: "snapshot.jpg" in r.url)
        first, last = snapshots()[1], snapshots()[-1]
        status = [t for path, t in asked if path == "/api/camera" and first <= t <= last]
        assert len(status) <= (last - first) / 2 + 1, (len(status), last - first)
        chromium.close()
