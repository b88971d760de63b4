"""The board model's fittings: screws clear of every cut-out, keys across the seams between the
rows, and the camera mast's height from the fields of view."""

from __future__ import annotations

import math

import pytest

from firmware.layout import BoardLayout
from firmware.mast import CAMERAS, MastSpec, camera_height, ground_mm_per_px
from firmware.scad import BoardModel

BOARDS = [(2, 1), (3, 1), (2, 2), (3, 2)]


def _inside(x: float, y: float, box: tuple[float, float, float, float], pad: float) -> bool:
    x0, y0, x1, y1 = box
    return x0 - pad < x < x1 + pad and y0 - pad < y < y1 + pad


@pytest.mark.parametrize(("tracks", "laps"), BOARDS)
def test_screws_miss_every_cut_out_and_hole(tracks: int, laps: int) -> None:
    model = BoardModel(BoardLayout.standard(tracks=tracks, laps=laps))
    screws = model.screws()
    assert len(screws) >= 8
    r = model.spec.pilot / 2
    for x, y in screws:
        assert r + 2 < x < model.width - r - 2 and r + 2 < y < model.height - r - 2
        assert not any(_inside(x, y, box, r) for box in model.keep_out())
        for hx, hy in model.holes():
            assert math.dist((x, y), (hx, hy)) > r + model.layout.geometry.hole_diameter / 2 + 1
        for t in model.deck_tiles() + model.lid_tiles():
            for edge in (t.x0, t.x1):
                assert edge in (0, model.width) or abs(x - edge) >= 12
    # every deck tile and lid piece is held by a screw
    for t in model.deck_tiles() + model.lid_tiles():
        assert any(t.x0 < x < t.x1 and t.y0 < y < t.y1 for x, y in screws), t.name


@pytest.mark.parametrize(("tracks", "laps"), BOARDS)
def test_keys_cross_the_seams_between_channels(tracks: int, laps: int) -> None:
    model = BoardModel(BoardLayout.standard(tracks=tracks, laps=laps))
    tiles = model.deck_tiles()
    seams_x = {t.x0 for t in tiles if t.x0 > 0}
    seams_y = {t.y0 for t in tiles if t.y0 > 0}
    keys = model.keys()
    assert len(keys) >= 2 * (len(seams_x) + len(seams_y))
    length, width, _ = model.spec.key
    half = model._channel_half()
    for x, y, angle in keys:
        assert x in seams_x if angle == 0 else y in seams_y
        dx, dy = (length / 2, width / 2) if angle == 0 else (width / 2, length / 2)
        for x0, x1, row_y in model.rows():  # no key pocket opens into a strip channel
            assert not (x0 < x + dx and x - dx < x1 and abs(row_y - y) < half + dy)


def test_camera_height_from_the_fields_of_view() -> None:
    mast = MastSpec()
    for name, (hfov, vfov, width_px, _) in CAMERAS.items():
        h = mast.height(name)
        seen_w = 2 * h * math.tan(math.radians(hfov) / 2)
        seen_h = 2 * h * math.tan(math.radians(vfov) / 2)
        assert seen_w >= mast.area_w * 1.05 - 1e-6 and seen_h >= mast.area_h * 1.05 - 1e-6
        assert min(seen_w / mast.area_w, seen_h / mast.area_h) == pytest.approx(1.05)
        assert ground_mm_per_px(h, hfov, width_px) < 0.25  # a card's corner index is ~100 px tall
    assert round(mast.height("wide")) == 397 and round(mast.height("standard")) == 702
    assert mast.post_length("wide") < mast.post_length("standard")
    with pytest.raises(ValueError):
        camera_height(0, 10, 60, 40)
    with pytest.raises(ValueError):
        camera_height(10, 10, 180, 40)


def test_mast_sizes_reach_the_scad_file() -> None:
    source = BoardModel(BoardLayout.standard(tracks=2)).scad("mast-clamp")
    mast = MastSpec()
    assert f"POST = {mast.post_length('wide')};" in source and f"ARM = {mast.arm_length()};" in source
