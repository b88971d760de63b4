"""``vision.train fit`` goes on after a stop: the network is the one an unstopped fit makes.

These need PyTorch and onnx (``pip install -e '.[train]'``); without them they are skipped.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.patch import PATCH_H, PATCH_W

torch = pytest.importorskip("torch", reason="the fits need PyTorch: pip install -e '.[train]'")
onnx = pytest.importorskip("onnx", reason="the fits need onnx: pip install -e '.[train]'")


@pytest.fixture
def patches(tmp_path):
    """A small patch file: 300 patches, their labels random."""
    from vision.train import TRAIN_NORM

    rng = np.random.default_rng(3)
    path = tmp_path / "idx1-all.npz"
    np.savez(path, x=rng.integers(0, 256, (300, 3, PATCH_H, PATCH_W), np.uint8),
             rank=rng.integers(0, 14, 300), suit=rng.integers(0, 5, 300), norm=TRAIN_NORM)
    return path


def weights(path):
    from onnx import numpy_helper

    return {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}


def test_a_fit_stopped_after_an_epoch_goes_on_to_the_same_network(patches, tmp_path, monkeypatch, capsys):
    import vision.train as train

    torch.set_num_threads(1)
    assert train.fit([patches], 3, 1, tmp_path / "whole.onnx", 8) == 0
    saved = train.checkpoint_path([patches], tmp_path / "again.onnx")
    assert not train.checkpoint_path([patches], tmp_path / "whole.onnx").exists()  # gone once exported

    real_save = train._save

    def stop_after_the_first(path, key, done, *rest):
        real_save(path, key, done, *rest)
        if done == 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(train, "_save", stop_after_the_first)
    with pytest.raises(KeyboardInterrupt):
        train.fit([patches], 3, 1, tmp_path / "again.onnx", 8)
    assert saved.exists() and not (tmp_path / "again.onnx").exists()
    monkeypatch.setattr(train, "_save", real_save)
    capsys.readouterr()
    assert train.fit([patches], 3, 1, tmp_path / "again.onnx", 8) == 0
    out = capsys.readouterr().out
    assert "going on after epoch 1 of 3" in out and "epoch 1/3" not in out and "epoch 3/3" in out
    whole, again = weights(tmp_path / "whole.onnx"), weights(tmp_path / "again.onnx")
    assert whole.keys() == again.keys()
    for name in whole:
        np.testing.assert_allclose(again[name], whole[name], rtol=1e-5, atol=1e-6, err_msg=name)
    assert not saved.exists()


def test_a_fit_of_other_settings_starts_afresh(patches, tmp_path, monkeypatch, capsys):
    import vision.train as train

    torch.set_num_threads(1)
    real_save = train._save

    def stop(path, key, done, *rest):
        real_save(path, key, done, *rest)
        raise KeyboardInterrupt

    monkeypatch.setattr(train, "_save", stop)
    with pytest.raises(KeyboardInterrupt):
        train.fit([patches], 2, 1, tmp_path / "net.onnx", 8)
    monkeypatch.setattr(train, "_save", real_save)
    capsys.readouterr()
    assert train.fit([patches], 2, 2, tmp_path / "net.onnx", 8) == 0  # another seed
    out = capsys.readouterr().out
    assert "saved by another fit, so this one starts afresh" in out and "epoch 1/2" in out
