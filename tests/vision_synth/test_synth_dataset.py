"""make_dataset writes images and labels.json in the shared format, reproducibly."""

from __future__ import annotations

import json

import cv2

from vision.synth import make_dataset, scene
from vision.synth.decks import procedural_deck

SHARED_FIELDS = {"cards", "kind", "group", "width", "height", "scene", "deck", "overlap", "n_cards"}
KINDS = {"photo_single", "photo_single_crop", "photo_multi", "photo_multi_overlap", "webcam_frame_empty"}


def _use_procedural(monkeypatch):
    monkeypatch.setattr(scene, "default_decks", lambda split="train": [procedural_deck(s) for s in range(2)])
    monkeypatch.setattr(make_dataset, "default_decks", scene.default_decks)


def test_dataset_is_written_and_reproducible(tmp_path, monkeypatch, capsys):
    _use_procedural(monkeypatch)
    args = ["--n", "8", "--seed", "5", "--width", "320", "--height", "240"]
    assert make_dataset.main(["--out", str(tmp_path / "a"), *args]) == 0
    assert make_dataset.main(["--out", str(tmp_path / "b"), *args]) == 0
    assert "scenes/s" in capsys.readouterr().out
    labels = json.loads((tmp_path / "a" / "labels.json").read_text())
    assert len(labels) == 8
    for name, rec in labels.items():
        assert set(rec) >= SHARED_FIELDS
        assert rec["kind"] in KINDS
        img = cv2.imread(str(tmp_path / "a" / name))
        assert img.shape[:2] == (rec["height"], rec["width"])
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
        for truth in rec["card_truth"]:
            assert len(truth["quad"]) == 4
        assert sorted(rec["cards"]) == sorted(t["card"] for t in rec["card_truth"] if t["indices"])
    assert labels == json.loads((tmp_path / "b" / "labels.json").read_text())


def test_bad_arguments_exit_2(tmp_path, capsys):
    assert make_dataset.main(["--out", str(tmp_path), "--n", "0"]) == 2
    assert make_dataset.main(["--out", str(tmp_path), "--n", "2", "--layouts", "pyramid"]) == 2
    assert make_dataset.main(["--n", "2"]) == 2
    assert not (tmp_path / "labels.json").exists()


def test_the_sets_leave_out_the_training_backs_unless_asked(tmp_path, monkeypatch):
    """The held-out sets measured over many versions render the same scenes: "backs" is asked for."""
    _use_procedural(monkeypatch)
    assert "backs" not in make_dataset.DEFAULT_LAYOUTS
    assert make_dataset.main(["--out", str(tmp_path), "--n", "3", "--seed", "2", "--width", "320",
                              "--height", "240", "--layouts", "backs"]) == 0
    labels = json.loads((tmp_path / "labels.json").read_text())
    assert [r["kind"] for r in labels.values()] == ["webcam_frame_empty"] * 3
    assert all(r["scene"].startswith("synthetic backs") for r in labels.values())
