"""The gate network: every candidate it lets through is read by the full network, unchanged."""

from __future__ import annotations

import numpy as np

from vision.cnn import GATE, IndexNet, named, read_indices, surely_none
from vision.index import first_look
from vision.patch import Pyramid, cut_patches


def test_the_gate_drops_only_what_it_calls_none_and_the_full_network_reads_the_rest(make_scene):
    layout = [("5H", 250, 200, 0), ("TC", 640, 200, 15), ("QS", 1000, 220, -20), ("AD", 300, 520, 180)]
    img = make_scene(layout, width=170)
    x = cut_patches(Pyramid(img), [(c.rank_pos, c.suit_pos) for c in first_look(img).found])
    full_r, full_s = IndexNet.load().predict(x)
    gate_r, gate_s = IndexNet.load(str(GATE)).predict(x)
    ranks, suits = read_indices(x)
    dropped = surely_none(gate_r, gate_s)
    assert 0 < dropped.sum() < len(x)  # most candidates are not indices, and some are
    # what the gate drops keeps its "none"; everything else is the full network's reading
    assert np.array_equal(ranks[dropped], gate_r[dropped]) and np.array_equal(suits[dropped], gate_s[dropped])
    assert np.allclose(ranks[~dropped], full_r[~dropped], atol=1e-6)
    assert np.allclose(suits[~dropped], full_s[~dropped], atol=1e-6)
    # and no card the full network reads with confidence is dropped
    sure = named(full_r, full_s) >= 0.6
    assert sure.sum() >= 4 and not (sure & dropped).any()
