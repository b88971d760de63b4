"""Each page script keeps its names in its own scope: no script defines a global another uses.

A script's top-level declarations (``function``, ``class``, ``var``, ``let``, ``const`` outside any
bracket) are globals shared by every script of the page, so a second ``renderSeats`` in
camera.js silently replaced app.js's. The one global the page scripts share is ``Crib``
(app.js makes it; the others add what they hand on), so every static script declares nothing at
its top level and sets no other ``window.NAME``.

The scan reads the code's words only: strings, comments and regular expressions are skipped,
a template's ``${...}`` is read as code.

>>> top_level_names("function a() { const b = 1; }\\nlet c = `${d}`, e = [1, 2];")
['a', 'c', 'e']
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import web

STATIC = Path(web.__file__).parent / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))
NAMESPACE = "Crib"

IDENT = re.compile(r"[A-Za-z_$][\w$]*")
NUMBER = re.compile(r"\d[\w.]*")
DECLARES = ("function", "class", "const", "let", "var")
# a "/" after one of these starts a regular expression, not a division
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {"", "=>", "return", "typeof", "case", "do", "else",
                                               "in", "of", "new", "delete", "void", "throw"}

Token = tuple[str, int]  # the word or bracket, and how many brackets it lies within


def tokens(src: str) -> list[Token]:
    """The identifiers, brackets and punctuation of ``src`` with their bracket depth.

    >>> [t for t, d in tokens("f(`a ${b} c`, /x{/g, 'y')") if t.isidentifier()]
    ['f', 'b']
    """
    out: list[Token] = []
    stack: list[str] = []  # open brackets; "`" marks a template's ${ ... }
    i, n, prev = 0, len(src), ""

    def template(j: int) -> tuple[int, bool]:
        # inside a template's text: the index after its closing backtick, or after a "${"
        while True:
            if src[j] == "\\":
                j += 2
            elif src[j] == "`":
                return j + 1, False
            elif src.startswith("${", j):
                return j + 2, True
            else:
                j += 1

    while i < n:
        c = src[i]
        if c.isspace():
            i += 1
        elif src.startswith("//", i):
            end = src.find("\n", i)
            i = n if end < 0 else end
        elif src.startswith("/*", i):
            i = src.index("*/", i) + 2
        elif c in "\"'":
            j = i + 1
            while src[j] != c:
                j += 2 if src[j] == "\\" else 1
            i, prev = j + 1, "string"
        elif c == "`" or (c == "}" and stack and stack[-1] == "`"):
            if c == "}":
                stack.pop()
            i, opened = template(i + 1)
            if opened:
                stack.append("`")
            prev = "(" if opened else "string"
        elif c == "/" and prev in REGEX_AFTER:
            j, in_class = i + 1, False
            while src[j] != "/" or in_class:
                if src[j] == "\\":
                    j += 1
                elif src[j] in "[]":
                    in_class = src[j] == "["
                j += 1
            i = j + 1
            while i < n and src[i].isalpha():
                i += 1
            prev = "string"
        elif match := IDENT.match(src, i):
            word = match.group()
            out.append((word, len(stack)))
            prev, i = (word if word in REGEX_AFTER else "name"), match.end()
        elif match := NUMBER.match(src, i):
            prev, i = "number", match.end()
        elif c in "([{":
            out.append((c, len(stack)))
            stack.append(c)
            prev, i = c, i + 1
        elif c in ")]}":
            stack.pop()
            out.append((c, len(stack)))
            prev, i = c, i + 1
        else:
            word = "=>" if src.startswith("=>", i) else c
            out.append((word, len(stack)))
            prev, i = word, i + len(word)
    assert not stack, "brackets left open"
    return out


def top_level_names(src: str) -> list[str]:
    """The names a script declares outside every bracket (each declarator of a ``let a, b``,
    each name of a destructuring ``const { a, b: c }``).

    >>> top_level_names("(() => { function inner() {} })();")
    []
    >>> top_level_names("const { a, b: c } = x; async function f() {}")
    ['a', 'c', 'f']
    """
    toks = tokens(src)
    names: list[str] = []
    k = 0
    while k < len(toks):
        word, depth = toks[k]
        k += 1
        if depth or word not in DECLARES:
            continue
        if word in ("function", "class"):
            k += toks[k][0] == "*"
            names.append(toks[k][0])
            continue
        while k < len(toks):  # the declarators, up to the ";" that ends them
            word = toks[k][0]
            if word in "{[":  # a destructuring pattern: its names not followed by ":"
                k += 1
                while toks[k][1] > depth:
                    if toks[k][0].isidentifier() and toks[k + 1][0] != ":":
                        names.append(toks[k][0])
                    k += 1
            else:
                names.append(word)
            while k < len(toks) and toks[k][1] >= depth and not (toks[k][1] == depth and toks[k][0] in ",;"):
                k += 1
            if k >= len(toks) or toks[k][0] != ",":
                break
            k += 1
    return names


def window_names(src: str) -> list[str]:
    """The names a script sets on ``window`` (``window.NAME = ...``).

    >>> window_names("window.Crib = {}; window.Crib.x = 1; if (window.a === b) window.c = 2;")
    ['Crib', 'c']
    """
    toks = [t for t, _ in tokens(src)]
    return [toks[k + 2] for k in range(len(toks) - 3)
            if toks[k] == "window" and toks[k + 1] == "." and toks[k + 3] == "=" and toks[k + 4] != "="]


def test_the_scan_finds_what_made_the_play_tab_freeze() -> None:
    """camera.js's old top level: a global renderSeats, beside names inside a template and a regex."""
    old = ('"use strict";\nconst cam = { status: null };\nconst RE = /[{(]/g;\n'
           'function renderSeats(seats) { return `${seats.map((s) => `${s}}`)}`; }\n'
           'let a = f(1, 2), b;\nvar { c, d: [e] } = cam;\n')
    assert top_level_names(old) == ["cam", "RE", "renderSeats", "a", "b", "c", "e"]


def test_every_static_script_is_scanned() -> None:
    names = {p.name for p in SCRIPTS}
    assert {"app.js", "camera.js", "camera-watch.js", "history.js", "photo.js", "setup.js",
            "tablecode.js"} <= names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_script_declares_nothing_at_its_top_level(script: Path) -> None:
    src = script.read_text(encoding="utf-8")
    outside = [n for n in top_level_names(src) if n != NAMESPACE]
    assert outside == [], f"{script.name} declares globals {outside}: keep them in its own scope"
    others = [n for n in window_names(src) if n != NAMESPACE]
    assert others == [], f"{script.name} sets window.{others[0]}: hand it on window.{NAMESPACE}"


def test_no_name_is_declared_at_the_top_of_two_scripts() -> None:
    seen: dict[str, str] = {}
    twice: list[str] = []
    for script in SCRIPTS:
        for name in set(top_level_names(script.read_text(encoding="utf-8"))):
            if name in seen:
                twice.append(f"{name} in {seen[name]} and {script.name}")
            seen[name] = script.name
    assert twice == []


def test_only_app_js_makes_the_namespace() -> None:
    """app.js is loaded first and makes window.Crib; the others add to it."""
    makers = [p.name for p in SCRIPTS if "Crib" in window_names(p.read_text(encoding="utf-8"))]
    assert makers == ["app.js"]
