"""Whatever a phone sends, the answer is never a 5xx, and a refusal leaves the game as it was."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webhelpers import DEAL, Api

from companion.service import Companion
from cribbage.game.events import META_TYPES, TABLE_TYPES
from cribbage.gamelog import GameStore
from web import create_app

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.text(max_size=8),
    st.sampled_from(["A", "B", "C", "5H", "JS", "TD", "10♦", "ZZ", "", "crib"]),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)
events = st.fixed_dictionaries(
    {"type": st.sampled_from([*TABLE_TYPES, *META_TYPES, "peg", 7, None])},
    optional={k: values for k in ("seat", "card", "cards", "claim", "points", "reason",
                                  "event", "with", "penalty")},
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(event=events)
def test_any_event_gets_an_answer_and_refusals_change_nothing(
    tmp_path_factory: object, event: dict
) -> None:
    folder = Path(tmp_path_factory.mktemp("fuzz"))  # type: ignore[attr-defined]
    companion = Companion(GameStore(folder / "games.sqlite3"))
    try:
        api = Api(create_app(companion, {"DATA_DIR": folder}).test_client())
        game = api.new_game(muggins=True, counting="claim")
        for known in DEAL[:6]:
            api.event(game, known)
        before = api.get(f"/api/games/{game}").get_json()["state"]
        response = api.post(f"/api/games/{game}/events", data=json.dumps(event),
                            content_type="application/json")
        assert response.status_code < 500, response.get_json()
        after = api.get(f"/api/games/{game}").get_json()["state"]
        if response.status_code >= 400:
            assert response.get_json()["error"]
            assert after == before
        else:
            assert after["events"] == before["events"] + 1
    finally:
        companion.close()


settings_bodies = st.dictionaries(
    st.sampled_from(["variant", "target", "players", "muggins", "counting", "three_for_last",
                     "overclaim", "colours", "other"]), values, max_size=6)
count_bodies = st.dictionaries(st.sampled_from(["hand", "starter", "crib", "x"]), values,
                               max_size=4)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=settings_bodies, count=count_bodies)
def test_any_settings_or_count_gets_an_answer(
    tmp_path_factory: object, body: dict, count: dict
) -> None:
    folder = Path(tmp_path_factory.mktemp("fuzz"))  # type: ignore[attr-defined]
    companion = Companion(GameStore(folder / "games.sqlite3"))
    try:
        api = Api(create_app(companion, {"DATA_DIR": folder}).test_client())
        response = api.post("/api/games", data=json.dumps(body), content_type="application/json")
        assert response.status_code < 500, response.get_json()
        games = api.get("/api/games").get_json()["games"]
        assert len(games) == (1 if response.status_code == 201 else 0)
        answer = api.post("/api/count", data=json.dumps(count), content_type="application/json")
        assert answer.status_code in (200, 400), answer.get_json()
    finally:
        companion.close()
