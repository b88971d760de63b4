"""The golden deal videos: scripted deals rendered as a camera films them, cached.

The tests, the tracking benchmark and the demo (``make run``) play these videos through the
camera's tracker. Rendering takes a minute or more, so each video is kept under the render cache
(:func:`vision.synth.decks.cache_root`, ``golden/``) with a name that carries a digest of the
renderer's own source and of the arguments (scenario and effects included): a change to the
renderer renders afresh.

Besides the two golden deals (the default scenario, ``golden``) there are named scenarios
(:data:`SCENARIOS`): three and four players, the five-card game, a whole game to 121, and the
golden deals under one real-camera effect each (:mod:`vision.synth.effects`) or all together.

    python -m vision.synth.golden --reset keep --out demo.mp4     # render (or copy from the cache)
    python -m vision.synth.golden --scenario three                 # prints the path; progress on stderr
    python -m vision.synth.golden --list                           # the scenarios

>>> golden_name("procedural-7", "keep", ".mp4").startswith("golden-procedural-7-keep-")
True
>>> golden_name("procedural-7", "keep", ".mp4", scenario="four").startswith("four-procedural-7-keep-")
True
>>> sorted(SCENARIOS)[:4]
['bump', 'dark-table', 'drift', 'five-card']
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import secrets
import shutil
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vision.synth.decks import cache_root

__all__ = ["PRERENDER", "SCENARIOS", "Scenario", "event_keys", "golden_name", "golden_video", "prerender",
           "scenario_script"]

_SOURCES = (
    "video.py", "hands.py", "deals.py", "tables.py", "compose.py", "decks.py", "procedural.py", "effects.py",
)

THIRD = 1 / 3


@dataclass(frozen=True)
class Scenario:
    """A golden video's recipe: the game (``settings`` JSON and ``seed`` of a random game, its
    first ``deals`` or the whole game with None; ``settings=None``: the two golden deals with
    their hovers), the ``effects``, the ``table``, the crib spread's ``crib_overlap`` and the
    ``pace`` of the idle times."""

    doc: str
    settings: dict[str, Any] | None = None
    seed: int = 0
    deals: int | None = 2
    effects: dict[str, Any] = field(default_factory=dict)
    table: str = "wood"
    crib_overlap: float | None = THIRD
    pace: float = 1.0
    of: str | None = None
    turn: int = 0

    def recipe(self) -> dict[str, Any]:
        """The fields that name its video (a scenario turned keeps its own; the others' names
        are as they were before scenarios could be turned)."""
        return {k: v for k, v in self.__dict__.items() if k not in ("of", "turn") or v}


def _turned(base: str, turn: int, doc: str) -> Scenario:
    """Scenario ``base`` filmed by a camera turned ``turn`` quarters clockwise
    (:mod:`vision.synth.turn`): the same frames, turned."""
    return Scenario(**{**SCENARIOS[base].__dict__, "doc": doc, "of": base, "turn": turn})


SCENARIOS: dict[str, Scenario] = {
    "golden": Scenario("the two golden deals (a 31, goes, his heels, hovers)", crib_overlap=None),
    "three": Scenario("three players, two deals of a random game", {"players": "Ann,Bob,Cat"}, seed=1),
    "four": Scenario("four players, partners A+C v B+D, two deals", {"players": "Ann,Bob,Cat,Dan"}, seed=1),
    "five-card": Scenario("the five-card game, two deals", {"players": "Ann,Bob", "variant": "five-card"},
                          seed=3),
    "whole": Scenario("a whole two-player game to 121 (nine deals, brisker pace)", {"players": "Ann,Bob"},
                      seed=263, deals=None, pace=0.6),
    "low-light": Scenario("the golden deals in a dim room: darker, noisier", effects={"low_light": 1.0}),
    "drift": Scenario("the golden deals with exposure and white balance drifting", effects={"drift": 1.0}),
    "flicker": Scenario("the golden deals under a flickering 50 Hz lamp", effects={"flicker": 0.12}),
    "h264": Scenario("the golden deals as H.264 at 1 Mbit/s (3 Mbit/s at 30 fps, per frame)",
                     effects={"h264_kbps": 1000}),
    "bump": Scenario("the golden deals, the table bumped four times",
                     effects={"bumps": [12.0, 31.5, 55.0, 80.0]}),
    "tilt": Scenario("the golden deals seen by a camera tilted 10°", effects={"tilt": 10.0}),
    "lamp": Scenario("the golden deals with a lamp's shadow band and warm light",
                     effects={"shadow": 0.35, "warm": 0.6}),
    "maple": Scenario("the golden deals on a light maple table", table="maple"),
    "white": Scenario("the golden deals on a white laminate table", table="white_laminate"),
    "dark-table": Scenario("the golden deals on a dark wood table", table="wood_dark"),
    "phone": Scenario(
        "the golden deals filmed by a phone in the evening: every effect at once",
        effects={"low_light": 0.5, "drift": 0.7, "flicker": 0.08, "h264_kbps": 1000, "bumps": [40.0],
                 "tilt": 8.0, "shadow": 0.25, "warm": 0.5},
    ),
}
SCENARIOS.update({
    "quarter": _turned("golden", 1, "the golden deals, the camera turned a quarter: A left, B right"),
    "half": _turned("golden", 2, "the golden deals, the camera turned a half: A at the top, B at the bottom"),
    "three-quarter": _turned("three", 1, "three players, the camera turned a quarter: A at the left edge"),
    "four-half": _turned("four", 2, "four players, the camera turned a half: A at the top, B at the right"),
})
"""The golden videos by name (``golden`` is the default, as it has always been rendered); those
turned (``quarter``, ``half``, ...) are another scenario's frames turned, seats found from the
cards with ``--zones auto`` (docs/tracking.md)."""


def scenario_script(name: str, reset: str = "turn-down") -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A scenario's script and the game keys of its truth (``events`` without go, ``settings``,
    ``scores``, ... see :meth:`vision.synth.deals.GameScript.to_json`).

    >>> acts, game = scenario_script("four")
    >>> game["variant"], game["players"], acts[0]["do"]
    ('four-player', ['Ann', 'Bob', 'Cat', 'Dan'], 'deal')
    """
    from vision.synth.deals import game_script, golden_events, golden_script, script_of_game

    sc = SCENARIOS[name]
    if sc.settings is None:
        game = script_of_game(golden_events(), {"players": "Ann,Bob"}, reset)
        return golden_script(reset), game.to_json()
    g = game_script(sc.settings, sc.seed, deals=sc.deals, reset=reset)
    return g.actions, g.to_json()


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in _SOURCES:
        h.update((here / name).read_bytes())
    for part in parts:
        h.update(part.encode())
    return h.hexdigest()[:10]


def _effects_of(name: str, effects: Mapping[str, Any] | None) -> dict[str, Any]:
    from vision.synth.effects import Effects

    return Effects.from_json(SCENARIOS[name].effects).merged(effects).to_json()


def golden_name(deck: str, reset: str, suffix: str, scenario: str = "golden",
                effects: Mapping[str, Any] | None = None, size: tuple[int, int] = (1280, 720)) -> str:
    """The cache file name of a golden video: the scenario, deck and reset, and a digest of the
    renderer's source and of every argument (the scenario's effects with ``effects`` over them)."""
    if scenario not in SCENARIOS:
        raise ValueError(f"no scenario {scenario!r}; choose {', '.join(SCENARIOS)}")
    fx = _effects_of(scenario, effects)
    if scenario == "golden" and not fx and tuple(size) == (1280, 720):
        digest = _digest(deck, reset, suffix)  # the default name, as before the scenarios
    else:
        digest = _digest(deck, reset, suffix, scenario, json.dumps(fx, sort_keys=True),
                         json.dumps(SCENARIOS[scenario].recipe(), sort_keys=True, default=str),
                         f"{size[0]}x{size[1]}", _turn_source(scenario))
    return f"{scenario}-{deck}-{reset}-{digest}{suffix}"


def golden_video(deck: str | None = None, reset: str = "turn-down", suffix: str = ".mp4",
                 cache: Path | None = None, progress: bool = False, *, scenario: str = "golden",
                 effects: Mapping[str, Any] | None = None,
                 size: tuple[int, int] = (1280, 720)) -> tuple[Path, dict[str, Any]]:
    """The golden video of ``scenario`` (default: both golden deals; see :data:`SCENARIOS`) in
    ``deck`` (default: the first held-out deck here) with played cards kept up
    (``reset="keep"``) or turned down at each reset, as ``suffix`` (``.mp4``, ``.avi`` or ``""``
    for a folder of frames); ``effects`` (a mapping of :class:`vision.synth.effects.Effects`)
    are laid over the scenario's; ``size`` (w, h) of the frames. Rendered unless cached.
    Returns its path and its truth, which has the game's keys beside the frames: ``events``
    (the camera's events: no go), ``legal_events``, ``settings``, ``players``, ``variant``,
    ``dealer``, ``scores``, ``over``, ``scenario`` and ``render_seconds``."""
    from vision.synth.video import _default_deck

    name = deck or _default_deck().name
    folder = cache or cache_root() / "golden"
    path = folder / golden_name(name, reset, suffix, scenario, effects, size)
    truth = Path(str(path) + ".truth.json")
    sc = SCENARIOS[scenario]
    if sc.of is not None and not (path.exists() and truth.exists()):
        if suffix not in (".mp4", ".avi"):
            raise ValueError(f"the {scenario} scenario is written as .mp4 or .avi, not {suffix!r}")
        base, base_truth = golden_video(name, reset, suffix, cache, progress, scenario=sc.of, effects=effects,
                                        size=size)
        with _rendering(path):
            if not (path.exists() and truth.exists()):
                _turn_to(path, truth, base, {**base_truth, "scenario": scenario}, sc.turn)
    if not (path.exists() and truth.exists()):
        folder.mkdir(parents=True, exist_ok=True)
        with _rendering(path):  # one process renders a video; the others wait for it, then read it
            if not (path.exists() and truth.exists()):
                _render(path, truth, name, reset, scenario, effects, size, progress)
    return path, json.loads(truth.read_text())


def _turn_source(scenario: str) -> str:
    """The source of the turning, for a turned scenario's name (a change to it turns afresh)."""
    if not SCENARIOS[scenario].turn:
        return ""
    return (Path(__file__).parent / "turn.py").read_text(encoding="utf-8")


def _turn_to(path: Path, truth: Path, base: Path, base_truth: dict[str, Any], turn: int) -> None:
    """Write ``base`` turned ``turn`` quarters to ``path`` and its truth to ``truth``, through
    partial files of this process's own (see :func:`_render`)."""
    from vision.synth.turn import turn_truth, turn_video

    partial = path.with_name(f"partial-{os.getpid()}-{secrets.token_hex(6)}-{path.name}")
    partial_truth = Path(str(partial) + ".truth.json")
    try:
        turn_video(base, partial, turn)
        partial_truth.write_text(json.dumps(turn_truth(base_truth, turn), indent=1))
        partial_truth.replace(truth)
        partial.replace(path)
    finally:
        for left in (partial, partial_truth):
            left.unlink(missing_ok=True)


@contextmanager
def _rendering(path: Path) -> Iterator[None]:
    """Hold the lock on rendering ``path`` (a file lock beside it, where the system has them)."""
    try:
        import fcntl
    except ImportError:  # no file locks here: renders may overlap, each under its own name
        yield
        return
    with open(str(path) + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _render(path: Path, truth: Path, name: str, reset: str, scenario: str,
            effects: Mapping[str, Any] | None, size: tuple[int, int], progress: bool) -> None:
    """Render a video to ``path`` and its truth to ``truth`` (see :func:`golden_video`)."""
    sc = SCENARIOS[scenario]
    # a name of this render's own (the process and a random part): renders at once, in one
    # process or many, never write, move or remove each other's partial files
    partial = path.with_name(f"partial-{os.getpid()}-{secrets.token_hex(6)}-{path.name}")
    partial_truth = Path(str(partial) + ".truth.json")
    try:
        _render_to(partial, partial_truth, path, truth, sc, name, reset, scenario, effects, size,
                   progress)
    finally:  # a render that failed or was stopped leaves nothing half-written behind
        for left in (partial, partial_truth):
            if left.is_dir():
                shutil.rmtree(left, ignore_errors=True)
            else:
                left.unlink(missing_ok=True)


def _render_to(partial: Path, partial_truth: Path, path: Path, truth: Path, sc: Scenario, name: str,
               reset: str, scenario: str, effects: Mapping[str, Any] | None,
               size: tuple[int, int], progress: bool) -> None:
    """Render to ``partial`` and its truth, then move both into place (``path``, ``truth``)."""
    from vision.synth.video import render_video

    what = "the golden deals" if scenario == "golden" else f"the {scenario} scenario"

    def show(done: int, total: int) -> None:
        if progress and (done % 25 == 0 or done == total):
            sys.stderr.write(f"\rrendering {what} ({name}, {reset}): {done}/{total} frames")
            sys.stderr.flush()

    actions, game = scenario_script(scenario, reset)
    t0 = time.perf_counter()
    render_video(actions, partial, deck=name, reset=reset, progress=show, table=sc.table, size=size,
                 effects=_effects_of(scenario, effects), crib_overlap=sc.crib_overlap, pace=sc.pace,
                 meta={"scenario": scenario, **game})
    seconds = time.perf_counter() - t0
    if progress:
        sys.stderr.write(f" ({seconds:.0f} s)\n")
    data = json.loads(partial_truth.read_text())
    data["render_seconds"] = round(seconds, 1)
    partial_truth.write_text(json.dumps(data, indent=1))
    partial_truth.replace(truth)
    partial.replace(path)


def event_keys(events: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    """Events as the camera must send them, to compare: (type, seat, card or sorted cards). A
    show and a go carry no cards (the camera counts the cards the seat laid); the dealer is
    told, not seen.

    >>> event_keys([{"type": "dealer", "seat": "A"}, {"type": "play", "seat": "B", "card": "5S"},
    ...             {"type": "show", "seat": "B", "cards": ["5S"]}, {"type": "crib", "cards": ["QS", "2H"]}])
    [('play', 'B', '5S'), ('show', 'B', None), ('crib', None, ('2H', 'QS'))]
    """
    out = []
    for e in events:
        if e["type"] == "dealer":
            continue
        cards = None if e["type"] in ("show", "go") else e.get("card") or tuple(sorted(e.get("cards") or ()))
        out.append((e["type"], e.get("seat"), cards or None))
    return out


PRERENDER: tuple[tuple[str, str], ...] = (
    ("golden", "keep"), ("golden", "turn-down"), ("three", "turn-down"), ("four", "turn-down"),
    ("five-card", "turn-down"), ("whole", "turn-down"), ("quarter", "turn-down"), ("half", "turn-down"))
"""The videos the tests follow (scenario, reset), in the order the tests come to them."""


def prerender(videos: Sequence[tuple[str, str]] = PRERENDER) -> None:
    """Render each of ``videos`` not cached yet (the tests start this beside them on a fresh
    machine, so that the renders use the second core while other tests run)."""
    for scenario, reset in videos:
        golden_video(reset=reset, scenario=scenario)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.synth.golden",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", help="a held-out deck (default: the first here; procedural-7 always)")
    parser.add_argument("--reset", choices=("keep", "turn-down"), default="turn-down")
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="golden",
                        help="which golden video (default: the two golden deals)")
    parser.add_argument("--effects", type=json.loads, default=None,
                        help='JSON laid over the scenario\'s effects, e.g. \'{"low_light": 0.5}\'')
    parser.add_argument("--list", action="store_true", help="list the scenarios and stop")
    parser.add_argument("--prerender", action="store_true",
                        help="render every video the tests follow that is not cached yet, and stop")
    parser.add_argument("--out", type=Path, help="copy the video (and its truth) here")
    args = parser.parse_args(argv)
    if args.list:
        for key, sc in SCENARIOS.items():
            print(f"{key:11} {sc.doc}")
        return 0
    if args.prerender:
        prerender()
        return 0
    path, _ = golden_video(args.deck, args.reset, args.out.suffix if args.out else ".mp4", progress=True,
                           scenario=args.scenario, effects=args.effects)
    if args.out:
        shutil.copyfile(path, args.out)
        shutil.copyfile(str(path) + ".truth.json", str(args.out) + ".truth.json")
        path = args.out
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
