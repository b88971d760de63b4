"""The OpenSCAD model generated from the layout; where openscad is installed, the STL it makes:
a closed mesh whose light-pipe holes are as many as the LEDs and sit at the layout's places."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from firmware.layout import BoardLayout
from firmware.scad import BED, BoardModel, hole_area

OPENSCAD = shutil.which("openscad")
needs_openscad = pytest.mark.skipif(
    OPENSCAD is None, reason="openscad is not installed (apt-get install -y openscad)")

SMALL = BoardLayout.standard(tracks=2, laps=2)  # 124 LEDs: renders in seconds
FN = 8


def scad_holes(source: str) -> list[tuple[float, float]]:
    match = re.search(r"^holes = (\[.*?\]);", source, re.M)
    assert match, "the model lists its holes"
    return [tuple(p) for p in eval(match.group(1))]  # a list of number pairs


@pytest.mark.parametrize(("tracks", "laps"), [(2, 1), (3, 1), (2, 2), (3, 2)])
def test_model_holes_are_the_layouts_leds(tracks: int, laps: int) -> None:
    layout = BoardLayout.standard(tracks=tracks, laps=laps)
    model = BoardModel(layout)
    holes = scad_holes(model.scad())
    assert len(holes) == layout.led_count
    by_led = sorted(layout.holes, key=lambda h: h.led)
    for (x, y), hole in zip(holes, by_led, strict=True):
        assert x == pytest.approx(hole.x, abs=1e-3)
        assert y == pytest.approx(layout.height - hole.y, abs=1e-3)  # OpenSCAD's y points up


@pytest.mark.parametrize(("tracks", "laps"), [(2, 1), (3, 1), (2, 2), (3, 2)])
def test_every_part_fits_the_bed(tracks: int, laps: int) -> None:
    model = BoardModel(BoardLayout.standard(tracks=tracks, laps=laps))
    for tile in model.deck_tiles() + model.lid_tiles():
        assert max(tile.size) <= BED - 5, tile
    for part in model.parts():
        assert f'part = "{part}"' in model.scad(part)
    with pytest.raises(ValueError):
        model.scad("teapot")


def test_crib_board_scad_writes_the_model(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "board.scad"
    assert main(["board", "scad", "--out", str(out), "--tracks", "2"]) == 0
    assert len(scad_holes(out.read_text())) == 244
    assert main(["board", "scad", "--out", str(tmp_path / "no" / "x.scad")]) == 2
    assert main(["board", "scad", "--out", str(out), "--part", "teapot"]) == 2
    assert capsys.readouterr().err.count("\n") == 2


# ---------------------------------------------------------------- the STL, where openscad is
def read_stl(path: Path) -> np.ndarray:
    """Triangles (n, 3, 3) of an ASCII or binary STL."""
    data = path.read_bytes()
    if data[:5] == b"solid" and b"facet" in data[:400]:
        nums = re.findall(rb"vertex\s+(\S+)\s+(\S+)\s+(\S+)", data)
        return np.array(nums, dtype=float).reshape(-1, 3, 3)
    count = int.from_bytes(data[80:84], "little")
    rec = np.frombuffer(data, dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)),
                                              ("a", "<u2")]), count=count, offset=84)
    return rec["v"].astype(float)


def closed_mesh(tris: np.ndarray) -> bool:
    """Every edge is shared by exactly two faces, once in each direction."""
    keys = {tuple(v): i for i, v in enumerate(np.unique(tris.reshape(-1, 3).round(5), axis=0))}
    idx = np.array([[keys[tuple(v)] for v in t] for t in tris.round(5)])
    directed = Counter()
    for a, b, c in idx:
        for e in ((a, b), (b, c), (c, a)):
            directed[e] += 1
    return all(n == 1 and directed.get((b, a)) == 1 for (a, b), n in directed.items())


def section_loops(tris: np.ndarray, z: float) -> list[np.ndarray]:
    """The closed polylines where the plane at height ``z`` cuts the mesh."""
    segs = []
    for t in tris:
        d = t[:, 2] - z
        pts = []
        for i in range(3):
            a, b = t[i], t[(i + 1) % 3]
            da, db = d[i], d[(i + 1) % 3]
            if (da < 0) != (db < 0):
                s = da / (da - db)
                pts.append(a[:2] + s * (b[:2] - a[:2]))
        if len(pts) == 2:
            segs.append(pts)
    key = lambda p: (round(p[0], 4), round(p[1], 4))  # noqa: E731
    nxt: dict = {}
    for a, b in segs:
        nxt.setdefault(key(a), []).append(key(b))
        nxt.setdefault(key(b), []).append(key(a))
    seen, loops = set(), []
    for start in nxt:
        if start in seen:
            continue
        loop, prev, cur = [start], None, start
        seen.add(start)
        while True:
            options = [p for p in nxt[cur] if p != prev]
            if not options:
                break
            prev, cur = cur, options[0]
            if cur == start:
                break
            seen.add(cur)
            loop.append(cur)
        loops.append(np.array(loop))
    return loops


def area_and_centre(loop: np.ndarray) -> tuple[float, np.ndarray]:
    x, y = loop[:, 0], loop[:, 1]
    cross = x * np.roll(y, -1) - np.roll(x, -1) * y
    area = cross.sum() / 2
    cx = ((x + np.roll(x, -1)) * cross).sum() / (6 * area)
    cy = ((y + np.roll(y, -1)) * cross).sum() / (6 * area)
    return abs(area), np.array([cx, cy])


@needs_openscad
@pytest.mark.slow
def test_stl_is_closed_and_has_a_hole_over_every_led(tmp_path: Path) -> None:
    model = BoardModel(SMALL)
    scad = tmp_path / "board.scad"
    scad.write_text(model.scad("board", FN))
    stl = tmp_path / "board.stl"
    run = subprocess.run([OPENSCAD, "-o", str(stl), str(scad)], capture_output=True, text=True,
                         timeout=900, check=False)
    assert run.returncode == 0, run.stderr[-500:]
    tris = read_stl(stl)
    assert len(tris) > 1000
    assert closed_mesh(tris)
    # the section through the top layers: the outline, the button holes and one small
    # polygon for every light-pipe hole, at the layout's position
    z = (model.spec.bottom + model.spec.thickness) / 2  # the top slab: holes and buttons
    want = hole_area(SMALL.geometry.hole_diameter, FN)
    holes = [c for a, c in map(area_and_centre, section_loops(tris, z))
             if abs(a - want) < 0.05 * want]
    assert len(holes) == SMALL.led_count
    expected = np.array([(h.x, SMALL.height - h.y) for h in SMALL.holes])
    found = np.array(holes)
    dist = np.sqrt(((expected[:, None, :] - found[None, :, :]) ** 2).sum(-1))
    assert dist.min(axis=1).max() < 0.01  # every layout hole has a hole in the mesh
    assert dist.min(axis=0).max() < 0.01  # and every small hole in the mesh is a layout hole


@needs_openscad
@pytest.mark.slow
def test_crib_board_stl_renders_a_part(tmp_path: Path) -> None:
    out = tmp_path / "key.stl"
    assert main(["board", "stl", "--part", "key", "--out", str(out), "--fn", "8"]) == 0
    tris = read_stl(out)
    assert len(tris) > 10 and closed_mesh(tris)


def test_crib_board_stl_without_openscad_is_one_line(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture) -> None:
    status = main(["board", "stl", "--out", str(tmp_path / "x.stl"),
                   "--openscad", "no-such-openscad"])
    assert status == 2
    assert "openscad not found" in capsys.readouterr().err
