"""The stages under the reader: index pairs, upright patches, and the training labels."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from cribbage.cards import RANKS
from vision import tuning
from vision.cnn import CARDS, MODEL_SUITS
from vision.index import find_indices, first_look, look_unread
from vision.index.tiling import outside, pieces_of, small_tiles
from vision.index.types import HALVING_LOOK
from vision.patch import PATCH_H, PATCH_W, Pyramid, cut_patches, window
from vision.synth.compose import cropped, place, table_image
from vision.synth.decks import artwork_available, load_decks, procedural_deck
from vision.synth.scene import render_scene
from vision.train import NONE_RANK, candidate_pairs, label_pairs
from vision.tuning import BIG_GLYPH, LEVELS, THIN, Level


def one_card(angle: float, width: float = 220, card: str = "7H") -> np.ndarray:
    rng = np.random.default_rng(3)
    img = table_image(rng, 480, 640, kind="felt")
    place(img, procedural_deck(7).render(card, 2 * int(width)), (320, 240), width, angle, rng, tilt=0.0)
    return img


def index_patch(img: np.ndarray) -> np.ndarray:
    """The patch of the top-left-most index pair whose pip lies below its glyph on the card."""
    cands = find_indices(img)
    assert cands, "no index pair found"
    patches = cut_patches(Pyramid(img), [(c.rank_pos, c.suit_pos) for c in cands])
    return patches


@pytest.mark.parametrize("angle", [90, 180, 37, -128])
def test_patches_are_upright_whatever_the_rotation(angle):
    upright = index_patch(one_card(0))
    turned = index_patch(one_card(angle))
    # the best match of each upright index patch among the turned card's patches is close
    for p in upright[:2]:
        diff = min(float(np.abs(p - q).mean()) for q in turned)
        assert diff < 0.08


def test_window_maps_the_pair_to_the_patch_axis():
    m = window((100.0, 100.0), (100.0, 140.0))
    glyph = m @ np.array([PATCH_W / 2, 0.85 / 2.6 * PATCH_H, 1.0])
    assert np.allclose(glyph, [100, 100], atol=1.5)
    turned = window((100.0, 100.0), (140.0, 100.0))  # down points to +x: the card lies on its side
    assert np.allclose(turned @ np.array([PATCH_W / 2, 0.85 / 2.6 * PATCH_H, 1.0]), [100, 100], atol=1.5)


def test_cut_patches_of_nothing_and_of_an_edge():
    img = np.full((60, 80, 3), 180, np.uint8)
    assert cut_patches(Pyramid(img), []).shape == (0, 3, PATCH_H, PATCH_W)
    p = cut_patches(Pyramid(img), [((1.0, 1.0), (1.0, 30.0))])  # runs off the image: edge replicated
    assert p.shape == (1, 3, PATCH_H, PATCH_W) and np.isfinite(p).all()


def test_training_labels_name_every_visible_index_and_only_those():
    rng = np.random.default_rng(5)
    scene = render_scene(rng, layout="single", decks=[procedural_deck(7)], card_width=(180, 260), effects=0)
    pairs = candidate_pairs(scene.image)
    ranks, suits = label_pairs(scene, pairs)
    named = {RANKS[r] + MODEL_SUITS[s] for r, s in zip(ranks, suits, strict=True) if r != NONE_RANK}
    assert named == {c.card for c in scene.readable}
    assert (ranks == NONE_RANK).sum() > 0  # centre pips, reversed pairs: "none"


def test_small_cards_get_a_second_look():
    rng = np.random.default_rng(8)
    img = table_image(rng, 480, 640, kind="felt")
    deck = procedural_deck(7)
    for k, card in enumerate(["5S", "9D", "KC"]):
        place(img, deck.render(card, 200), (150 + 170 * k, 240), 52, 0, rng, tilt=0.0)
    first = find_indices(img, second_look=False)
    both = find_indices(img)
    assert len(both) > len(first)


def test_a_big_tile_looked_at_in_pieces_reads_what_it_reads_whole(monkeypatch):
    """The second look cuts a tile over ``TILE_PIECE`` px into overlapping pieces (to keep its
    maps small): small cards across the pieces' edges are read all the same, once each."""
    from vision.index import tiling
    from vision.reader import read_cards

    rng = np.random.default_rng(8)
    img = table_image(rng, 480, 640, kind="felt")
    deck = procedural_deck(7)
    names = ["5S", "9D", "KC", "7H", "2C", "QD", "4S", "TH"]
    for k, card in enumerate(names):
        place(img, deck.render(card, 200), (70 + 70 * k, 180 + 120 * (k % 2)), 70, 0, rng, tilt=0.0)
    cut = []
    monkeypatch.setattr(tiling, "pieces_of", lambda tile: cut.append(tile) or pieces_of(tile))

    def read() -> list[str]:
        return sorted(c.card.name for c in read_cards(img).cards)

    monkeypatch.setattr(tuning, "TILE_PIECE", 10_000)
    assert read() == sorted(names)
    monkeypatch.setattr(tuning, "TILE_PIECE", 128)
    assert read() == sorted(names)
    assert any(len(pieces_of(tile)) > 1 for tile in cut), "a tile was cut"


@pytest.mark.parametrize("width", [300, 1100])
def test_a_tight_crop_of_one_card_is_read_at_any_size(width):
    from vision.reader import read_cards

    img = cropped(procedural_deck(7).render("QD", width))
    cards = read_cards(img).cards
    assert [c.card.name for c in cards] == ["QD"]
    h, w = img.shape[:2]
    assert cards[0].quad == [[0.0, 0.0], [float(w), 0.0], [float(w), float(h)], [0.0, float(h)]]  # its edges


def test_a_thumbnail_of_one_card_is_read_enlarged(monkeypatch):
    # every card of the drawn deck cropped to its edges and shrunk to 60 x 90 (the smallest
    # card width): glyphs of 5-6 px, where the finder's windows are as wide as the print
    from vision import reader

    deck = procedural_deck(7)
    photos = {}
    for name in CARDS:
        img = cv2.resize(cropped(deck.render(name, 600)), (60, 90), interpolation=cv2.INTER_AREA)
        jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])[1]
        photos[name] = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    read = {name: reader.read_cards(img).cards for name, img in photos.items()}
    assert all([c.card.name for c in cards] == [name] for name, cards in read.items())
    for cards in read.values():  # in the photo's own pixels
        points = [cards[0].center, *(i.center for i in cards[0].indices)]
        assert all(0 <= x <= 60 and 0 <= y <= 90 for x, y in points)
    monkeypatch.setattr(tuning, "SMALL_PHOTO", 0)  # read at their own size, most are not found
    assert sum(len(reader.read_cards(img).cards) for img in photos.values()) < 26


def test_a_glyph_bridged_to_its_pip_by_blur_is_split_by_the_thinned_level():
    # a faint "0" (ink only at the loose level) joined to its pip by a one-pixel grey bridge, as
    # blur leaves them: the loose level sees one blob; thinned by a pixel it is a glyph and a pip
    img = np.full((160, 160, 3), 220, np.uint8)
    cv2.rectangle(img, (70, 50), (83, 69), (130, 130, 130), 4)  # the glyph, 14 x 20, 4 px strokes
    cv2.fillConvexPoly(img, np.int32([[76, 78], [83, 86], [76, 94], [69, 86]]), (40, 40, 40))  # the pip
    cv2.line(img, (76, 70), (76, 78), (154, 154, 154), 1)  # the bridge

    def pairs(levels):
        return [c for c in find_indices(img, levels=levels, second_look=False)
                if np.hypot(c.rank_pos[0] - 76.5, c.rank_pos[1] - 59.5) < 3
                and np.hypot(c.suit_pos[0] - 76, c.suit_pos[1] - 86) < 3]

    assert not pairs(LEVELS)  # the first look's levels see one blob
    assert pairs((*LEVELS, THIN))
    # the first look leaves the thinned level to where no card was read: there it finds the index
    look = first_look(img)
    assert not [c for c in look.found if np.hypot(c.rank_pos[0] - 76.5, c.rank_pos[1] - 59.5) < 3]
    assert [c for c in look_unread(look) if np.hypot(c.rank_pos[0] - 76.5, c.rank_pos[1] - 59.5) < 3
            and np.hypot(c.suit_pos[0] - 76, c.suit_pos[1] - 86) < 3]


def test_training_reads_only_patch_files_balanced_as_training_balances_them(tmp_path):
    from vision.patch import INDEX_PAPER, WHOLE_WINDOW
    from vision.train import TRAIN_NORM, _load_part

    x, labels = np.zeros((2, 3, 40, 24), np.uint8), np.zeros(2, np.int64)
    np.savez(tmp_path / "old.npz", x=x, rank=labels, suit=labels)  # from before files recorded it
    np.savez(tmp_path / "train.npz", x=x, rank=labels, suit=labels, norm=TRAIN_NORM)
    np.savez(tmp_path / "reader.npz", x=x, rank=labels, suit=labels, norm=INDEX_PAPER)
    assert TRAIN_NORM == WHOLE_WINDOW
    for ok in ("old.npz", "train.npz"):
        assert len(_load_part(tmp_path / ok)["x"]) == 2
    with pytest.raises(SystemExit, match="make them again"):
        _load_part(tmp_path / "reader.npz")


@pytest.mark.skipif(not artwork_available(), reason="artwork packages or rsvg-convert missing")
def test_a_face_card_read_at_full_size_is_not_looked_at_again_but_small_cards_beside_it_are():
    from vision.quads import find_quads, inside
    from vision.reader import read_cards

    deck = load_decks(include=["ar-anglo_poker"])[0]
    rng = np.random.default_rng(8)
    img = table_image(rng, 480, 640, kind="felt")
    place(img, deck.render("KH", 440), (150, 240), 220, 0, rng, tilt=0.0)
    for k, card in enumerate(["5S", "9D"]):
        place(img, deck.render(card, 200), (400 + 120 * k, 240), 56, 0, rng, tilt=0.0)
    look = first_look(img)
    king = [q for q in find_quads(img) if inside(q, (150, 240))]
    assert len(king) == 1
    # the king's picture has tiny glyph-like blobs; its outline explains them, the small cards' stay
    assert len(outside(look.small, king)) < len(look.small)
    assert len(small_tiles(img.shape[:2], outside(look.small, king))) >= 1
    assert sorted(c.card.name for c in read_cards(img).cards) == ["5S", "9D", "KH"]


def _faint_index(img: np.ndarray, x: int, y: int) -> None:
    """A blurred-pale rank glyph (an outline 14 x 20, 3 px strokes, darkest 140 of the paper's 220:
    ink, but paler than a core) over a solid pip, with its top-left at (x, y)."""
    cv2.rectangle(img, (x, y), (x + 13, y + 19), (152, 152, 152), 3)
    cv2.line(img, (x + 1, y + 1), (x + 12, y + 18), (140, 140, 140), 2)  # its darkest stroke
    cv2.fillConvexPoly(img, np.int32([[x + 6, y + 28], [x + 13, y + 36], [x + 6, y + 44], [x - 1, y + 36]]),
                       (40, 40, 40))


def _pairs_at(img: np.ndarray, x: int, y: int, levels) -> list:
    return [c for c in find_indices(img, levels=levels, second_look=False)
            if np.hypot(c.rank_pos[0] - x - 6.5, c.rank_pos[1] - y - 9.5) < 3]


def test_a_faint_glyph_over_a_solid_pip_is_paired():
    img = np.full((160, 160, 3), 220, np.uint8)
    _faint_index(img, 70, 40)
    solid_only = tuple(Level(v.ink, v.core, v.thin, v.core) for v in LEVELS)
    assert not _pairs_at(img, 70, 40, solid_only)
    assert _pairs_at(img, 70, 40, LEVELS)


def test_a_small_glyph_whose_stem_blur_has_paled_is_paired_by_its_bowl(monkeypatch):
    # a small card's "6" (about 12 px tall) whose thin stem blur has paled past every ink level:
    # its ink is the bowl alone, 7 px, and the pip lies 2 of those sizes below it, not 1.6

    img = np.full((120, 160, 3), 225, np.uint8)
    cv2.circle(img, (60, 40), 3, (40, 40, 40), -1)  # the bowl
    cv2.line(img, (58, 37), (63, 29), (190, 190, 190), 1)  # the stem, paler than ink
    cv2.fillConvexPoly(img, np.int32([[60, 51], [63, 54], [60, 57], [57, 54]]), (40, 40, 40))  # the pip

    def pairs() -> list:
        return [c for c in find_indices(img)
                if np.hypot(c.rank_pos[0] - 60, c.rank_pos[1] - 40) < 2
                and np.hypot(c.suit_pos[0] - 60, c.suit_pos[1] - 54) < 2]

    assert pairs()
    monkeypatch.setattr(tuning, "PART_REACH", 1.6)  # a whole glyph's reach: not paired
    assert not pairs()


def test_on_a_weave_of_faint_blobs_only_solid_ink_is_paired():
    img = np.full((600, 800, 3), 220, np.uint8)
    _faint_index(img, 70, 40)
    rng = np.random.default_rng(2)
    for x, y in rng.integers(200, 780, (tuning.MAX_FAINT + 50, 2)) % [800, 600]:  # pale specks, glyph-sized
        cv2.circle(img, (int(x), int(max(y, 150))), 4, (140, 140, 140), 2)
    assert not _pairs_at(img, 70, 40, LEVELS)


def test_a_big_glyph_is_taken_from_a_halving():
    # a card scanned 1100 px wide: its glyphs (about 100 px) are found at the full size too, where
    # the paper level's window is smaller than they are; the candidates come from the halving
    face = procedural_deck(7).render("AS", 1100)
    img = cv2.resize(cropped(face), (1100, 1540), interpolation=cv2.INTER_AREA)
    big = [c for c in first_look(img).found if c.size > BIG_GLYPH]
    assert big
    assert all(c.labels[0].look >= HALVING_LOOK for c in big)  # found on a halving


def test_patches_go_on_from_the_last_whole_part_after_a_stop(tmp_path, monkeypatch, capsys):
    """``vision.train patches`` writes a part file every few scenes; started again after a stop
    it renders only the scenes of parts not written, and the patches are the same as an
    unstopped run's (scene i is drawn from the seed [seed, i] alone)."""
    import vision.train as train

    rendered: list[int] = []

    def scene(args):  # a stand-in scene: its patches depend on (seed, i) only, as the real one's
        seed, i, _neg, _decks = args
        rendered.append(i)
        if i == stop_at[0]:
            raise KeyboardInterrupt
        x = np.full((i % 3 + 1, 3, PATCH_H, PATCH_W), 10 * seed + i, np.uint8)
        return x, np.full(len(x), i % 14, np.int64), np.full(len(x), i % 5, np.int64), "row"

    monkeypatch.setattr(train, "_scene_samples", scene)
    monkeypatch.setattr(train, "_train_decks", lambda which="all": [])
    stop_at = [-1]
    assert train.make_patches(7, 1, tmp_path / "whole.npz", 1, 2.0, part_scenes=3) == 0
    assert not (tmp_path / "whole.npz.parts").exists()
    stop_at[0], rendered[:] = 4, []
    with pytest.raises(KeyboardInterrupt):
        train.make_patches(7, 1, tmp_path / "again.npz", 1, 2.0, part_scenes=3)
    assert sorted(p.name[:15] for p in (tmp_path / "again.npz.parts").glob("*.npz")) == ["0000000-0000003"]
    stop_at[0], rendered[:] = -1, []
    assert train.make_patches(7, 1, tmp_path / "again.npz", 1, 2.0, part_scenes=3) == 0
    assert rendered == [3, 4, 5, 6] and "1 of 3 parts kept" in capsys.readouterr().out
    whole, again = np.load(tmp_path / "whole.npz"), np.load(tmp_path / "again.npz")
    for key in ("x", "rank", "suit"):
        assert np.array_equal(whole[key], again[key])
    stop_at[0] = 4  # a run of another seed to the same file takes no part of a stopped one's
    with pytest.raises(KeyboardInterrupt):
        train.make_patches(7, 1, tmp_path / "other.npz", 1, 2.0, part_scenes=3)
    stop_at[0], rendered[:] = -1, []
    train.make_patches(3, 2, tmp_path / "other.npz", 1, 2.0, part_scenes=3)
    assert rendered == [0, 1, 2] and int(np.load(tmp_path / "other.npz")["x"][0, 0, 0, 0]) == 20


def test_training_all_makes_the_patch_sets_once_then_fits_the_three_networks(tmp_path, monkeypatch, capsys):
    import vision.train as train
    from vision.cnn import GATE, SECOND

    scenes: list[tuple[int, int]] = []

    def scene(args):
        seed, i, _neg, _decks = args
        scenes.append((seed, i))
        none = np.zeros(1, np.int64)
        return np.zeros((1, 3, PATCH_H, PATCH_W), np.uint8), none, none, "row"

    fits: list[tuple] = []
    monkeypatch.setattr(train, "_scene_samples", scene)
    monkeypatch.setattr(train, "_train_decks", lambda which="all": [])
    monkeypatch.setattr(train, "fit", lambda data, epochs, seed, out, width: fits.append(
        ([p.name for p in data], epochs, out, width)) or 0)
    assert train.train_all(tmp_path, jobs=1, scenes=2) == 0
    sets = ["idx1-all.npz", "idx2-all.npz", "idx4-all.npz", "idx5-all.npz"]
    queens = [s.replace("all", "queens") for s in sets]
    # the committed networks' sets, then the second network's from the queens decks
    assert scenes == [(s, i) for s in train.TRAIN_SEEDS for i in range(2)] * 2
    assert fits == [(sets, 12, train.MODEL, 24), (sets, 6, GATE, 8), (queens, 12, SECOND, 24)]
    scenes.clear()
    assert train.train_all(tmp_path, jobs=1, scenes=2) == 0
    assert scenes == [] and capsys.readouterr().out.count("made earlier, kept") == 8
    assert train.train_all(tmp_path, jobs=1, scenes=2, which="wide") == 0  # other decks: sets of their own
    assert len(scenes) == 8 and fits[-1][0] == [s.replace("all", "wide") for s in sets]
    assert train.train_all(tmp_path / "try", jobs=1, scenes=2, which="queens") == 0
    assert len(scenes) == 16 and fits[-1][0] == queens
    # a try on other decks is exported beside its patch sets, never over the committed networks
    assert [f[2] for f in fits[-4:]] == [tmp_path / "index_cnn-wide.onnx", tmp_path / "index_gate-wide.onnx",
                                        tmp_path / "try" / "index_cnn-queens.onnx",
                                        tmp_path / "try" / "index_gate-queens.onnx"]
