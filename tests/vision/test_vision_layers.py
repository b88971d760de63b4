"""The reader's modules form layers: no module of ``vision`` imports, at the top, inside a function
or for type checking only, a module that imports it back (directly or round a longer loop). The
card alphabet is cribbage's, and the network's suit order is spelt once, in :mod:`vision.cnn`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from cribbage.cards import Card
from tests.importgraph import import_cycle, import_graph, module_name
from vision.cnn import CARDS, MODEL_CARDS, class_name

VISION = Path(__file__).resolve().parents[2] / "vision"


def _module(path: Path) -> str:
    return module_name(path, VISION)


def _imports() -> dict[str, set[str]]:
    """Each vision module and the vision modules it imports anywhere in its code."""
    return import_graph(VISION)


def test_no_vision_module_imports_one_that_imports_it_back():
    assert import_cycle(_imports()) == []


def test_the_result_types_import_nothing_of_the_pipeline():
    assert _imports()["vision.results"] == set()


ALPHABET = re.compile(r"""["'](A23456789TJQK|[CDHS]{4})["']""")


def _alphabets(root: Path) -> list[str]:
    """Where Python code under ``root`` spells out the ranks or a suit order."""
    return [f"{p.relative_to(root)}:{n}" for p in sorted(root.rglob("*.py")) if ".venv" not in p.parts
            for n, line in enumerate(p.read_text().splitlines(), 1)
            if any(len(set(m.group(1))) == len(m.group(1)) for m in ALPHABET.finditer(line))]


def test_the_card_alphabet_is_spelt_in_cribbage_and_the_networks_suit_order_in_vision_cnn():
    root = VISION.parent
    spelt = {place.split(":")[0] for place in _alphabets(root)}
    assert spelt == {"cribbage/cards.py", "vision/cnn.py"}
    assert len(_alphabets(root / "vision")) == 1  # MODEL_SUITS


def test_the_networks_classes_name_cribbages_cards():
    assert [class_name(r, s) for r in range(13) for s in range(4)] == MODEL_CARDS
    assert sorted(Card(class_name(r, s)).index for r in range(13) for s in range(4)) == list(range(52))
    assert [Card(c).index for c in CARDS] == list(range(52))


READER_MODULES = [p for p in [*VISION.glob("*.py"), *(VISION / "index").glob("*.py")] if p.name != "train.py"]


def _many_positional(path: Path, most: int) -> list[str]:
    """The functions in ``path`` taking more than ``most`` positional parameters (self aside)."""
    def positional(node: ast.FunctionDef) -> list[str]:
        return [a.arg for a in [*node.args.posonlyargs, *node.args.args] if a.arg not in ("self", "cls")]

    return [f"{_module(path)}.{node.name}" for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.FunctionDef) and len(positional(node)) > most]


def test_the_readers_functions_take_a_handful_of_positional_parameters_at_most():
    assert "vision.index.looks.look_unread" not in _many_positional(VISION / "index" / "looks.py", 3)
    assert [f for p in READER_MODULES for f in _many_positional(p, 5)] == []
