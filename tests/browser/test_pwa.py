"""The installable app in Chromium: the manifest linked from every page and
valid (its icons fetched at their sizes), the service worker registered and
controlling the page, offline navigation showing the offline page with the
games last seen, a push delivered to the real worker through the DevTools
protocol showing a notification, the install offer made once, and the
profile's section on a phone.

Headless Chromium (--headless=new) needs no extra feature flag for any of
this: service workers run on http://127.0.0.1 (a secure context), the
notifications permission is granted to the context, and
ServiceWorker.deliverPushMessage dispatches a `push` event to the worker
without any push subscription or push service.
"""

import base64
import json
import os
import re
import struct

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, new_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

USERNAME = "vera"
PASSWORD = "kitchen-Table-2024"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module", autouse=True)
def vapid_keys():
    """The live site gets its VAPID keys from the environment, as in production."""
    from notifications.management.commands.vapid_keys import new_key_pair

    public, private = new_key_pair()
    saved = {name: os.environ.get(name) for name in ("VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "PUSH_SERVICE_HOSTS")}
    os.environ.update(VAPID_PUBLIC_KEY=public, VAPID_PRIVATE_KEY=private, PUSH_SERVICE_HOSTS="push.example.net")
    yield public
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="module")
def games(live_site) -> dict:
    return live_site.run_scenario("two_joker_tables", USERNAME, PASSWORD)


def pwa_scenario(live_site, name: str, *args: str) -> dict:
    return live_site.run_scenario_of("tests.browser.pwa_scenario", name, *args)


@pytest.fixture(scope="module")
def player_page(browser, live_site, games):
    """One logged-in player's page for the module, the worker in control of it."""
    page = new_page(browser, live_site)
    page.context.grant_permissions(["notifications"], origin=live_site.url)
    log_in(page, USERNAME, PASSWORD, "/my-games/")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    yield page
    page.context.close()


def png_size(body: bytes) -> str:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    return "%dx%d" % struct.unpack(">II", body[16:24])


def test_every_page_links_a_valid_manifest_whose_icons_have_their_sizes(player_page, games):
    page = player_page
    for url in ("/", games["first"]["url"], "/accounts/profile/"):
        page.goto(url)
        assert page.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
        assert page.locator('meta[name="theme-color"]').get_attribute("content") == "#1f5c3a"
    response = page.request.get("/manifest.webmanifest")
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = response.json()
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/my-games/", "/", "standalone")
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"] and manifest["background_color"]
    for icon in manifest["icons"]:
        got = page.request.get(icon["src"])
        assert got.ok and got.headers["content-type"] == "image/png"
        assert png_size(got.body()) == icon["sizes"]
    assert {icon["purpose"] for icon in manifest["icons"]} == {"any", "maskable"}
    assert page.js_errors == []


def test_the_worker_registers_and_controls_the_page(player_page):
    page = player_page
    page.goto("/my-games/")
    scope = page.evaluate("() => navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == page.url.split("/my-games/")[0] + "/"
    assert page.evaluate("() => navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL"
                         ).endswith("/sw.js")


def test_offline_a_page_shows_the_offline_page_with_the_games_last_seen(player_page, games):
    page = player_page
    page.goto("/my-games/")  # the worker keeps this list
    expect(page.locator("tr.game-row")).to_have_count(2)
    page.context.set_offline(True)
    try:
        page.goto("/accounts/profile/")
        expect(page.locator("h1")).to_have_text("You are offline")
        games_seen = page.locator("#last-games li.game")
        expect(games_seen).to_have_count(2)
        ids = sorted(games_seen.evaluate_all("(items) => items.map((li) => Number(li.dataset.game))"))
        assert ids == sorted([games["first"]["game"], games["second"]["game"]])
        expect(games_seen.first).to_contain_text("Joker")
        expect(page.locator("#last-games .seen-at")).to_contain_text("As you last saw them")
        with page.expect_navigation():  # back online, the page loads by itself
            page.context.set_offline(False)
    finally:
        page.context.set_offline(False)
    expect(page.locator("#app-and-push")).to_be_attached()
    assert page.url.endswith("/accounts/profile/")


def test_a_push_to_the_worker_shows_a_notification_that_names_the_game(player_page, live_site, games):
    page = player_page
    page.goto("/my-games/")
    cdp = page.context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    page.wait_for_timeout(200)
    ours = [r for r in registrations if r["scopeURL"] == live_site.url + "/" and not r["isDeleted"]]
    assert ours, registrations
    url = live_site.url + games["first"]["url"]
    message = {"title": "Your move", "body": "Joker with three computer players", "url": url,
               "tag": f"your_move:game={games['first']['game']}"}

    cdp.send("ServiceWorker.deliverPushMessage", {"origin": live_site.url, "registrationId": ours[0]["registrationId"],
                                                  "data": json.dumps(message)})

    # wait_for_function takes a returned Promise as a truthy answer at once, so each poll asks the worker
    # again and answers with what the previous ask found: null until a notification is shown.
    shown = page.wait_for_function("""() => {
        navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((list) => {
            window.shownNotifications = list.length
                ? list.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url})) : null;
        });
        return window.shownNotifications || null;
    }""")
    assert shown.json_value() == [{"title": "Your move", "body": message["body"], "tag": message["tag"], "url": url}]
    cdp.detach()


def test_the_install_offer_is_made_once(player_page):
    page = player_page
    offer = page.locator("[data-install-app]")
    fire = """() => { const e = new Event("beforeinstallprompt", {cancelable: true});
        e.prompt = () => {}; e.userChoice = Promise.resolve({outcome: "dismissed"});
        window.dispatchEvent(e); return e.defaultPrevented; }"""
    page.goto("/accounts/profile/")
    page.evaluate("() => localStorage.removeItem('install-app-offered')")
    expect(offer).to_be_hidden()

    assert page.evaluate(fire) is True  # the browser's own mini-bar is held back: our button offers it
    expect(offer).to_be_visible()
    offer.locator("[data-install]").click()
    expect(offer).to_be_hidden()

    page.reload()
    assert page.evaluate(fire) is False  # answered once: the browser is left alone
    expect(offer).to_be_hidden()


# Headless Chromium has no push service to subscribe to (pushManager.subscribe
# needs Google's), so the page's PushManager is stood in for: it returns a
# subscription of a browser made here, with the keys of tests/notifications/push_service.py.
FAKE_PUSH_MANAGER = """(subscription) => {
  const make = () => ({ endpoint: subscription.endpoint, toJSON: () => subscription,
    unsubscribe: () => { localStorage.removeItem("fake-push"); return Promise.resolve(true); } });
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(localStorage.getItem("fake-push") ? make() : null);
  };
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    localStorage.setItem("fake-push", btoa(String.fromCharCode(...key)));
    return Promise.resolve(make());
  };
}"""


def test_turning_push_on_subscribes_with_the_sites_key_and_lists_this_device(browser, live_site, games, vapid_keys):
    from tests.notifications.push_service import Browser, unb64url

    subscription = Browser(endpoint="https://push.example.net/send/this-browser",
                           application_server_key=vapid_keys).to_json()
    page = new_page(browser, live_site)
    page.context.grant_permissions(["notifications"], origin=live_site.url)
    page.context.add_init_script(f"({FAKE_PUSH_MANAGER})({json.dumps(subscription)})")
    try:
        log_in(page, USERNAME, PASSWORD, "/accounts/profile/")
        section = page.locator("#app-and-push")
        with page.expect_navigation():
            section.locator("[data-push-on]").click()
        this = section.locator("li.device.this")
        expect(this).to_have_count(1)
        expect(this.locator(".this-device")).to_be_visible()
        expect(this.locator(".device-label")).to_contain_text(" on Linux, ")
        expect(section.locator("[data-push-status]")).to_have_text("Notifications are on for this device.")
        expect(section.locator("[data-push-on]")).to_be_hidden()
        used_key = page.evaluate("() => localStorage.getItem('fake-push')")
        assert base64.b64decode(used_key) == unb64url(vapid_keys)

        this.locator("button").click()  # remove: the browser unsubscribes too
        expect(page.locator(".messages")).to_contain_text("That device will get no more notifications.")
        expect(section.locator("li.device.this")).to_have_count(0)
        assert page.evaluate("() => localStorage.getItem('fake-push')") is None
        expect(section.locator("[data-push-on]")).to_be_visible()
        assert page.js_errors == []
    finally:
        page.context.close()


def test_the_profile_offers_push_on_this_device_and_lists_the_devices_on_a_phone(browser, live_site, games):
    pwa_scenario(live_site, "push_devices", USERNAME, "Chrome on Android, 27 Nov 2026",
                 "Firefox on Windows with a rather long name for a phone screen, 28 Nov 2026")
    page = new_page(browser, live_site, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        log_in(page, USERNAME, PASSWORD, "/accounts/profile/")
        section = page.locator("#app-and-push")
        section.scroll_into_view_if_needed()
        expect(section.locator("[data-push-on]")).to_be_visible()
        expect(section.locator("[data-push-on]")).to_have_text("Turn on notifications on this device")
        devices = section.locator("li.device")
        expect(devices).to_have_count(2)
        expect(devices.first.locator(".device-label")).to_have_text("Chrome on Android, 27 Nov 2026")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        for row in devices.all():
            box, button = row.bounding_box(), row.locator("button").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1
            assert button["x"] + button["width"] <= PHONE["width"] + 1 and button["height"] >= 24
        devices.first.locator("button").click()
        expect(page.locator(".messages")).to_contain_text("That device will get no more notifications.")
        expect(page.locator("#app-and-push li.device")).to_have_count(1)
        assert page.js_errors == []
    finally:
        page.context.close()
