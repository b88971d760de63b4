"""The camera's side of the page: ``/api/camera`` routes with a fake camera on a real companion
(in memory: zones, a flagged list, calls recorded), the live stream's ``camera`` event, and the
Camera tab in real Chromium (skipped, like the other browser tests, without Chromium).
"""

from __future__ import annotations

import io
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import chromium_path, phone_page, served_in_process
from flask import Flask
from webhelpers import DEAL, Api

from companion.service import Companion
from cribbage.errors import CribbageError
from cribbage.gamelog import GameStore
from web import create_app
from web.ports import CameraPort, camera_of

ZONES = {"players": 2, "centre": [0.30, 0.35, 0.70, 0.65],
         "seats": {"A": [0.0, 0.5, 1.0, 1.0], "B": [0.0, 0.0, 1.0, 0.5]}}


def jpeg(colour: tuple[int, int, int] = (20, 90, 40), size: tuple[int, int] = (640, 480)) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG", quality=70)
    return out.getvalue()


class CameraTable:
    """A real companion plus a fake camera (the :class:`web.ports.CameraPort` methods)."""

    def __init__(self, companion: Companion) -> None:
        self.companion = companion
        self.listeners: list[Any] = []
        self.zones: dict[str, Any] = json.loads(json.dumps(ZONES))
        self.cam_state = {"source": "video:/x/deal.mp4", "state": "running", "error": None,
                      "retries": 0, "frames": 412, "fps": 9.5, "tracker": "watching",
                      "game": None}
        self.flagged: list[dict[str, Any]] = []
        self.snapshot: bytes | None = b"\xff\xd8frame-1"
        self.snapshots_taken = 0
        self.crops: dict[str, bytes] = {"000412-A.jpg": jpeg((200, 200, 200), (96, 128))}
        self.calls: list[tuple[Any, ...]] = []
        self.refuse_with: CribbageError | None = None
        self.kept: dict[int, dict[str, Any]] = {}  # zones saved for another size of table

    def __getattr__(self, name: str) -> Any:  # everything else is the real companion's
        return getattr(self.companion, name)

    def add_listener(self, listener: Any) -> None:
        self.listeners.append(listener)
        self.companion.add_listener(listener)

    def tell(self, **changes: Any) -> None:
        self.cam_state.update(changes)
        for listener in self.listeners:
            listener("camera", self.camera_status())

    # --- CameraPort ---
    def camera_status(self) -> dict[str, Any] | None:
        return {**self.cam_state, "flagged": [dict(f) for f in self.flagged], "zones": self.zones}

    def camera_snapshot(self) -> bytes | None:
        self.snapshots_taken += 1
        return self.snapshot

    def camera_zones(self) -> dict[str, Any]:
        return self.zones

    def set_camera_zones(self, zones: dict[str, Any]) -> dict[str, Any]:
        from vision.track import Zones

        checked = Zones.from_json(zones).to_json()  # ZonesError (a CribbageError): refused
        if checked["players"] != self.zones["players"]:  # another size: kept for it, not used
            self.kept[checked["players"]] = checked
            return {**checked, "in_use": False}
        self.zones = checked
        self.tell()
        return {**self.zones, "in_use": True}

    def resolve_flag(self, flag_id: int, action: str, card: str | None = None,
                     seat: str | None = None) -> dict[str, Any]:
        self.calls.append((flag_id, action, card) if seat is None else (flag_id, action, card, seat))
        flag = next((f for f in self.flagged if f["id"] == flag_id), None)
        if flag is None:
            raise KeyError(flag_id)
        if self.refuse_with is not None:
            raise self.refuse_with
        state: dict[str, Any] = {}
        if action != "dismiss":
            event = dict(flag["event"] or {"type": "play", "card": flag["card"]})
            if seat is not None:
                event["seat"] = seat
            if action == "fix":
                event["card"] = card
            event["seen"] = {"frame": flag["frame"], "confidence": flag["confidence"],
                             "crop": flag["crop"]}
            state = self.companion.apply(self.cam_state["game"], event, source="camera")
        self.flagged.remove(flag)
        self.tell()
        return state

    def camera_crop(self, name: str) -> bytes | None:
        return self.crops.get(name)


def flag(flag_id: int = 3, card: str = "5S", seat: str = "B") -> dict[str, Any]:
    return {"id": flag_id, "frame": 412, "zone": seat, "card": card, "confidence": 0.41,
            "likely": [card, "5C", "6S"], "reason": "below the confidence threshold",
            "crop": "crops/000412-A.jpg", "event": {"type": "play", "seat": seat, "card": card}}


@pytest.fixture
def table(companion: Companion) -> CameraTable:
    return CameraTable(companion)


@pytest.fixture
def cam_app(table: CameraTable, tmp_path: Path) -> Flask:
    return create_app(table, {"DATA_DIR": tmp_path, "TESTING": True})


@pytest.fixture
def cam(cam_app: Flask) -> Api:
    return Api(cam_app.test_client())


def game_at_play(api: Api, table: CameraTable) -> int:
    """A game with Bob dealing and the starter turned: Alice to lead."""
    game = api.new_game()
    for event in DEAL[:2]:
        api.event(game, event)
    table.cam_state["game"] = game
    return game


# --- the port -----------------------------------------------------------------------------


class OldTable:
    """A table from before the camera: every Table method, none of the camera's."""

    def __init__(self, companion: Companion) -> None:
        self.companion = companion

    def __getattr__(self, name: str) -> Any:
        if name.startswith("camera") or name in ("set_camera_zones", "resolve_flag"):
            raise AttributeError(name)
        return getattr(self.companion, name)


def test_a_table_without_the_methods_has_no_camera(companion: Companion, tmp_path: Path) -> None:
    old = OldTable(companion)
    assert camera_of(old) is None
    port: CameraPort | None = camera_of(CameraTable(companion))
    assert port is not None
    api = Api(create_app(old, {"DATA_DIR": tmp_path}).test_client())
    for path in ("/api/camera", "/api/camera/snapshot.jpg", "/api/camera/zones",
                 "/api/camera/crops/000412-A.jpg"):
        response = api.get(path)
        assert response.status_code == 404, path
        assert response.get_json()["error"] == "no camera: start crib serve --camera SPEC"
    assert api.post("/api/camera/flagged/1", {"action": "dismiss"}).status_code == 404
    assert 'data-camera="no"' in api.get("/").get_data(as_text=True)


def test_status_is_404_without_a_camera(api: Api) -> None:
    for path in ("/api/camera", "/api/camera/snapshot.jpg", "/api/camera/zones"):
        response = api.get(path)
        assert response.status_code == 404, path
        assert response.get_json()["error"] == "no camera: start crib serve --camera SPEC"
    assert api.get("/api/camera/crops/000412-A.jpg").status_code == 404
    response = api.post("/api/camera/flagged/1", {"action": "dismiss"})
    assert response.status_code == 404
    assert api.client.put("/api/camera/zones", json=ZONES,
                          headers={"X-CSRF-Token": api.csrf}).status_code == 404
    html = api.get("/").get_data(as_text=True)
    assert 'data-camera="no"' in html and "camera.js" not in html
    assert re.search(r'<a href="#camera" data-tab="camera" hidden>', html)


def test_status_when_the_camera_answers_none(table: CameraTable, tmp_path: Path) -> None:
    table.camera_status = lambda: None  # type: ignore[method-assign]
    api = Api(create_app(table, {"DATA_DIR": tmp_path}).test_client())
    assert api.get("/api/camera").status_code == 404
    assert api.get("/api/camera/snapshot.jpg").status_code == 404
    assert 'data-camera="no"' in api.get("/").get_data(as_text=True)
    assert api.get("/api/camera/crops/000412-A.jpg").status_code == 200  # old games' crops


def test_status_with_a_camera(cam: Api, table: CameraTable) -> None:
    table.flagged.append(flag())
    response = cam.get("/api/camera")
    assert response.status_code == 200
    body = response.get_json()
    assert body["state"] == "running" and body["tracker"] == "watching"
    assert body["zones"] == ZONES and body["flagged"][0]["likely"] == ["5S", "5C", "6S"]
    html = cam.get("/").get_data(as_text=True)
    assert 'data-camera="yes"' in html and "/static/camera.js" in html
    assert '<a href="#camera" data-tab="camera">Camera</a>' in html


# --- snapshot -----------------------------------------------------------------------------


def test_snapshot_bytes_no_store_and_rate_limit(cam: Api, table: CameraTable) -> None:
    first = cam.get("/api/camera/snapshot.jpg")
    assert first.status_code == 200 and first.mimetype == "image/jpeg"
    assert first.headers["Cache-Control"] == "no-store"
    assert first.data == b"\xff\xd8frame-1"
    table.snapshot = b"\xff\xd8frame-2"
    for _ in range(5):  # many phones at once: the camera is asked once
        assert cam.get("/api/camera/snapshot.jpg").data == b"\xff\xd8frame-1"
    assert table.snapshots_taken == 1
    time.sleep(0.55)
    assert cam.get("/api/camera/snapshot.jpg").data == b"\xff\xd8frame-2"
    assert table.snapshots_taken == 2


def test_snapshot_404_before_the_first_frame(cam: Api, table: CameraTable) -> None:
    table.snapshot = None
    response = cam.get("/api/camera/snapshot.jpg")
    assert response.status_code == 404 and "no frame" in response.get_json()["error"]


# --- zones --------------------------------------------------------------------------------


def put(api: Api, path: str, body: Any, *, csrf: bool = True, **headers: str) -> Any:
    if csrf:
        headers["X-CSRF-Token"] = api.csrf
    return api.client.put(path, json=body, headers=headers)


def test_zones_get_and_put(cam: Api, table: CameraTable) -> None:
    assert cam.get("/api/camera/zones").get_json() == ZONES
    moved = json.loads(json.dumps(ZONES))
    moved["centre"] = [0.25, 0.3, 0.75, 0.7]
    response = put(cam, "/api/camera/zones", moved)
    assert response.status_code == 200 and response.get_json() == {**moved, "in_use": True}
    assert table.zones == moved
    assert cam.get("/api/camera/zones").get_json() == moved


@pytest.fixture
def real_camera(tmp_path: Path) -> Iterator[tuple[Companion, Any, Flask]]:
    """A real companion with a real camera service that never starts (its zones, no frames)."""
    from companion.camera import CameraService

    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    camera = CameraService(companion, "frames:/nowhere", tmp_path, make_source=lambda: None)
    companion.attach_camera(camera)
    yield companion, camera, create_app(companion, {"DATA_DIR": tmp_path, "TESTING": True})
    companion.close()


def test_twenty_phones_saving_zones_at_once(real_camera: tuple[Companion, Any, Flask],
                                            tmp_path: Path) -> None:
    """Saves at once shared one zones.json.tmp: half answered 500 (FileNotFoundError), and the
    zones in use could differ from the file. Each save now writes its own file and keeps it."""
    _, camera, app = real_camera
    phones = [Api(app.test_client()) for _ in range(20)]
    start = threading.Barrier(len(phones))
    answers: list[int] = []

    def save(k: int) -> None:
        zones = {**ZONES, "centre": [0.30 - k / 1000, 0.35, 0.70, 0.65]}
        start.wait()
        answers.append(put(phones[k], "/api/camera/zones", zones).status_code)

    threads = [threading.Thread(target=save, args=(k,)) for k in range(len(phones))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200] * len(phones)
    on_file = json.loads((tmp_path / "zones.json").read_text())
    assert camera.status()["zones"] == on_file == phones[0].get("/api/camera/zones").get_json()
    assert sorted(p.name for p in tmp_path.iterdir() if "zones" in p.name) == ["zones.json"]


@pytest.mark.parametrize(("errno_", "status", "words"), [
    (30, 503, "is read-only: the zones were not stored"),  # EROFS
    (13, 503, "is read-only: the zones were not stored"),  # EACCES
    (28, 507, "the SD card is full: the zones were not stored"),  # ENOSPC
])
def test_zones_on_an_unwritable_folder_are_503_and_the_zones_stay(
    real_camera: tuple[Companion, Any, Flask], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    errno_: int, status: int, words: str,
) -> None:
    import os

    import vision.track.zones as zones_module

    _, camera, app = real_camera
    before = camera.status()["zones"]

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno_, os.strerror(errno_))

    monkeypatch.setattr(zones_module.tempfile, "mkstemp", refuse)
    response = put(Api(app.test_client()), "/api/camera/zones", {**ZONES, "centre": [0.25, 0.3, 0.75, 0.7]})
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert camera.status()["zones"] == before and not (tmp_path / "zones.json").exists()


def test_zones_need_csrf_and_good_zones(cam: Api, table: CameraTable) -> None:
    refused = put(cam, "/api/camera/zones", {**ZONES, "centre": [0, 0, 0.5, 0.5]}, csrf=False)
    assert refused.status_code == 403 and refused.get_json()["need"] == "csrf"
    for bad in ({**ZONES, "centre": [0.7, 0.35, 0.3, 0.65]},
                {**ZONES, "seats": {"A": [0, 0, 2, 1]}},
                {**ZONES, "centre": "middle"}):
        response = put(cam, "/api/camera/zones", bad)
        assert response.status_code == 400, bad
        assert "zone" in response.get_json()["error"]
    not_json = cam.client.put("/api/camera/zones", data="x",
                              headers={"X-CSRF-Token": cam.csrf})
    assert not_json.status_code == 400
    assert table.zones == ZONES


def test_zones_need_the_pin_when_one_is_set(table: CameraTable, tmp_path: Path) -> None:
    api = Api(create_app(table, {"DATA_DIR": tmp_path, "PIN": "2468"}).test_client())
    moved = {**ZONES, "centre": [0.2, 0.3, 0.8, 0.7]}
    locked = put(api, "/api/camera/zones", moved)
    assert locked.status_code == 403 and locked.get_json()["need"] == "pin"
    flagged = api.post("/api/camera/flagged/3", {"action": "dismiss"})
    assert flagged.status_code == 403 and flagged.get_json()["need"] == "pin"
    assert table.zones == ZONES and table.calls == []
    assert put(api, "/api/camera/zones", moved, **{"X-Table-Pin": "2468"}).status_code == 200
    assert table.zones == moved


# --- flagged readings ---------------------------------------------------------------------


def test_accept_fix_and_dismiss(cam: Api, table: CameraTable) -> None:
    game = game_at_play(cam, table)
    table.flagged += [flag(1, "JC", "A"), flag(2, "5H", "B"), flag(3, "KD", "A")]
    accepted = cam.post("/api/camera/flagged/1", {"action": "accept"})
    assert accepted.status_code == 200, accepted.get_json()
    body = accepted.get_json()
    assert body["game_id"] == game and body["state"]["plays"][-1]["card"] == "JC"
    assert "said" in body["state"]
    fixed = cam.post("/api/camera/flagged/2", {"action": "fix", "card": "5s"})
    assert fixed.status_code == 200, fixed.get_json()
    assert fixed.get_json()["state"]["plays"][-1]["card"] == "5S"
    assert fixed.get_json()["state"]["scores"]["B"] == 2  # fifteen two
    dismissed = cam.post("/api/camera/flagged/3", {"action": "dismiss", "card": "AS"})
    assert dismissed.status_code == 200 and dismissed.get_json()["state"] == {}
    assert table.calls == [(1, "accept", None), (2, "fix", "5S"), (3, "dismiss", None)]
    assert cam.get("/api/camera").get_json()["flagged"] == []
    events = cam.get(f"/api/games/{game}/events").get_json()["events"]
    assert events[-1]["source"] == "camera"


def test_flagged_errors(cam: Api, table: CameraTable) -> None:
    game_at_play(cam, table)
    table.flagged += [flag(3, "5S", "B")]  # Bob plays, but Alice leads
    for body in ({"action": "keep"}, {}, {"action": "fix"}, {"action": "fix", "card": "ZZ"},
                 {"action": "fix", "card": 5}):
        response = cam.post("/api/camera/flagged/3", body)
        assert response.status_code == 400, body
        assert response.get_json()["error"]
    assert cam.post("/api/camera/flagged/3", ["accept"]).status_code == 400
    assert table.calls == []
    missing = cam.post("/api/camera/flagged/99", {"action": "accept"})
    assert missing.status_code == 404 and "99" in missing.get_json()["error"]
    refused = cam.post("/api/camera/flagged/3", {"action": "accept"})
    assert refused.status_code == 422  # the game refuses it: the rule, as for POST .../events
    assert refused.get_json()["rule"] and refused.get_json()["error"]
    assert refused.get_json()["detail"]  # the engine's own words; the error names the players
    assert not re.search(r"\b[AB]\b(?! (card|hand))", refused.get_json()["error"]), refused.get_json()
    table.refuse_with = CribbageError("that zone is not a seat")
    other = cam.post("/api/camera/flagged/3", {"action": "dismiss"})
    assert other.status_code == 400 and other.get_json()["error"] == "that zone is not a seat"
    no_csrf = cam.post("/api/camera/flagged/3", {"action": "dismiss"}, csrf=False)
    assert no_csrf.status_code == 403
    assert [f["id"] for f in table.flagged] == [3]
    assert cam.post("/api/camera/flagged/-1", {"action": "dismiss"}).status_code == 404


# --- crops --------------------------------------------------------------------------------


def test_crops(cam: Api, table: CameraTable) -> None:
    good = cam.get("/api/camera/crops/000412-A.jpg")
    assert good.status_code == 200 and good.mimetype == "image/jpeg"
    assert good.data == table.crops["000412-A.jpg"]
    assert cam.get("/api/camera/crops/000413-A.jpg").status_code == 404
    for name in ("../x.jpg", "a/b.jpg", "..%2Fx.jpg", "a%2Fb.jpg", ".hidden.jpg", "x.png",
                 "x.jpg.png", "a b.jpg", "%00.jpg", "x" * 81 + ".jpg", ".jpg"):
        response = cam.get(f"/api/camera/crops/{name}")
        assert response.status_code == 404, name
        assert response.is_json, name
    table.crops["../x.jpg"] = b"secret"
    assert cam.get("/api/camera/crops/../x.jpg").status_code == 404


# --- live ---------------------------------------------------------------------------------


def read_stream(chunks: Iterator[Any], wanted: str, limit: int = 50) -> dict[str, Any]:
    for _, chunk in zip(range(limit), chunks, strict=False):
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        for block in text.split("\n\n"):
            kind = re.search(r"^event: (\w+)$", block, re.M)
            data = re.search(r"^data: (.*)$", block, re.M)
            if kind and data and kind.group(1) == wanted:
                return json.loads(data.group(1))  # type: ignore[no-any-return]
    raise AssertionError(f"no {wanted} event")


def test_the_stream_forwards_the_camera(table: CameraTable, tmp_path: Path) -> None:
    app = create_app(table, {"DATA_DIR": tmp_path, "SSE_HEARTBEAT": 0.05, "SSE_MAX_AGE": 5})
    response = app.test_client().get("/api/stream", buffered=False)
    chunks = iter(response.response)
    table.tell(state="lost", error="no frame for 5 s", retries=2)
    got = read_stream(chunks, "camera")
    assert got["state"] == "lost" and got["error"] == "no frame for 5 s" and got["retries"] == 2
    assert got["zones"] == ZONES
    response.close()


# --- first load ---------------------------------------------------------------------------


def test_first_load_with_a_camera_is_under_100_kb(cam: Api, table: CameraTable) -> None:
    cam.new_game()
    table.flagged += [flag(1), flag(2)]
    html = cam.get("/").data
    urls = re.findall(rb'(?:src|href)="(/[^"]*)"', html)
    assert b"/static/camera-watch.js" in urls  # the banner and the status, on every tab
    assert b"/static/camera.js" not in urls  # the Camera tab's own script: when the tab opens
    assert b'data-script="/static/camera.js"' in html
    total = len(html) + sum(len(cam.get(u.decode()).data) for u in urls)
    total += len(cam.get("/api/games/latest").data)
    total += len(cam.get("/api/board.svg?tracks=3&target=121").data)
    total += len(cam.get("/api/camera").data)
    total += len(cam.get("/api/session").data)  # the variants the page sets up from
    assert total < 100_000, total


# --- the Camera tab in Chromium -----------------------------------------------------------

CHROMIUM = chromium_path()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, CameraTable]]:
    """The app on waitress in this process (a real server, a fake camera), on a free port."""
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    table = CameraTable(companion)
    table.snapshot = jpeg()
    app = create_app(table, {"DATA_DIR": tmp_path, "SSE_HEARTBEAT": 1.0})
    with served_in_process(app, threads=12) as url:
        yield url, table
    companion.close()


@pytest.fixture
def page(live: tuple[str, CameraTable]) -> Iterator[Any]:
    with phone_page(live[0]) as page:
        yield page


def expect(locator: Any) -> Any:
    return pytest.importorskip("playwright.sync_api").expect(locator)


def no_horizontal_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_the_camera_tab_shows_the_snapshot_and_zones_and_saves_a_drag(
    page: Any, live: tuple[str, CameraTable]
) -> None:
    _, table = live
    tab = page.locator('#tabs a[data-tab="camera"]')
    expect(tab).to_be_visible()
    tab.click()
    expect(page.locator("#cam-tracker")).to_have_text("Watching the table")
    expect(page.locator("#cam-state")).to_contain_text("video:deal.mp4")  # no server folder
    expect(page.locator("#cam-img")).to_have_js_property("naturalWidth", 640)
    expect(page.locator("#cam-noframe")).to_be_hidden()
    zones = page.locator("#cam-zones .zone")
    expect(zones).to_have_count(3)
    expect(page.locator('#cam-zones .zone[data-zone="centre"] .label')).to_have_text("Centre")
    seat = page.locator('#cam-zones .zone[data-zone="A"] .label')  # a name or a place, no letter
    expect(seat).to_have_text(re.compile(r"^(?!A\b)(?!.*Seat A).+"))
    no_horizontal_scroll(page)
    area = page.locator("#cam-zones").bounding_box()
    centre = page.locator('#cam-zones .zone[data-zone="centre"]')
    box = centre.bounding_box()
    # drag the centre zone right by 10% of the frame and down by 10%
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + area["width"] * 0.05, y + area["height"] * 0.05, steps=3)
    page.mouse.move(x + area["width"] * 0.10, y + area["height"] * 0.10, steps=3)
    page.mouse.up()
    # and the bottom-right corner of seat B (the top half) up by 10%
    handle = page.locator('#cam-zones .zone[data-zone="B"] .h.br').bounding_box()
    hx, hy = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    page.mouse.move(hx, hy)
    page.mouse.down()
    page.mouse.move(hx - area["width"] * 0.2, hy - area["height"] * 0.1, steps=4)
    page.mouse.up()
    expect(page.locator("#cam-save")).to_be_enabled()
    page.click("#cam-save")
    expect(page.locator("#toast")).to_have_text("Zones saved")
    saved = table.zones
    assert saved["centre"] == pytest.approx([0.40, 0.45, 0.80, 0.75], abs=0.02)
    assert saved["seats"]["B"] == pytest.approx([0.0, 0.0, 0.8, 0.4], abs=0.02)
    assert saved["seats"]["A"] == ZONES["seats"]["A"]
    assert saved["players"] == 2
    expect(page.locator("#cam-save")).to_be_disabled()
    # Reset goes back to the saved zones after more dragging
    box = centre.bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] - 40, box["y"] + box["height"] / 2, steps=3)
    page.mouse.up()
    page.click("#cam-reset")
    expect(page.locator("#cam-save")).to_be_disabled()
    left = page.evaluate("Crib.cam.zones.centre[0]")
    assert left == pytest.approx(saved["centre"][0])
    # snapshots stop when the tab is left: the next turn of the loop sees the tab hidden and ends it
    expect(page.locator("#cam-view")).to_have_attribute("data-snap", "on")
    page.click("#tabs >> text=Table")
    expect(page.locator("#cam-view")).to_have_attribute("data-snap", "off")
    assert page.evaluate("() => Crib.cam.timer === null && !Crib.cam.loading")
    taken = table.snapshots_taken
    table.tell(frames=413)  # a new status does not start them again while the tab is hidden
    expect(page.locator("#cam-view")).to_have_attribute("data-snap", "off")
    assert page.evaluate("() => Crib.cam.timer === null && !Crib.cam.loading")
    assert table.snapshots_taken == taken


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_a_flagged_reading_is_fixed_from_the_camera_tab(
    page: Any, live: tuple[str, CameraTable]
) -> None:
    url, table = live
    api_game = page.evaluate("""async () => {
        const r = await Crib.api("POST", "/api/games", {players: ["Alice", "Bob"]});
        for (const e of [{type: "dealer", seat: "B"}, {type: "starter", card: "5D"},
                         {type: "play", seat: "A", card: "JC"}])
          await Crib.api("POST", `/api/games/${r.game_id}/events`, e);
        return r.game_id;
    }""")
    table.cam_state["game"] = api_game
    table.flagged.append(flag(3, "5S", "B"))
    table.tell(tracker="waiting for a confirmation")
    page.click('#tabs a[data-tab="camera"]')
    expect(page.locator("#cam-tracker")).to_have_attribute("data-now", "waiting for a confirmation")
    expect(page.locator("#cam-expect")).to_have_text("Bob to play")  # from the game, without expect
    item = page.locator('#cam-flagged li[data-flag="3"]')
    expect(item).to_contain_text("below the confidence threshold")
    expect(item.locator('button[data-action="accept"]')).to_have_text("Accept 5♠")
    expect(item.locator("img.crop")).to_have_js_property("naturalWidth", 96)
    no_horizontal_scroll(page)
    for button in item.locator("button").all():
        assert button.bounding_box()["height"] >= 40
    fix = item.locator('button[data-action="fix"][data-card="5C"]')
    expect(fix).to_have_text("It's 5♣")
    fix.click()
    expect(page.locator("#cam-flagged li")).to_have_count(0)
    assert table.calls == [(3, "fix", "5C")]
    expect(page.locator('#scores .score[data-side="B"] .pts')).to_have_text("2")  # JC 5C: fifteen
    # the Fix tab shows the crop beside the camera's event
    page.click("#tabs >> text=Fix")
    last = page.locator("#events li").first
    expect(last).to_contain_text("camera")
    expect(last).to_contain_text("41% sure")
    expect(last.locator("img.seen")).to_have_attribute("src", "/api/camera/crops/000412-A.jpg")
    assert url


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_the_lost_banner_shows_on_every_tab(page: Any, live: tuple[str, CameraTable]) -> None:
    _, table = live
    page.click("#tabs >> text=Play")
    banner = page.locator("#cam-banner")
    expect(banner).to_be_hidden()
    assert page.locator('script[src="/static/camera.js"]').count() == 0  # the banner needs no camera.js
    table.tell(state="lost", error="no frame for 5 s", retries=1)
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Camera lost: no frame for 5 s")
    expect(banner).to_contain_text("play by hand")
    no_horizontal_scroll(page)
    assert page.evaluate("(n => n.scrollWidth <= n.clientWidth)(document.querySelector('#tabs'))")
    table.tell(state="running", error=None)
    expect(banner).to_be_hidden()
    table.tell(state="ended")
    expect(banner).to_be_hidden()
    page.click('#tabs a[data-tab="camera"]')
    expect(page.locator("#cam-note")).to_contain_text("ended")


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_a_camera_that_failed_for_good_says_off_not_retrying(page: Any,
                                                            live: tuple[str, CameraTable]) -> None:
    _, table = live
    banner = page.locator("#cam-banner")
    expect(banner).to_be_hidden()
    error = "picamera2 will not import (No module named 'libcamera'): sudo apt install python3-picamera2"
    table.tell(state="failed", error=error, retries=0)
    expect(banner).to_be_visible()
    expect(banner).to_have_text(f"Camera off: {error}; play by hand.")
    no_horizontal_scroll(page)
    page.click('#tabs a[data-tab="camera"]')
    expect(page.locator("#cam-note")).to_be_visible()
    expect(page.locator("#cam-note")).to_contain_text(f"The camera is off: {error}")


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_the_camera_tab_has_no_overlap_and_tap_targets_of_40_px(
    page: Any, live: tuple[str, CameraTable]
) -> None:
    from test_web_browser_words import LAYOUT

    page.locator('#tabs a[data-tab="camera"]').click()
    expect(page.locator("#cam-img")).to_have_js_property("naturalWidth", 640)
    page.evaluate("() => { window.scrollTo(0, 0); document.querySelector('#toast').hidden = true; }")
    got = page.evaluate(LAYOUT)
    # the zones' names are drawn on the picture on purpose; nothing else may lie over anything
    overlaps = [o for o in got["overlaps"] if not (o.startswith("span.label") and "img#cam-img" in o)]
    assert overlaps == [], overlaps
    assert got["small"] == [], got["small"]
    assert not got["wide"]
    handles = page.evaluate("""() => Array.from(document.querySelectorAll('#cam-zones .zone *'))
      .filter((e) => getComputedStyle(e).cursor.includes('resize'))
      .map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })""")
    assert handles and min(handles) >= 40, handles  # a corner is dragged by a finger


# --- whose card: a seat with the answer ---------------------------------------------------


def centre_flag(flag_id: int = 7, card: str = "JC") -> dict[str, Any]:
    """A card laid in the centre during the play, in the follower's words (its contract)."""
    return {"id": flag_id, "frame": 90, "zone": "centre", "card": card, "confidence": 0.93,
            "likely": [card], "reason": "a card laid in the centre: whose is it?",
            "crop": "crops/000412-A.jpg", "event": None, "kind": "play",
            "say": f"{card[0]}♣ laid in the centre: whose is it?",
            "choices": [{"label": "Alice's card", "action": "accept", "seat": "A"},
                        {"label": "Bob's card", "action": "accept", "seat": "B"},
                        {"label": "Another card…", "action": "fix"},
                        {"label": "Not a card", "action": "dismiss"}]}


def test_a_flag_is_told_whose_card_it_is(cam: Api, table: CameraTable) -> None:
    game = game_at_play(cam, table)
    table.flagged += [centre_flag(7, "JC"), centre_flag(8, "5S")]
    answered = cam.post("/api/camera/flagged/7", {"action": "accept", "seat": "A"})
    assert answered.status_code == 200, answered.get_json()
    assert answered.get_json()["state"]["plays"][-1] == {**answered.get_json()["state"]["plays"][-1],
                                                           "seat": "A", "card": "JC"}
    fixed = cam.post("/api/camera/flagged/8", {"action": "fix", "card": "5s", "seat": "B"})
    assert fixed.status_code == 200 and fixed.get_json()["state"]["scores"]["B"] == 2
    assert table.calls == [(7, "accept", None, "A"), (8, "fix", "5S", "B")]
    assert cam.get(f"/api/games/{game}").get_json()["state"]["count"] == 15


def test_a_seat_that_is_not_the_games_is_refused(cam: Api, table: CameraTable) -> None:
    game_at_play(cam, table)
    table.flagged.append(centre_flag(7))
    for seat in ("C", "a", "", 1, ["A"], {"seat": "A"}, True):
        response = cam.post("/api/camera/flagged/7", {"action": "accept", "seat": seat})
        assert response.status_code == 400, seat
        error = response.get_json()["error"]
        assert "whose card" in error and '"A" for Alice' in error, error
    assert table.calls == []
    # a dismissal needs no seat, and the camera is not told one
    assert cam.post("/api/camera/flagged/7", {"action": "dismiss", "seat": "B"}).status_code == 200
    assert table.calls == [(7, "dismiss", None)]


def test_a_seat_before_any_game_is_refused(cam: Api, table: CameraTable) -> None:
    table.flagged.append(centre_flag(7))
    response = cam.post("/api/camera/flagged/7", {"action": "accept", "seat": "A"})
    assert response.status_code == 400 and "no game" in response.get_json()["error"]
    assert table.calls == []


def test_a_camera_without_seats_is_not_sent_one(table: CameraTable, tmp_path: Path) -> None:
    """A camera whose resolve_flag takes no seat (before the follower's seats) still works."""
    calls = []

    def resolve_flag(flag_id: int, action: str, card: str | None = None) -> dict[str, Any]:
        calls.append((flag_id, action, card))
        return {}

    table.resolve_flag = resolve_flag  # type: ignore[method-assign]
    api = Api(create_app(table, {"DATA_DIR": tmp_path, "TESTING": True}).test_client())
    assert api.post("/api/camera/flagged/3", {"action": "dismiss"}).status_code == 200
    assert calls == [(3, "dismiss", None)]


# --- zones refused in players' words --------------------------------------------------------


def test_zones_refusals_name_the_players_not_seat_letters(cam: Api, table: CameraTable) -> None:
    same = {"players": 2, "centre": [0.3, 0.35, 0.7, 0.65],
            "seats": {"A": [0, 0.5, 1, 1], "B": [0, 0.52, 1, 1]}}
    before = put(cam, "/api/camera/zones", same)
    assert before.status_code == 400
    assert before.get_json()["error"].startswith("Player 1's zone and Player 2's zone are (nearly) the same")
    game_at_play(cam, table)
    refused = put(cam, "/api/camera/zones", same)
    assert refused.status_code == 400
    error = refused.get_json()["error"]
    assert error.startswith("Alice's zone and Bob's zone are (nearly) the same"), error
    whole = put(cam, "/api/camera/zones", {**ZONES, "centre": [0, 0, 1, 1]})
    assert whole.status_code == 400 and "centre zone covers 100%" in whole.get_json()["error"]
    inside = put(cam, "/api/camera/zones", {**ZONES, "centre": [0.2, 0.2, 0.8, 0.8],
                                            "seats": {"A": [0.3, 0.5, 0.7, 0.7], "B": [0, 0, 1, 0.5]}})
    assert inside.status_code == 400 and "Alice's zone lies inside the centre" in inside.get_json()["error"]
    assert table.zones == ZONES


@pytest.mark.parametrize(("seats", "words"), [
    ({"A": [0, 0.5, 1, 1], "B": [0.1, 0.7, 0.5, 0.95]}, "Bob's zone lies inside Alice's zone"),
    ({"A": [0.1, 0.7, 0.5, 0.95], "B": [0, 0.5, 1, 1]}, "Alice's zone lies inside Bob's zone"),
    ({"A": [0, 0.3, 0.35, 0.7], "B": [0.1, 0.35, 0.7, 0.65]},
     "Bob's zone is all covered by the centre and the zones "
                                                    "before it: that player would never get a card"),
    ({"A": ["0", "0.5", "1", "1"], "B": [0, 0, 1, 0.5]}, "Alice's zone is four numbers"),
    ({"A": [0, 0.5, 1, 1], "B": [0, 0, 1, "0.5"]}, "Bob's zone is four numbers"),
])
def test_nested_zones_and_numbers_as_strings_are_refused(cam: Api, table: CameraTable,
                                                         seats: dict[str, Any], words: str) -> None:
    game_at_play(cam, table)
    refused = put(cam, "/api/camera/zones", {**ZONES, "seats": seats})
    assert refused.status_code == 400
    assert refused.get_json()["error"].startswith(words), refused.get_json()
    assert table.zones == ZONES
    players = put(cam, "/api/camera/zones", {**ZONES, "players": "2"})
    assert players.status_code == 400 and "2, 3 or 4 players" in players.get_json()["error"]
    assert table.zones == ZONES


def test_zones_for_another_size_are_kept_for_it(cam: Api, table: CameraTable) -> None:
    three = {"players": 3, "centre": [0.3, 0.35, 0.7, 0.65],
             "seats": {"A": [0, 0.5, 1, 1], "B": [0, 0, 0.5, 0.5], "C": [0.5, 0, 1, 0.5]}}
    response = put(cam, "/api/camera/zones", three)
    assert response.status_code == 200
    assert response.get_json() == {**three, "in_use": False}
    assert cam.get("/api/camera/zones").get_json() == ZONES  # the zones in use are untouched


# --- the Camera tab: one-tap answers, what it expects, labels off the cards ------------------


def camera_tab(page: Any) -> None:
    page.click('#tabs a[data-tab="camera"]')
    expect(page.locator("#cam-expect")).not_to_have_text("–")


def start_game(page: Any, table: CameraTable, events: list[dict[str, Any]]) -> int:
    game = page.evaluate("""async (events) => {
        const r = await Crib.api("POST", "/api/games", {players: ["Alice", "Bob"]});
        for (const e of events) await Crib.api("POST", `/api/games/${r.game_id}/events`, e);
        return r.game_id;
    }""", events)
    table.cam_state["game"] = game
    expect(page.locator('#scores .score[data-side="A"] .name')).to_have_text("Alice")
    return int(game)


def tap_targets(locator: Any) -> list[tuple[str, float, float]]:
    return [(b.inner_text(), b.bounding_box()["width"], b.bounding_box()["height"])
            for b in locator.all()]


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_camera_js_is_fetched_when_the_tab_opens(page: Any, live: tuple[str, CameraTable]) -> None:
    assert page.locator('script[src="/static/camera-watch.js"]').count() == 1
    assert page.locator('script[src="/static/camera.js"]').count() == 0
    assert page.evaluate("() => typeof Crib.cam") == "undefined"
    expect(page.locator('#tabs a[data-tab="camera"]')).to_be_visible()  # camera-watch.js showed it
    camera_tab(page)
    expect(page.locator('script[src="/static/camera.js"]')).to_have_count(1)
    expect(page.locator("#cam-tracker")).to_have_text("Watching the table")


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_a_starter_flag_is_accepted_in_one_tap_in_players_words(
    page: Any, live: tuple[str, CameraTable]
) -> None:
    _, table = live
    start_game(page, table, [{"type": "dealer", "seat": "B"}])
    table.flagged.append({
        "id": 4, "frame": 51, "zone": "centre", "card": "QH", "confidence": 0.52,
        "likely": ["QH", "QD"], "reason": "below the confidence threshold", "crop": "crops/000412-A.jpg",
        "event": {"type": "starter", "card": "QH"}, "kind": "starter",
        "say": "Q♥ in the centre: is it the starter?",
        "choices": [{"label": "Accept Q♥ as the starter", "action": "accept"},
                    {"label": "It's Q♦", "action": "fix", "card": "QD"},
                    {"label": "Another card…", "action": "fix"},
                    {"label": "Not a card", "action": "dismiss"}]})
    table.tell(tracker="waiting for a confirmation", expect="the starter")
    camera_tab(page)
    expect(page.locator("#cam-expect")).to_have_text("Waiting for the starter")
    item = page.locator('#cam-flagged li[data-flag="4"]')
    expect(item.locator(".say")).to_have_text("Q♥ in the centre: is it the starter?")
    buttons = item.locator("button")
    expect(buttons).to_have_text(["Accept Q♥ as the starter", "It's Q♦", "Another card…", "Not a card"])
    small = [b for b in tap_targets(buttons) if b[1] < 40 or b[2] < 40]
    assert small == [], small
    no_horizontal_scroll(page)
    item.locator("button", has_text="Accept Q♥ as the starter").click()
    expect(page.locator("#cam-flagged li")).to_have_count(0)
    assert table.calls == [(4, "accept", None)]
    expect(page.locator("#starter")).to_have_text("Q♥")


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_whose_card_is_answered_by_a_name_and_another_card_by_the_picker(
    page: Any, live: tuple[str, CameraTable]
) -> None:
    _, table = live
    start_game(page, table, [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "5D"}])
    table.flagged.append(centre_flag(7, "JC"))
    table.tell()
    camera_tab(page)
    item = page.locator('#cam-flagged li[data-flag="7"]')
    expect(item.locator(".say")).to_have_text("J♣ laid in the centre: whose is it?")
    expect(item.locator("button")).to_have_text(["Alice's card", "Bob's card", "Another card…", "Not a card"])
    item.locator('button[data-seat="A"]').click()
    expect(page.locator("#cam-flagged li")).to_have_count(0)
    assert table.calls == [(7, "accept", None, "A")]
    expect(page.locator("#toast")).to_have_text("Recorded J♣ for Alice")
    # a card nobody could read in Bob's row: name it from the picker
    table.flagged.append({
        "id": 8, "frame": 96, "zone": "B", "card": None, "confidence": 0.0, "likely": [],
        "reason": "not read surely", "crop": None, "event": {"type": "play", "seat": "B"},
        "kind": "play", "say": "A card in Bob's row I can't read",
        "choices": [{"label": "Another card…", "action": "fix"},
                    {"label": "Not a card", "action": "dismiss"}]})
    table.tell()
    item = page.locator('#cam-flagged li[data-flag="8"]')
    expect(item.locator(".say")).to_have_text("A card in Bob's row I can't read")
    item.locator("button", has_text="Another card…").click()
    picker = item.locator(".cam-picker")
    expect(picker.locator(".pick")).to_have_count(52)
    expect(picker.locator('.pick[data-card="JC"]')).to_have_class(re.compile(r"\bseen\b"))  # laid already
    small = [b for b in tap_targets(item.locator("button")) if b[1] < 40 or b[2] < 40]
    assert small == [], small
    no_horizontal_scroll(page)
    picker.locator('.pick[data-card="5S"]').click()
    expect(page.locator("#cam-flagged li")).to_have_count(0)
    assert table.calls[-1] == (8, "fix", "5S")
    expect(page.locator('#scores .score[data-side="B"] .pts')).to_have_text("2")  # J♣ 5♠: fifteen
    # a card nobody could read, in the centre: whose it is, then which card, from the picker
    table.flagged.append({
        "id": 9, "frame": 120, "zone": "centre", "card": None, "confidence": 0.0, "likely": [],
        "reason": "not read surely", "crop": None, "event": None, "kind": "play",
        "say": "A card in the centre I can't read",
        "choices": [{"label": "Alice's card", "action": "fix", "seat": "A"},
                    {"label": "Bob's card", "action": "fix", "seat": "B"},
                    {"label": "Another card…", "action": "fix"},
                    {"label": "Not a card", "action": "dismiss"}]})
    table.tell()
    item = page.locator('#cam-flagged li[data-flag="9"]')
    item.locator('button[data-seat="A"]').click()
    item.locator('.cam-picker .pick[data-card="4H"]').click()
    expect(page.locator("#cam-flagged li")).to_have_count(0)
    assert table.calls[-1] == (9, "fix", "4H", "A")
    expect(page.locator("#count")).to_have_text("19")


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_names_never_seat_letters_before_and_during_a_game(
    page: Any, live: tuple[str, CameraTable]
) -> None:
    """A follower without the new words: the page's own, with places then names."""
    _, table = live
    table.flagged.append({"id": 5, "frame": 30, "zone": "A", "card": None, "confidence": 0.0,
                          "likely": [], "reason": "a card in A's zone before the starter is turned",
                          "crop": None, "event": None})
    table.tell()
    camera_tab(page)
    labels = page.locator("#cam-zones .label")
    expect(labels).to_have_text(["Player 1", "Player 2", "Centre"])
    expect(page.locator('#cam-flagged li[data-flag="5"]')).to_contain_text("Player 1's row")
    expect(page.locator("#cam-expect")).to_have_text("Waiting for a game to start")
    start_game(page, table, [{"type": "dealer", "seat": "B"}])
    table.tell()  # the camera retells when the game it follows changes (its names too)
    expect(labels).to_have_text(["Alice", "Bob", "Centre"])
    item = page.locator('#cam-flagged li[data-flag="5"]')
    expect(item).to_contain_text("Alice's row")
    expect(page.locator("#cam-expect")).to_have_text("Waiting for the starter")
    text = page.evaluate("() => document.body.innerText")
    assert not re.search(r"\b[A-D]'s (zone|row)\b", text), text
    assert "A · " not in text and "Player 1" not in text


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_the_heading_says_what_the_camera_expects_and_holds_steady(
    page: Any, live: tuple[str, CameraTable]
) -> None:
    _, table = live
    page.clock.install()  # the page's timers on a clock the test moves: no sleeping
    page.reload()
    expect(page.locator("#live")).to_have_text("live")
    start_game(page, table, [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "5D"},
                             {"type": "play", "seat": "A", "card": "JC"}])
    table.tell(expect="Bob to play", last={"card": "JC", "say": "J♣ played by Alice", "frame": 88})
    camera_tab(page)
    heading, tracker = page.locator("#cam-expect"), page.locator("#cam-tracker")
    expect(heading).to_have_text("Bob to play")
    expect(page.locator("#cam-last")).to_have_text("Last read: J♣ played by Alice")
    expect(tracker).to_have_text("Watching the table")
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1000)
    # a hand passes over the table and away again within two seconds: nothing flips
    table.tell(tracker="hand over the table")
    expect(tracker).to_have_attribute("data-now", "hand over the table")
    expect(tracker).to_have_text("Watching the table")
    page.clock.run_for(1200)
    table.tell(tracker="watching")
    expect(tracker).to_have_attribute("data-now", "watching")
    page.clock.run_for(3000)
    expect(tracker).to_have_text("Watching the table")
    expect(heading).to_have_text("Bob to play")
    # a hand that stays shows, in the small line; the heading stays what the camera waits for
    table.tell(tracker="hand over the table")
    expect(tracker).to_have_attribute("data-now", "hand over the table")
    page.clock.run_for(2100)
    expect(tracker).to_have_text("A hand is over the table")
    expect(heading).to_have_text("Bob to play")
    table.tell(expect="waiting for the crib", last={"card": "5S", "say": "5♠ played by Bob", "frame": 99})
    expect(heading).to_have_text("Waiting for the crib")
    expect(page.locator("#cam-last")).to_have_text("Last read: 5♠ played by Bob")
    table.tell(expect="Alice's hand")
    expect(heading).to_have_text("Waiting for Alice's hand")
    for said, shown in (("waiting for you to check a card", "Waiting for you to check a card"),
                        ("the cut for deal", "Waiting for the cut for deal"),
                        ("the game is over", "The game is over"),
                        ("the camera is back: show it this deal's cards",
                         "The camera is back: show it this deal's cards")):
        table.tell(expect=said)
        expect(heading).to_have_text(shown)


def zone_and_label(page: Any, key: str) -> tuple[dict[str, float], dict[str, float]]:
    """Zone ``key``'s box and its label's, measured together: the page draws its zones afresh
    as the camera's state comes, and two boxes taken one by one may come from two drawings."""
    return tuple(page.evaluate(
        """(key) => {
            const zone = document.querySelector(`#cam-zones .zone[data-zone="${key}"]`);
            return [zone, zone.querySelector(".label")].map((e) => {
                const b = e.getBoundingClientRect();
                return { x: b.x, y: b.y, width: b.width, height: b.height };
            });
        }""", key))


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_zone_labels_sit_small_at_the_outer_edge_off_the_cards(
    page: Any, live: tuple[str, CameraTable]
) -> None:
    _, table = live
    start_game(page, table, [{"type": "dealer", "seat": "B"}])
    camera_tab(page)
    expect(page.locator("#cam-img")).to_have_js_property("naturalWidth", 640)
    for key, side in (("A", "bottom"), ("B", "top"), ("centre", "top")):
        expect(page.locator(f'#cam-zones .zone[data-zone="{key}"] .label')).to_be_visible()
        z, label = zone_and_label(page, key)
        assert label["height"] <= 20 and label["width"] * label["height"] <= 0.1 * z["width"] * z["height"]
        bottom = z["y"] + z["height"] - (label["y"] + label["height"])
        gap = bottom if side == "bottom" else label["y"] - z["y"]
        assert 0 <= gap <= 8, (key, gap)
        # the middle of the zone, where the cards are laid, is left clear
        mid_top, mid_bottom = z["y"] + z["height"] * 0.25, z["y"] + z["height"] * 0.75
        assert label["y"] + label["height"] <= mid_top or label["y"] >= mid_bottom, key
    alpha = page.evaluate("""() => getComputedStyle(document.querySelector('#cam-zones .label'))
                             .backgroundColor.match(/[\\d.]+/g).map(Number)""")
    assert len(alpha) == 4 and alpha[3] <= 0.6, alpha


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_the_play_tab_still_redraws_after_the_camera_tab_opened(page: Any,
                                                                live: tuple[str, CameraTable]) -> None:
    """camera.js's own renderSeats once replaced app.js's as a global: once the Camera tab had
    opened, a card laid on the Play tab left "Next: Alice to play (count 0)" and the player
    buttons as they were."""
    _, table = live
    start_game(page, table, DEAL[:2])  # Bob deals, the starter turned: Alice leads
    camera_tab(page)
    expect(page.locator('script[src="/static/camera.js"]')).to_have_count(1)
    page.click("#tabs >> text=Play")
    nxt = page.locator("#next")
    expect(nxt).to_have_text("Next: Alice to play (count 0).")
    expect(page.locator("#seat-pick button.on")).to_have_text("Alice")
    page.click('#picker button[data-card="JC"]')
    page.click("#send")
    expect(nxt).to_have_text("Next: Bob to play (count 10).")
    expect(page.locator("#seat-pick button.on")).to_have_text("Bob")
    page.click('#picker button[data-card="5S"]')
    page.click("#send")
    expect(nxt).to_have_text("Next: Alice to play (count 15).")
    expect(page.locator("#seat-pick button.on")).to_have_text("Alice")


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
def test_a_game_the_camera_started_is_said_on_the_play_tab(page: Any, live: tuple[str, CameraTable]) -> None:
    """crib serve --camera with no game in progress starts a game at the deal it sees: the page
    says so on every tab through its first deal, with the way to the New tab to name the players."""
    _, table = live
    game = start_game(page, table, [])  # no dealer, as the camera starts it: the table says who dealt
    say = ("The camera started a game of Alice v Bob at the deal it saw. Other players? Start the game "
           "on the New tab, the dealer cut at the table: the camera reads this deal into it.")
    note = page.locator("#cam-started")
    expect(note).to_have_count(0)
    table.tell(started={"game": game, "by": "camera", "players": ["Alice", "Bob"], "say": say})
    expect(note).to_be_visible()
    expect(note).to_have_text(say + " Name the players")
    note.locator('a[href="#new"]').click()
    expect(page.locator("#new")).to_be_visible()
    expect(note).to_be_visible()
    table.tell(started=None)  # a game started on the page since: the camera follows that one
    expect(note).to_be_hidden()
