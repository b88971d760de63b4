"""Three players cut for deal on the Play tab (issue 37, defect 2 on the page): after equal
lowest cuts the page asks only the tied players (the state's ``cutting``) for a card, the engine
takes their re-cut and the lower of them deals. Chromium at 390x844 and 844x390.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import expect, new_game, tap

pytestmark = pytest.mark.browser



def test_only_the_tied_players_cut_again_and_the_lower_deals(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Ben", "Cat"), variant="three-player")
    page.click('#actions button[data-act="cut"]')
    picked = page.locator("#picked .card.cut")
    expect(picked).to_have_text(["Ann ?", "Ben ?", "Cat ?"])
    tap(page, cards=("7S", "7H", "KD"))
    said = "Ann cut 7♠, Ben cut 7♥, Cat cut K♦: equal lowest cuts, so Ann and Ben cut again."
    expect(page.locator("#next")).to_contain_text(said)
    expect(page.locator("#next")).to_contain_text("each player's card: Ann, then Ben;")
    # the cut is still the action, and only Ann and Ben are asked for a card
    expect(page.locator("#actions button.on")).to_have_attribute("data-act", "cut")
    expect(picked).to_have_text(["Ann ?", "Ben ?"])
    page.click('#picker button[data-card="9C"]')
    page.click('#picker button[data-card="3D"]')
    page.click('#picker button[data-card="AH"]')  # a third card: nobody else cuts
    expect(picked).to_have_text(["Ann 9♣", "Ben 3♦"])
    tap(page)
    expect(page.locator("#next")).to_contain_text("Ann cut 9♣, Ben cut 3♦: Ben cut lower and deals first.")
    page.click("#tabs >> text=Table")
    expect(page.locator("#dealer")).to_have_text("Ben")
    cuts = page.evaluate("() => Crib.app.state.cuts")
    assert [c["cards"] for c in cuts] == [{"A": "7S", "B": "7H", "C": "KD"}, {"A": "9C", "B": "3D"}]
