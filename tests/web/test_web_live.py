"""The board from the LED layout, the simulated LEDs, live updates (SSE), the pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flask import Flask
from webhelpers import DEAL, Api

from companion.service import Companion
from firmware.layout import BoardLayout
from web import create_app


def test_the_board_is_the_led_layout(api: Api) -> None:
    layout = api.get("/api/board?tracks=3&target=121").get_json()
    assert layout == BoardLayout.standard(tracks=3).to_dict()
    svg = api.get("/api/board.svg?tracks=2&target=61").get_data(as_text=True)
    board = BoardLayout.standard(tracks=2, target=61)
    assert len(re.findall(r'<circle[^>]* id="h\d', svg)) == board.led_count
    first = board.hole(0, 1)
    assert f'id="h0-1" cx="{first.x:.1f}" cy="{first.y:.1f}"'.replace(".0\"", "\"") in svg
    assert svg.count('class="skunk"') == len(board.skunk_lines) * 2
    assert svg.count('class="street') == len(board.streets)
    assert 'id="peg-A-front"' in svg and 'id="peg-B-back"' in svg


def test_board_arguments_are_checked(api: Api) -> None:
    for query in ("tracks=4", "target=100", "tracks=abc", "target="):
        assert api.get(f"/api/board?{query}").status_code == 400, query
        assert api.get(f"/api/board.svg?{query}").status_code == 400, query


def test_simulated_leds_follow_the_game(sim_companion: Companion, tmp_path: Path) -> None:
    api = Api(create_app(sim_companion, {"DATA_DIR": tmp_path}).test_client())
    assert api.get("/api/session").get_json()["companion"]["leds"] == "sim"
    game = api.new_game()
    for event in DEAL[:4]:
        api.event(game, event)
    assert sim_companion.wait_leds()
    shown = sim_companion.leds.output.latest_frame
    lit = {(e.seat, e.peg): e.hole for e in shown.pegs()}
    assert lit[("B", "front")] == 2
    image = api.get("/api/leds.png")
    assert image.status_code == 200 and image.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert image.headers["Cache-Control"] == "no-store"


def test_no_leds_no_picture(api: Api) -> None:
    assert api.get("/api/leds.png").status_code == 404


def read_events(chunks: object, wanted: int) -> list[tuple[str, dict]]:
    out: list[tuple[str, dict]] = []
    for chunk in chunks:  # type: ignore[attr-defined]
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        for block in text.split("\n\n"):
            kind = re.search(r"^event: (\w+)$", block, re.M)
            data = re.search(r"^data: (.*)$", block, re.M)
            if kind and data:
                out.append((kind.group(1), json.loads(data.group(1))))
        if len(out) >= wanted:
            break
    return out


def test_the_stream_sends_the_state_then_every_change(
    companion: Companion, tmp_path: Path
) -> None:
    app = create_app(companion, {"DATA_DIR": tmp_path, "SSE_HEARTBEAT": 0.05,
                                 "SSE_MAX_AGE": 5})
    api = Api(app.test_client())
    game = api.new_game()
    other = api.new_game(players=["Carol", "Dave"])
    response = app.test_client().get(f"/api/stream?game={game}", buffered=False)
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    chunks = iter(response.response)
    first = read_events(chunks, 1)
    assert first[0][0] == "state" and first[0][1]["game_id"] == game
    api.event(other, {"type": "dealer", "seat": "A"})  # another game: not sent to this page
    api.event(game, {"type": "dealer", "seat": "B"})
    got = read_events(chunks, 1)
    assert got[0][0] == "state"
    assert got[0][1]["game_id"] == game and got[0][1]["state"]["dealer"] == "B"
    api.new_game(players=["Eve", "Finn"])
    got = read_events(chunks, 1)
    assert got[0] == ("games", {"latest": 3})
    response.close()
    assert app.extensions["crib"].hub.open_streams == 0


def test_when_the_live_pages_are_full_the_page_polls(companion: Companion, tmp_path: Path) -> None:
    app = create_app(companion, {"DATA_DIR": tmp_path, "MAX_STREAMS": 1, "SSE_HEARTBEAT": 0.05})
    first = app.test_client().get("/api/stream", buffered=False)
    next(iter(first.response))
    second = app.test_client().get("/api/stream")
    assert second.status_code == 503 and second.get_json()["poll"] is True
    first.close()
    third = app.test_client().get("/api/stream", buffered=False)
    assert third.status_code == 200
    third.close()


def test_stream_of_a_missing_game_is_404(app: Flask) -> None:
    assert app.test_client().get("/api/stream?game=42").status_code == 404
    assert app.extensions["crib"].hub.open_streams == 0


def test_the_page_and_its_files(api: Api) -> None:
    page = api.get("/")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert f'name="csrf-token" content="{api.csrf}"' in html
    assert 'accept="image/*" capture' in html
    for url in re.findall(r'(?:src|href)="(/[^"]*)"', html):
        assert api.get(url).status_code == 200, url
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html


def test_nothing_is_loaded_from_outside(api: Api) -> None:
    for name in ("app.js", "photo.js", "app.css"):
        text = api.get(f"/static/{name}").get_data(as_text=True)
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), name
        assert "@import" not in text and "cdn" not in text.lower()


def test_game_pages(api: Api) -> None:
    game = api.new_game()
    assert f'data-game="{game}"' in api.get(f"/games/{game}").get_data(as_text=True)
    missing = api.get("/games/77")
    assert missing.status_code == 404 and missing.mimetype == "text/html"
    assert "Back to the table" in missing.get_data(as_text=True)
    assert api.get("/nowhere").status_code == 404
    assert api.client.delete("/api/games").status_code == 405


def test_first_load_is_under_100_kb(api: Api) -> None:
    api.new_game()
    html = api.get("/").data
    urls = re.findall(rb'(?:src|href)="(/[^"]*)"', html)
    total = len(html) + sum(len(api.get(u.decode()).data) for u in urls)
    total += len(api.get("/api/games/latest").data)
    total += len(api.get("/api/board.svg?tracks=3&target=121").data)
    assert total < 100_000, total


def test_leds_for_three_players_and_for_partners(sim_companion: Companion, tmp_path: Path) -> None:
    api = Api(create_app(sim_companion, {"DATA_DIR": tmp_path}).test_client())
    three = api.new_game(players=["Ann", "Ben", "Cat"], variant="three-player")
    api.event(three, {"type": "dealer", "seat": "C"})
    api.event(three, {"type": "starter", "card": "JH"})  # heels: Cat, on the third track
    assert sim_companion.wait_leds()
    frame = sim_companion.leds.output.latest_frame
    assert frame.leds == BoardLayout.standard(tracks=3).led_count
    assert {(e.seat, e.peg): e.hole for e in frame.pegs()}[("C", "front")] == 2
    four = api.new_game(players=["Ann", "Ben", "Cat", "Dan"], variant="four-player")
    state = api.event(four, {"type": "dealer", "seat": "B"})["state"]
    assert [s["id"] for s in state["sides"]] == ["AC", "BD"]
    state = api.event(four, {"type": "starter", "card": "JS"})["state"]
    assert state["scores"] == {"AC": 0, "BD": 2}
    assert sim_companion.wait_leds()
    frame = sim_companion.leds.output.latest_frame
    assert frame.leds == BoardLayout.standard(tracks=2).led_count
    assert {(e.seat, e.peg): e.hole for e in frame.pegs()}[("B", "front")] == 2
