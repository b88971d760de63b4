"""The companion's modules import one way: no cycle, counting imports tucked inside functions.

``companion.service`` once imported ``greeting`` from ``companion.cli.serve``, which imports
``companion.service`` to start it (issue 45). The sources are read with :mod:`ast`, so a cycle
that comes back fails here even when it would import cleanly.
"""

from __future__ import annotations

from pathlib import Path

import companion
from tests.importgraph import import_cycle, import_graph

ROOT = Path(companion.__file__).parent


def test_the_companion_has_no_import_cycle() -> None:
    graph = import_graph(ROOT)
    assert "companion.greeting" in graph["companion.service"]
    assert import_cycle(graph) == [], " -> ".join(import_cycle(graph))
