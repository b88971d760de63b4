"""The golden videos' cache: two processes asking for one video at once render it once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ASK = """
import sys
from pathlib import Path
from vision.synth.golden import golden_video
path, truth = golden_video("procedural-7", "keep", cache=Path(sys.argv[1]), size=(320, 180))
print(path, truth["render_seconds"])
"""


def test_two_processes_asking_for_one_video_render_it_once(tmp_path: Path) -> None:
    procs = [subprocess.Popen([sys.executable, "-c", ASK, str(tmp_path)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in outs]
    paths = {out.split()[0] for out, _ in outs}
    assert len(paths) == 1 and Path(paths.pop()).stat().st_size > 0
    assert len({out.split()[1] for out, _ in outs}) == 1  # the same render, read twice
    assert not list(tmp_path.glob("partial-*"))
