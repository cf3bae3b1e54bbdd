"""The time zone box in a real Chromium takes what its hint asks for: a city
typed in Russian or English (or a common name of one) is saved as its zone,
without picking from the list (issue 27, 6)."""

import re

import pytest

from tests.browser.conftest import log_in

pytestmark = pytest.mark.browser
PASSWORD = "kitchen-Table-2024"


@pytest.mark.parametrize("username, typed, zone", [
    ("nino", "Тбилиси", "Asia/Tbilisi"), ("oksana", "Київ", "Europe/Kyiv"), ("petr", "Питер", "Europe/Moscow")])
def test_a_city_typed_in_the_time_zone_box_is_saved_as_its_zone(page, live_site, username, typed, zone):
    from playwright.sync_api import expect

    live_site.run_scenario("finished_games_only", username, PASSWORD)
    log_in(page, username, PASSWORD, "/accounts/profile/edit/")
    expect(page.locator("main form")).to_contain_text("Type your city")
    page.fill("#id_time_zone", typed)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/profile/$"))
    expect(page.locator("section.profile")).to_contain_text(zone)
    assert page.js_errors == []
