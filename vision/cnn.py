"""The corner-index networks, run with OpenCV's ``dnn`` module (no PyTorch needed to read cards).

The model (``vision/models/index_cnn.onnx``, trained by :mod:`vision.train`) takes upright index
patches (:mod:`vision.patch`) and gives two probability vectors per patch: the rank (A-K, then
"none") and the suit (in ``MODEL_SUITS`` order, then "none"); :func:`class_name` names a card by
its two classes. A small network of the same shape and a third of the
width (``index_gate.onnx``, about a quarter of the work) reads every candidate first, and only those
it does not call "none" go on to the full one (:func:`read_indices`): most candidates a photo offers
are not indices at all. A candidate the full network is unsure of is read again by a second network
of its shape, fitted apart on more decks (``index_cnn_queens.onnx``: the training decks and drawn
decks whose queens carry a continental tail), and the two readings are joined
(:func:`second_network`).

>>> import numpy as np
>>> ranks, suits = IndexNet.load().predict(np.ones((2, 3, 40, 24), np.float32))
>>> ranks.shape, suits.shape
((2, 14), (2, 5))
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from cribbage.cards import RANKS, SUITS
from vision.tuning import JOINED_BAR, THRESHOLD

MODEL = Path(__file__).parent / "models" / "index_cnn.onnx"
GATE = Path(__file__).parent / "models" / "index_gate.onnx"
# the second full network: the training decks and the drawn decks whose queens carry a tail
SECOND = Path(__file__).parent / "models" / "index_cnn_queens.onnx"
# the gate's "none" (for the rank or the suit) at least this sure: not an index, the full network
# is not asked (trained with label smoothing 0.05, the gate is never surer than about 0.96)
GATE_NONE = 0.9
# the network's rank classes are cribbage's ranks in their order (A-K); its suit classes are in this
# order, fixed by the trained model
MODEL_SUITS = "CDHS"  # the trained network's class order
SUIT_OF_CLASS = tuple(SUITS.index(s) for s in MODEL_SUITS)  # cribbage's suit index of each suit class
CARDS = [r + s for r in RANKS for s in SUITS]  # the 52 names, in cribbage's order (``Card.index``)
# the 52 names in the network's class order (rank-major): the order the benchmarks draw cards from
MODEL_CARDS = [r + s for r in RANKS for s in MODEL_SUITS]
# patches per forward pass: the gate reads every candidate, in batches of 16 (about a tenth faster
# than 4); a full network reads a few a frame, in batches of 4, whose buffers take 1 MB against
# 2.6 MB for 16 at the same speed (the camera service's memory, docs/camera.md)
BATCH = 4
GATE_BATCH = 16


class IndexNet:
    """The loaded network. ``predict(patches)`` → (rank probabilities, suit probabilities).

    One network serves the whole process, and OpenCV's ``dnn.Net`` holds its input and its layers'
    buffers between ``setInput`` and ``forward``: two threads reading at once (two phones sending
    photos to the page) would mix their batches. ``predict`` runs one batch at a time (a lock per
    network); the rest of a reading runs in parallel.
    """

    def __init__(self, net: cv2.dnn.Net, batch: int = BATCH) -> None:
        self.net, self.batch = net, batch
        self._lock = threading.Lock()

    @staticmethod
    @lru_cache(maxsize=4)
    def load(path: str = str(MODEL)) -> IndexNet:
        """A model, the committed one by default (each loaded once per process)."""
        # OpenCV 5's classic engine runs this small network about 1.4x faster than its new one;
        # OpenCV 4 (Debian's python3-opencv on the Pi) has only the one engine
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        if engine is None:
            net = cv2.dnn.readNetFromONNX(path)
            net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
            net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
        else:
            net = cv2.dnn.readNetFromONNX(path, engine=engine)
        loaded = IndexNet(net, GATE_BATCH if Path(path) == GATE else BATCH)
        loaded.predict(np.zeros((1, 3, 40, 24), np.float32))  # the first pass sets up its buffers
        return loaded

    def predict(self, patches: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], ...]:
        """Rank (N, 14) and suit (N, 5) probabilities for (N, 3, H, W) patches."""
        if len(patches) == 0:
            return np.zeros((0, len(RANKS) + 1), np.float32), np.zeros((0, len(MODEL_SUITS) + 1), np.float32)
        ranks, suits = [], []
        with self._lock:
            for s in range(0, len(patches), self.batch):
                self.net.setInput(np.ascontiguousarray(patches[s : s + self.batch]))
                r, u = self.net.forward(["rank", "suit"])
                ranks.append(r.copy())
                suits.append(u.copy())
        return np.concatenate(ranks), np.concatenate(suits)


def class_name(rank: int, suit: int) -> str:
    """The card named by the network's rank class and suit class (each without "none").

    >>> class_name(4, 2), class_name(0, 0), class_name(12, 3)
    ('5H', 'AC', 'KS')
    """
    return RANKS[rank] + SUITS[SUIT_OF_CLASS[suit]]


def named(ranks: npt.NDArray[np.float32], suits: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """How sure each reading is of the card it names: its likeliest rank's probability times its
    likeliest suit's, "none" left out.

    >>> import numpy as np
    >>> named(np.array([[0.8] + [0.0] * 12 + [0.2]]), np.array([[0.0, 0.0, 0.5, 0.0, 0.5]]))
    array([0.4])
    """
    return ranks[:, :-1].max(axis=1) * suits[:, :-1].max(axis=1)


def surely_none(ranks: npt.NDArray[np.float32], suits: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Which readings call their patch "none" (the rank or the suit) at ``GATE_NONE`` or more: not
    an index.

    >>> import numpy as np
    >>> surely_none(np.array([[0.05] + [0.0] * 12 + [0.95], [1.0] + [0.0] * 13]), np.full((2, 5), 0.2))
    array([ True, False])
    """
    return np.maximum(ranks[:, -1], suits[:, -1]) >= GATE_NONE


def second_network(patches: npt.NDArray[np.float32], ranks: npt.NDArray[np.float32],
                   suits: npt.NDArray[np.float32]) -> None:
    """Where the full network's reading (``ranks``, ``suits``) of ``patches`` names no card at
    ``THRESHOLD`` and no "none" at ``GATE_NONE``, it is unsure: the second network (``SECOND``)
    reads that patch too, and the two readings are joined by their geometric mean. The joined
    reading replaces the first (in place) only where it names a card at ``JOINED_BAR`` or more;
    elsewhere the first stands, unsure as it was.

    >>> import numpy as np
    >>> x = np.ones((2, 3, 40, 24), np.float32)  # blank paper
    >>> r = np.tile(np.eye(14, dtype=np.float32)[4], (2, 1))  # two patches read as a 5...
    >>> s = np.tile(np.eye(5, dtype=np.float32)[2], (2, 1))  # ...of hearts, surely
    >>> r[0], s[0] = 0.5 * r[0] + 0.5 / 14, 0.5 * s[0] + 0.1  # a 5, named at 0.32
    >>> second_network(x, r, s)
    >>> round(float(named(r, s)[0]), 2), int(r[1].argmax())  # paper to the second: the 5 at 0.32 stands
    (0.32, 4)
    """
    unsure = np.nonzero((named(ranks, suits) < THRESHOLD) & ~surely_none(ranks, suits))[0]
    if not len(unsure):
        return
    second_r, second_s = IndexNet.load(str(SECOND)).predict(patches[unsure])
    r, s = np.sqrt(ranks[unsure] * second_r), np.sqrt(suits[unsure] * second_s)
    r /= r.sum(axis=1, keepdims=True)
    s /= s.sum(axis=1, keepdims=True)
    sure = named(r, s) >= JOINED_BAR
    ranks[unsure[sure]], suits[unsure[sure]] = r[sure], s[sure]


def read_indices(patches: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], ...]:
    """Rank (N, 14) and suit (N, 5) probabilities for (N, 3, H, W) patches: the gate network reads
    them all; the patches it calls "none" with at least ``GATE_NONE`` keep its reading (so they are
    not cards), the others are read by the full network, and those it is unsure of by the second
    network too (:func:`second_network`).

    On the held-out synthetic scenes and the real photos (``docs/vision.md``) the full network
    reads about one candidate in six, and every card read is read the same as without the gate.

    >>> import numpy as np
    >>> paper = np.ones((3, 3, 40, 24), np.float32)  # blank paper: no index
    >>> ranks, suits = read_indices(paper)
    >>> ranks.shape, suits.shape, bool((ranks[:, -1] > 0.5).all())
    ((3, 14), (3, 5), True)
    """
    ranks, suits = IndexNet.load(str(GATE)).predict(patches)
    ask = np.nonzero(~surely_none(ranks, suits))[0]
    if len(ask):
        x = patches[ask]
        r, s = IndexNet.load().predict(x)
        second_network(x, r, s)
        ranks[ask], suits[ask] = r, s
    return ranks, suits
