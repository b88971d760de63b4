"""A tiny multilayer perceptron in numpy: the index classifiers (trained by ``vision.train``).

>>> import numpy as np
>>> m = Mlp.new(3, 4, ["a", "b"], np.random.default_rng(0))
>>> m.predict(np.zeros((1, 3), np.float32)).shape
(1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np


def dot_1thread(a: np.ndarray, b: np.ndarray, chunk: int = 16) -> np.ndarray:
    """``a @ b`` for small float32 matrices without BLAS threads (chunked broadcasting).

    >>> a = np.arange(6, dtype=np.float32).reshape(2, 3); b = np.ones((3, 2), np.float32)
    >>> dot_1thread(a, b).tolist()
    [[3.0, 3.0], [12.0, 12.0]]
    """
    out = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(0, a.shape[1], chunk):
        out += (a[:, k : k + chunk, None] * b[None, k : k + chunk, :]).sum(axis=1)
    return out


@dataclass
class Mlp:
    """Input → ReLU hidden layer → softmax over ``classes``."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    classes: list[str]

    @classmethod
    def new(cls, n_in: int, n_hidden: int, classes: list[str], rng: np.random.Generator) -> Mlp:
        """Random weights (He initialisation)."""
        return cls(
            (rng.normal(0, np.sqrt(2 / n_in), (n_in, n_hidden))).astype(np.float32),
            np.zeros(n_hidden, np.float32),
            (rng.normal(0, np.sqrt(2 / n_hidden), (n_hidden, len(classes)))).astype(np.float32),
            np.zeros(len(classes), np.float32),
            list(classes),
        )

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities, one row per input row.

        The products avoid BLAS (numpy's and OpenCV's OpenBLAS start a thread pool that spins
        on every core): the reader keeps to one thread.
        """
        x = np.ascontiguousarray(x, np.float32)
        h = np.maximum(dot_1thread(x, self.w1) + self.b1, 0)
        z = dot_1thread(h, self.w2) + self.b2
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def fit(self, x: np.ndarray, y: np.ndarray, epochs: int, rng: np.random.Generator, lr: float = 0.05,
            batch: int = 128, log: bool = True) -> None:
        """Minibatch SGD with momentum on cross-entropy; ``y`` holds class indices."""
        vel = [np.zeros_like(p) for p in (self.w1, self.b1, self.w2, self.b2)]
        n = len(x)
        for ep in range(epochs):
            order = rng.permutation(n)
            loss = 0.0
            for k in range(0, n, batch):
                bi = order[k : k + batch]
                xb, yb = x[bi], y[bi]
                h_pre = xb @ self.w1 + self.b1
                h = np.maximum(h_pre, 0)
                z = h @ self.w2 + self.b2
                z -= z.max(axis=1, keepdims=True)
                p = np.exp(z)
                p /= p.sum(axis=1, keepdims=True)
                loss += float(-np.log(p[np.arange(len(yb)), yb] + 1e-9).sum())
                g = p
                g[np.arange(len(yb)), yb] -= 1
                g /= len(yb)
                gw2 = h.T @ g
                gb2 = g.sum(0)
                gh = (g @ self.w2.T) * (h_pre > 0)
                gw1 = xb.T @ gh
                gb1 = gh.sum(0)
                for v, p_, gr in zip(vel, (self.w1, self.b1, self.w2, self.b2), (gw1, gb1, gw2, gb2),
                                     strict=True):
                    v *= 0.9
                    v -= lr * (gr + 1e-4 * p_)
                    p_ += v
            if log:
                acc = float((self.predict(x[:5000]).argmax(1) == y[:5000]).mean())
                print(f"  epoch {ep + 1}/{epochs}: loss {loss / n:.4f}, train accuracy {acc:.4f}", flush=True)

    def save(self, path: Path, prefix: str, store: dict) -> None:
        """Add this model's arrays to ``store`` under ``prefix`` (saved together with np.savez)."""
        store[f"{prefix}_w1"], store[f"{prefix}_b1"] = self.w1, self.b1
        store[f"{prefix}_w2"], store[f"{prefix}_b2"] = self.w2, self.b2
        store[f"{prefix}_classes"] = np.array(self.classes)

    @classmethod
    def load(cls, data: dict, prefix: str) -> Mlp:
        """The model saved under ``prefix`` in an ``np.load`` result."""
        return cls(
            data[f"{prefix}_w1"], data[f"{prefix}_b1"], data[f"{prefix}_w2"], data[f"{prefix}_b2"],
            [str(c) for c in data[f"{prefix}_classes"]],
        )
