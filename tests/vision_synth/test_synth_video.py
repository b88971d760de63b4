"""Deal videos (vision/synth/video.py): the truth's frames, the cards where it says, turn-down
resets, determinism, the golden deals' legality, and the card reader on a still frame."""

from __future__ import annotations

import doctest
import importlib
import itertools
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synth.deals import (
    GOLDEN_DEAL_1,
    GOLDEN_DEAL_2,
    golden_events,
    golden_script,
    new_game,
    script_from_events,
)
from vision.synth.decks import procedural_deck
from vision.synth.video import render_video

SHORT = [
    {"do": "deal", "dealer": "A"},
    {"do": "starter", "card": "JH"},
    {"do": "play", "seat": "B", "card": "7S"},
    {"do": "play", "seat": "A", "card": "KD"},
    {"do": "reset"},
]
DECK = procedural_deck(7)


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, list[np.ndarray], Path]:
    """The short script at 640x360 with turn-down resets, as an MJPG AVI; its truth and frames."""
    path = tmp_path_factory.mktemp("video") / "short.avi"
    render_video(SHORT, path, deck=DECK, size=(640, 360), reset="turn-down", seed=3)
    truth = json.loads(Path(str(path) + ".truth.json").read_text())
    cap = cv2.VideoCapture(str(path))
    frames = []
    while True:
        ok, f = cap.read()
        if not ok:
            break
        frames.append(f)
    cap.release()
    return truth, frames, path


def _upright(frame: np.ndarray, quad: list[list[float]], w: int = 60, h: int = 84) -> np.ndarray:
    """The card under ``quad`` (TL TR BR BL of its face) warped upright, grey."""
    src = np.float32(quad)
    m = cv2.getPerspectiveTransform(src, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return cv2.cvtColor(cv2.warpPerspective(frame, m, (w, h)), cv2.COLOR_BGR2GRAY).astype(np.float32)


def _corr(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6))


def _face(card: str | None, w: int = 60, h: int = 84) -> np.ndarray:
    img = DECK.render(card, 240) if card else DECK.back(240)
    assert img is not None
    a = img[..., 3:4] / 255.0
    bgr = (img[..., :3] * a + 255 * (1 - a)).astype(np.uint8)
    return cv2.cvtColor(cv2.resize(bgr, (w, h), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY).astype(
        np.float32
    )


def test_truth_frames_are_ordered_and_the_video_opens(short):
    truth, frames, path = short
    acts = truth["actions"]
    assert [a["do"] for a in acts] == [a["do"] for a in SHORT]
    assert acts[0]["start"] == 0 and acts[-1]["end"] == truth["frames"] - 1
    for a, b in itertools.pairwise(acts):
        assert b["start"] == a["end"] + 1
    for a in acts:
        assert a["start"] <= a["still"] <= a["end"]
    assert len(frames) == truth["frames"] and frames[0].shape == (360, 640, 3)
    cap = cv2.VideoCapture(str(path))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == truth["frames"]
    assert cap.get(cv2.CAP_PROP_FPS) == pytest.approx(10)
    cap.release()
    assert truth["fps"] == 10 and truth["size"] == [640, 360] and truth["reset"] == "turn-down"


def test_laid_cards_lie_still_where_the_truth_says(short):
    truth, frames, _ = short
    for act in truth["actions"][2:4]:
        (placed,) = act["placed"]
        quad = placed["quad"]
        f = act["still"]
        assert f + 3 <= act["end"]
        a, b = _upright(frames[f], quad), _upright(frames[f + 3], quad)
        assert float(np.abs(a - b).mean()) < 6, "the hand must have left the card at its still frame"
        face = _face(placed["card"])
        assert _corr(a, face) > 0.6
        # it lies the way the truth says (a 7 and a court are not symmetric under a half turn)
        assert _corr(a, face) > _corr(a, face[::-1, ::-1]) + 0.08
        # before the still frame a hand covers the card for a while
        covered = [float(np.abs(_upright(frames[i], quad) - a).mean()) for i in range(act["start"], f)]
        assert max(covered) > 15


def test_seat_b_cards_are_upside_down_and_rows_in_their_zones(short):
    truth, _frames, _ = short
    b_quad = np.array(truth["actions"][2]["placed"][0]["quad"])  # B's 7S
    a_quad = np.array(truth["actions"][3]["placed"][0]["quad"])  # A's KD
    # TL of the face: B's is at the bottom right of the card on screen, A's at the top left
    assert b_quad[0, 1] > b_quad[2, 1] and b_quad[0, 0] > b_quad[2, 0]
    assert a_quad[0, 1] < a_quad[2, 1] and a_quad[0, 0] < a_quad[2, 0]
    assert b_quad[:, 1].mean() < 0.5 * 360 and a_quad[:, 1].mean() > 0.5 * 360
    assert b_quad[:, 1].max() < 0.35 * 360 + 2 and a_quad[:, 1].min() > 0.65 * 360 - 2


def test_turn_down_shows_backs(short):
    truth, frames, _ = short
    reset = truth["actions"][-1]
    f = reset["still"]
    back = _face(None)
    for act in truth["actions"][2:4]:
        placed = act["placed"][0]
        seen = _upright(frames[f], placed["quad"])
        assert _corr(seen, back) > _corr(seen, _face(placed["card"])), placed["card"]
    down = [c for c in reset["table"] if c["owner"] in ("A", "B")]
    assert down and not any(c["face_up"] for c in down)


def test_deterministic_for_a_seed(tmp_path):
    acts = SHORT[:3]
    t1 = render_video(acts, tmp_path / "a", deck=DECK, size=(320, 180), seed=5)
    t2 = render_video(acts, tmp_path / "b", deck=DECK, size=(320, 180), seed=5)
    render_video(acts, tmp_path / "c", deck=DECK, size=(320, 180), seed=6)
    assert t1.to_json() == t2.to_json()
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(names) == t1.frames
    for n in names[::7]:
        assert (tmp_path / "a" / n).read_bytes() == (tmp_path / "b" / n).read_bytes()
    assert (tmp_path / "a" / names[-1]).read_bytes() != (tmp_path / "c" / names[-1]).read_bytes()


def test_golden_deals_are_legal_with_and_without_go_events():
    for with_go in (True, False):
        game = new_game()
        for e in [e for e in GOLDEN_DEAL_1 if with_go or e["type"] != "go"]:
            game = game.apply(e)
        assert game.scores == {"A": 22, "B": 7}  # computed by the engine, then fixed here
        assert game.dealer == "B"
        for e in [e for e in GOLDEN_DEAL_2 if with_go or e["type"] != "go"]:
            game = game.apply(e)
        assert game.scores == {"A": 29, "B": 19}
    assert any(e["type"] == "go" for e in GOLDEN_DEAL_1) and any(e["type"] == "go" for e in GOLDEN_DEAL_2)
    # deal 1: his heels, a 31, a go (B pegs last card); deal 2: a go
    game = new_game()
    items = []
    for e in golden_events():
        game = game.apply(e)
        items += [(a["seat"], a["kind"]) for a in game.to_json()["last"]]
    assert {("A", "heels"), ("A", "thirty-one"), ("B", "go"), ("A", "go")} <= set(items)


def test_script_from_events_marks_series_ends():
    acts = [a for a in golden_script("turn-down") if a["do"] != "hover"]  # the hovers added to it
    assert acts == script_from_events(golden_events(with_go=False), reset="turn-down")
    dos = [a["do"] for a in acts]
    assert dos.count("deal") == 2 and dos.count("clear") == 2 and dos.count("reset") == 4
    assert "go" not in dos
    # each reset comes after the last card of a series, and before the show after the play
    first = dos.index("reset")
    assert acts[first - 1] == {"do": "play", "seat": "B", "card": "AH"}
    assert [a["do"] for a in script_from_events(GOLDEN_DEAL_1, reset="none")].count("reset") == 0


def test_reader_reads_the_laid_card_from_a_still_frame(tmp_path):
    from vision.reader import read_cards

    acts = [
        {"do": "deal", "dealer": "B"},
        {"do": "play", "seat": "A", "card": "5S"},
        {"do": "play", "seat": "B", "card": "9H"},
    ]
    truth = render_video(acts, tmp_path / "frames", deck=DECK, seed=1)
    for act in truth.actions[1:]:
        frame = cv2.imread(str(tmp_path / "frames" / f"frame_{act['still']:05d}.jpg"))
        assert frame.shape == (720, 1280, 3)
        read = {c.card.name for c in read_cards(frame).cards}
        assert act["card"] in read
        assert read <= {"5S", "9H"}  # no card read from the backs, the pack or a hand


@pytest.mark.parametrize(
    "name", ["vision.synth.video", "vision.synth.hands", "vision.synth.deals", "vision.synth.effects"]
)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
