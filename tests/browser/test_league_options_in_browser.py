"""The league form in a real Chromium on a phone: choosing a game shows that
game's options only (the new-table form's fieldsets), Odessa's deal schedule
follows them, nothing scrolls sideways, and the league page shows the options
the organizer chose (and the lobby's new-table form fits as well)."""

import pytest

from tests.browser.conftest import log_in, watch_for_server_errors
from tests.browser.test_leagues_in_browser import PASSWORD
from tests.browser.test_phone_layout import assert_no_sideways_page_scroll

pytestmark = pytest.mark.browser


def test_the_league_form_offers_the_chosen_games_options_on_a_phone(page, live_site):
    from playwright.sync_api import expect

    failed = watch_for_server_errors(page)
    live_site.run_scenario("league_players", PASSWORD, "olga", "boris", "vera")
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, "olga", PASSWORD, "/leagues/new/")
    page.fill("#id_name", "Odessa nights")
    page.select_option("#id_engine", "odessa")
    page.fill("#id_players", "4")
    expect(page.locator('fieldset[data-for-engine="odessa"]')).to_be_visible()
    expect(page.locator('fieldset[data-for-engine="durak"]')).to_be_hidden()
    page.select_option("#id_odessa_deck", "52")
    page.select_option("#id_odessa_trump", "S")
    expect(page.locator(".odessa-schedule .schedule-deals")).not_to_be_empty()
    assert_no_sideways_page_scroll(page)
    page.get_by_role("button", name="Create the league").click()
    page.wait_for_url("**/leagues/odessa-nights/")
    expect(page.locator("li.league-tables")).to_contain_text("52 cards")
    expect(page.locator("li.league-tables")).to_contain_text("trump ♠")
    assert_no_sideways_page_scroll(page)
    page.goto(page.url.split("/leagues/")[0] + "/")  # the new-table form: the same fieldsets, the same fit
    page.locator("form.new-game #id_engine").select_option("odessa")
    expect(page.locator('form.new-game fieldset[data-for-engine="odessa"]')).to_be_visible()
    assert_no_sideways_page_scroll(page)
    assert failed == []
