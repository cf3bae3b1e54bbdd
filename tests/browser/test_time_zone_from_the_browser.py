"""A newcomer's time zone is the one his browser is in: the sign-up form and
the profile form of an account still on the default zone preselect it in
their searchable list of current zones."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import new_page

pytestmark = pytest.mark.browser

PASSWORD = "a long enough password 7"


@pytest.fixture
def tbilisi_page(browser, live_site):
    page = new_page(browser, live_site, timezone_id="Asia/Tbilisi")
    try:
        yield page
    finally:
        page.context.close()


def test_sign_up_preselects_the_browsers_zone_and_keeps_it(tbilisi_page):
    page = tbilisi_page
    page.goto("/accounts/signup/")
    zone = page.locator("#id_time_zone")
    expect(zone).to_have_value("Asia/Tbilisi")
    assert zone.get_attribute("list") == "id_time_zone-zones"
    assert page.locator("datalist#id_time_zone-zones option[value='Asia/Tbilisi']").count() == 1
    assert page.locator("datalist#id_time_zone-zones option[value='US/Eastern']").count() == 0

    page.fill("#id_username", "ketevan")
    page.fill("#id_email", "ketevan@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))
    page.goto("/accounts/profile/")
    expect(page.locator("section.profile")).to_contain_text("Asia/Tbilisi")
    assert page.js_errors == []


def test_the_profile_form_of_an_account_on_the_default_zone_preselects_the_browsers_zone(tbilisi_page, live_site):
    page = tbilisi_page
    live_site.run_scenario("finished_games_only", "giorgi", PASSWORD)  # an account on the default zone
    page.goto("/accounts/login/?next=/accounts/profile/edit/")
    page.fill("#id_username", "giorgi")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/profile/edit/$"))
    expect(page.locator("#id_time_zone")).to_have_value("Asia/Tbilisi")
    assert page.js_errors == []


def test_a_zone_the_player_chose_is_never_replaced_by_the_browsers(tbilisi_page, live_site):
    page = tbilisi_page
    live_site.run_scenario("finished_games_only", "eka", PASSWORD)
    page.goto("/accounts/login/?next=/accounts/profile/edit/")
    page.fill("#id_username", "eka")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/profile/edit/$"))
    page.fill("#id_time_zone", "Europe/Berlin")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/profile/$"))
    page.goto("/accounts/profile/edit/")
    expect(page.locator("#id_time_zone")).to_have_value("Europe/Berlin")
    assert page.js_errors == []
