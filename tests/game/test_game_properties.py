"""Property tests: random legal games played to the end never break the invariants.

Every point is explained by an item; scores only fall through an undo or a correction; the
count never passes 31; each card appears once per deal; the game ends exactly when a side
reaches the target; a replay of the log is the same game; a camera's view (laid cards only,
goes inferred) gives the same game as whole hands.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribbage.errors import CribbageError
from cribbage.game import META_TYPES, TABLE_TYPES, VARIANTS, Game, Settings
from cribbage.game.simulate import random_game

from .helpers import explained

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


class Watch:
    """Checks the invariants after every event."""

    def __init__(self) -> None:
        self.previous: dict[str, int] | None = None
        self.events = 0

    def __call__(self, game: Game, event: dict[str, Any]) -> None:
        self.events += 1
        target = game.settings.target
        assert 0 <= game.count <= 31
        if self.previous is not None:  # no undo or correction here: scores never fall
            assert all(game.scores[s] >= self.previous[s] for s in game.scores)
            assert max(self.previous.values()) < target  # nothing after the game was won
        self.previous = dict(game.scores)
        reached = [s for s, v in game.scores.items() if v >= target]
        assert all(v <= target for v in game.scores.values())
        assert (game.winner is not None) == bool(reached) == (game.phase == "over")
        if game.winner is not None:
            assert reached == [game.winner]
        deal = game.deal
        if deal is not None:
            laid = [c for cards in deal.laid.values() for c in cards]
            seen = laid + ([deal.starter] if deal.starter else [])
            assert len(seen) == len(set(seen))
            for seat, cards in deal.laid.items():
                assert len(cards) <= deal.kept
                assert all(deal.owner[c] == chr(65 + seat) for c in cards)
        if self.events % 17 == 0:
            explained(game)


@SETTINGS
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(sorted(VARIANTS)),
       target=st.sampled_from([61, 121]), known=st.booleans())
def test_random_games_keep_the_invariants(seed, variant, target, known):
    s = Settings.from_json({"variant": variant, "target": target})
    watch = Watch()
    game, _ = random_game(s, random.Random(seed), hands_known=known, on_event=watch)
    assert game.phase == "over" and max(game.scores.values()) == target
    explained(game)
    assert Game.replay(s, game.log).to_json() == game.to_json()


@SETTINGS
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(sorted(VARIANTS)))
def test_a_camera_sees_the_same_game_as_whole_hands(seed, variant):
    s = Settings.from_json({"variant": variant})
    known, _ = random_game(s, random.Random(seed), hands_known=True)
    seen, events = random_game(s, random.Random(seed), hands_known=False)
    assert seen.scores == known.scores
    assert [h["points"] for h in seen.history] == [h["points"] for h in known.history]
    assert not any(e["type"] in ("hand", "discard") for e in events)


@SETTINGS
@given(seed=st.integers(0, 2**31), muggins=st.booleans())
def test_claims_and_muggins_keep_every_point_explained(seed, muggins):
    s = Settings.from_json({"counting": "claim", "muggins": muggins, "target": 61})
    rng = random.Random(seed)

    def call_muggins(game: Game, event: dict[str, Any]) -> None:
        assert game.pending == [] or muggins

    game, _ = random_game(s, rng, claims=True, on_event=call_muggins)
    explained(game)
    # call muggins on whatever is open at each point of the log: it pegs exactly what was missed
    state = Game(s)
    for event in game.log:
        state = state.apply(event)
        for chance in list(state.pending):
            before = dict(state.scores)
            called = state.apply({"type": "muggins", "seat": chance["callers"][0]})
            side = s.side_of(ord(chance["callers"][0]) - 65)
            gained = called.scores[side] - before[side]
            assert gained == min(chance["points"], s.target - before[side])
            explained(called)


@SETTINGS
@given(seed=st.integers(0, 2**31), cut=st.floats(0.05, 0.95))
def test_undo_only_lowers_scores_and_redo_restores_them(seed, cut):
    s = Settings.from_json({"target": 61})
    _, events = random_game(s, random.Random(seed))
    k = max(1, int(len(events) * cut))
    partial = Game(s)
    for event in events[:k]:
        partial = partial.apply(event)
    undone = partial.apply({"type": "undo"})
    assert all(undone.scores[x] <= partial.scores[x] for x in partial.scores)
    redone = undone.apply(events[k - 1])
    assert redone.scores == partial.scores
    assert redone.to_json()["history"] == partial.to_json()["history"]
    explained(redone)


_CARDS = st.sampled_from(["5H", "JH", "TS", "AC", "KD", "10c", "ZZ", "", 5, None, ["5H"]])
_EVENTS = st.fixed_dictionaries(
    {"type": st.sampled_from([*TABLE_TYPES, *META_TYPES, "x", 3, None])},
    optional={
        "seat": st.sampled_from(["A", "B", "c", "Z", "AB", 1, None, ""]),
        "card": _CARDS,
        "cards": st.one_of(st.lists(_CARDS, max_size=7), _CARDS,
                           st.dictionaries(st.sampled_from(["A", "B", "Q"]), _CARDS)),
        "claim": st.one_of(st.integers(-3, 40), st.sampled_from(["7", "x", 2.5, True])),
        "points": st.one_of(st.integers(-3, 200), st.sampled_from(["2", None, 1.5])),
        "event": st.one_of(st.integers(-1, 400), st.sampled_from(["1", None, False])),
        "penalty": st.integers(-1, 3),
        "reason": st.one_of(st.text(max_size=5), st.integers()),
    },
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), cut=st.floats(0, 1), junk=st.lists(_EVENTS, max_size=6))
def test_any_event_is_applied_or_refused_with_a_cribbage_error(seed, cut, junk):
    """Bad input never crashes: whatever the event, the game applies it or refuses it with a
    CribbageError, and a refused event leaves the game as it was."""
    s = Settings.from_json({"target": 61})
    _, events = random_game(s, random.Random(seed))
    game = Game(s)
    for event in events[: int(len(events) * cut)]:
        game = game.apply(event)
    junk = [*junk, {"type": "correct", "event": 1 + seed % 50, "with": junk[0]}] if junk else junk
    for event in junk:
        before = game.to_json()
        try:
            game = game.apply(event)
        except CribbageError:
            assert game.to_json() == before
        explained(game)


def _table(state: dict[str, Any]) -> dict[str, Any]:
    """The state without the bookkeeping of the log (event counts)."""
    return {k: v for k, v in state.items() if k not in ("events", "last_event")}


@SETTINGS
@given(seed=st.integers(0, 2**31), cut=st.floats(0.05, 1), back=st.integers(1, 12),
       variant=st.sampled_from(sorted(VARIANTS)))
def test_corrections_and_undos_fold_to_the_same_game(seed, cut, back, variant):
    """Correcting an event with itself changes nothing; undoing the last events and sending
    them again gives the same game; every point stays explained."""
    s = Settings.from_json({"variant": variant, "target": 61})
    _, events = random_game(s, random.Random(seed), hands_known=seed % 2 == 0)
    k = max(1, int(len(events) * cut))
    game = Game(s)
    for event in events[:k]:
        game = game.apply(event)
    target = 1 + seed % k
    same = game.apply({"type": "correct", "event": target, "with": game.log[target - 1]})
    assert _table(same.to_json()) == _table(game.to_json())
    assert same.superseded == {target: k + 1}
    back = min(back, k)
    undone = game
    for _ in range(back):
        undone = undone.apply({"type": "undo"})
        explained(undone)
    for event in events[k - back:k]:
        undone = undone.apply(event)
    assert _table(undone.to_json()) == _table(game.to_json())
    explained(undone)
