"""The golden videos' cache: two processes asking for one video at once render it once; renders
that overlap (where the system has no file locks, or in one process) never share a partial file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ASK = """
import sys
from pathlib import Path
from vision.synth.golden import golden_video
path, truth = golden_video("procedural-7", "keep", cache=Path(sys.argv[1]), size=(320, 180))
print(path, truth["render_seconds"])
"""


@pytest.mark.slow
def test_two_processes_asking_for_one_video_render_it_once(tmp_path: Path) -> None:
    procs = [subprocess.Popen([sys.executable, "-c", ASK, str(tmp_path)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in outs]
    paths = {out.split()[0] for out, _ in outs}
    assert len(paths) == 1 and Path(paths.pop()).stat().st_size > 0
    assert len({out.split()[1] for out, _ in outs}) == 1  # the same render, read twice
    assert not list(tmp_path.glob("partial-*"))


def test_renders_at_once_in_one_process_each_write_their_own_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two renders at once crashed one: both wrote partial-<pid>-<name>.mp4, and the first to
    finish moved the other's file away. Each now renders under a name of its own; a render that
    fails leaves no partial file behind."""
    import contextlib
    import json
    import threading

    import vision.synth.golden as golden
    import vision.synth.video as video

    both = threading.Barrier(2)
    written: list[str] = []

    def render_video(actions: object, path: Path, **kwargs: object) -> None:
        written.append(Path(path).name)
        both.wait(timeout=30)  # both renders are under way at once
        Path(path).write_bytes(b"frames")
        Path(str(path) + ".truth.json").write_text(json.dumps({"frames": 1}))
        both.wait(timeout=30)

    monkeypatch.setattr(video, "render_video", render_video)
    monkeypatch.setattr(golden, "_rendering", lambda path: contextlib.nullcontext())  # no locks here
    failed: list[BaseException] = []

    def ask() -> None:
        try:
            golden.golden_video("procedural-7", "keep", cache=tmp_path, size=(320, 180))
        except BaseException as exc:
            failed.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failed == [] and len(set(written)) == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("partial-")] == []

    def broken(actions: object, path: Path, **kwargs: object) -> None:
        Path(path).write_bytes(b"half")
        raise RuntimeError("the renderer stopped")

    monkeypatch.setattr(video, "render_video", broken)
    with pytest.raises(RuntimeError):
        golden.golden_video("procedural-7", "turn-down", cache=tmp_path, size=(320, 180))
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("partial-")] == []
