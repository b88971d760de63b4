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


def web_imports() -> dict[str, set[str]]:
    """Which of the page's modules each one imports, at the top or inside a function."""
    graph: dict[str, set[str]] = {}
    for path in WEB.glob("*.py"):
        if path.stem == "__init__":  # the application factory registers every blueprint
            continue
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("web."):
                found.add(node.module.split(".")[1])
            elif isinstance(node, ast.ImportFrom) and node.module == "web":
                found.update(a.name for a in node.names if (WEB / f"{a.name}.py").exists())
        graph[path.stem] = found
    return graph


def test_no_two_modules_of_the_page_import_each_other() -> None:
    graph = web_imports()

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and (seen.add(nxt) or reaches(nxt, goal, seen))):
                return True
        return False

    cycles = sorted(name for name in graph if reaches(name, name, set()))
    assert cycles == [], f"import cycles through {cycles}"
