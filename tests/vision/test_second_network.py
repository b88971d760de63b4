"""The second network: what the full network is unsure of is read again, and the joined reading
counts only at ``JOINED_BAR``."""

from __future__ import annotations

import numpy as np

import vision.cnn as cnn
from vision.cnn import IndexNet, named, read_indices, surely_none
from vision.reader import read_cards
from vision.synth.subsets import photo


def test_the_tailed_queens_the_full_network_is_unsure_of_are_read_by_the_second(monkeypatch):
    img, names = photo("tailed-queen", 8)  # the held-out drawn deck, its queens' "Q" tailed
    assert sorted(c.card.name for c in read_cards(img).cards) == sorted(names)
    monkeypatch.setattr(cnn, "JOINED_BAR", 2.0)  # no joined reading ever counts: the full network alone
    alone = {c.card.name for c in read_cards(img).cards}
    assert set(names) - alone == {"QC", "QD", "QS"} and alone <= set(names)


class _Second:
    """A stand-in for the second network: it reads every patch as a 5 of the suit class 2, at
    ``sure``, and keeps what it was asked."""

    def __init__(self, sure: float) -> None:
        self.sure, self.asked = sure, []

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.asked.append(x[:, 0, 0, 0].tolist())
        r = np.full((len(x), 14), (1 - self.sure) / 13, np.float32)
        s = np.full((len(x), 5), (1 - self.sure) / 4, np.float32)
        r[:, 4], s[:, 2] = self.sure, self.sure
        return r, s


def test_a_joined_reading_replaces_the_first_only_where_it_names_a_card_at_the_bar(monkeypatch):
    from vision.index import first_look
    from vision.patch import Pyramid, cut_patches

    img, _names = photo("tailed-queen", 8)
    x = cut_patches(Pyramid(img), [(c.rank_pos, c.suit_pos) for c in first_look(img).found])
    x[:, 0, 0, 0] = np.arange(len(x))  # each patch marked with its number
    gate, full = IndexNet.load(str(cnn.GATE)), IndexNet.load()
    nets = {str(cnn.GATE): gate, str(cnn.MODEL): full}
    monkeypatch.setattr(cnn, "IndexNet", type("Nets", (), {"load": staticmethod(
        lambda path=str(cnn.MODEL): nets.get(path, second))}))
    gate_r, gate_s = gate.predict(x)
    full_r, full_s = full.predict(x)
    asked = ~surely_none(gate_r, gate_s)
    unsure = asked & (named(full_r, full_s) < cnn.THRESHOLD) & ~surely_none(full_r, full_s)
    assert unsure.any() and (asked & ~unsure).any()
    for sure in (1.0, 0.3):
        second = _Second(sure)
        ranks, suits = read_indices(x)
        # only what the full network is unsure of is asked again
        assert second.asked == [np.nonzero(unsure)[0].astype(float).tolist()]
        second_r, second_s = second.predict(x)
        r, s = np.sqrt(full_r * second_r), np.sqrt(full_s * second_s)
        r, s = r / r.sum(axis=1, keepdims=True), s / s.sum(axis=1, keepdims=True)
        joined = unsure & (named(r, s) >= cnn.JOINED_BAR)
        assert joined.any() == (sure == 1.0)
        assert np.allclose(ranks[joined], r[joined], atol=1e-6)
        assert np.allclose(suits[joined], s[joined], atol=1e-6)
        kept = asked & ~joined  # the full network's reading stands
        assert np.allclose(ranks[kept], full_r[kept], atol=1e-6)
        assert np.allclose(suits[kept], full_s[kept], atol=1e-6)
