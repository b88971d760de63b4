"""Train the corner-index network on synthetic scenes (``vision.synth``), and export it to ONNX.

The three networks from the start, in one command (the patch sets are kept in ``build/train``:
stopped and started again, it goes on from the last part of patches written, and a fit from its
last epoch)::

    nice .venv/bin/python -m vision.train all

or its two steps, each reproducible from its seed and printing its progress::

    nice .venv/bin/python -m vision.train patches --scenes 8000 --seed 1 --out /tmp/idx1.npz
    nice .venv/bin/python -m vision.train patches --scenes 8000 --seed 2 --out /tmp/idx2.npz
    nice .venv/bin/python -m vision.train fit --data /tmp/idx1.npz /tmp/idx2.npz --epochs 16 --width 24

``patches`` renders scenes from the training decks (the held-out ``val`` decks are never used),
runs the real index finder on each (at full size and at twice the size, as the reader does) and
cuts every candidate out with :func:`vision.patch.cut_patches`. A candidate is labelled with its
card when its glyph and pip both lie in a visible corner index of that card and it points the
index's way down; everything else (centre pips, the pip-to-glyph reversal, court pictures, table
print, backs) is labelled "none". It needs only NumPy and OpenCV.

``fit`` needs PyTorch (``pip install -e '.[train]'``): a small convolutional network with two
heads (rank A-K or none; suit C D H S or none), trained with augmentation and exported with
``torch.onnx.export`` to ``vision/models/index_cnn.onnx``, which the reader runs with OpenCV's
``dnn`` module (no PyTorch on the Pi). The gate network that reads every candidate first is the
same ``fit`` with ``--width 8 --epochs 6 --out vision/models/index_gate.onnx``; the second network,
which reads again what the full one is unsure of, is the full network's ``fit`` on patches from
``--decks queens`` (``vision/models/index_cnn_queens.onnx``; see docs/vision.md).

>>> index_down(np.array([[0, 0], [10, 0], [10, 20], [0, 20]], np.float32), 0).tolist()
[0.0, 1.0]
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from cribbage.cards import RANKS
from vision.cnn import GATE, MODEL, MODEL_SUITS, SECOND
from vision.index import find_indices
from vision.patch import CEILING, PATCH_H, PATCH_W, WHOLE_WINDOW, Pyramid, cut_patches, stored_norm, to_bytes
from vision.quads import inside

NONE_RANK, NONE_SUIT = len(RANKS), len(MODEL_SUITS)  # the "none" classes follow the cards' classes
LAYOUT_WEIGHTS = {"single": 0.22, "row": 0.22, "fan": 0.18, "hand": 0.16, "crop": 0.1, "empty": 0.08,
                  "backs": 0.06}
# ``--decks wide`` also renders hands of 8-13 held fanned, each card's index in a narrow strip
WIDE_LAYOUT_WEIGHTS = {**LAYOUT_WEIGHTS, "bridge": 0.1}
# scenes with no card face: more of their candidates are kept (hard "none" patches: a back's lattice)
EMPTY_KEEP = 24
# training patches are white-balanced on the whole window, not on the index's own paper as the reader
# does: the level is sometimes set by glare or the next card and the index left greyer, and a network
# that learns those reads the reader's cleaner patches better than one trained on them (docs/vision-notes.md)
TRAIN_NORM = WHOLE_WINDOW


def index_down(quad: np.ndarray, k: int) -> np.ndarray:
    """The unit "down" of corner index ``k`` (0 top-left, 1 bottom-right, turned) of a face quad."""
    top = (quad[0] + quad[1]) / 2
    bottom = (quad[3] + quad[2]) / 2
    v = (bottom - top) if k == 0 else (top - bottom)
    return (v / max(float(np.linalg.norm(v)), 1e-6)).astype(np.float64)


def _grown(quad: np.ndarray, f: float) -> np.ndarray:
    c = quad.mean(axis=0)
    return ((quad - c) * f + c).astype(np.float32)


def candidate_pairs(img: np.ndarray) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Glyph/pip pairs from the index finder at full size and at twice the size (small cards)."""
    pairs = [(c.rank_pos, c.suit_pos) for c in find_indices(img)]
    big = cv2.resize(img, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    for c in find_indices(big):
        if c.size < 24:  # glyphs under 12 px in the photo: the ones the full-size pass misses
            pairs.append(((c.rank_pos[0] / 2 - 0.25, c.rank_pos[1] / 2 - 0.25),
                          (c.suit_pos[0] / 2 - 0.25, c.suit_pos[1] / 2 - 0.25)))
    return pairs


def label_pairs(scene, pairs) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    """Rank and suit labels for each pair from a scene's ground truth."""
    ranks = np.full(len(pairs), NONE_RANK, np.int64)
    suits = np.full(len(pairs), NONE_SUIT, np.int64)
    boxes = []
    for card in scene.cards:
        for k, q in enumerate(card.index_boxes):
            if any(q is v for v in card.indices):
                boxes.append((card.card, _grown(q, 1.25), index_down(card.quad, k)))
    for n, (g, p) in enumerate(pairs):
        d = np.array(p) - np.array(g)
        d = d / max(float(np.linalg.norm(d)), 1e-6)
        for name, q, down in boxes:
            if inside(q, g) and inside(q, p) and float(d @ down) > 0.85:
                ranks[n] = RANKS.index(name[0])
                suits[n] = MODEL_SUITS.index(name[1])
                break
    return ranks, suits


def _scene_samples(args: tuple[int, int, float, str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    seed, i, neg_ratio, decks = args
    from vision.synth.scene import render_scene

    cv2.setNumThreads(1)
    rng = np.random.default_rng([seed, i])
    weights = WIDE_LAYOUT_WEIGHTS if decks == "wide" else LAYOUT_WEIGHTS
    layouts = list(weights)
    p = np.array(list(weights.values()))
    layout = str(rng.choice(layouts, p=p / p.sum()))
    scene = render_scene(rng, layout=layout, decks=_train_decks(decks))
    pairs = candidate_pairs(scene.image)
    if not pairs:
        none = np.zeros(0, np.int64)
        return np.zeros((0, 3, PATCH_H, PATCH_W), np.uint8), none, none, layout
    ranks, suits = label_pairs(scene, pairs)
    pos = np.nonzero(ranks != NONE_RANK)[0]
    neg = np.nonzero(ranks == NONE_RANK)[0]
    keep_neg = max(EMPTY_KEEP if layout in ("empty", "backs") else 8, int(neg_ratio * len(pos)))
    if len(neg) > keep_neg:
        neg = rng.choice(neg, keep_neg, replace=False)
    keep = np.concatenate([pos, neg]).astype(int)
    x = cut_patches(Pyramid(scene.image), [pairs[k] for k in keep], TRAIN_NORM)
    x8 = to_bytes(x)  # stored as 8-bit pictures to keep the dataset small
    return x8, ranks[keep], suits[keep], layout


_DECK_CACHE: dict[str, list] = {}
DECK_SETS = ("all", "tailed", "queens", "wide")
"""``patches --decks``: every training deck (the committed networks'), only the drawn decks whose
queens carry a continental tail, or both ("queens": tailed queens from the start, see the notes;
"wide": both, and bridge hands held fanned among the layouts)."""


def _train_decks(which: str = "all"):  # type: ignore[no-untyped-def]
    """The training decks: ``all`` (artwork and drawn), ``tailed`` (drawn decks whose queens
    carry a continental tail, :func:`vision.synth.decks.tailed_decks`), or ``queens`` and
    ``wide`` (both).

    >>> [len(_train_decks(w)) for w in ("tailed", "queens")] == [7, len(_train_decks("all")) + 7]
    True
    """
    if which not in _DECK_CACHE:
        from vision.synth.decks import load_decks, tailed_decks
        from vision.synth.scene import default_decks

        decks = []
        if which != "tailed":
            decks += list(default_decks("train"))
            drawn = load_decks(split="train", procedural=True)
            decks += [d for d in drawn if d.name.startswith("procedural")]
        if which != "all":
            decks += list(tailed_decks("train"))
        _DECK_CACHE[which] = decks
    return _DECK_CACHE[which]


PART_SCENES = 200
"""Scenes a part file holds (``patches`` writes one as each is done): a run stopped (Ctrl-C, the
machine turned off) goes on from its last whole part when started again with the same command."""


def make_patches(scenes: int, seed: int, out: Path, jobs: int, neg_ratio: float, which: str = "all",
                 part_scenes: int = PART_SCENES) -> int:
    """Render ``scenes`` scenes from the training decks ``which`` (``DECK_SETS``) and write the
    labelled patches to ``out`` (``.npz``). Scene ``i`` is drawn from the seed ``[seed, i]`` alone,
    so the patches are the same however the run is cut into parts or stopped and begun again.

    The parts are written to ``OUT.parts/`` as they are done (each named for its scenes and the
    settings, so a part of another run is never taken), kept there by a run that stops, and joined
    into ``out`` (and removed) at the end. ``jobs`` processes render at once (1: this one).

    >>> PART_SCENES
    200
    """
    if scenes < 1:
        print(f"vision.train patches: --scenes must be at least 1, not {scenes}", file=sys.stderr)
        return 2
    decks = _train_decks(which)
    print(f"{len(decks)} training decks: {', '.join(d.name for d in decks)}", flush=True)
    parts = out.with_name(out.name + ".parts")
    parts.mkdir(parents=True, exist_ok=True)
    spans = [(a, min(a + part_scenes, scenes)) for a in range(0, scenes, part_scenes)]
    names = [parts / f"{a:07d}-{b:07d}-seed{seed}-{which}-neg{neg_ratio:g}.npz" for a, b in spans]
    kept = sum(name.exists() for name in names)
    if kept:
        print(f"{kept} of {len(spans)} parts kept from an earlier run in {parts}", flush=True)
    t0 = time.perf_counter()
    # spawn, not fork: a forked OpenCV can deadlock on its thread pool
    with (multiprocessing.get_context("spawn").Pool(jobs) if jobs > 1 else contextlib.nullcontext()) as pool:
        for (a, b), name in zip(spans, names, strict=True):
            if name.exists():
                continue
            work = [(seed, i, neg_ratio, which) for i in range(a, b)]
            samples = pool.imap(_scene_samples, work, chunksize=4) if pool else map(_scene_samples, work)
            xs, rs, ss = zip(*((x, r, s) for x, r, s, _layout in samples), strict=True)
            rank = np.concatenate(rs)
            _write_npz(name, x=np.concatenate(xs), rank=rank, suit=np.concatenate(ss), norm=TRAIN_NORM)
            el = time.perf_counter() - t0
            print(f"[{b}/{scenes}] {el:.0f}s  part {name.name}: {len(rank)} patches "
                  f"({int((rank != NONE_RANK).sum())} index)", flush=True)
    loaded = [_load_part(name) for name in names]
    x = np.concatenate([p["x"] for p in loaded])
    _write_npz(out, x=x, rank=np.concatenate([p["rank"] for p in loaded]),
               suit=np.concatenate([p["suit"] for p in loaded]), norm=TRAIN_NORM)
    for name in names:
        name.unlink()
    with contextlib.suppress(OSError):
        parts.rmdir()
    print(f"wrote {len(x)} patches to {out}")
    return 0


def _write_npz(path: Path, **arrays: np.ndarray | str) -> None:
    """``np.savez_compressed`` to ``path`` whole or not at all (a stopped run leaves no half file)."""
    part = path.with_name(path.name + ".writing.npz")
    np.savez_compressed(part, **arrays)  # type: ignore[arg-type]
    part.replace(path)


STRETCH = (0.7, 1.45)  # how much wider than printed (``fit --stretch``): a crop made square, an oblique view
# ``fit --elastic``: a smooth random displacement of the patch's pixels (Simard et al. 2003), its
# knots ELASTIC_KNOTS (rows, columns) over the patch, each moved ELASTIC_PX (standard deviation, patch
# pixels): a glyph bent as another typeface draws it (a seven's stem curved, a two's bowl wider)
ELASTIC_KNOTS, ELASTIC_PX = (6, 4), 1.0


def _load_part(path: Path) -> dict[str, np.ndarray]:
    """A patch file; its patches must have been balanced as training balances them."""
    with np.load(path) as z:
        part = {k: z[k] for k in ("x", "rank", "suit")}
        norm = stored_norm(z)
    if norm != TRAIN_NORM:
        raise SystemExit(f"{path}: patches balanced as {norm}, training uses {TRAIN_NORM}: make them again")
    return part


def fit(data: list[Path], epochs: int, seed: int, out: Path, width: int, init: Path | None = None,
        lr: float = 3e-3, stretch: float = 0.0, elastic: float = 0.0) -> int:
    """Train the network on the patch files ``data`` and export it to ONNX at ``out``; with ``init``,
    go on training a model exported earlier (:func:`_start_from`) rather than starting afresh.
    ``stretch``: the share of training patches stretched or squeezed across (see ``STRETCH``);
    ``elastic``: the share bent by a smooth random displacement (see ``ELASTIC_PX``).

    After each epoch the fit is saved beside the first patch file (:func:`checkpoint_path`); the
    same fit started again goes on from the last epoch saved, to the same network as a fit never
    stopped, and the file is removed once the network is exported."""
    try:
        import torch
        from torch import nn
    except ImportError:
        print("vision.train fit needs PyTorch: pip install -e '.[train]'", file=sys.stderr)
        return 2
    torch.manual_seed(seed)
    torch.set_num_threads(max(1, (torch.get_num_threads())))
    rng = np.random.default_rng(seed)
    parts = [_load_part(p) for p in data]
    d = {k: np.concatenate([p[k] for p in parts]) for k in ("x", "rank", "suit")}
    del parts
    x = torch.from_numpy(d["x"])
    yr = torch.from_numpy(d["rank"])
    ys = torch.from_numpy(d["suit"])
    n = len(x)
    order = rng.permutation(n)
    n_val = max(1, n // 20)
    val, tr = order[:n_val], order[n_val:]
    print(f"{n} patches ({int((d['rank'] != NONE_RANK).sum())} index), {len(tr)} train / {len(val)} check")

    net = index_net(width)
    if init is not None:
        _start_from(net, init, x[tr[:4096]].float() * (CEILING / 255))
        print(f"starting from {init}", flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * (len(tr) // 256 + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    lossf = nn.CrossEntropyLoss(label_smoothing=0.05)
    saved = checkpoint_path(data, out)
    key = _fit_key(data, epochs, seed, width, init, lr, stretch, elastic)
    first = _resume(saved, key, net, opt, sched, rng)

    def batch(idx: np.ndarray, augment: bool) -> torch.Tensor:
        b = x[idx].float() * (CEILING / 255)
        if augment:
            k = len(idx)
            g = torch.Generator().manual_seed(int(rng.integers(2**31)))
            gain = 1 + 0.25 * (torch.rand(k, 1, 1, 1, generator=g) - 0.5)
            chan = 1 + 0.12 * (torch.rand(k, 3, 1, 1, generator=g) - 0.5)
            b = b * gain * chan
            # shape over colour: the paper is white after white balance, but the ink's hue can
            # still be off (a webcam with a blue cast prints red as dark blue), so some patches
            # get their channels swapped (red ink turns blue or green) and some lose colour
            swap = torch.rand(k, 1, 1, 1, generator=g) < 0.12
            perm = [[2, 0, 1], [1, 2, 0], [0, 2, 1]][int(torch.randint(0, 3, (1,), generator=g))]
            b = torch.where(swap, b[:, perm], b)
            grey = torch.rand(k, 1, 1, 1, generator=g) < 0.12
            b = torch.where(grey, b.mean(dim=1, keepdim=True).expand_as(b), b)
            # faint print (haze, glare, a pale deck): pull half the patches toward the paper
            faint = torch.rand(k, 1, 1, 1, generator=g) < 0.5
            c = 0.35 + 0.65 * torch.rand(k, 1, 1, 1, generator=g)
            b = torch.where(faint, 1 - (1 - b) * c, b)
            # and soften a fifth of them a little more
            soft = torch.rand(k, 1, 1, 1, generator=g) < 0.2
            b = torch.where(soft, torch.nn.functional.avg_pool2d(b, 3, 1, 1, count_include_pad=False), b)
            b = b + 0.04 * torch.randn(b.shape, generator=g)
            if stretch:
                # an index seen wider or narrower than printed, against its height: a card photographed
                # obliquely along its length, or a crop resized to a square
                wide = torch.rand(k, generator=g) < stretch
                f = torch.exp(torch.empty(k).uniform_(*np.log(STRETCH).tolist(), generator=g))
                theta = torch.zeros(k, 2, 3)
                theta[:, 0, 0] = torch.where(wide, 1 / f, torch.ones(k))
                theta[:, 1, 1] = 1
                grid = torch.nn.functional.affine_grid(theta, list(b.shape), align_corners=False)
                b = torch.nn.functional.grid_sample(b, grid, padding_mode="border", align_corners=False)
            if elastic:
                bend = (torch.rand(k, 1, 1, 1, generator=g) < elastic).float()
                knots = torch.randn(k, 2, *ELASTIC_KNOTS, generator=g) * ELASTIC_PX * bend
                move = torch.nn.functional.interpolate(knots, size=(PATCH_H, PATCH_W), mode="bicubic",
                                                       align_corners=True)
                theta = torch.tensor([[1.0, 0, 0], [0, 1.0, 0]]).expand(k, 2, 3)
                grid = torch.nn.functional.affine_grid(theta, list(b.shape), align_corners=False)
                grid = grid + torch.stack([move[:, 0] * (2 / PATCH_W), move[:, 1] * (2 / PATCH_H)], dim=-1)
                b = torch.nn.functional.grid_sample(b, grid, padding_mode="border", align_corners=False)
            # a pixel of shift either way
            sh = torch.randint(-1, 2, (2,), generator=g)
            b = torch.roll(b, shifts=(int(sh[0]), int(sh[1])), dims=(2, 3))
            b = b.clamp(0, CEILING)
        return b

    t0 = time.perf_counter()
    for ep in range(first, epochs):
        net.train()
        perm = rng.permutation(tr)
        tot, count = 0.0, 0
        for s in range(0, len(perm), 256):
            idx = perm[s : s + 256]
            r_logit, s_logit = net(batch(idx, True))
            loss = lossf(r_logit, yr[idx]) + lossf(s_logit, ys[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item() * len(idx)
            count += len(idx)
        net.eval()
        with torch.no_grad():
            r_logit, s_logit = net(batch(val, False))
            ra = (r_logit.argmax(1) == yr[val]).float().mean().item()
            sa = (s_logit.argmax(1) == ys[val]).float().mean().item()
        _save(saved, key, ep + 1, net, opt, sched, rng)
        print(f"epoch {ep + 1}/{epochs}  loss {tot / count:.4f}  check: rank {ra:.4f} suit {sa:.4f}  "
              f"{time.perf_counter() - t0:.0f}s", flush=True)
    net.eval()
    dummy = torch.zeros(1, 3, PATCH_H, PATCH_W)
    torch.onnx.export(net, dummy, str(out), input_names=["patch"], output_names=["rank", "suit"],
                      dynamic_axes={"patch": {0: "n"}, "rank": {0: "n"}, "suit": {0: "n"}}, opset_version=13,
                      dynamo=False)
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} kB)")
    saved.unlink(missing_ok=True)
    return 0


def checkpoint_path(data: list[Path], out: Path) -> Path:
    """Where a fit of ``data`` exported to ``out`` keeps its epochs: beside the first patch file.

    >>> checkpoint_path([Path("build/train/idx1-all.npz")], Path("vision/models/index_gate.onnx"))
    PosixPath('build/train/index_gate.fit.pt')
    """
    return data[0].parent / f"{out.stem}.fit.pt"


def _fit_key(data: list[Path], epochs: int, seed: int, width: int, init: Path | None, lr: float,
             stretch: float, elastic: float) -> dict[str, object]:
    """What makes a saved fit this one: its patch files (by name and size) and its settings."""
    files = [(p.name, p.stat().st_size if p.exists() else -1) for p in data]
    return {"data": files, "epochs": epochs, "seed": seed, "width": width,
            "init": None if init is None else str(init), "lr": lr, "stretch": stretch, "elastic": elastic}


def _save(path: Path, key: dict[str, object], done: int, net, opt, sched,  # type: ignore[no-untyped-def]
          rng: np.random.Generator) -> None:
    """Save the fit after ``done`` epochs to ``path``, whole or not at all."""
    import torch

    state = {"key": key, "done": done, "net": net.state_dict(), "opt": opt.state_dict(),
             "sched": sched.state_dict(), "rng": rng.bit_generator.state, "torch": torch.get_rng_state()}
    part = path.with_name(path.name + ".part")
    torch.save(state, part)
    os.replace(part, path)


def _resume(path: Path, key: dict[str, object], net, opt, sched,  # type: ignore[no-untyped-def]
            rng: np.random.Generator) -> int:
    """Load the fit saved at ``path`` if it is this one (``key``); the epochs it had done."""
    import torch

    if not path.exists():
        return 0
    state = torch.load(path, weights_only=False)
    if state.get("key") != key:
        print(f"{path}: saved by another fit, so this one starts afresh", flush=True)
        return 0
    net.load_state_dict(state["net"])
    opt.load_state_dict(state["opt"])
    sched.load_state_dict(state["sched"])
    rng.bit_generator.state = state["rng"]
    torch.set_rng_state(state["torch"])
    print(f"{path}: going on after epoch {state['done']} of {key['epochs']}", flush=True)
    return int(state["done"])


def _start_from(net, path: Path, sample) -> None:  # type: ignore[no-untyped-def]
    """Load an exported model's weights into ``net`` (same ``--width``). The ONNX file holds each
    conv with its batch norm folded in; the norm is set to pass the conv's output through unchanged
    (in eval mode exactly; in training, its scale and shift are the output's own spread and mean
    over ``sample`` patches, so batch statistics give nearly the same), so that training goes on
    from the exported model's own function. Needs the ``onnx`` package (the ``train`` extra)."""
    import onnx
    import torch
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [node for node in model.graph.node if node.op_type == "Conv"]
    state = net.state_dict()
    for name in ("hidden.1.weight", "hidden.1.bias", "rank.weight", "rank.bias", "suit.weight", "suit.bias"):
        if weights[name].shape != tuple(state[name].shape):
            raise SystemExit(f"{path}: {name} is {weights[name].shape}, the network's is "
                             f"{tuple(state[name].shape)}: give the --width it was trained with")
        state[name].copy_(torch.from_numpy(weights[name].copy()))
    net.eval()
    h = sample
    with torch.no_grad():
        for k, node in enumerate(convs):
            conv, norm = net.body[k][0], net.body[k][1]
            conv.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
            conv.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))
            y = conv(h)
            mean, var = y.mean(dim=(0, 2, 3)), y.var(dim=(0, 2, 3))
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)
            norm.weight.copy_(torch.sqrt(var + norm.eps))
            norm.bias.copy_(mean)
            h = net.body[k](h)


def index_net(width: int = 16):  # type: ignore[no-untyped-def]
    """The network: three conv blocks (3x3, batch norm, ReLU, 2x2 max pool), then two linear heads
    that end in softmax (so the ONNX file gives probabilities)."""
    from torch import nn

    class _Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            w = width

            def block(a: int, b: int) -> nn.Sequential:
                return nn.Sequential(nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(),
                                     nn.MaxPool2d(2))

            self.body = nn.Sequential(block(3, w // 2), block(w // 2, w), block(w, 2 * w), nn.Flatten())
            feat = 2 * w * (PATCH_H // 8) * (PATCH_W // 8)
            self.hidden = nn.Sequential(nn.Dropout(0.2), nn.Linear(feat, 96), nn.ReLU())
            self.rank = nn.Linear(96, len(RANKS) + 1)
            self.suit = nn.Linear(96, len(MODEL_SUITS) + 1)
            self.softmax = nn.Softmax(dim=1)

        def forward(self, x):  # type: ignore[no-untyped-def]
            h = self.hidden(self.body(x))
            r, s = self.rank(h), self.suit(h)
            if self.training:
                return r, s
            return self.softmax(r), self.softmax(s)

    return _Net()


TRAIN_SEEDS = (1, 2, 4, 5)
"""The committed networks' patch sets, four from each set of decks (8000 scenes each, seeds as in
docs/vision.md)."""


def train_all(folder: Path, jobs: int, scenes: int = 8000, which: str = "all") -> int:
    """The networks from the start, in one command: the four patch sets of ``TRAIN_SEEDS`` from
    the training decks ``which`` (``DECK_SETS``) into ``folder`` as ``idxSEED-WHICH.npz`` (a set
    made earlier is kept; one stopped goes on from its last part),
    then the full network (``--epochs 12 --width 24``) and the gate (``--epochs 6 --width 8``)
    fitted on them and exported. From the committed networks' decks (``all``) they go over
    ``vision/models/``, and the second network follows: the ``queens`` sets, and the full
    network's fit on them, as ``SECOND``. From any other decks they go beside the patch sets
    (``folder/index_cnn-WHICH.onnx`` and ``index_gate-WHICH.onnx``: a try, which leaves the
    committed networks be). The fits need PyTorch; without it the patches are made and the command
    says how to install it. Each fit goes on from its last epoch when started again (:func:`fit`).

    >>> TRAIN_SEEDS
    (1, 2, 4, 5)
    """
    if which != "all":
        return _train_on(folder, jobs, scenes, which, folder / f"{MODEL.stem}-{which}.onnx",
                         folder / f"{GATE.stem}-{which}.onnx")
    if (rc := _train_on(folder, jobs, scenes, "all", MODEL, GATE)) != 0:
        return rc
    return _train_on(folder, jobs, scenes, "queens", SECOND, None)


def _train_on(folder: Path, jobs: int, scenes: int, which: str, model: Path, gate: Path | None) -> int:
    """:func:`train_all`'s patch sets from the decks ``which``, the full network fitted on them
    into ``model``, and the gate into ``gate`` (none for ``None``)."""
    folder.mkdir(parents=True, exist_ok=True)
    data = [folder / f"idx{seed}-{which}.npz" for seed in TRAIN_SEEDS]
    for seed, out in zip(TRAIN_SEEDS, data, strict=True):
        if out.exists():
            print(f"{out}: made earlier, kept", flush=True)
        elif (rc := make_patches(scenes, seed, out, jobs, 2.0, which)) != 0:
            return rc
    if (rc := fit(data, 12, 1, model, 24)) != 0 or gate is None:
        return rc
    return fit(data, 6, 1, gate, 8)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    p = sub.add_parser("patches", help="render scenes and cut labelled index patches")
    p.add_argument("--scenes", type=int, default=6000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--neg-ratio", type=float, default=2.0, help="'none' patches kept per index patch")
    p.add_argument("--decks", choices=DECK_SETS, default="all",
                   help="every training deck; the drawn decks whose queens have a continental tail; both; "
                        "both with bridge hands")
    w = sub.add_parser("all", help="the networks from the start: patch sets, then the fits")
    w.add_argument("--dir", type=Path, default=Path("build/train"), help="where the patch sets are kept")
    w.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    w.add_argument("--scenes", type=int, default=8000, help="scenes in each of the four patch sets")
    w.add_argument("--decks", choices=DECK_SETS, default="all", help="the training decks (see patches)")
    f = sub.add_parser("fit", help="train the network and export ONNX")
    f.add_argument("--data", type=Path, nargs="+", required=True, help="one or more patch files")
    f.add_argument("--epochs", type=int, default=14)
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--width", type=int, default=16)
    f.add_argument("--out", type=Path, default=MODEL)
    f.add_argument("--init", type=Path, help="go on training this exported model (ONNX), not afresh")
    f.add_argument("--lr", type=float, default=3e-3, help="peak learning rate of the one-cycle schedule")
    f.add_argument("--stretch", type=float, default=0.0,
                   help="share of patches stretched or squeezed across (0.7-1.45 times), 0 for none")
    f.add_argument("--elastic", type=float, default=0.0,
                   help="share of patches bent by a smooth random displacement, 0 for none")
    a = ap.parse_args(argv)
    if a.step == "patches":
        return make_patches(a.scenes, a.seed, a.out, a.jobs, a.neg_ratio, a.decks)
    if a.step == "all":
        return train_all(a.dir, a.jobs, a.scenes, a.decks)
    return fit(a.data, a.epochs, a.seed, a.out, a.width, a.init, a.lr, a.stretch, a.elastic)


if __name__ == "__main__":
    sys.exit(main())
