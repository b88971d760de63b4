"""``crib vision eval DIR``: the reader measured on a labelled folder, and its miss report."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main


@pytest.fixture(scope="module")
def folder(tmp_path_factory, make_scene):
    """Three photos the tests draw, one of them labelled wrong on purpose (a 9C the photo lacks,
    a 4D it holds left out), one empty table, and one labelled image that is not an image."""
    d = tmp_path_factory.mktemp("labelled")
    cv2.imwrite(str(d / "two.png"), make_scene([("5H", 400, 360, 0), ("7S", 880, 360, 30)], width=200))
    cv2.imwrite(str(d / "wrong.png"), make_scene([("4D", 640, 360, -20)], width=200))
    cv2.imwrite(str(d / "empty.png"), np.full((720, 1280, 3), (60, 90, 130), np.uint8))
    (d / "broken.jpg").write_text("not a photo")
    labels = {
        "two.png": {"cards": ["5H", "7S"], "kind": "photo_multi", "group": "g1"},
        "wrong.png": {"cards": ["9C"], "kind": "photo_single", "group": "g2"},
        "empty.png": {"cards": [], "kind": "webcam_frame_empty"},
        "broken.jpg": {"cards": ["KD"], "kind": "photo_single"},
    }
    (d / "labels.json").write_text(json.dumps(labels))
    return d


def test_eval_figures_confusions_and_miss_report(folder, tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["vision", "eval", str(folder), "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    tables = report["table_photos"]
    # 5H, 7S read and right; 4D read but labelled 9C: one false card, one miss
    assert (tables["recall"], tables["precision"], tables["false_cards"]) == (0.6667, 0.6667, 1)
    assert report["per_kind"]["photo_multi"]["exact_images"] == 1.0
    assert report["per_kind"]["photo_single"]["exact_images"] == 0.0
    assert report["confusions"] == [{"true": "9C", "read": "4D", "n": 1}]
    assert report["empty_frames_with_cards"] == 0
    assert report["per_rank"]["5"] == {"cards": 1, "recall": 1.0}
    assert report["per_rank"]["9"] == {"cards": 1, "recall": 0.0}
    assert report["per_rank"]["4"] == {"cards": 0, "recall": None}  # read, but not labelled
    assert report["per_suit"]["S"] == {"cards": 1, "recall": 1.0}
    # the image that does not open is reported, not counted, and does not stop the others
    assert [m["image"] for m in report["unopened"]] == ["broken.jpg"]
    miss = next(m for m in report["misses"] if m["image"] == "wrong.png")
    assert (miss["missed"], miss["extra"]) == (["9C"], ["4D"])
    drawn = cv2.imread(str(out / miss["png"]))
    assert drawn is not None and drawn.shape[1] <= 1000
    page = (out / "index.html").read_text()
    assert "wrong.png" in page and miss["png"] in page
    assert json.loads((out / "report.json").read_text())["confusions"] == report["confusions"]


def test_eval_text_names_the_weak_glyphs_and_the_unopened(folder, capsys):
    assert main(["vision", "eval", str(folder)]) == 0
    text = capsys.readouterr().out
    assert "recall by rank: 5 1.00  7 1.00  9 0.00" in text
    assert "confusions: 9C→4D×1" in text
    assert "not opened, left out of the figures: broken.jpg" in text


@pytest.mark.parametrize(("labels", "says"), [
    ("{bad", "labels.json: not JSON"),
    ("[1, 2]", "must be an object of image path"),
    ('{"a.png": 3}', '"a.png": its record must be an object'),
    ('{"a.png": {"cards": "5H"}}', '"cards" must be a list'),
    ('{"a.png": {"cards": ["5H", "11H"]}}', '"11H" is not a card'),
    ('{"a.png": {"cards": [], "kind": 4}}', '"kind" must be a string'),
])
def test_a_bad_labels_file_is_refused_with_its_fault(tmp_path, capsys, labels, says):
    (tmp_path / "labels.json").write_text(labels)
    assert main(["vision", "eval", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert says in captured.err and captured.out == ""


def test_a_folder_without_labels_or_whose_images_all_fail(tmp_path, capsys):
    assert main(["vision", "eval", str(tmp_path / "nowhere")]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert main(["vision", "eval", str(tmp_path)]) == 2
    assert "no labels.json there" in capsys.readouterr().err
    (tmp_path / "labels.json").write_text('{"gone.png": {"cards": ["5H"]}}')
    assert main(["vision", "eval", str(tmp_path)]) == 2
    assert "none of the 1 labelled images opened (gone.png" in capsys.readouterr().err
