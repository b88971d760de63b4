"""The New tab offers the dealer: cut at the table (the default: the Play tab asks for the cut for
deal) or one of the players, by name, so a camera game need not wait for a cut nobody makes.
Chromium at 390x844 and 844x390.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import expect, new_game

pytestmark = pytest.mark.browser


def dealer_choices(page: Any) -> list[str]:
    return [o.inner_text() for o in page.locator('#new-form select[name="dealer"] option').all()]


def test_a_dealer_chosen_on_the_new_tab_deals(phone: Any) -> None:
    page = phone
    page.click("#tabs >> text=New")
    page.select_option('#new-form select[name="variant"]', "three-player")
    inputs = page.locator('#players input[name="player"]')
    for i, name in enumerate(("Ann", "Ben", "Cat")):
        inputs.nth(i).fill(name)
    assert dealer_choices(page) == ["Cut at the table", "Ann", "Ben", "Cat"]  # by name, as typed
    page.select_option('#new-form select[name="dealer"]', label="Cat")
    page.click("#new-form button.primary")
    expect(page.locator("#play")).to_be_visible()
    expect(page.locator("#next")).to_contain_text("Next: turn the starter (Cat deals).")
    assert page.evaluate("() => Crib.app.state.dealer") == "C"
    page.click("#tabs >> text=Table")
    expect(page.locator("#dealer")).to_have_text("Cat")


def test_the_cut_at_the_table_is_the_default(phone: Any) -> None:
    page = phone
    page.click("#tabs >> text=New")
    page.select_option('#new-form select[name="variant"]', "three-player")
    page.select_option('#new-form select[name="dealer"]', "C")
    # two players have no third seat: the choice goes back to the cut
    page.select_option('#new-form select[name="variant"]', "six-card")
    assert page.locator('#new-form select[name="dealer"]').input_value() == ""
    names = [i.input_value() for i in page.locator('#players input[name="player"]').all()]
    assert dealer_choices(page) == ["Cut at the table", *names] and len(names) == 2
    new_game(page, names=("Ann", "Bob"))  # the dealer left as it is
    expect(page.locator("#next")).to_contain_text("Next: choose the dealer: cut for deal")
    assert page.evaluate("() => Crib.app.state.dealer") is None
