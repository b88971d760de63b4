"""A package's import graph read from its sources with :mod:`ast` (imports inside functions and
under ``TYPE_CHECKING`` count too), and one cycle in it: the layer tests' shared tools.

>>> import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}})
['a', 'b', 'c', 'a']
>>> import_cycle({"a": {"b"}, "b": set()})
[]
"""

from __future__ import annotations

import ast
from pathlib import Path


def module_name(path: Path, root: Path) -> str:
    """The dotted name of the module at ``path`` in the package folder ``root``."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path) -> dict[str, set[str]]:
    """``{module: the package's modules it imports anywhere in it}`` for the package at ``root``."""
    modules = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            found.update(t for t in targets if t in modules and t != name)
        graph[name] = found
    return graph


def import_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import loop of ``graph`` (the modules round it, the first again at the end), or []."""
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (loop := visit(nxt)):
                return loop
        state[node] = 2
        path.pop()
        return []

    for start in sorted(graph):
        if start not in state and (loop := visit(start)):
            return loop
    return []
