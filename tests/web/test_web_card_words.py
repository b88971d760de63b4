"""Cards as players read them (7♥), never the engine's codes (7H), in every refusal the page
shows (issue 37, defect 5). The Fix tab's list is checked in the browser
(``test_web_browser_words.py``)."""

from __future__ import annotations

import re

from webhelpers import DEAL, Api

CODE = re.compile(r"\b[A2-9TJQK][SHDC]\b")


def test_a_refused_claim_names_its_cards_as_players_read_them(api: Api) -> None:
    game = api.new_game(players=["Ann", "Gus"], counting="claim")
    for event in DEAL[:11]:
        api.event(game, event)
    refused = api.event(game, {"type": "show", "seat": "A", "cards": ["JC", "5H", "4H", "6D"],
                               "claim": 29}, expect=422)
    assert "♣" in refused["error"] and not CODE.search(refused["error"]), refused["error"]
    assert CODE.search(refused["detail"])  # the engine's own message keeps its codes for programs


def test_a_card_laid_twice_is_said_as_a_card(api: Api) -> None:
    game = api.new_game(players=["Ann", "Gus"])
    for event in DEAL[:4]:
        api.event(game, event)
    again = api.event(game, {"type": "play", "seat": "B", "card": "5S"}, expect=422)
    assert "5♠" in again["error"] and not CODE.search(again["error"]), again["error"]
