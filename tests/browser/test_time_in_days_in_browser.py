"""A correspondence player enters a table's time in days, hours and minutes
(issue 39, item 2) and the table shows it so."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_correspondence_in_browser import PASSWORD, player_page, scenario

pytestmark = pytest.mark.browser


def test_a_table_is_set_up_with_two_and_a_half_days_a_move_typed_in_days_and_hours(browser, live_site):
    scenario(live_site, "players", PASSWORD, "vera")
    scenario(live_site, "russian", "vera")
    page = player_page(browser, live_site, "vera", "/games/new/")
    try:
        form = page.locator("main form")
        form.locator("#id_engine").select_option("joker")
        move = form.locator(".duration-input").first
        expect(page.locator("label[for=id_move_seconds_0]")).to_have_text("Время на ход:")
        expect(move.locator(".duration-unit")).to_have_text([" д", " ч", " мин"])
        page.locator("#id_move_seconds_0").fill("2")  # the label leads to the days
        move.locator("input.duration-hours").fill("12")
        page.locator("#id_reserve_seconds_0").fill("5")
        form.locator("button[type=submit]").click()
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        expect(page.locator(".game-head")).to_contain_text("Контроль времени: 2 д 12 ч + 5 д")
        assert page.js_errors == []
    finally:
        page.context.close()
