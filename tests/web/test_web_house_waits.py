"""The browser tests wait through functions or locators, never a string the page's CSP
(``script-src 'self'``) refuses to evaluate: such a wait passes only when its condition already
holds at the first look (issue 37, the house)."""

from __future__ import annotations

import re
from pathlib import Path

WAIT = re.compile(r"wait_for_function\(\s*(?:f?\"\"\"|f?\"|f?')(?P<body>.{0,40})", re.S)
FUNCTION = re.compile(r"^\s*(?:\(\s*[\w, ]*\)|\w+)\s*=>|^\s*(?:async\s+)?function\b")


def test_every_wait_for_function_in_the_browser_tests_is_a_function() -> None:
    strings = []
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        for match in WAIT.finditer(path.read_text(encoding="utf-8")):
            if not FUNCTION.match(match.group("body")):
                strings.append(f"{path.name}: {match.group('body')!r}")
    assert strings == [], strings
