"""A full SD card, a read-only one, an I/O error: a typed StorageError naming the cause, nothing
half-written, the game and its earlier events as they were, and the store still usable."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from cribbage import storage
from cribbage.errors import CribbageError, StorageError
from cribbage.gamelog import GameStore
from tests.game.storagekit import DEAL_START, Opened, snapshot

PLAY = [{"type": "play", "seat": "A", "card": "JC"}, {"type": "play", "seat": "B", "card": "5S"}]


def started(path: Path, opened: Opened | None = None) -> tuple[GameStore, int]:
    store = GameStore(path, connect=opened)
    game = store.new_game({"players": ["Ann", "Bob"]})
    store.apply_many(game, DEAL_START)
    return store, game


def test_a_full_disk_is_a_storage_error_and_leaves_the_game_as_it_was(tmp_path: Path) -> None:
    opened = Opened()
    store, game = started(tmp_path / "g.db", opened)
    before = snapshot(store, game)
    opened.fill_disk()
    with pytest.raises(StorageError) as caught:  # a game needs a page or two sooner or later
        for _ in range(1000):
            store.new_game({"players": ["Annabel " * 3, "Bob " * 6]})  # 24 characters each
            before = snapshot(store, game)
    assert caught.value.cause == "full"
    assert str(caught.value) == "the SD card is full: nothing was recorded"
    assert snapshot(store, game) == before
    # the events of a turn (and their undoing): SQLite rolls the transaction back itself, the
    # store's guard copes
    opened.free_disk()
    opened.fill_disk()
    steps = [PLAY, [{"type": "undo"}], [{"type": "undo"}]]
    for k in range(300):
        before = snapshot(store, game)
        try:
            store.apply_many(game, steps[k % 3])
        except StorageError as exc:
            assert exc.cause == "full"
            break
    else:
        pytest.fail("the disk never filled")
    assert snapshot(store, game) == before
    opened.free_disk()  # room again: the same connection writes on, no stuck transaction
    state = store.apply_many(game, steps[k % 3])
    assert state["events"] == before[0]["events"] + len(steps[k % 3])
    store.close()


def test_a_read_only_file_serves_its_games_and_refuses_to_record(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store, game = started(path)
    store.close()
    with GameStore(path, connect=Opened(read_only=True)) as ro:
        before = snapshot(ro, game)
        assert before[0]["phase"] == "play"
        with pytest.raises(StorageError) as caught:
            ro.apply(game, PLAY[0])
        assert caught.value.cause == "read-only"
        assert "read-only" in str(caught.value) and "nothing was recorded" in str(caught.value)
        with pytest.raises(StorageError):
            ro.new_game({})
        assert snapshot(ro, game) == before


def test_an_io_error_mid_write_is_a_storage_error_and_the_store_goes_on(tmp_path: Path) -> None:
    opened = Opened()
    store, game = started(tmp_path / "g.db", opened)
    before = snapshot(store, game)
    assert opened.db is not None
    opened.db.fault = "INSERT INTO events"
    with pytest.raises(StorageError) as caught:
        store.apply(game, PLAY[0])
    assert caught.value.cause == "io" and "I/O error" in str(caught.value)
    opened.db.fault = "COMMIT"
    with pytest.raises(StorageError):
        store.apply(game, PLAY[0])
    assert opened.db.faults == 2
    opened.db.fault = None
    assert snapshot(store, game) == before
    assert store.apply(game, PLAY[0])["events"] == 3
    store.close()


def test_a_read_error_is_a_storage_error_too(tmp_path: Path) -> None:
    opened = Opened()
    store, _ = started(tmp_path / "g.db", opened)
    assert opened.db is not None
    opened.db.fault = "SELECT"
    with pytest.raises(StorageError) as caught:
        store.games()
    assert caught.value.cause == "io" and "nothing was recorded" not in str(caught.value)
    opened.db.fault = None
    store.close()


def test_a_full_disk_at_start_names_the_disk_not_a_bad_file(tmp_path: Path) -> None:
    with pytest.raises(StorageError) as caught:
        GameStore(tmp_path / "g.db", connect=Opened(max_pages=1))
    assert caught.value.cause == "full"
    assert "full" in str(caught.value) and "not a game database" not in str(caught.value)


def test_a_read_only_file_at_start_says_so(tmp_path: Path) -> None:
    (tmp_path / "g.db").touch()  # an empty file (a new log) the store cannot write
    with pytest.raises(StorageError) as caught:
        GameStore(tmp_path / "g.db", connect=Opened(read_only=True))
    assert caught.value.cause == "read-only"
    assert str(caught.value).endswith("the file is read-only")


def test_a_read_only_folder_at_start_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    real = storage.os.access
    # the tests run as root, whom chmod does not stop: the folder answers as a read-only one
    monkeypatch.setattr(storage.os, "access", lambda p, mode: False if Path(p) == folder
                        else real(p, mode))
    folder.chmod(0o555)
    try:
        with pytest.raises(StorageError) as caught:
            GameStore(folder / "g.db", connect=Opened(read_only=True))
    finally:
        folder.chmod(0o755)
    assert str(caught.value) == f"cannot open the game log {folder / 'g.db'}: the folder {folder} " \
        "is read-only"


def test_a_missing_folder_at_start_is_called_missing_not_read_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "nowhere" / "data"
    with pytest.raises(StorageError) as caught:
        GameStore(folder / "g.db")
    assert caught.value.cause == "missing"
    assert str(caught.value) == f"cannot open the game log {folder / 'g.db'}: there is no folder {folder}"
    assert main(["game", "new", "--db", str(folder / "g.db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "there is no folder" in err and "read-only" not in err
    assert not folder.exists()


def test_a_file_that_is_not_a_database_is_still_called_that(tmp_path: Path) -> None:
    (tmp_path / "notes.db").write_bytes(b"shopping list: milk, eggs\n" * 200)
    with pytest.raises(CribbageError, match="not a game database"):
        GameStore(tmp_path / "notes.db")


def test_the_cli_says_one_line_and_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.db"
    store, _ = started(db)
    store.close()
    monkeypatch.setattr("cribbage.gamelog._connect", Opened(read_only=True))
    status = main(["game", "event", "--db", str(db), '{"type": "play", "seat": "A", "card": "JC"}'])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "read-only" in err and "nothing was recorded" in err
    monkeypatch.undo()
    with GameStore(db) as again:
        assert again.state(1)["events"] == 2


@pytest.mark.parametrize(("message", "cause"), [
    ("database or disk is full", "full"), ("attempt to write a readonly database", "read-only"),
    ("disk I/O error", "io"), ("database is locked", "locked"),
    ("database disk image is malformed", "damaged"),
])
def test_sqlite_messages_map_to_causes(message: str, cause: str) -> None:
    error = storage.storage_error(sqlite3.OperationalError(message), "g.db")
    assert error is not None and error.cause == cause


class _FailsToOpen:
    """A ``connect`` that fails as SQLite does on a full card: ``disk I/O error``."""

    def __call__(self, path: str) -> sqlite3.Connection:
        raise sqlite3.OperationalError("disk I/O error")


def _disk_with(free: int) -> object:
    def usage(folder: object) -> object:
        return storage.shutil._ntuple_diskusage(32_000_000_000, 32_000_000_000 - free, free)  # type: ignore[attr-defined]

    return usage


def test_an_io_error_at_start_on_a_full_card_says_the_card_is_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 45, item 9: SQLite reports an I/O error on a full disk; the free space is looked
    at before the card is blamed."""
    monkeypatch.setattr(storage.shutil, "disk_usage", _disk_with(200_000))
    with pytest.raises(StorageError) as caught:
        GameStore(tmp_path / "g.db", connect=_FailsToOpen())
    assert caught.value.cause == "full"
    assert str(caught.value).startswith(
        f"cannot open the game log {tmp_path / 'g.db'}: the SD card is full (0.2 MB free): ")
    assert "I/O error" not in str(caught.value)


def test_an_io_error_at_start_with_room_on_the_card_blames_the_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(storage.shutil, "disk_usage", _disk_with(5_000_000_000))
    with pytest.raises(StorageError) as caught:
        GameStore(tmp_path / "g.db", connect=_FailsToOpen())
    assert caught.value.cause == "io"
    assert str(caught.value).endswith("the SD card failed (I/O error)")
