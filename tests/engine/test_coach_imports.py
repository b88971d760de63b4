"""The coach's modules import one way: no cycle, and no import tucked inside a function to hide one.

``cribbage.coach.discard`` and ``cribbage.coach.throws`` once imported each other from inside
functions (the throw table was built and read in one module). These tests read the sources
with :mod:`ast`, so a cycle that comes back fails here even when it would import cleanly.
"""

from __future__ import annotations

import ast
from pathlib import Path

import cribbage.coach
from tests.importgraph import import_cycle

COACH = Path(cribbage.coach.__file__).parent
PACKAGE = "cribbage.coach"


def _module_name(path: Path) -> str:
    return PACKAGE if path.name == "__init__.py" else f"{PACKAGE}.{path.stem}"


def _imports(tree: ast.AST) -> list[tuple[str, bool]]:
    """Each coach module ``tree`` imports, and whether the import sits inside a function."""
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                names = [child.module] + [f"{child.module}.{alias.name}" for alias in child.names]
            for name in names:
                if name == PACKAGE or name.startswith(PACKAGE + "."):
                    found.append((name, inside))
            visit(child, inside)

    visit(tree, False)
    return found


def _graph() -> dict[str, dict[str, bool]]:
    """``{module: {coach module it imports: whether only from inside a function}}``."""
    modules = {_module_name(p): p for p in sorted(COACH.glob("*.py"))}
    graph: dict[str, dict[str, bool]] = {}
    for name, path in modules.items():
        edges: dict[str, bool] = {}
        for target, inside in _imports(ast.parse(path.read_text(), str(path))):
            if target in modules and target != name:
                edges[target] = edges.get(target, True) and inside
        graph[name] = edges
    return graph


def _cycle(graph: dict[str, dict[str, bool]]) -> list[str]:
    """One import cycle among the modules (:func:`tests.importgraph.import_cycle`), or []."""
    return import_cycle({name: set(edges) for name, edges in graph.items()})


def test_the_coach_modules_import_one_way() -> None:
    graph = _graph()
    assert f"{PACKAGE}.throw_table" in graph and f"{PACKAGE}.discard" in graph
    assert _cycle(graph) == [], " -> ".join(_cycle(graph))


def test_discard_and_the_throw_table_meet_only_at_the_top_of_a_module() -> None:
    graph = _graph()
    pair = (f"{PACKAGE}.discard", f"{PACKAGE}.throws", f"{PACKAGE}.throw_table")
    hidden = [(a, b) for a in pair for b, inside in graph[a].items() if b in pair and inside]
    assert hidden == []
    assert f"{PACKAGE}.throws" not in graph[f"{PACKAGE}.discard"]  # the reader, not the builder
    assert f"{PACKAGE}.discard" not in graph[f"{PACKAGE}.throw_table"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    a_b = ast.parse("def f():\n    from cribbage.coach.b import x\n")
    assert _imports(a_b) == [("cribbage.coach.b", True), ("cribbage.coach.b.x", True)]
    assert _cycle({"a": {"b": True}, "b": {"a": False}}) == ["a", "b", "a"]
    assert _cycle({"a": {"b": False}, "b": {}}) == []


def test_the_builder_keeps_the_reading_names() -> None:
    from cribbage.coach import throw_table, throws

    for name in ("TABLE_PATH", "pair_key", "every_pair_key", "card_pair_weights", "throw_weights"):
        assert getattr(throws, name) is getattr(throw_table, name)
    assert throw_table.throw_weights("nobody") is None  # a seat the table does not count
