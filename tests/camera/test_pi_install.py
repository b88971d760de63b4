"""The Raspberry Pi install keeps apt's NumPy, which apt's picamera2 (and its simplejpeg) are built for.

On Raspberry Pi OS Bookworm apt gives NumPy 1.24.2 and a simplejpeg built for NumPy 1; a NumPy 2
that pip puts in the venv over it makes ``import picamera2`` fail ("numpy.dtype size changed").
The guide (docs/web.md, docs/camera.md) installs ``.[pi]`` into a ``--system-site-packages``
venv: these tests keep what that resolves to satisfiable by apt's NumPy, and the guide's commands
as they are.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
APT_NUMPY = Version("1.24.2")
"""Bookworm's ``python3-numpy``."""
PI = {"python_version": "3.11", "python_full_version": "3.11.2", "sys_platform": "linux",
      "platform_system": "Linux", "platform_machine": "aarch64", "os_name": "posix",
      "implementation_name": "cpython", "platform_python_implementation": "CPython", "extra": "pi"}
"""Raspberry Pi OS Bookworm, 64-bit, as pip's markers see it."""
OPENCV_NUMPY = {
    # opencv-python-headless release: its NumPy requirement for Python 3.11 on Linux aarch64, as
    # its wheel's METADATA says (Requires-Dist lines that apply there).
    "4.9.0.80": ">=1.23.5,>=1.21.2,>=1.19.3,>=1.17.3",
    "4.10.0.84": ">=1.23.5,>=1.21.2,>=1.19.3,>=1.17.3",
    "4.11.0.86": ">=1.23.5,>=1.21.2,>=1.19.3,>=1.17.3",
    "4.12.0.88": ">=2",
}


def requirements(extra: str | None) -> list[Requirement]:
    """The project's requirements (and ``extra``'s) that apply on the Pi."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = list(project["dependencies"]) + list(project["optional-dependencies"].get(extra or "", []))
    reqs = [Requirement(r) for r in listed]
    return [r for r in reqs if r.marker is None or r.marker.evaluate(PI)]


def combined(reqs: list[Requirement], name: str) -> SpecifierSet:
    spec = SpecifierSet()
    for r in reqs:
        if r.name.lower() == name:
            spec &= r.specifier
    return spec


def test_the_pi_install_is_satisfied_by_apts_numpy_and_never_asks_for_numpy_2() -> None:
    numpy = combined(requirements("pi"), "numpy")
    assert numpy.contains(APT_NUMPY), f"pip would replace apt's NumPy {APT_NUMPY}: numpy{numpy}"
    assert not numpy.contains(Version("2.0.0")) and not numpy.contains(Version("2.2.6"))


def test_every_opencv_the_pi_install_allows_runs_on_apts_numpy() -> None:
    opencv = combined(requirements("pi"), "opencv-python-headless")
    allowed = [v for v in OPENCV_NUMPY if opencv.contains(Version(v))]
    assert allowed, f"no known OpenCV release is allowed: {opencv}"
    for release in allowed:
        assert SpecifierSet(OPENCV_NUMPY[release]).contains(APT_NUMPY), f"OpenCV {release} needs NumPy 2"
    # a release after the known ones is not allowed either (4.12 on are built for NumPy 2)
    assert not opencv.contains(Version("4.13.0.90")) and not opencv.contains(Version("5.0.0"))


def test_without_the_pi_extra_the_project_itself_allows_apts_numpy() -> None:
    assert combined(requirements(None), "numpy").contains(APT_NUMPY)


def test_the_pi_extra_would_be_needed_the_plain_install_allows_an_opencv_built_for_numpy_2() -> None:
    """Why the guide says ``.[pi]``: the plain requirements let pip take OpenCV 4.12 (NumPy 2)."""
    assert combined(requirements(None), "opencv-python-headless").contains(Version("4.12.0.88"))


def code_blocks(path: Path) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", path.read_text(), re.S)


@pytest.mark.parametrize("doc", ["docs/web.md", "docs/camera.md"])
def test_the_guide_installs_the_pi_extra_into_a_venv_that_sees_apt(doc: str) -> None:
    blocks = [b for b in code_blocks(ROOT / doc) if "--system-site-packages" in b]
    assert blocks, f"{doc}: no venv made with --system-site-packages"
    for block in blocks:
        installs = [line for line in block.splitlines() if "pip install" in line]
        assert installs, f"{doc}: a Pi venv with nothing installed into it"
        assert all("'.[pi]'" in line for line in installs), f"{doc}: {installs} (the Pi needs '.[pi]')"


def test_the_guides_check_imports_picamera2_and_the_project_together() -> None:
    text = (ROOT / "docs/web.md").read_text()
    pi = text[text.index("## Raspberry Pi"):]
    check = next(line for line in pi.splitlines() if "python -c 'import picamera2" in line)
    assert "numpy" in check and "companion.cli" in check and "apt install" in pi
    assert "python3-picamera2" in pi
