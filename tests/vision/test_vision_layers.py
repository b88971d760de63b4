"""The reader's modules form layers: no module of ``vision`` imports, at the top, inside a function
or for type checking only, a module that imports it back (directly or round a longer loop)."""

from __future__ import annotations

import ast
from pathlib import Path

VISION = Path(__file__).resolve().parents[2] / "vision"


def _module(path: Path) -> str:
    parts = path.relative_to(VISION.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Each vision module and the vision modules it imports anywhere in its code."""
    modules = {_module(p): p for p in VISION.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            found.update(t for t in targets if t in modules and t != name)
        graph[name] = found
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import loop of ``graph`` (the modules round it), or [] when there is none."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (loop := visit(nxt)):
                return loop
        state[node] = 2
        path.pop()
        return []

    for start in sorted(graph):
        if start not in state and (loop := visit(start)):
            return loop
    return []


def test_the_loop_finder_finds_a_loop():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_no_vision_module_imports_one_that_imports_it_back():
    assert _cycle(_imports()) == []


def test_the_result_types_import_nothing_of_the_pipeline():
    assert _imports()["vision.results"] == set()
