"""The Camera tab names the game the camera follows, not the game the page shows (issue 37,
defect 7): with game 1 (Nora v Sam) viewed and the camera on game 2 (Ann v Bob), the zones read
Ann and Bob and the status says which game it follows. Chromium at 390x844 and 844x390.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browserkit import open_page, start_server, stop_server
from PIL import Image
from test_web_browser import expect

from cribbage.gamelog import GameStore

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("camera-game")
    frames = root / "frames"
    frames.mkdir()
    for k in range(3):  # an empty green table
        Image.new("RGB", (640, 360), (20, 90, 40)).save(frames / f"{k:03d}.jpg")
    data = root / "data"
    data.mkdir()
    with GameStore(data / "games.sqlite3") as store:
        store.new_game({"players": "Nora,Sam"})
        newest = store.new_game({"players": "Ann,Bob"})
        store.apply(newest, {"type": "dealer", "seat": "A"}, source="page")
    proc, url = start_server(data, "--leds", "none", "--camera", f"frames:{frames}")
    yield url
    stop_server(proc)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390)])
def test_the_camera_tab_names_the_followed_game_while_another_is_viewed(
        browser: Any, server: str, width: int, height: int) -> None:
    page = open_page(browser, server + "games/1", width, height)
    try:
        expect(page.locator("#viewing")).to_contain_text("Viewing game 1")
        page.click("#tabs >> text=Camera")
        state = page.locator("#cam-state")
        expect(state).to_contain_text("following Ann v Bob (game 2, not the one shown)")
        labels = page.locator("#cam-zones .zone .label")
        expect(labels.first).to_be_attached()
        texts = labels.all_inner_texts()
        assert "Ann" in texts and "Bob" in texts, texts
        assert not {"Nora", "Sam"} & set(texts), texts
        page.click("#tabs >> text=Table")
        page.click("#viewing button")  # back to the latest: the camera's own game
        page.click("#tabs >> text=Camera")
        expect(state).to_contain_text("following this game")
        assert page.errors == [], page.errors
    finally:
        page.context.close()
