"""The tracker on a drawn table: what counts as laid, what is hidden, what costs nothing."""

from __future__ import annotations

import numpy as np
import pytest

from tests.track.table import DrawnTable, code, patch_reader
from vision.track import Doubt, Sighting, Tracker, Zones


class CountingReader:
    def __init__(self) -> None:
        self.calls = 0
        self.pixels = 0

    def __call__(self, image: np.ndarray):
        self.calls += 1
        self.pixels += image.shape[0] * image.shape[1]
        return patch_reader(image)


def run(tracker: Tracker, frames: list[np.ndarray], start: int = 0) -> list[tuple[int, object]]:
    out = []
    for n, f in enumerate(frames, start):
        out += [(n, s) for s in tracker.feed(f, n)]
    return out


def reach(table: DrawnTable, x: int, y: int, frames: int = 6) -> list[np.ndarray]:
    """A hand coming in from the bottom edge to (x, y) and going back."""
    path = [int(table_y) for table_y in np.linspace(360, y, frames // 2)]
    return [table.frame(hand=(x, py)) for py in path + path[::-1]]


@pytest.fixture
def tracker() -> Tracker:
    return Tracker(Zones.default(2), reader=CountingReader())


def test_a_card_laid_is_reported_once_soon_after_the_hand_leaves(tracker: Tracker) -> None:
    table = DrawnTable()
    frames = [table.frame()] * 5
    hand = reach(table, 200, 280)
    table.lay("5H", 200, 280)
    hand_out = reach(table, 200, 280)[3:]
    still = len(frames) + len(hand) + len(hand_out)
    frames += hand + hand_out + [table.frame() for _ in range(20)]
    found = run(tracker, frames)
    assert [(s.card, s.zone) for _, s in found] == [("5H", "A")]
    n, sighting = found[0]
    assert isinstance(sighting, Sighting)
    assert still <= n <= still + 10
    assert sighting.votes >= 2 and sighting.crop.size > 0


def test_a_still_table_is_not_read_again(tracker: Tracker) -> None:
    table = DrawnTable()
    table.lay("KD", 320, 180)
    reader = tracker.reader
    run(tracker, [table.frame() for _ in range(10)])
    calls = reader.calls
    run(tracker, [table.frame() for _ in range(200)], start=10)
    assert reader.calls == calls  # nothing changed: nothing read


def test_only_the_changed_region_is_read(tracker: Tracker) -> None:
    table = DrawnTable()
    table.lay("KD", 320, 180)
    run(tracker, [table.frame() for _ in range(10)])
    reader = tracker.reader
    reader.pixels = 0
    reader.calls = 0
    table.lay("2C", 100, 300)
    found = run(tracker, [table.frame() for _ in range(10)], start=10)
    assert [s.card for _, s in found] == ["2C"]
    assert reader.pixels < 0.25 * 640 * 360 * reader.calls


def test_a_hand_hovering_over_laid_cards_adds_and_removes_nothing(tracker: Tracker) -> None:
    table = DrawnTable()
    for k, card in enumerate(["3S", "4S", "5S"]):
        table.lay(card, 200 + 50 * k, 290)
    first = run(tracker, [table.frame() for _ in range(12)])
    assert sorted(s.card for _, s in first) == ["3S", "4S", "5S"]
    # a hand moving slowly over the row for three seconds, then resting on it, then leaving
    frames = [table.frame(hand=(190 + 3 * k, 285)) for k in range(30)]
    frames += [table.frame(hand=(250, 290))] * 12
    frames += [table.frame() for _ in range(12)]
    assert run(tracker, frames, start=12) == []
    assert sorted(c.card for c in tracker.visible()) == ["3S", "4S", "5S"]


def test_a_card_turned_face_down_is_hidden_not_taken_back(tracker: Tracker) -> None:
    table = DrawnTable()
    table.lay("9C", 300, 90)
    run(tracker, [table.frame() for _ in range(10)])
    table.turn("9C", up=False)
    assert run(tracker, [table.frame() for _ in range(10)], start=10) == []
    assert tracker.visible() == [] and [c.card for c in tracker.cards] == ["9C"]
    table.turn("9C", up=True)
    assert run(tracker, [table.frame() for _ in range(10)], start=20) == []  # the same card, not new
    assert [c.card for c in tracker.visible("B")] == ["9C"]


def test_a_new_deal_forgets_the_cards_once_they_are_gone(tracker: Tracker) -> None:
    table = DrawnTable()
    table.lay("9C", 300, 90)
    run(tracker, [table.frame() for _ in range(10)])
    tracker.new_deal()
    table.clear()
    run(tracker, [table.frame() for _ in range(10)], start=10)
    assert tracker.cards == []
    table.lay("9C", 300, 90)  # the same card, dealt again to the same place
    found = run(tracker, [table.frame() for _ in range(10)], start=20)
    assert [s.card for _, s in found] == ["9C"]


def test_something_never_read_surely_is_one_doubt(tracker: Tracker) -> None:
    table = DrawnTable()
    table.lay("AS", 320, 300, blue=20)  # a code no card has: unreadable
    found = run(tracker, [table.frame() for _ in range(12)])
    assert len(found) == 1 and isinstance(found[0][1], Doubt)
    assert found[0][1].zone == "A" and found[0][1].likely == ()


def test_readings_that_disagree_are_not_a_card() -> None:
    readings = iter([["5H"], ["6H"], ["5D"]])

    def fickle(image: np.ndarray):
        cards, doubts = patch_reader(image)
        names = next(readings, ["5H"])
        return [type(c)(names[0], c.confidence, c.center, c.size) for c in cards], doubts

    tracker = Tracker(Zones.default(2), reader=fickle)
    table = DrawnTable()
    table.lay("5H", 320, 300)
    found = run(tracker, [table.frame() for _ in range(12)])
    assert [type(s).__name__ for _, s in found] == ["Doubt"]
    assert set(found[0][1].likely) == {"5H", "6H", "5D"}


def test_the_same_card_in_two_places_is_in_doubt(tracker: Tracker) -> None:
    table = DrawnTable()
    table.lay("7D", 200, 300)
    run(tracker, [table.frame() for _ in range(10)])
    table.lay("7D twice", 450, 300, blue=code("7D"))  # a second patch that reads as 7D
    found = run(tracker, [table.frame() for _ in range(10)], start=10)
    assert [type(s).__name__ for _, s in found] == ["Doubt"]
    assert found[0][1].likely == ("7D",)


def test_a_card_is_read_while_a_hand_moves_elsewhere(tracker: Tracker) -> None:
    table = DrawnTable()
    run(tracker, [table.frame() for _ in range(5)])
    table.lay("8S", 150, 290)
    # from now on a hand never stops moving over B's side of the table
    frames = [table.frame(hand=(350 + 8 * (k % 20), 60)) for k in range(20)]
    found = run(tracker, frames, start=5)
    assert [(n <= 5 + 10, s.card) for n, s in found] == [(True, "8S")]
    assert tracker.status == "hand over the table"


def test_frames_skipped_by_a_slow_consumer_delay_readings_but_lose_nothing(tracker: Tracker) -> None:
    table = DrawnTable()
    frames = [table.frame() for _ in range(12)]
    table.lay("QC", 150, 290)
    frames += [table.frame(hand=(150, 330))] * 2 + [table.frame() for _ in range(30)]
    found = [(n, s) for n, f in enumerate(frames) if n % 3 == 0 for s in tracker.feed(f, n)]
    assert [(s.card, n <= 14 + 3 * 4) for n, s in found] == [("QC", True)]


def test_at_most_one_window_is_read_in_a_frame(tracker: Tracker) -> None:
    table = DrawnTable()
    run(tracker, [table.frame() for _ in range(6)])
    for k, card in enumerate(["2H", "3H", "4H", "5H", "6H"]):  # five places change at once
        table.lay(card, 60 + 120 * k, 300 if k % 2 else 60)
    reader = tracker.reader
    calls = []
    for n in range(6, 30):
        before = reader.calls
        tracker.feed(table.frame(), n)
        calls.append(reader.calls - before)
    assert max(calls) == 1 and sorted(c.card for c in tracker.visible()) == ["2H", "3H", "4H", "5H", "6H"]


def test_a_lamps_rolling_bands_are_taken_out_of_the_window_read() -> None:
    """Mains flicker: each row brighter or darker, the bands moving from frame to frame. The
    window the reader gets has each row brought back to its median over the last frames, all of
    its rows (it is taken out a block of rows at a time)."""
    plain = DrawnTable().frame()
    h = plain.shape[0]

    def banded(k: int) -> np.ndarray:
        gain = 1 + 0.08 * np.sin(2 * np.pi * (3.3 * np.arange(h) / h + k / 7))
        return np.clip(plain * gain[:, None, None], 0, 255).astype(np.uint8)

    tracker = Tracker(Zones.default(2), reader=CountingReader())
    for k in range(9):
        tracker.feed(banded(k), k)
    window = tracker._steady(banded(8), 0, h, 0, plain.shape[1])
    before = np.abs(banded(8).astype(int) - plain).mean(axis=(1, 2))  # each row's
    after = np.abs(window.astype(int) - plain).mean(axis=(1, 2))
    assert window.dtype == np.uint8 and window.shape == plain.shape
    assert after.mean() < 0.5 * before.mean()
    assert after[-40:].mean() < 0.5 * before[-40:].mean(), "the last block's rows are steadied too"
