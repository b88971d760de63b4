"""The page depends on the rules engine only; the companion is injected (application factory)."""

from __future__ import annotations

import ast
from pathlib import Path

import web

WEB = Path(web.__file__).parent


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_web_never_imports_the_composition_root_or_the_hardware() -> None:
    for path in WEB.glob("*.py"):
        for name in imported_modules(path):
            top = name.split(".")[0]
            assert top not in ("companion", "firmware", "vision", "picamera2", "gpiozero"), (
                f"{path.name} imports {name}"
            )


def test_the_photo_limits_stand_apart() -> None:
    """``imaging`` is shared by the page and the card reader, so it imports neither (nor any
    other part of the companion)."""
    import imaging

    for path in Path(imaging.__file__).parent.glob("*.py"):
        for name in imported_modules(path):
            top = name.split(".")[0]
            assert top not in ("companion", "cribbage", "firmware", "vision", "web"), (
                f"imaging/{path.name} imports {name}"
            )


def test_the_page_loads_nothing_from_outside() -> None:
    for path in [*WEB.glob("templates/*.html"), *WEB.glob("static/*")]:
        text = path.read_text(encoding="utf-8")
        cleaned = text.replace("http://www.w3.org/2000/svg", "")
        assert "http://" not in cleaned and "https://" not in cleaned, path.name
        assert "//cdn" not in cleaned and "fonts.googleapis" not in cleaned, path.name
