"""A player whose seat a moderator gives away, in a real Chromium: his open
page says so at once with the moderator's reason and becomes a spectator's
(no chat box, no "Resign"), without a reload (issue 27, 4)."""


import pytest

from tests.browser.conftest import log_in_to_the_admin, log_in, new_page

pytestmark = pytest.mark.browser
PASSWORD = "kitchen-Table-2024"


def substitute_in_the_admin(browser, live_site, game: int, reason: str) -> None:
    from playwright.sync_api import expect

    moderator = new_page(browser, live_site)
    try:
        url = f"/admin/gameplay/game/{game}/substitute/"
        log_in_to_the_admin(moderator, "moder", PASSWORD, url)
        moderator.select_option("#id_position", "0")
        moderator.check("#id_computer")
        moderator.fill("#id_reason", reason)
        moderator.locator("input[type=submit]").click()
        expect(moderator.locator(".messagelist")).to_be_visible()
    finally:
        moderator.context.close()


def test_the_open_page_of_a_replaced_player_names_the_reason_and_turns_into_a_spectators(page, browser, live_site):
    from playwright.sync_api import expect

    setup = live_site.run_scenario("abort_table", "rita", PASSWORD, "moder", PASSWORD)
    log_in(page, "rita", PASSWORD, setup["url"])
    expect(page.locator("form.chat-form")).to_be_visible()
    expect(page.locator("form.resign")).to_be_visible()
    page.wait_for_function("() => !document.getElementById('table').classList.contains('offline')")
    page.evaluate("() => { window.notReloaded = true; }")

    substitute_in_the_admin(browser, live_site, setup["game"], "Away for two weeks")

    banner = page.locator("#seat-replaced")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("A moderator gave your seat in this game to a computer player. Reason: Away for two weeks")
    expect(banner).to_contain_text("spectator")
    expect(page.locator("form.chat-form")).to_have_count(0)
    expect(page.locator("form.resign")).to_have_count(0)
    assert page.evaluate("() => window.notReloaded === true")
    # Reconnected as a spectator: the table holds no hand of his.
    expect(page.locator("#table .hand button.card-button")).to_have_count(0)

    page.reload()  # and when he comes back
    expect(page.locator("#seat-replaced")).to_contain_text("Reason: Away for two weeks")
    expect(page.locator("form.chat-form")).to_have_count(0)
    assert page.js_errors == []
