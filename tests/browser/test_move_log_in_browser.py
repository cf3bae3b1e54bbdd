"""The game page's move log in a real Chromium: moves in words with the
players' names, in the reader's language, and secret stakes kept secret
until every stake is in."""

import re

import pytest

from tests.browser.conftest import new_page, wait_for_version_above

pytestmark = pytest.mark.browser
PASSWORD = "kitchen-Table-2024"


def log_lines(page) -> list[str]:
    log = page.locator("details.move-log")
    log.locator("summary").click()
    return [line.strip() for line in log.locator("li").all_inner_texts()]


def test_the_move_log_keeps_stakes_secret_until_the_reveal_and_reads_in_each_visitors_language(page, browser,
                                                                                               live_site):
    from playwright.sync_api import expect

    setup = live_site.run_scenario("secret_stakes", "olga", PASSWORD)
    stakers = sorted(int(seat) for seat in setup["stakes"])

    page.goto("/accounts/login/?next=" + setup["url"])
    page.fill("#id_username", "olga")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(re.escape(setup["url"]) + "$"))
    lines = log_lines(page)
    assert lines == [f"Computer {seat + 1} (level 1) stakes in secret" for seat in stakers], lines
    expect(page.locator("details.move-log")).not_to_contain_text("{")

    russian = new_page(browser, live_site, locale="ru-RU")
    try:
        russian.goto(setup["url"])
        assert log_lines(russian) == [f"Компьютер {seat + 1} (уровень 1) делает ставку втайне" for seat in stakers]
    finally:
        russian.context.close()

    # Olga stakes: every stake is in, the stakes are revealed, and the log shows them all.
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#table button[data-stake='20']").click()
    wait_for_version_above(page, setup["version"])
    page.reload()
    lines = log_lines(page)
    expected = [f"Computer {seat + 1} (level 1) stakes {setup['stakes'][str(seat)]} tokens" for seat in stakers]
    assert lines[:3] == expected + ["olga stakes 20 tokens"], lines
    assert page.js_errors == []
