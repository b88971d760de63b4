"""Deal videos of three and four players, scripts of any game, whole games and the golden
scenarios (vision/synth/video.py, deals.py, golden.py): every row in its seat's zone, facing its
seat, each card over two thirds of the one before with its index clear; the crib spread a third
overlapped in the centre; the hands from each seat's edge; the whole game to 121."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from cribbage.cards import PACK
from cribbage.errors import RuleError
from cribbage.game import Game, Settings
from vision.synth.deals import game_script, script_from_events, settings_of
from vision.synth.decks import procedural_deck
from vision.synth.golden import SCENARIOS, golden_name, golden_video
from vision.synth.video import LAYOUTS, _Planner, players_of, render_video
from vision.track.zones import Zones

DECK = procedural_deck(7)
SIZE = (320, 180)
CW = 130 * SIZE[0] / 1280
CARDS = [card.name for card in PACK]


def _table_script(players: int, dealer: str, per_seat: int = 4) -> list[dict[str, Any]]:
    """A deal with ``per_seat`` cards laid by each seat in turn, the shows and the crib."""
    seats = list(LAYOUTS[players])
    cards = iter(CARDS)
    acts: list[dict[str, Any]] = [{"do": "deal", "dealer": dealer}, {"do": "starter", "card": next(cards)}]
    for _ in range(per_seat):
        acts += [{"do": "play", "seat": s, "card": next(cards)} for s in seats]
    acts.append({"do": "reset"})
    acts += [{"do": "show", "seat": s} for s in seats]
    acts += [{"do": "crib", "cards": [next(cards) for _ in range(4)]}, {"do": "clear"}]
    return acts


@pytest.fixture(scope="module", params=[(3, "A"), (3, "C"), (4, "B"), (4, "C"), (4, "D")],
                ids=lambda p: f"{p[0]}p-dealer-{p[1]}")
def table(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, dict]:
    players, dealer = request.param
    path = tmp_path_factory.mktemp("players") / "frames"
    truth = render_video(_table_script(players, dealer), path, deck=DECK, size=SIZE, seed=players,
                         reset="keep", crib_overlap=1 / 3)
    return players, dealer, json.loads(Path(truth.path).read_text())


def _centre(quad: list[list[float]]) -> tuple[float, float]:
    q = np.array(quad)
    return float(q[:, 0].mean()), float(q[:, 1].mean())


def _inside(quad: list[list[float]], rect: tuple[float, ...], slack: float = 1.0) -> bool:
    q = np.array(quad)
    w, h = SIZE
    return bool(q[:, 0].min() >= rect[0] * w - slack and q[:, 0].max() <= rect[2] * w + slack
                and q[:, 1].min() >= rect[1] * h - slack and q[:, 1].max() <= rect[3] * h + slack)


def _overlaps_centre(quad: list[list[float]]) -> bool:
    w, h = SIZE
    m = np.zeros((h * 4, w * 4), np.uint8)
    cv2.fillConvexPoly(m, np.round(np.array(quad) * 4).astype(np.int32), 1)
    c = Zones.default(2).centre
    y0, y1 = round(c[1] * h * 4) + 1, round(c[3] * h * 4) - 1
    x0, x1 = round(c[0] * w * 4) + 1, round(c[2] * w * 4) - 1
    return bool(m[y0:y1, x0:x1].any())


def _index_point(quad: list[list[float]]) -> np.ndarray:
    """A point in the top-left index of a face (as its seat sees it)."""
    q = np.array(quad)
    return q[0] + 0.1 * (q[1] - q[0]) + 0.12 * (q[3] - q[0])


def test_layouts_are_the_default_zones():
    for n, seats in LAYOUTS.items():
        zones = Zones.default(n)
        assert [s for s, _ in zones.seats] == list(seats)
        for s, lay in seats.items():
            assert zones.seat(s) == lay.zone
    assert players_of([{"do": "play", "seat": "D", "card": "5S"}]) == 4
    assert players_of([{"do": "deal", "dealer": "A"}]) == 2


def test_each_row_lies_in_its_zone_facing_its_seat(table):
    players, _dealer, truth = table
    zones = Zones.default(players)
    assert truth["players"] == players
    assert truth["seats"] == {s: list(lay.zone) for s, lay in LAYOUTS[players].items()}
    plays = [a for a in truth["actions"] if a["do"] == "play"]
    rows: dict[str, list[list[list[float]]]] = {}
    for a in plays:
        quad = a["placed"][0]["quad"]
        seat = a["seat"]
        x, y = _centre(quad)
        assert zones.zone_of(x, y, *SIZE) == seat, (seat, x, y)
        ix, iy = _index_point(quad)
        assert zones.zone_of(ix, iy, *SIZE) in (seat, "A", "C"), "the index lies off the centre"
        assert _inside(quad, LAYOUTS[players][seat].zone, slack=2.0), (seat, quad)
        assert not _overlaps_centre(quad), (seat, quad)
        # the card faces its seat: its top edge (TL -> TR) runs along the seat's angle
        q = np.array(quad)
        ang = np.degrees(np.arctan2(q[1, 1] - q[0, 1], q[1, 0] - q[0, 0]))
        diff = (ang - LAYOUTS[players][seat].angle + 180) % 360 - 180
        assert abs(diff) <= 7, (seat, ang)
        rows.setdefault(seat, []).append(quad)
    assert sorted(rows) == list(LAYOUTS[players]) and all(len(r) == 4 for r in rows.values())
    for seat, row in rows.items():
        along = np.array(LAYOUTS[players][seat].along)
        for prev, nxt in itertools.pairwise(row):
            step = float(np.dot(np.subtract(_centre(nxt), _centre(prev)), along)) / CW
            assert 0.27 <= step <= 0.39, (seat, step)  # covers about two thirds of the one before
            inside = cv2.pointPolygonTest(np.float32(nxt), tuple(map(float, _index_point(prev))), False)
            assert inside < 0, f"{seat}: the next card covers the index of the one before"


def test_the_crib_spread_overlaps_by_a_third_in_the_centre(table):
    players, dealer, truth = table
    (crib,) = [a for a in truth["actions"] if a["do"] == "crib"]
    quads = [c["quad"] for c in crib["placed"]]
    assert len(quads) == 4
    for q in quads:
        x, y = _centre(q)
        assert Zones.default(players).zone_of(x, y, *SIZE) == "centre"
    along = np.array(LAYOUTS[players][dealer].along)
    steps = [float(np.dot(np.subtract(_centre(b), _centre(a)), along)) / CW
             for a, b in itertools.pairwise(quads)]
    if along[0]:  # spread across the frame: each covers a third of the one before
        assert all(0.6 <= s <= 0.73 for s in steps), steps
    else:  # down a side of the frame: as much as the centre zone's height allows
        assert all(0.35 <= s <= 0.73 for s in steps), steps
    # the starter (on the pack) keeps clear of the crib spread
    (starter,) = [a for a in truth["actions"] if a["do"] == "starter"]
    sq = np.float32(starter["placed"][0]["quad"])
    for q in quads:
        assert cv2.pointPolygonTest(np.float32(q), tuple(map(float, _index_point(sq))), False) < 0


@pytest.mark.parametrize("players", [3, 4])
def test_each_hand_reaches_in_from_its_seats_edge(players):
    plan = _Planner((1280, 720), 10, 130, 1.4, "keep", np.random.default_rng(0), players)
    plan.act({"do": "deal", "dealer": "A"})
    for seat, lay in LAYOUTS[players].items():
        frames, _ = plan.act({"do": "play", "seat": seat, "card": CARDS[ord(seat) - 65]})
        first = next(f.poses[0] for f in frames if f.poses)
        gx, gy = first.grip
        edge = {(1.0, 0.0): gy > 720, (-1.0, 0.0): gy < 0, (0.0, 1.0): gx < 0, (0.0, -1.0): gx > 1280}
        assert edge[lay.along], (seat, first.grip)
        assert all(p.seat == seat for f in frames for p in f.poses)


@pytest.mark.parametrize(
    ("settings", "variant", "seats", "kept"),
    [
        ({"players": "Ann,Bob"}, "six-card", "AB", 4),
        ({"players": "Ann,Bob,Cat"}, "three-player", "ABC", 4),
        ({"players": "Ann,Bob,Cat,Dan", "partners": True}, "four-player", "ABCD", 4),
        ({"players": "Ann,Bob", "variant": "five-card"}, "five-card", "AB", 3),
    ],
)
def test_scripts_from_any_game(settings, variant, seats, kept):
    g = game_script(settings, 5, deals=2)
    assert g.settings["variant"] == variant and g.deals == 2
    acts = g.actions
    assert [a["do"] for a in acts].count("deal") == 2 and acts[-1] == {"do": "clear"}
    plays = [a for a in acts if a["do"] == "play"]
    assert {a["seat"] for a in plays} == set(seats)
    if variant == "five-card":  # one series: the play ends when no card fits under 31
        assert 2 * len(seats) * 2 <= len(plays) <= 2 * len(seats) * kept
    else:
        assert len(plays) == 2 * len(seats) * kept
    assert len([e for e in g.events if e["type"] == "play"]) == len(plays)
    assert not [e for e in g.events if e["type"] == "go"]
    assert all(len(a["cards"]) == 4 for a in acts if a["do"] == "crib")
    # the script of the events is the same through script_from_events with the settings
    assert script_from_events(g.legal_events, settings=settings_of(settings)) == acts
    # the legal events replay to the scores
    game = Game(Settings.from_json(g.settings))
    for e in g.legal_events:
        game = game.apply(e)
    assert game.scores == g.scores


def test_a_whole_game_ends():
    g = game_script({"players": "Ann,Bob"}, SCENARIOS["whole"].seed)
    assert g.over and max(g.scores.values()) == 121 and 8 <= g.deals <= 10
    assert g.events == g.legal_events  # the camera sees the game end
    assert [a["do"] for a in g.actions].count("deal") == g.deals
    game = Game(Settings.from_json(g.settings))
    for e in g.events:
        game = game.apply(e)
    assert game.phase == "over"


def test_settings_are_inferred_from_the_players():
    assert settings_of({"players": "Ann,Bob,Cat"}).variant.name == "three-player"
    assert settings_of({"players": "Ann,Bob,Cat,Dan"}).variant.partners
    with pytest.raises(RuleError, match="4 players, not 2"):
        settings_of({"players": "Ann,Bob", "partners": True})
    with pytest.raises(ValueError, match="partners"):
        settings_of({"players": "Ann,Bob,Cat", "partners": True, "variant": "three-player"})


def test_golden_names_carry_the_scenario_and_the_effects():
    base = golden_name("procedural-7", "keep", ".mp4")
    assert base.startswith("golden-procedural-7-keep-")
    names = {base, golden_name("procedural-7", "keep", ".mp4", scenario="three"),
             golden_name("procedural-7", "keep", ".mp4", scenario="three", effects={"low_light": 1}),
             golden_name("procedural-7", "keep", ".mp4", effects={"flicker": 0.1}),
             golden_name("procedural-7", "keep", ".mp4", size=(320, 180))}
    assert len(names) == 5
    with pytest.raises(ValueError, match="no scenario"):
        golden_name("procedural-7", "keep", ".mp4", scenario="nine")


def test_a_golden_scenario_is_rendered_once_with_its_game(tmp_path):
    path, truth = golden_video("procedural-7", "keep", "", cache=tmp_path, scenario="four", size=SIZE)
    stamp = os.stat(str(path) + ".truth.json").st_mtime_ns
    again, _ = golden_video("procedural-7", "keep", "", cache=tmp_path, scenario="four", size=SIZE)
    assert again == path and os.stat(str(path) + ".truth.json").st_mtime_ns == stamp
    for key in ("events", "legal_events", "settings", "players", "variant", "dealer", "scores", "over",
                "scenario", "actions", "frames", "render_seconds", "crib_overlap"):
        assert key in truth, key
    assert truth["scenario"] == "four" and truth["variant"] == "four-player" and truth["players"] == [
        "Ann", "Bob", "Cat", "Dan"]
    assert sorted(truth["scores"]) == ["AC", "BD"] and truth["crib_overlap"] == pytest.approx(1 / 3)
    plays = [a for a in truth["actions"] if a["do"] == "play"]
    assert [(a["seat"], a["card"]) for a in plays] == [
        (e["seat"], e["card"]) for e in truth["events"] if e["type"] == "play"]
    assert len(list(path.iterdir())) == truth["frames"]


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["three", "four", "whole", "five-card"])
def test_golden_scenarios_at_full_size(scenario):
    path, truth = golden_video(scenario=scenario, progress=True)
    cap = cv2.VideoCapture(str(path))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == truth["frames"]
    cap.release()
    assert truth["scenario"] == scenario and truth["size"] == [1280, 720]
    if scenario == "whole":
        assert truth["over"] and max(truth["scores"].values()) == 121
