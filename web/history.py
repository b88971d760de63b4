"""Past games for the history tab: one line per game, the match tally, the score over time.

>>> state = {"sides": [{"id": "A", "name": "Ann", "colour": "#d62728"},
...                    {"id": "B", "name": "Bob", "colour": "#1f77b4"}]}
>>> events = [{"id": 1, "superseded_by": None, "points": []},
...           {"id": 2, "superseded_by": None, "points": [{"side": "B", "pegged": 2}]},
...           {"id": 3, "superseded_by": 4, "points": [{"side": "A", "pegged": 5}]},
...           {"id": 5, "superseded_by": None, "points": [{"side": "A", "pegged": 1}]}]
>>> score_series(state, events)
({'Ann': [0, 0, 1], 'Bob': [0, 2, 2]}, {'Ann': '#d62728', 'Bob': '#1f77b4'})
>>> match_tally([{"winner": "Ann", "game_points": 2}, {"winner": "Ann"}, {"winner": None}])
{'Ann': 3}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def _sides(state: dict[str, Any]) -> list[dict[str, Any]]:
    sides = state.get("sides")
    if sides:
        return list(sides)
    return [{"id": p.get("seat"), "name": p.get("name")} for p in state.get("players") or []]


def score_series(
    state: dict[str, Any], events: Iterable[dict[str, Any]]
) -> tuple[dict[str, list[int]], dict[str, str]]:
    """Each side's score after every event in force that pegged points (named by side name)."""
    sides = _sides(state)
    names = {s["id"]: str(s.get("name") or s["id"]) for s in sides}
    colours = {names[s["id"]]: str(s["colour"]) for s in sides if s.get("colour")}
    scores = {sid: 0 for sid in names}
    series: dict[str, list[int]] = {names[sid]: [0] for sid in names}
    for record in events:
        if record.get("superseded_by"):
            continue
        after = record.get("scores")
        if isinstance(after, dict) and after:
            changed = any(after.get(sid, scores[sid]) != scores[sid] for sid in scores)
            scores = {sid: int(after.get(sid, scores[sid])) for sid in scores}
        else:
            changed = False
            for award in record.get("points") or []:
                if not isinstance(award, dict):
                    continue
                side = award.get("side") or award.get("seat")
                if side in scores:
                    scores[side] += int(award.get("pegged", award.get("points", 0)))
                    changed = True
        if changed:
            for sid in scores:
                series[names[sid]].append(scores[sid])
    return series, colours


def game_summary(game: dict[str, Any]) -> dict[str, Any]:
    """One past game as the history list shows it (store fields passed through).

    Adds ``side_scores`` (each side in seat order with its own score), ``line`` (the sides:
    ``"Ann & Cat v Bob & Dan"``) and ``score``: in the same order while the game is played
    (``"25–29"``); once won, as players say a result, the winner's first and then the others,
    highest first (the page's "Xan won 61–40").

    >>> g = game_summary({"id": 2, "players": ["Alice", "Bob"], "scores": {"A": 25, "B": 29}})
    >>> g["line"], g["score"]
    ('Alice v Bob', '25–29')
    >>> game_summary({"id": 3, "players": ["Ann", "Xan"], "scores": {"A": 40, "B": 61},
    ...               "winner": "B", "winner_name": "Xan"})["score"]
    '61–40'
    """
    out = dict(game)
    if "game_id" not in out and "id" in out:
        out["game_id"] = out["id"]
    players = out.get("players")
    if isinstance(players, list):
        out["players"] = [p.get("name", p) if isinstance(p, dict) else p for p in players]
    scores = out.get("scores") if isinstance(out.get("scores"), dict) else {}
    sides = [s for s in out.get("sides") or [] if isinstance(s, dict) and s.get("id")]
    if not sides:
        names = out.get("players") if isinstance(out.get("players"), list) else []
        sides = [{"id": chr(65 + i), "name": str(n)} for i, n in enumerate(names)]
    out["side_scores"] = [
        {"id": s["id"], "name": str(s.get("name") or s["id"]), "score": int(scores.get(s["id"], 0))}
        for s in sides
    ]
    out["line"] = " v ".join(s["name"] for s in out["side_scores"])
    ordered = out["side_scores"]
    won = [s for s in ordered if s["id"] == out.get("winner")]
    if won:
        ordered = won + sorted((s for s in ordered if s is not won[0]), key=lambda s: -s["score"])
    out["score"] = "–".join(str(s["score"]) for s in ordered)
    return out


def match_tally(games: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Game points won by each winner across the games (2 for a skunk, 4 for a double)."""
    tally: dict[str, int] = {}
    for game in games:
        winner = game.get("winner_name") or game.get("winner")
        if winner:
            tally[str(winner)] = tally.get(str(winner), 0) + int(game.get("game_points") or 1)
    return tally
