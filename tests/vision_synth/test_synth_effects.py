"""Real-camera effects of the deal videos (vision/synth/effects.py), each measured in the frames:
low light (darker, noisier), exposure/white-balance drift (and its step when a hand comes in),
flicker bands that roll, a bump that shakes the picture, a tilted camera (the truth's quads
follow it), a lamp's shadow and warm cast, H.264 at a bounded bit rate, the new tables; all
deterministic for a seed."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.synth import effects as fx_module
from vision.synth.decks import procedural_deck
from vision.synth.effects import Effects, ffmpeg_path
from vision.synth.tables import table
from vision.synth.video import render_video

DECK = procedural_deck(7)
SIZE = (320, 180)
# two seconds of empty table, a deal and A's two cards, then four seconds still
SCRIPT: list[dict[str, Any]] = [
    {"do": "pause", "seconds": 2.0},
    {"do": "deal", "dealer": "A"},
    {"do": "play", "seat": "A", "card": "7S"},
    {"do": "play", "seat": "A", "card": "KD"},
    {"do": "pause", "seconds": 4.0},
]


def _render(tmp: Path, name: str, effects: dict[str, Any] | None = None, script=SCRIPT, **kw: Any):
    out = tmp / name
    truth = render_video(script, out, deck=DECK, size=SIZE, seed=4, table="laminate", effects=effects, **kw)
    frames = [cv2.imread(str(p)).astype(np.float32) for p in sorted(out.iterdir())]
    return truth.to_json(), frames


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory):
    """The script with no effects: the reference each effect is measured against."""
    return _render(tmp_path_factory.mktemp("plain"), "plain")


def _last_pause(truth: dict[str, Any]) -> range:
    act = truth["actions"][-1]
    return range(act["still"], act["end"] + 1)


def test_effects_json_round_trip_and_unknown_keys():
    e = Effects.from_json({"flicker": 0.1, "bumps": [1, 2], "h264_kbps": 500})
    assert Effects.from_json(e.to_json()) == e and e.any and not Effects().any
    assert Effects(low_light=1).merged({"tilt": 5}).to_json() == {"low_light": 1.0, "tilt": 5.0}
    with pytest.raises(ValueError, match="unknown effect 'fog'"):
        Effects.from_json({"fog": 1})


def test_low_light_is_darker_and_noisier(tmp_path, plain):
    truth, frames = _render(tmp_path, "dim", {"low_light": 1.0})
    p_truth, p_frames = plain
    still = _last_pause(truth)
    assert still == _last_pause(p_truth)

    def noise(fs: list[np.ndarray]) -> float:  # frame-to-frame differences on the still table
        return float(np.mean([np.std(fs[k + 1] - fs[k]) for k in list(still)[:-1]]))

    assert np.mean(frames[still[0]]) < 0.7 * np.mean(p_frames[still[0]])
    assert noise(frames) > 2 * noise(p_frames)


def test_drift_wanders_and_steps_when_a_hand_comes_in(tmp_path, plain):
    script = [{"do": "pause", "seconds": 20.0}, *SCRIPT[1:3]]
    truth, frames = _render(tmp_path, "drift", {"drift": 1.0}, script=script)
    _, p_frames = _render(tmp_path, "drift-plain", None, script=script)
    corner = (slice(0, 30), slice(0, 50))  # the top left: no hand of A's reaches it
    ratio = np.array([f[corner].mean() / g[corner].mean() for f, g in zip(frames, p_frames, strict=True)])
    pause = ratio[: truth["actions"][0]["end"] + 1]
    assert pause.max() - pause.min() > 0.04, "the exposure should wander over 20 s"
    diffs = np.abs(np.diff(pause))
    assert diffs.max() < 0.01, "... slowly"
    deal = truth["actions"][1]
    first_hand = deal["start"] + next(
        i for i, f in enumerate(frames[deal["start"] :]) if np.abs(f - p_frames[deal["start"] + i]).max() > 0
        and np.abs(f[100:] - frames[deal["start"] - 1][100:]).mean() > 0.5
    )
    assert ratio[first_hand + 6] < ratio[deal["start"] - 1] - 0.03, "the exposure steps down with a hand"


def test_flicker_bands_roll_between_frames(tmp_path, plain):
    truth, frames = _render(tmp_path, "flicker", {"flicker": 0.1})
    _, p_frames = plain
    profiles = []
    for k in list(_last_pause(truth))[:6]:
        rows = frames[k].mean(axis=(1, 2)) / p_frames[k].mean(axis=(1, 2))
        profiles.append(rows - rows.mean())
        assert np.std(rows) > 0.04
        spectrum = np.abs(np.fft.rfft(rows - rows.mean()))
        assert int(np.argmax(spectrum)) in (3, 4)  # 100 Hz light, 1/30 s readout: ~3.3 bands a frame
    moved = [1 - float(np.corrcoef(a, b)[0, 1]) for a, b in itertools.pairwise(profiles)]
    assert max(moved) > 0.02, "the bands should move between frames"


def test_a_bump_shakes_the_picture_for_a_few_frames(tmp_path):
    truth, frames = _render(tmp_path, "bump", {"bumps": [0.8], "bump_px": 16})
    assert truth["bumps"] == [{"start": 8, "end": 12}]

    def shift(a: np.ndarray, b: np.ndarray) -> float:
        ga, gb = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY), cv2.cvtColor(b, cv2.COLOR_BGR2GRAY)
        (dx, dy), _ = cv2.phaseCorrelate(ga, gb)
        return float(np.hypot(dx, dy))

    moved = [shift(frames[0], frames[k]) for k in range(1, 19)]
    assert max(moved[7:12]) > 2.0
    assert max(moved[:6] + moved[13:]) < 0.5


def test_a_tilted_camera_and_its_truth(tmp_path):
    script = [*SCRIPT[1:3], {"do": "play", "seat": "B", "card": "QH"}, {"do": "pause", "seconds": 1}]
    truth, frames = _render(tmp_path, "tilt", {"tilt": 10.0}, script=script)
    a_card = truth["actions"][1]["placed"][0]
    b_card = truth["actions"][2]["placed"][0]

    def size(q: list[list[float]]) -> float:
        return float(np.sqrt(cv2.contourArea(np.float32(q))))

    assert size(b_card["quad"]) < 0.97 * size(a_card["quad"]), "the far side looks smaller"
    assert len(truth["tilt_homography"]) == 3
    # the card lies where the truth's (tilted) quad says
    face = DECK.render("7S", 120)
    a = face[..., 3:4] / 255.0
    face = cv2.cvtColor((face[..., :3] * a + 255 * (1 - a)).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    face = cv2.resize(face, (60, 84)).astype(np.float32)
    upright = np.float32([[0, 0], [60, 0], [60, 84], [0, 84]])
    m = cv2.getPerspectiveTransform(np.float32(a_card["quad"]), upright)
    seen = cv2.cvtColor(cv2.warpPerspective(frames[-1].astype(np.uint8), m, (60, 84)), cv2.COLOR_BGR2GRAY)
    seen = seen.astype(np.float32)
    corr = np.corrcoef(seen.ravel(), face.ravel())[0, 1]
    assert corr > 0.6


def test_the_lamps_shadow_band_and_warm_light(tmp_path, plain):
    truth, frames = _render(tmp_path, "lamp", {"shadow": 0.4, "warm": 1.0})
    _, p_frames = plain
    k = _last_pause(truth)[0]
    def lit(j: int) -> np.ndarray:
        return cv2.GaussianBlur(frames[j].mean(axis=2) / np.maximum(p_frames[j].mean(axis=2), 1), (0, 0), 3)

    ratio = lit(k)
    assert ratio.min() < 0.75 and np.percentile(ratio, 90) > 0.95, "a darker band, the rest lit"
    again = lit(k + 3)
    assert np.abs(ratio - again).mean() < 0.02, "the band stays put"
    warm = frames[k][..., 2].mean() / frames[k][..., 0].mean()
    cool = p_frames[k][..., 2].mean() / p_frames[k][..., 0].mean()
    assert warm > 1.15 * cool


@pytest.mark.skipif(ffmpeg_path() is None, reason="ffmpeg is not installed (apt-get install ffmpeg)")
def test_h264_at_a_bounded_bit_rate_decodes(tmp_path):
    kbps = 300
    out = tmp_path / "phone.mp4"
    truth = render_video(SCRIPT, out, deck=DECK, size=SIZE, seed=4, effects={"h264_kbps": kbps})
    assert truth.to_json()["codec"] == "h264"
    cap = cv2.VideoCapture(str(out))
    fourcc = int(cap.get(cv2.CAP_PROP_FOURCC)).to_bytes(4, "little").decode(errors="replace").lower()
    n = 0
    while cap.read()[0]:
        n += 1
    cap.release()
    assert fourcc in ("avc1", "h264") and n == truth.frames
    seconds = truth.frames / truth.fps
    assert out.stat().st_size < 1.3 * kbps * 1000 / 8 * seconds + 20_000
    again = tmp_path / "again.mp4"
    render_video(SCRIPT, again, deck=DECK, size=SIZE, seed=4, effects={"h264_kbps": kbps})
    assert again.read_bytes() == out.read_bytes()


def test_h264_without_ffmpeg_falls_back_to_mp4v_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr("vision.synth.video.ffmpeg_path", lambda: None)
    with pytest.warns(RuntimeWarning, match="needs ffmpeg"):
        truth = render_video(SCRIPT[:2], tmp_path / "v.mp4", deck=DECK, size=SIZE, effects={"h264_kbps": 300})
    assert truth.to_json()["codec"] == "mp4v"
    assert fx_module.ffmpeg_path is not None
    with pytest.raises(ValueError, match="mp4"):
        render_video(SCRIPT[:2], tmp_path / "frames", deck=DECK, size=SIZE, effects={"h264_kbps": 300})


def test_effects_are_deterministic_for_a_seed(tmp_path):
    every = {"low_light": 0.5, "drift": 0.7, "flicker": 0.08, "bumps": [1.0], "tilt": 8.0, "shadow": 0.25,
             "warm": 0.5}
    one = _render(tmp_path, "one", every, script=SCRIPT[:3])
    two = _render(tmp_path, "two", every, script=SCRIPT[:3])
    assert one[0] == two[0]
    for a, b in zip(one[1], two[1], strict=True):
        assert np.array_equal(a, b)
    other = render_video(SCRIPT[:3], tmp_path / "three", deck=DECK, size=SIZE, seed=5, effects=every)
    assert json.loads(Path(other.path).read_text())["actions"] != one[0]["actions"]


def test_the_new_tables():
    rng = np.random.default_rng
    maple, _ = table(rng(2), (160, 90), "maple")
    b, g, r = (float(maple[..., c].mean()) for c in range(3))
    assert r > g > b and g > 0.6 and maple.mean(axis=2).std() < 0.05  # light, yellowish, quiet grain
    white, _ = table(rng(2), (160, 90), "white_laminate")
    assert white.mean() > 0.8 and np.ptp(white.reshape(-1, 3).mean(axis=0)) < 0.08 and white.std() < 0.04
    dark, _ = table(rng(2), (160, 90), "wood_dark")
    assert dark.mean() < 0.3
    cloth, _ = table(rng(2), (320, 180), "white_cloth")  # as white as a card, its weave and folds shading it
    assert cloth.mean() > 0.8 and np.ptp(cloth.reshape(-1, 3).mean(axis=0)) < 0.08
    assert 0.01 < cloth.std() < 0.1
