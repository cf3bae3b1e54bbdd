"""A zone the player chose at sign-up stays hers (issue 39, item 4): saving
unrelated settings from a browser in another zone does not replace it."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, new_page, sign_up

pytestmark = pytest.mark.browser

PASSWORD = "a long enough password 7"


def test_a_zone_chosen_at_sign_up_survives_saving_two_checkboxes_from_a_browser_in_utc(browser, live_site):
    moscow = new_page(browser, live_site, timezone_id="Europe/Moscow")
    try:
        sign_up(moscow, "nadia", "Nadia", PASSWORD)
        moscow.goto("/accounts/profile/")
        expect(moscow.locator("section.profile")).to_contain_text("Europe/Moscow")
    finally:
        moscow.context.close()

    utc = new_page(browser, live_site, timezone_id="UTC")
    try:
        log_in(utc, "nadia", PASSWORD, "/accounts/profile/edit/")
        zone = utc.locator("#id_time_zone")
        expect(zone).to_have_value("Europe/Moscow")
        assert zone.get_attribute("data-browser-zone") is None
        utc.locator("#id_challenges_from_friends_only").check()
        utc.locator("#id_next_game_after_move").check()
        utc.locator("main form button[type=submit]").click()
        utc.wait_for_url(re.compile(r"/accounts/profile/$"))
        expect(utc.locator("section.profile")).to_contain_text("Europe/Moscow")
        assert utc.js_errors == []
    finally:
        utc.context.close()
