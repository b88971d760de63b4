"""A game log with 8 KB of garbage in its middle: found at open, reported in one line, read where
it can be, never written; ``crib game recover`` copies what can be read into a new file."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from cribbage.errors import StorageError
from cribbage.gamelog import GameStore
from cribbage.storage import DAMAGED
from tests.game.storagekit import damage, played_log

GAMES = 30


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("log") / "games.sqlite3"
    assert len(played_log(path, GAMES)) == GAMES
    return path


@pytest.fixture
def damaged(pristine: Path, tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite3"
    shutil.copy(pristine, path)
    damage(path)
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def readable(store: GameStore) -> dict[int, dict]:
    """The state of every game the store can still read (without its match tally)."""
    out = {}
    for game_id in range(1, GAMES + 1):
        try:
            state = store.state(game_id)
        except StorageError as exc:
            assert exc.cause == "damaged"
            continue
        state.pop("match")
        out[game_id] = state
    return out


def test_a_sound_log_passes_the_check(pristine: Path) -> None:
    with GameStore(pristine) as store:
        assert store.damage is None and store.checked


def test_a_damaged_log_is_reported_read_where_it_can_be_and_never_written(
        damaged: Path, pristine: Path) -> None:
    before = digest(damaged)
    with GameStore(damaged) as store:
        assert store.damage is not None and "\n" not in store.damage
        assert str(damaged) in store.damage and "damaged" in store.damage
        with pytest.raises(StorageError) as caught:
            store.new_game({"players": ["Ann", "Bob"]})
        assert caught.value.cause == "damaged" and str(caught.value) == DAMAGED
        good = readable(store)
        assert 0 < len(good) < GAMES  # the garbage cost some games, not all
        with pytest.raises(StorageError, match="damaged"):
            store.apply(min(good), {"type": "undo"})
        assert len(store.games()) == GAMES  # the list of games is still there
    with GameStore(pristine) as sound:
        assert {k: v for k, v in readable(sound).items() if k in good} == good
    assert digest(damaged) == before


def test_recover_copies_every_game_and_event_that_can_be_read(
        damaged: Path, pristine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = digest(damaged)
    out = tmp_path / "recovered.sqlite3"
    assert main(["game", "recover", "--db", str(damaged), "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith(f"recovered {GAMES} of {GAMES} games and ")
    assert digest(damaged) == before
    with GameStore(damaged) as old:
        good = readable(old)
    with GameStore(out) as new, GameStore(pristine) as sound:
        assert new.damage is None and new.checked
        copied = readable(new)
        assert len(copied) == GAMES
        for game_id, state in good.items():  # every game still readable comes over whole
            assert copied[game_id] == state
            assert new.events(game_id) == sound.events(game_id)
        lost = 0
        for game_id in set(copied) - set(good):  # the damaged ones: their first events
            kept, had = new.events(game_id), sound.events(game_id)
            assert len(kept) < len(had)
            assert [e["event"] for e in kept] == [e["event"] for e in had[:len(kept)]]
            assert f"  game {game_id}: {len(kept)} of {len(had)} events copied" in "\n".join(printed)
            lost += len(had) - len(kept)
        total = sum(len(sound.events(g)) for g in range(1, GAMES + 1))
    assert lost > 0
    assert f"and {total - lost} of {total} events" in printed[0]
    assert sqlite3.connect(out).execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_recover_refuses_to_overwrite_and_the_cli_refuses_to_record(
        damaged: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / "taken.db"
    taken.write_bytes(b"keep me")
    assert main(["game", "recover", "--db", str(damaged), "--out", str(taken)]) == 2
    assert taken.read_bytes() == b"keep me"
    assert "already exists" in capsys.readouterr().err
    before = digest(damaged)
    assert main(["game", "new", "--db", str(damaged)]) == 2
    err = capsys.readouterr().err
    assert err == f"crib game: {DAMAGED}\n"
    assert digest(damaged) == before
