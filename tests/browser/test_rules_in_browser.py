"""Help for a new player, in a real Chromium: the joker's choice says what
each way of playing it does, Ipuker's table and sheet say what "fields" and
"taken" are, and the first game of a kind offers its rules until dismissed."""

import pytest

from playwright.sync_api import expect

from tests.browser.conftest import log_in as browser_log_in

pytestmark = pytest.mark.browser

PASSWORD = "a-long-browser-password-7"


def log_in(page, username: str, url: str) -> None:
    browser_log_in(page, username, PASSWORD, url)


def test_choosing_how_to_play_the_joker_explains_each_way(live_site, page):
    setup = live_site.run_scenario("joker_in_hand", "nino", PASSWORD)
    log_in(page, "nino", setup["url"])
    table = page.locator("#table")
    expect(table).to_have_attribute("data-version", str(setup["version"]))

    table.locator(f'button[data-card="{setup["joker"]}"]').click()
    choices = table.locator(".joker-choices")
    expect(choices.locator("button[data-joker]").first).to_be_visible()
    hints = choices.locator(".joker-hints li")
    expect(hints).to_have_count(2)  # high and low
    expect(hints.first).to_be_visible()
    if setup["leading"]:
        expect(hints.nth(0)).to_contain_text("demands it: each player must play his highest card")
        expect(hints.nth(1)).to_contain_text("the lowest card of the suit you name")
    else:
        expect(hints.nth(0)).to_contain_text("beats every card played so far")
        expect(hints.nth(1)).to_contain_text("cannot take the trick")
    assert not page.js_errors, page.js_errors


def test_ipuker_explains_fields_and_taken_and_offers_the_rules_until_dismissed(live_site, page):
    setup = live_site.run_scenario("ipuker_table", "ilia", PASSWORD)
    log_in(page, "ilia", setup["url"])

    legend = page.locator("#table .ipuker-legend")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("Fields: the places the leader lays out")
    expect(legend).to_contain_text("Taken: the tokens a player took from the bank")
    sheet_legend = page.locator("#sheet table.ipuker-sheet caption")
    expect(sheet_legend).to_be_visible()
    expect(sheet_legend).to_contain_text("Fields: the places the leader lays out for the passed cards")

    expect(page.locator(".rules-link")).to_have_attribute("href", "/rules/ipuker/")
    notice = page.locator(".rules-offer")
    expect(notice).to_be_visible()
    expect(notice.locator("a")).to_have_attribute("href", "/rules/ipuker/")
    notice.locator("[data-dismiss]").click()
    expect(notice).to_be_hidden()
    page.reload()
    expect(page.locator("#table .ipuker-legend")).to_be_visible()
    expect(page.locator(".rules-offer")).to_be_hidden()  # dismissed stays dismissed

    page.goto("/rules/ipuker/")
    expect(page.locator("h1")).to_have_text("Rules of Ipuker")
    expect(page.locator("#options")).to_contain_text("kids: nobody wins")
    assert not page.js_errors, page.js_errors
