"""render_scene: every layout, sizes, determinism, and that the ground truth is right."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.synth.cards import is_red
from vision.synth.decks import procedural_deck
from vision.synth.scene import LAYOUTS, render_scene
from vision.synth.tables import table

DECKS = [procedural_deck(s) for s in range(3)]


def _scene(seed, layout, **kw):
    kw.setdefault("size", (640, 360))
    return render_scene(np.random.default_rng(seed), layout=layout, decks=DECKS, **kw)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_renders(layout):
    for seed in range(4):
        s = _scene(seed, layout)
        assert s.image.dtype == np.uint8 and s.image.ndim == 3
        if layout != "crop":
            assert s.image.shape[:2] == (360, 640)
        if layout in ("empty", "backs"):
            assert s.cards == [] and s.kind == "webcam_frame_empty"
        else:
            assert s.cards, (layout, seed)
            assert s.readable
        d = json.loads(s.to_json())
        assert d["width"] == s.image.shape[1] and d["layout"] == layout
        assert sorted(d["cards"]) == sorted(c.card for c in s.readable)


def test_unknown_layout_is_refused():
    with pytest.raises(ValueError):
        _scene(0, "pyramid")


def test_same_seed_same_scene():
    for layout in LAYOUTS:
        a, b = _scene(7, layout), _scene(7, layout)
        assert np.array_equal(a.image, b.image)
        assert a.to_json() == b.to_json()
    assert not np.array_equal(_scene(7, "row").image, _scene(8, "row").image)


def test_card_width_range_is_respected():
    for seed in range(6):
        s = _scene(seed, "single", size=(1280, 720), card_width=(60, 400))
        for c in s.cards:
            w = float(np.linalg.norm(c.quad[1] - c.quad[0]))
            assert 40 < w < 480, w  # perspective changes the width a little across the card


def _inside(quad, pt):
    return cv2.pointPolygonTest(quad.astype(np.float32), (float(pt[0]), float(pt[1])), False) >= 0


@pytest.mark.parametrize("layout", ["row", "fan", "hand"])
def test_covered_indices_are_not_listed(layout):
    for seed in range(6):
        s = _scene(seed, layout)
        for i, c in enumerate(s.cards):
            above = s.cards[i + 1 :]
            for q in c.index_boxes:
                covered = any(_inside(o.quad, q.mean(axis=0)) for o in above)
                listed = any(np.allclose(q, v) for v in c.indices)
                if covered:
                    assert not listed, (layout, seed, c.card)
            for q in c.indices:  # a listed index is uncovered at all its corners (inset a little)
                centre = q.mean(axis=0)
                for p in q:
                    inset = centre + 0.6 * (p - centre)
                    assert not any(_inside(o.quad, inset) for o in above), (layout, seed, c.card)


@pytest.mark.parametrize("layout", ["single", "row", "fan", "hand", "crop"])
def test_visible_index_boxes_hold_ink_of_the_suit_colour(layout, ink_ok):
    """Without photo effects, the pixels inside each listed index quad show the index ink."""
    checked = 0
    for seed in range(5):
        s = _scene(seed, layout, effects=0.0)
        for c in s.cards:
            for q in c.indices:
                mask = np.zeros(s.image.shape[:2], np.uint8)
                cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 1)
                if mask.sum() < 30:
                    continue
                assert ink_ok(s.image[mask > 0][None], is_red(c.card)), (layout, seed, c.card)
                checked += 1
    assert checked > 0


def test_row_leaves_each_covered_card_an_index():
    for seed in range(6):
        s = _scene(seed, "row")
        assert len(s.cards) >= 2
        for c in s.cards[:-1]:
            assert c.visible_fraction < 0.95
        assert all(c.indices for c in s.cards), seed
        assert s.kind == "photo_multi_overlap"


def test_hand_has_a_starter_apart():
    found = 0
    for seed in range(6):
        s = _scene(seed, "hand")
        if len(s.cards) == 5:
            found += 1
            starter = s.cards[4]
            assert starter.visible_fraction > 0.9
            for other in s.cards[:4]:
                inter, _ = cv2.intersectConvexConvex(starter.quad, other.quad)
                assert inter < 1
    assert found >= 3


def test_crop_is_the_card():
    s = _scene(2, "crop")
    h, w = s.image.shape[:2]
    q = s.cards[0].quad
    assert abs(cv2.contourArea(q)) > 0.8 * w * h
    assert s.kind == "photo_single_crop"


def test_a_backs_scene_lays_face_down_cards_on_the_table():
    """The backs lie on the table: the frame differs from the same table without them, and no face
    is labelled (training takes every candidate on them as "none")."""
    for seed in range(3):
        s = _scene(seed, "backs", effects=0.0)
        assert s.cards == []
        rng = np.random.default_rng(seed)
        rng.integers(len(DECKS))  # the deck, as render_scene draws it first; then the table
        bare, _ = table(rng, (640, 360))
        changed = np.abs(s.image.astype(int) - bare.astype(int)).max(axis=2) > 40
        assert changed.mean() > 0.01, seed
