"""The card reader on scenes the tests draw: cards read once each, any rotation, nothing on empty tables."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from cribbage.cards import RANKS, SUITS, Card
from vision import reader, tuning
from vision.index import looks
from vision.reader import Reading, read_cards
from vision.synth.compose import finish, table_image


def names(reading: Reading) -> list[str]:
    return sorted(c.card.name for c in reading.cards)


@pytest.mark.parametrize("seed", range(6))
def test_empty_table_reads_nothing(seed):
    rng = np.random.default_rng(100 + seed)
    img = finish(table_image(rng, 720, 1280), rng)
    reading = read_cards(img)
    assert reading.cards == []


def test_card_back_is_not_a_card(make_scene):
    img = make_scene([], back=(600, 350))
    assert read_cards(img).cards == []


@pytest.mark.parametrize("angle", [0, 90, 180, 270, 37, -128])
def test_any_rotation(make_scene, angle):
    img = make_scene([("7H", 640, 360, angle)], width=200)
    reading = read_cards(img)
    assert names(reading) == ["7H"]


def test_a_card_read_is_cribbages_card(make_scene):
    reading = read_cards(make_scene([("TD", 640, 360, 20)], width=200))
    assert [c.card for c in reading.cards] == [Card("TD")]
    assert reading.to_json()["cards"][0]["card"] == "TD"


def test_several_cards_each_once_with_positions(make_scene):
    layout = [("5H", 250, 200, 0), ("TC", 640, 200, 15), ("QS", 1000, 220, -20),
              ("AD", 300, 520, 180), ("9S", 700, 520, 95), ("2C", 1050, 520, 60)]
    reading = read_cards(make_scene(layout, width=170))
    read = names(reading)
    assert len(read) == len(set(read))  # both indices show: still one entry each
    assert set(read) <= {n for n, *_ in layout}  # nothing that is not there
    assert len(read) >= 5  # the measured recall on drawn scenes is not perfect: see docs/vision.md
    for card in reading.cards:
        x, y = next((x, y) for n, x, y, _ in layout if n == card.card.name)
        assert abs(card.center[0] - x) < 100 and abs(card.center[1] - y) < 130
        assert 0 < card.confidence <= 1


def test_overlapping_row_reads_every_index(make_scene):
    # each card covers most of the one before; only its left strip (with the corner index) shows
    row = ["3D", "8C", "KH", "4S", "6D"]
    layout = [(n, 300 + 45 * k, 360, 0) for k, n in enumerate(row)]
    reading = read_cards(make_scene(layout, width=160))
    read = names(reading)
    assert set(read) <= set(row) and len(read) == len(set(read))
    assert len(read) >= 4
    assert all(c.quad is None or c.card.name == row[-1] for c in reading.cards)  # only the top card is whole


def test_a_whole_deck_spread_in_four_tight_rows(make_scene):
    # a deck spread suit by suit, each card showing only its index strip: 52 cards, each once
    layout = [(rank + suit, 120 + 33 * k, 150 + 176 * r, 0)
              for r, suit in enumerate(SUITS) for k, rank in enumerate(RANKS)]
    reading = read_cards(make_scene(layout, width=110, size=(900, 1600)))
    read = names(reading)
    assert len(read) == len(set(read)) and set(read) <= {n for n, *_ in layout}
    assert len(read) >= 50


def test_to_json_format(make_scene):
    reading = read_cards(make_scene([("5H", 640, 360, 10)], width=200))
    out = reading.to_json("t.png", 1280, 720)
    assert out["image"] == "t.png" and (out["width"], out["height"]) == (1280, 720)
    assert out["ms"] > 0 and out["unreadable"] == []
    (card,) = out["cards"]
    assert card["card"] == "5H" and len(card["center"]) == 2
    assert card["quad"] is None or (len(card["quad"]) == 4 and all(len(p) == 2 for p in card["quad"]))


@pytest.mark.parametrize(("card", "angle"), [("5C", 90), ("QH", 270), ("3D", 180), ("8S", 0)])
def test_a_backlit_card_by_glare_is_read(make_backlit, card, angle):
    # the index lies a few pixels from glare several times brighter than the card's paper
    assert names(read_cards(make_backlit(card, angle, seed=len(card) + angle))) == [card]


def _seen(card: str, x: float, y: float, down: tuple[float, float], suits: list[float]):
    from vision.index import Candidate
    from vision.reader import _Scored

    ranks = np.full(14, 0.002)
    ranks[RANKS.index(card[0])] = 0.97
    cand = Candidate((x, y), down, 10, (x, y), (x + down[0], y + down[1]), (int(x * 1000 + y),))
    return _Scored(cand, card, 0.8, np.zeros((3, 40, 24), np.float32), ranks, np.array(suits))


def test_a_cards_two_indices_read_differently_are_one_card():
    from vision.reader import _two_views_of_one_card

    card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], float)
    top = _seen("9C", 14, 22, (0, 1), [0.86, 0, 0, 0.12, 0.02])  # a spade's index taken for a club's
    bottom = _seen("9S", 86, 118, (0, -1), [0.05, 0, 0, 0.93, 0.02])
    assert [s.card for s in _two_views_of_one_card([top, bottom], [card])] == ["9S", "9S"]
    # two cards side by side can make one card-shaped outline: their indices are not by opposite corners
    pair = np.array([[0, 0], [200, 0], [200, 140], [0, 140]], float)
    left = _seen("9C", 14, 22, (0, 1), [0.86, 0, 0, 0.12, 0.02])
    right = _seen("9S", 114, 22, (0, -1), [0.05, 0, 0, 0.93, 0.02])
    assert [s.card for s in _two_views_of_one_card([left, right], [pair])] == ["9C", "9S"]
    # an outline round a whole row holds more indices than one card's: left alone
    row = [_seen(c, 20 + 30 * k, 22 if k < 2 else 118, (0, 1) if k < 2 else (0, -1), [0.9, 0, 0, 0.08, 0.02])
           for k, c in enumerate(["8C", "5C", "9C"])]
    assert [s.card for s in _two_views_of_one_card(row, [card])] == ["8C", "5C", "9C"]


def _moved(c, scale: float, across: float):
    """Candidate ``c`` with its window scaled about its middle and shifted across (glyph-to-pip units)."""
    from vision.index import Candidate

    (gx, gy), (px, py) = c.rank_pos, c.suit_pos
    dx, dy = px - gx, py - gy
    mx, my = (gx + px) / 2 - dy * across, (gy + py) / 2 + dx * across
    glyph, pip = (mx - dx / 2 * scale, my - dy / 2 * scale), (mx + dx / 2 * scale, my + dy / 2 * scale)
    return Candidate(c.center, c.down, c.size, glyph, pip, c.labels)


def test_the_second_opinion_does_not_make_a_misreading_a_card(make_scene):
    # windows a little off a real index leave the reader in doubt, some of them naming another card
    from vision.cnn import IndexNet
    from vision.index import find_indices
    from vision.patch import Pyramid, cut_patches
    from vision.reader import _score
    from vision.tuning import LOOK_CLOSER, THRESHOLD

    img = make_scene([("7H", 640, 360, 0)], width=140)
    net = IndexNet.load()

    def seven(c):  # how surely the network calls a candidate a 7
        return net.predict(cut_patches(Pyramid(img), [(c.rank_pos, c.suit_pos)]))[0][0, 6]

    index = max(find_indices(img), key=seven)
    doubtful = 0
    for scale in (0.75, 0.8, 0.85, 1.2, 1.3):
        for across in (0.0, 0.15, 0.25, 0.3):
            c = _moved(index, scale, across)
            pr, ps = net.predict(cut_patches(Pyramid(img), [(c.rank_pos, c.suit_pos)]))
            raw = float(pr[0, :-1].max() * ps[0, :-1].max())
            if not LOOK_CLOSER <= raw < THRESHOLD or pr[0, -1] > pr[0, :-1].max():
                continue
            doubtful += 1
            read = [(s.card, s.conf) for s in _score(Pyramid(img), [c])]
            # a window off the index that misreads it is not made a card by the second opinion
            assert all(name == "7H" or conf < THRESHOLD for name, conf in read)
    assert doubtful >= 2  # (the windows above do leave the reader in doubt)


def test_two_views_that_contradict_each_other_leave_the_card_in_doubt():
    from vision.reader import _two_views_of_one_card
    from vision.tuning import THRESHOLD

    card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], float)
    top = _seen("2C", 14, 22, (0, 1), [0.9, 0, 0, 0.06, 0.04])  # as sure it is a club...
    bottom = _seen("2S", 86, 118, (0, -1), [0.06, 0, 0, 0.89, 0.05])  # ...as a spade
    assert all(s.conf < THRESHOLD for s in _two_views_of_one_card([top, bottom], [card]))


def test_two_views_read_again_are_new_readings_and_those_given_stay_as_read():
    from vision.reader import _two_views_of_one_card

    card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], float)
    top = _seen("2C", 14, 22, (0, 1), [0.86, 0, 0, 0.12, 0.02])  # the top index read as a club...
    bottom = _seen("2S", 86, 118, (0, -1), [0.05, 0, 0, 0.93, 0.02])  # ...the bottom one as a spade
    given = [(s.card, s.conf, s.joint) for s in (top, bottom)]
    both = _two_views_of_one_card([top, bottom], [card])
    assert [s.card for s in both] == ["2S", "2S"] and all(s.joint for s in both)
    assert [(s.card, s.conf, s.joint) for s in (top, bottom)] == given


@pytest.mark.parametrize("angle", [0, 30, 180, -60])
def test_an_index_touching_a_paler_line_is_read(make_framed, angle, monkeypatch):
    img = make_framed("5H", angle)
    assert names(read_cards(img)) == ["5H"]
    # the line joins glyph and pip into one blob at the usual darkness levels: the strictest splits them
    monkeypatch.setattr(reader, "look_unread", lambda look, explained, read_at, **_: [])
    assert read_cards(img).cards == []


@pytest.mark.parametrize("card", ["2H", "5D", "3C", "7H", "AH"])
def test_a_small_index_that_is_one_blob_is_read(make_touching, card, monkeypatch):
    img = make_touching(card)
    assert names(read_cards(img)) == [card]
    # a pale rank on its pip: gone at the strict level, one blob with the pip at the loose one
    monkeypatch.setattr(looks, "whole_indices", lambda *args, **kw: [])
    assert read_cards(img).cards == []


@pytest.mark.parametrize(("card", "ink", "width"),
                         [("2H", 0.3, 110), ("7H", 0.4, 110), ("AH", 0.4, 110), ("9S", 0.4, 120)])
def test_a_blurred_index_that_is_one_blob_only_at_the_faintest_level_is_read(make_touching, card, ink, width,
                                                                          monkeypatch):
    # (a guessed window counts at GUESSED_MIN or surer: this nine of spades reads 0.63 at 110 px,
    # in doubt, and 0.78 at 120)
    img = cv2.GaussianBlur(make_touching(card, ink=ink, width=width), (0, 0), 1.2)
    assert names(read_cards(img)) == [card]
    # blurred paler still, the rank is one blob with its pip only at the faintest level (half size)
    whole = looks.whole_indices
    monkeypatch.setattr(looks, "whole_indices", lambda look, explained, read_at, *, blobs=None, f=1.0:
                        whole(look, explained, read_at) if f == 1.0 else [])
    assert read_cards(img).cards == []


@pytest.mark.parametrize(("spread", "seed", "angle", "gained"), [
    (["TD", "6H", "AH", "9S", "8H", "JS", "7D", "QC"], 3, -16.6, {"7D"}),
    (["5D", "TH", "5H", "TS", "KC", "2H", "8S", "9C"], 5, 12.2, {"5H", "8S"}),
    (["3H", "QH", "7H", "TC", "KD", "4C", "5C", "AC"], 7, 5.0, {"7H"}),
])
def test_an_index_in_a_tight_spread_is_read_alone(make_tight_spread, spread, seed, angle, gained,
                                                  monkeypatch):
    # each index has the last card's index at its left and the next card's edge at its right; read
    # with doubt, it is read again narrowed to the index alone
    img = make_tight_spread(spread, seed, angle=angle)
    read = set(names(read_cards(img)))
    assert gained <= read <= set(spread)
    monkeypatch.setattr(reader, "narrowed", lambda patches: patches.copy())
    without = set(names(read_cards(img)))
    assert without <= set(spread) and without == read - gained


@pytest.mark.parametrize("card", ["9D", "4H", "8C", "QS"])
def test_a_pale_rank_over_a_dark_pip_is_read(make_pale_rank, card, monkeypatch):
    img = make_pale_rank(card)
    assert names(read_cards(img)) == [card]
    # the rank is paler than the loose level: only the faintest, where no card is read, holds it
    monkeypatch.setattr(reader, "look_unread", lambda look, explained, read_at, **_: [])
    assert read_cards(img).cards == []


def test_readings_in_several_threads_at_once_are_the_readings_one_at_a_time(make_scene):
    """The page reads photos in the web server's threads: two phones may send one at once. The
    network is one per process, and OpenCV's dnn.Net keeps a batch between setInput and forward;
    unguarded, concurrent readings failed (broadcast errors) or read other photos' patches."""
    import threading

    first = ["5H", "KS", "9C", "AD", "7C", "2S", "TD", "QH"]
    second = ["3C", "8D", "JS", "4H", "6S", "KD", "AC", "9H"]
    photos = [make_scene([(n, 170 + 310 * (k % 4), 190 + 330 * (k // 4), 25 * k)
                          for k, n in enumerate(first)], width=150),
              make_scene([(n, 200 + 290 * (k % 4), 200 + 320 * (k // 4), -30 * k)
                          for k, n in enumerate(second)], width=140)]
    alone = [[(c.card.name, round(c.confidence, 4)) for c in read_cards(p).cards] for p in photos]
    assert all(alone)
    seen, failed = [], []

    def read_all() -> None:
        for _ in range(3):
            for k, photo in enumerate(photos):
                try:
                    seen.append((k, [(c.card.name, round(c.confidence, 4)) for c in read_cards(photo).cards]))
                except Exception as exc:  # a failure is what this test looks for
                    failed.append(repr(exc))

    threads = [threading.Thread(target=read_all) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failed == []
    assert len(seen) == 24 and all(got == alone[k] for k, got in seen)


def test_a_glyph_smaller_than_any_card_prints_is_not_read(make_scene):
    # the same clear index, said to be a glyph under MIN_GLYPH px, is not read (a card back's
    # lattice at that size read as a ten of diamonds)
    from dataclasses import replace

    from vision.index import find_indices
    from vision.patch import Pyramid
    from vision.reader import _score
    from vision.tuning import MIN_GLYPH

    img = make_scene([("7H", 640, 360, 0)], width=140)
    read = [s for s in _score(Pyramid(img), find_indices(img)) if s.card == "7H"]
    assert read
    tiny = [replace(s.cand, size=MIN_GLYPH - 1) for s in read]
    assert [s.card for s in _score(Pyramid(img), tiny)] == []


def test_a_small_card_read_by_both_corners_is_not_searched_again(make_scene, monkeypatch):
    # cards 90 px wide print glyphs of 6-8 px, under the second look's size: once such a card is
    # read by both its corner indices, its outline is its own and its ink is explained; the levels
    # that look where ink is unexplained (vision.index.look_unread) skip it
    from vision.quads import inside

    layout = [("5H", 300, 250, 10), ("9S", 700, 300, -20), ("QD", 1000, 480, 95), ("3C", 420, 520, 200)]
    img = make_scene(layout, width=90)
    explained: list[list[np.ndarray]] = []
    look_unread = reader.look_unread

    def spy(look, outlines=(), *args, **kwargs):
        explained.append(list(outlines))
        return look_unread(look, outlines, *args, **kwargs)

    monkeypatch.setattr(reader, "look_unread", spy)
    reading = read_cards(img)
    both = [c for c in reading.cards if len(c.indices) == 2]
    assert len(both) >= 3 and all(i.size <= tuning.SECOND_LOOK_MAX for c in both for i in c.indices)
    skipped = [c.card.name for c in both if any(inside(q, c.center) for q in explained[-1])]
    assert len(skipped) >= 3, skipped  # (a card whose second index only the second look reads is not)


@pytest.mark.parametrize("name", ["TD", "7C", "KH"])
def test_an_index_far_too_small_for_the_card_round_it_is_not_a_card(name, make_printed_small, monkeypatch):
    # a card back's motif read as an index (a lattice's cell as a ten of diamonds) is print a
    # tenth of the size a card that big prints its index: here a real index shrunk to about 3% of
    # the blank card it is printed on
    img = make_printed_small(name)
    assert read_cards(img).cards == []
    monkeypatch.setattr(tuning, "PRINT_SHARE", 0.0)  # without the rule the index is read, in that outline
    read = read_cards(img).cards
    assert [c.card.name for c in read] == [name] and read[0].quad is not None
    assert read[0].indices[0].size < 0.04 * 360


@pytest.mark.parametrize("seed", range(2))
def test_a_card_read_by_both_corners_without_its_outline_is_not_searched_again(seed, monkeypatch):
    # white cards on a white cloth: no outline is found (as a weave breaks a card's edges), but each
    # card is read by both its corner indices, and the part of it they span is explained: the levels
    # that look where ink is unexplained (vision.index.look_unread) search none of it
    from vision.quads import inside
    from vision.synth.compose import place
    from vision.synth.decks import procedural_deck

    deck = procedural_deck(7)
    rng = np.random.default_rng(seed)
    img = np.full((720, 1280, 3), 248, np.uint8)
    names_laid = ["5H", "9S", "QD", "3C", "KS", "7D"]
    for k, n in enumerate(names_laid):
        place(img, deck.render(n, 280), (200 + (k % 3) * 400, 200 + (k // 3) * 330), 140,
              float(rng.uniform(-30, 30)), rng, tilt=0.04)
    img = finish(img, rng)
    looked: list[tuple[list[np.ndarray], int]] = []
    look_unread = reader.look_unread

    def spy(look, outlines=(), *args, **kwargs):
        found = look_unread(look, outlines, *args, **kwargs)
        looked.append((list(outlines), len(found)))
        return found

    monkeypatch.setattr(reader, "look_unread", spy)
    reading = read_cards(img)
    assert names(reading) == sorted(names_laid)
    assert all(c.quad is None and len(c.indices) == 2 for c in reading.cards)  # read, outlines not found
    outlines, offered = looked[-1]
    assert all(any(inside(q, c.center) for q in outlines) for c in reading.cards)
    assert offered == 0
    monkeypatch.setattr(reader, "spanned", lambda *a, **k: None)  # without: every card searched again
    looked.clear()
    assert names(read_cards(img)) == sorted(names_laid)
    assert looked[-1][1] >= 10
