"""On a phone, a player reports a rude chat message from the small flag next
to it on the game page, and finds the report in "My reports", waiting for a
moderator; no page on the way scrolls sideways."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, new_page

pytestmark = pytest.mark.browser

PASSWORD = "kitchen-Table-2024"
PHONE = {"width": 390, "height": 844}


def assert_no_sideways_page_scroll(page) -> None:
    widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"{page.url} scrolls sideways: scrollWidth {widths[0]} > clientWidth {widths[1]}"


def test_a_player_reports_a_chat_message_from_the_game_page_on_a_phone(browser, live_site):
    table = live_site.run_scenario("chat_to_report", "vera", PASSWORD, "grumpy")
    page = new_page(browser, live_site, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        log_in(page, "vera", PASSWORD, table["url"])
        line = page.locator(f'#chat li[data-id="{table["message"]}"]')
        expect(line).to_contain_text("You all play like potatoes")
        flag = line.locator("a.report-link")
        expect(flag).to_have_attribute("title", "Report this message")
        assert_no_sideways_page_scroll(page)
        flag.click()
        page.wait_for_url(re.compile(r"/reports/new/\?message="))
        expect(page.locator(".report-subject")).to_contain_text("You all play like potatoes")
        assert_no_sideways_page_scroll(page)
        page.locator("input[name=reason][value=abuse]").check()
        page.fill("textarea[name=text]", "Insults at the table")
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(re.compile(r"/reports/$"))
        expect(page.locator(".messages")).to_contain_text("your report has been sent")
        expect(page.locator("table.my-reports tbody tr")).to_have_count(1)
        expect(page.locator("table.my-reports")).to_contain_text("waiting for a moderator")
        assert_no_sideways_page_scroll(page)
        assert page.js_errors == []
    finally:
        page.context.close()
