"""Ipuker's hints about secrecy in a real Chromium say exactly who sees what,
and when: a stake is seen by nobody until every stake is in, a count of cards
is seen by the leader at once and by the others when the round ends (issue 27, 3)."""

import pytest

from tests.browser.conftest import log_in, wait_for_version_above

pytestmark = pytest.mark.browser
PASSWORD = "kitchen-Table-2024"


def test_the_stake_and_the_card_count_hints_name_who_sees_them_and_when(page, live_site):
    from playwright.sync_api import expect

    setup = live_site.run_scenario("secret_stakes", "irina", PASSWORD)
    log_in(page, "irina", PASSWORD, setup["url"])
    prompt = page.locator("#table .controls")
    expect(prompt).to_contain_text("nobody sees it until every stake is in")
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#table button[data-stake='20']").click()
    wait_for_version_above(page, setup["version"])
    counts = page.locator("#table button[data-count]")
    expect(counts.first).to_be_visible()  # the stakes sum to 27 or more: the round goes on to the cards
    expect(prompt).to_contain_text("the leader, sees your count as soon as you choose")
    expect(prompt).to_contain_text("the other players see it when the round ends")
    version = int(page.locator("#table").get_attribute("data-version"))
    counts.first.click()
    wait_for_version_above(page, version)
    controls_text = prompt.inner_text()
    if page.locator("#table button[data-count]").count() == 0 and "Waiting" in controls_text:
        assert "already sees your count" in controls_text, controls_text
    assert "Nobody sees your choice until everyone has chosen" not in page.locator("#table").inner_text()
    assert page.js_errors == []
