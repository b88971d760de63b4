"""``crib serve --voice``: what the table hears (``companion.voice``), a voice that never holds up
a request, and real speech rendered by espeak-ng (skipped, saying why, where it is missing)."""

from __future__ import annotations

import array
import logging
import math
import random
import shutil
import stat
import threading
import time
import wave
from pathlib import Path
from typing import Any

import pytest

from companion.service import Companion
from companion.voice import Announcer, Espeak, QueuedVoice, Silent, attach_voice, open_voice
from cribbage.game.settings import Settings
from cribbage.game.simulate import random_game
from cribbage.gamelog import GameStore

NEEDS_ESPEAK = pytest.mark.skipif(
    shutil.which("espeak-ng") is None,
    reason="espeak-ng is not installed (apt install espeak-ng; .ci/run installs it)")

# Bob deals; Ann leads. Every line the table should hear is known.
DEAL: list[tuple[dict[str, Any], list[str]]] = [
    ({"type": "dealer", "seat": "B"}, []),
    ({"type": "starter", "card": "5D"}, []),
    ({"type": "play", "seat": "A", "card": "7C"}, []),
    ({"type": "play", "seat": "B", "card": "8S"}, ["Bob: fifteen for two"]),
    ({"type": "play", "seat": "A", "card": "8H"}, ["Ann: pair for two"]),
    ({"type": "play", "seat": "B", "card": "8D"}, ["Bob: thirty-one for two and pair royal for six"]),
    ({"type": "play", "seat": "A", "card": "TC"}, []),
    ({"type": "play", "seat": "B", "card": "KS"}, []),
    ({"type": "play", "seat": "A", "card": "9C"}, []),
    # Ann has laid every card: Bob's go ends the count and Ann pegs her last card
    ({"type": "go", "seat": "B"}, ["Bob: go", "Ann: last card for one"]),
    ({"type": "play", "seat": "B", "card": "5S"}, ["Bob: last card for one"]),
    ({"type": "show", "seat": "A", "cards": ["7C", "8H", "TC", "9C"]},
     ["Ann: fifteen two, fifteen four and a run of four is eight"]),
    ({"type": "show", "seat": "B", "cards": ["8S", "8D", "KS", "5S"]},
     ["Bob: fifteen two, fifteen four and two pairs is eight"]),
    ({"type": "crib", "cards": ["AC", "2C", "3H", "QD"]},
     ["Bob's crib: fifteen two, fifteen four and a run of three is seven"]),
]


class Heard:
    """A voice that keeps what it is told."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def say(self, text: str) -> None:
        self.lines.append(text)

    def close(self) -> None:
        pass


@pytest.fixture
def companion(tmp_path: Path) -> Any:
    table = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    yield table
    table.close()


def test_a_scripted_deal_is_said_as_players_say_it(companion: Companion) -> None:
    heard = Heard()
    companion.add_listener(Announcer(heard))
    game = companion.new_game({"players": ["Ann", "Bob"]})
    for event, said in DEAL:
        before = len(heard.lines)
        companion.apply(game, event)
        assert heard.lines[before:] == said, event


def test_a_count_of_nothing_is_nineteen(companion: Companion) -> None:
    heard = Heard()
    companion.add_listener(Announcer(heard))
    game = companion.new_game({"players": ["Ann", "Bob"]})
    for event, _ in DEAL[:-1]:
        companion.apply(game, event if event["type"] != "starter" else {**event, "card": "KH"})
    heard.lines.clear()
    companion.apply(game, {"type": "crib", "cards": ["AC", "2S", "7H", "9D"]})
    assert heard.lines == ["Bob's crib: nineteen"]


def test_an_undo_or_a_state_seen_again_says_nothing(companion: Companion) -> None:
    heard = Heard()
    announcer = Announcer(heard)
    companion.add_listener(announcer)
    game = companion.new_game({"players": ["Ann", "Bob"]})
    for event, _ in DEAL[:4]:
        state = companion.apply(game, event)
    assert heard.lines == ["Bob: fifteen for two"]
    announcer("state", {"game_id": game, "state": state})  # the same state again
    companion.apply(game, {"type": "undo"})
    assert heard.lines == ["Bob: fifteen for two"]


def test_a_game_seen_first_mid_play_is_remembered_not_said(companion: Companion) -> None:
    game = companion.new_game({"players": ["Ann", "Bob"]})
    for event, _ in DEAL[:5]:
        companion.apply(game, event)
    heard = Heard()
    companion.add_listener(Announcer(heard))
    companion.apply(game, DEAL[5][0])  # 31: but the announcer never saw the count before
    companion.apply(game, DEAL[6][0])
    companion.apply(game, DEAL[7][0])
    assert heard.lines == []
    heard_after = Heard()
    announcer = Announcer(heard_after)
    announcer.remember(game, companion.state(game))  # what crib serve does for the newest game
    companion.add_listener(announcer)
    companion.apply(game, DEAL[8][0])
    companion.apply(game, DEAL[9][0])
    assert heard_after.lines == ["Bob: go", "Ann: last card for one"]


def test_the_winner_is_said_with_the_score() -> None:
    heard = Heard()
    announcer = Announcer(heard)
    settings = Settings.from_json({"target": 61, "players": ["Ann", "Bob", "Cy"],
                                   "variant": "three-player"})
    announcer.remember(1, {"events": 0})
    game, events = random_game(settings, random.Random(3), on_event=lambda g, e: announcer(
        "state", {"game_id": 1, "state": g.to_json()}))
    final = game.to_json()
    assert (final["winner_name"], final["scores"]) == ("Bob", {"A": 47, "B": 61, "C": 39})
    assert heard.lines[-1] == "Bob wins, sixty-one to forty-seven and thirty-nine"
    assert sum("wins" in line for line in heard.lines) == 1
    goes = sum(line.endswith(": go") for line in heard.lines)
    assert 0 < goes <= sum(e["type"] == "go" for e in events)
    names = ("Ann", "Bob", "Cy")
    assert all(line.startswith(names) for line in heard.lines)


def test_a_thirty_one_that_wins_is_said_for_two_then_the_winner(companion: Companion) -> None:
    heard = Heard()
    companion.add_listener(Announcer(heard))
    game = companion.new_game({"players": ["Ann", "Dee"], "target": 61})
    for event in ({"type": "dealer", "seat": "B"},
                  {"type": "adjust", "seat": "B", "points": 60, "reason": "test"},
                  {"type": "starter", "card": "2C"},
                  {"type": "play", "seat": "A", "card": "KS"}, {"type": "play", "seat": "B", "card": "QH"},
                  {"type": "play", "seat": "A", "card": "TS"}):
        companion.apply(game, event)
    heard.lines.clear()
    companion.apply(game, {"type": "play", "seat": "B", "card": "AH"})
    assert heard.lines == ["Dee: thirty-one for two", "Dee wins, sixty-one to zero: a skunk"]


# --- the voice: queued on one thread, never in the way --------------------------------------


def fake_espeak(folder: Path) -> Path:
    """A stand-in for espeak-ng that notes its arguments and line, then waits for ``release``."""
    script = folder / "espeak-ng"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$*|$(cat)" >> "{folder}/said"\n'
        f'touch "{folder}/started"\n'
        f'while [ ! -e "{folder}/release" ]; do sleep 0.02; done\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def wait_for(path: Path, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never came"
        time.sleep(0.01)


def test_espeak_never_holds_up_the_caller_and_drops_the_oldest_lines(tmp_path: Path) -> None:
    voice = Espeak([str(fake_espeak(tmp_path))], max_pending=3)
    try:
        voice.say("Ann: fifteen for two")
        wait_for(tmp_path / "started")  # espeak-ng is busy with the first line, and stays so

        def more() -> None:
            for n in range(2, 7):
                voice.say(f"line {n}")

        caller = threading.Thread(target=more)
        caller.start()
        caller.join(timeout=5)
        assert not caller.is_alive(), "say() waited for espeak-ng"
        assert not voice.wait_idle(timeout=0.05)  # still speaking the first line
        (tmp_path / "release").touch()
        assert voice.wait_idle(timeout=10)
    finally:
        voice.close()
    said = (tmp_path / "said").read_text().splitlines()
    assert said == [f"-v en-gb -s 160|{line}" for line in
                    ["Ann: fifteen for two", "line 4", "line 5", "line 6"]]
    assert (voice.spoken, voice.dropped, voice.failed) == (4, 2, 0)


class Gated(QueuedVoice):
    """A voice whose first line waits until the test lets it go."""

    def __init__(self, **kw: Any) -> None:
        self.rendered: list[str] = []
        self.started, self.go = threading.Event(), threading.Event()
        super().__init__(**kw)

    def render(self, text: str) -> None:
        self.started.set()
        assert self.go.wait(10)
        self.rendered.append(text)


def test_a_line_that_waited_too_long_is_dropped_not_said_late() -> None:
    now = [0.0]
    voice = Gated(stale_s=5.0, clock=lambda: now[0])
    try:
        voice.say("Ann: go")
        assert voice.started.wait(5)
        voice.say("Bob: last card for one")  # waits behind the first line ...
        now[0] = 6.0  # ... longer than the table cares
        voice.say("Ann: fifteen for two")
        voice.go.set()
        assert voice.wait_idle(5)
    finally:
        voice.close()
    assert voice.rendered == ["Ann: go", "Ann: fifteen for two"]
    assert voice.dropped == 1


def test_a_missing_espeak_is_one_clear_line_and_silence(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="companion.voice"):
        voice = open_voice("espeak", command=("espeak-ng-not-here",))
        voice.say("Ann: go")
    assert isinstance(voice, Silent)
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == ["voice: espeak-ng-not-here is not installed (sudo apt install espeak-ng): "
                        "the count is not spoken"]


def test_espeak_that_cannot_play_is_counted_and_said_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    script = tmp_path / "espeak-ng"  # as espeak-ng without a sound device: exit 0, an error line
    script.write_text("#!/bin/sh\ncat >/dev/null\necho 'ALSA lib pcm.c: Unknown PCM default' >&2\n"
                      "echo 'error: No such file or directory' >&2\n")
    script.chmod(0o755)
    voice = Espeak([str(script)])
    with caplog.at_level(logging.WARNING, logger="companion.voice"):
        voice.say("Ann: go")
        voice.say("Bob: go")
        assert voice.wait_idle(10)
    voice.close()
    assert (voice.spoken, voice.failed) == (0, 2)
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "error: No such file or directory" in warnings[0]


@pytest.mark.parametrize("spec", ["loud", "wav:", "none:x", "espeak:en gb;rm"])
def test_a_wrong_spec_is_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="--voice is espeak"):
        open_voice(spec)


def fake_espeak_wav(folder: Path) -> Path:
    """A stand-in for espeak-ng that writes its standard input to the ``-w`` file."""
    script = folder / "espeak-ng"
    script.write_text('#!/bin/sh\nwhile [ "$1" != "-w" ]; do shift; done\ncat > "$2"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_the_wav_folder_keeps_the_newest_lines_and_a_line_is_bounded(tmp_path: Path) -> None:
    """A 10 KB name made a 9.4 MB WAV a line, and the folder was never pruned: a line is now at
    most MAX_LINE characters, the folder keeps the newest lines' files, and a run numbers on
    from the files an earlier one left."""
    from companion.voice import MAX_LINE, WavFiles

    folder = tmp_path / "said"
    folder.mkdir()
    espeak = fake_espeak_wav(tmp_path)
    voice = WavFiles(folder, [str(espeak)], keep=3)
    try:
        for k in range(7):
            voice.say(f"line {k} " + "Bob " * 3000)
        assert voice.wait_idle(30) and voice.spoken == 7
    finally:
        voice.close()
    files = sorted(p.name for p in folder.iterdir())
    assert [name[:4] for name in files] == ["0005", "0006", "0007"]
    assert all(len((folder / name).read_text()) <= MAX_LINE for name in files)
    again = WavFiles(folder, [str(espeak)], keep=3)  # a later run: on from 0008, still three
    try:
        again.say("fifteen two")
        assert again.wait_idle(30)
    finally:
        again.close()
    assert sorted(p.name for p in folder.iterdir())[-1] == "0008-fifteen-two.wav"
    assert len(list(folder.iterdir())) == 3


# --- real speech -------------------------------------------------------------------------


def duration_and_rms(path: Path) -> tuple[float, float]:
    with wave.open(str(path)) as w:
        assert (w.getsampwidth(), w.getnchannels()) == (2, 1)
        frames = w.readframes(w.getnframes())
        seconds = w.getnframes() / w.getframerate()
    samples = array.array("h", frames)
    return seconds, math.sqrt(sum(s * s for s in samples) / max(1, len(samples)))


@NEEDS_ESPEAK
def test_wav_renders_fifteen_two_as_real_speech(tmp_path: Path) -> None:
    voice = open_voice(f"wav:{tmp_path / 'said'}")
    try:
        voice.say("fifteen two")
        assert voice.wait_idle(30)
    finally:
        voice.close()
    files = sorted((tmp_path / "said").glob("*.wav"))
    assert [f.name for f in files] == ["0001-fifteen-two.wav"]
    seconds, rms = duration_and_rms(files[0])
    assert seconds > 0.3
    assert rms > 300  # 16-bit samples: silence is 0, speech is in the thousands


@NEEDS_ESPEAK
def test_the_companion_speaks_a_deal_into_wav_files(tmp_path: Path, companion: Companion) -> None:
    voice = attach_voice(companion, f"wav:{tmp_path / 'said'}")
    try:
        game = companion.new_game({"players": ["Ann", "Bob"]})
        for event, _ in DEAL[:6]:
            companion.apply(game, event)
        assert isinstance(voice, QueuedVoice) and voice.wait_idle(60)
    finally:
        voice.close()
    files = sorted((tmp_path / "said").glob("*.wav"))
    assert [f.name for f in files] == [
        "0001-bob-fifteen-for-two.wav", "0002-ann-pair-for-two.wav",
        "0003-bob-thirty-one-for-two-and-pair-royal-for-six.wav"]
    assert all(duration_and_rms(f)[0] > 0.5 for f in files)


def test_the_voice_does_not_import_the_service() -> None:
    """The service imports the voice; the voice takes a small Protocol (``Heard``) of the table,
    so the dependency points one way (it once imported ``Companion`` back for its type)."""
    import ast

    import companion.voice as voice_module

    tree = ast.parse(Path(voice_module.__file__).read_text())
    imported: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    assert imported and not [n for n in imported if n.startswith(("companion.service", "web"))]
    assert not [n for n in imported if n == "companion" or n.startswith("companion.")]


def test_the_voice_speaks_for_any_table_with_what_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    """attach_voice needs only the newest game, a game's state and a listener (companion.voice.Heard)."""
    import companion.voice as voice_module

    names = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}]}
    before = {**names, "events": 6, "phase": "play", "deal": 1, "next": "A", "gone": [],
              "plays": [{}, {}, {}, {}]}

    class Table:
        def __init__(self) -> None:
            self.listeners: list[Any] = []

        def latest_game(self) -> int | None:
            return 7

        def state(self, game_id: int) -> dict[str, Any]:
            assert game_id == 7
            return before

        def add_listener(self, listener: Any) -> None:
            self.listeners.append(listener)

    said = Heard()
    monkeypatch.setattr(voice_module, "open_voice", lambda spec: said)
    table = Table()
    assert attach_voice(table, "espeak") is said
    (listener,) = table.listeners
    listener("state", {"game_id": 7, "state": {**before, "events": 7, "next": "B", "gone": ["A"]}})
    listener("state", {"game_id": "not a game"})  # nothing to say, nothing raised
    assert said.lines == ["Ann: go"]


def test_a_table_that_cannot_read_its_newest_game_still_gets_a_voice(monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.voice as voice_module

    class Broken:
        def __init__(self) -> None:
            self.listeners: list[Any] = []

        def latest_game(self) -> int | None:
            return 3

        def state(self, game_id: int) -> dict[str, Any]:
            raise RuntimeError("damaged")

        def add_listener(self, listener: Any) -> None:
            self.listeners.append(listener)

    quiet = Heard()
    monkeypatch.setattr(voice_module, "open_voice", lambda spec: quiet)
    table = Broken()
    assert attach_voice(table, "espeak") is quiet  # its next change is remembered, not said
    assert len(table.listeners) == 1 and quiet.lines == []
