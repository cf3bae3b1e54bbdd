"""Turning push notifications on never hangs and never fails silently
(issue 39, item 7): a push service that does not answer is given up after
10 seconds with a clear message; a refused or dismissed permission is said
so; each time the button comes back as "Try again"."""

import time

import pytest
from playwright.sync_api import expect

from tests.browser.test_correspondence_in_browser import PASSWORD, player_page, scenario
from tests.browser.test_pwa import vapid_keys  # noqa: F401 (the live site's VAPID keys: push is configured)

pytestmark = pytest.mark.browser

# Headless Chromium has no push service: the page's PushManager is stood in for by one that never answers.
SILENT_PUSH_SERVICE = """() => {
  PushManager.prototype.getSubscription = () => Promise.resolve(null);
  PushManager.prototype.subscribe = () => new Promise(() => {});
}"""


def permission_answer(answer: str) -> str:
    return f"() => {{ Notification.requestPermission = () => Promise.resolve({answer!r}); }}"


@pytest.fixture(scope="module")
def player(live_site) -> str:
    scenario(live_site, "players", PASSWORD, "zoya")
    return "zoya"


def profile(browser, live_site, player, *scripts):
    page = player_page(browser, live_site, player, "/")
    for script in scripts:
        page.context.add_init_script(f"({script})()")
    page.goto("/accounts/profile/")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    return page


def test_a_push_service_out_of_reach_is_given_up_after_ten_seconds_with_a_way_to_retry(browser, live_site, player):
    page = profile(browser, live_site, player, SILENT_PUSH_SERVICE, permission_answer("granted"))
    try:
        section = page.locator("#app-and-push")
        button = section.locator("[data-push-on]")
        started = time.monotonic()
        button.click()
        expect(section.locator("[data-push-status]")).to_have_text("Turning notifications on…")
        expect(section.locator("[data-push-status]")).to_have_text(
            "The browser’s push service did not answer within 10 seconds: check the connection, then try again.",
            timeout=15_000)
        assert 9 <= time.monotonic() - started <= 14
        expect(button).to_be_enabled()
        expect(button).to_have_text("Try again")
        assert page.js_errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("answer, message", [
    ("denied", "Notifications are blocked for this site in this browser: allow them in its settings, then try again."),
    ("default", "Notifications were not allowed: press the button to be asked again."),
])
def test_a_refused_or_dismissed_permission_is_said_and_the_button_offers_to_try_again(browser, live_site, player,
                                                                                      answer, message):
    page = profile(browser, live_site, player, SILENT_PUSH_SERVICE, permission_answer(answer))
    try:
        section = page.locator("#app-and-push")
        section.locator("[data-push-on]").click()
        expect(section.locator("[data-push-status]")).to_have_text(message)
        expect(section.locator("[data-push-on]")).to_have_text("Try again")
        expect(section.locator("[data-push-on]")).to_be_enabled()
        assert page.js_errors == []
    finally:
        page.context.close()
