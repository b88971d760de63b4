"""The Camera tab says where the seats come from: found from the cards (``crib serve`` with no
zones saved, or ``--zones auto``), in real Chromium at 390×844 with a real camera service."""

from __future__ import annotations

import json
from pathlib import Path

from browserkit import phone_page
from test_web_setup_browser import expect, serve

from vision.track.zones import Zones


def test_the_camera_tab_says_the_seats_are_still_to_find(tmp_path: Path) -> None:
    from vision.synth.setup_frames import good_frame

    frame = good_frame(3, "procedural-7", "wood_light")[0]
    with serve(tmp_path, [frame] * 3) as url, phone_page(url) as page:
        page.click('#tabs a[data-tab="camera"]')
        expect(page.locator("#cam-seats")).to_have_text("Seats: found from the first card of the play")


def test_zones_saved_say_nothing_of_seats(tmp_path: Path) -> None:
    from vision.synth.setup_frames import good_frame

    (tmp_path / "zones.json").write_text(json.dumps(Zones.default(2).to_json()))
    frame = good_frame(3, "procedural-7", "wood_light")[0]
    with serve(tmp_path, [frame] * 3) as url, phone_page(url) as page:
        page.click('#tabs a[data-tab="camera"]')
        expect(page.locator("#cam-expect")).not_to_have_text("–")
        expect(page.locator("#cam-seats")).to_be_hidden()
