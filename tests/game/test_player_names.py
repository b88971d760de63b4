"""Players' names a table can show (issue 46): a name with a bidirectional control, a control
character or an invisible one, or two names alike, are refused: ``POST /api/games`` 400 with a
JSON error, ``crib game new --players`` one line and exit 2, nothing stored; a game stored before
names were checked still opens."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.service import Companion
from cribbage.errors import InputError
from cribbage.game.settings import Settings
from cribbage.gamelog import GameStore
from web import create_app

REFUSED = [
    (["Ann", "Bob\u202e"], "player 2's name holds a right-to-left override (U+202E)"),
    (["\u2067Ann", "Bob"], "player 1's name holds a right-to-left isolate (U+2067)"),
    (["Ann\u200f", "Bob"], "player 1's name holds a right-to-left mark (U+200F)"),
    (["An\x00n", "Bob"], "player 1's name holds a control character (U+0000)"),
    (["Ann", "B\nob"], "player 2's name holds a control character (U+000A)"),
    (["Ann", "Bob\x7f"], "player 2's name holds a control character (U+007F)"),
    (["Ann", "Bob\u2028x"], "player 2's name holds a control character (U+2028)"),
    (["Ann\u200b", "Bob"], "player 1's name holds an invisible character (U+200B)"),
    (["Ann", "\ufeffBob"], "player 2's name holds an invisible character (U+FEFF)"),
    (["Ann", "Bo\u2060b"], "player 2's name holds an invisible character (U+2060)"),
    (["Ann\u200d", "Bob"], "player 1's name holds an invisible character (U+200D)"),  # joins nothing
    (["Ann", "ann"], "two players are called Ann"),
    (["Ann", " ANN "], "two players are called Ann"),
    (["Ann", "A\u200dnn"], "two players are called Ann"),
    (["Ann", "\uff21nn"], "two players are called Ann"),  # a full-width A
]
KEPT = [["Ann", "Bob"], ["Zoë", "Zoe"], ["\U0001f469\u200d\U0001f4bb", "Bob"], ["می\u200cخواهم", "Bob"],
        ["Ann Lee", "Ann Li"]]


@pytest.mark.parametrize(("names", "words"), REFUSED)
def test_a_hidden_character_or_a_duplicate_name_is_refused(names: list[str], words: str) -> None:
    with pytest.raises(InputError, match=words.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        Settings.from_json({"players": names})


@pytest.mark.parametrize("names", KEPT)
def test_names_a_table_can_show_are_kept(names: list[str]) -> None:
    assert list(Settings.from_json({"players": names}).players) == names


@pytest.mark.parametrize(("names", "words"), REFUSED[:1] + REFUSED[3:4] + REFUSED[7:8] + REFUSED[11:12])
def test_the_page_gets_400_and_no_game(tmp_path: Path, names: list[str], words: str) -> None:
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    try:
        client = create_app(companion, {"DATA_DIR": tmp_path, "TESTING": True}).test_client()
        csrf = client.get("/api/session").get_json()["csrf"]
        answer = client.post("/api/games", json={"players": names}, headers={"X-CSRF-Token": csrf})
        assert answer.status_code == 400
        assert answer.get_json()["error"].startswith(words), answer.get_json()
        assert companion.latest_game() is None
    finally:
        companion.close()


@pytest.mark.parametrize("players", ["Ann,ann", "Ann,Bob\u202e", "Ann\u200b,Bob"])
def test_the_command_line_says_one_line_and_exits_2(tmp_path: Path, players: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.db"
    assert main(["game", "new", "--db", str(db), "--players", "Ann,Bob"]) == 0
    capsys.readouterr()
    assert main(["game", "new", "--db", str(db), "--players", players]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert "two players are called Ann" in err or "name holds" in err, err
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def test_a_game_stored_before_names_were_checked_still_opens(tmp_path: Path) -> None:
    with GameStore(tmp_path / "g.db") as store:
        game = store.new_game({"players": ["Ann", "Bob"]})
        store._db.execute("UPDATE games SET settings = json_set(settings, '$.players[1]', ?)", ("ann",))
        store._db.commit()
        store._cache.clear()
        assert [p["name"] for p in store.state(game)["players"]] == ["Ann", "ann"]
