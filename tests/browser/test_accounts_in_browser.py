"""Issue 40 in Chromium: sign-up confirmed by its link; a staff account
refused the admin until it sets up an authenticator app, then asked for its
code at the next login; a passkey registered through Chromium's virtual
authenticator and used to log in without a password, and as the second
factor after the password (a replayed assertion is refused, and told so);
an account whose second factor is a passkey deleted only once the passkey
confirms; "Download my data" downloaded and read, then the account deleted;
a block in a live chat between two browsers."""

import io
import json
import re
import time
import zipfile

import pytest
from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value
from playwright.sync_api import expect

from tests.browser.conftest import log_in, new_page, sign_up

pytestmark = pytest.mark.browser

PASSWORD = "kitchen-Table-2024"
PASSKEY_REFUSED = "Your passkey's answer was refused"


def scenario(live_site, name: str, *args: str) -> dict:
    return live_site.run_scenario_of("tests.browser.account_scenario", name, *args)


def totp(secret: str, ahead: int = 0) -> str:
    return format_hotp_value(hotp_value(secret, int(time.time()) // 30 + ahead))


def reauthenticate_if_asked(page) -> None:
    if "/accounts/reauthenticate/" in page.url:
        page.fill("#id_password", PASSWORD)
        page.locator("main form button[type=submit]").click()


def test_sign_up_then_the_link_confirms_the_address(browser, live_site):
    page = new_page(browser, live_site)
    try:
        sign_up(page, "nadia", "Nadia", PASSWORD)
        expect(page.locator("#unverified-address")).to_contain_text("Confirm your email address")
        link = scenario(live_site, "confirmation_link", "nadia")["path"]
        page.goto(link)
        expect(page.locator("main")).to_contain_text("nadia@example.com")
        page.locator("main form button[type=submit]").click()
        page.goto("/")
        expect(page.locator("#unverified-address")).to_have_count(0)
        page.goto(link)  # the same link again
        expect(page.locator("main")).to_contain_text("expired or is invalid")
        assert page.js_errors == []
    finally:
        page.context.close()


def submit_password(page, username: str) -> None:
    """The login form filled with `username` and the scenarios' password, and sent."""
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()


def test_the_admin_waits_for_an_authenticator_app_whose_code_the_next_login_asks(browser, live_site):
    scenario(live_site, "player", "boss", PASSWORD, "staff")
    page = new_page(browser, live_site)
    try:
        page.goto("/accounts/login/?next=/admin/")
        submit_password(page, "boss@example.com")  # by address
        page.wait_for_url(re.compile(r"/accounts/2fa/$"))
        expect(page.locator(".messages")).to_contain_text("Set up a second factor")

        page.goto("/accounts/2fa/totp/activate/")
        reauthenticate_if_asked(page)
        page.wait_for_url(re.compile(r"/accounts/2fa/totp/activate/$"))
        secret = page.locator("#authenticator_secret").input_value()
        page.fill("#id_code", totp(secret))
        page.locator("main form button[type=submit]").click()
        page.goto("/admin/")
        expect(page.locator("#site-name")).to_be_visible()

        page.context.clear_cookies()  # another visit, logged out
        page.goto("/accounts/login/?next=/admin/")
        submit_password(page, "boss")
        page.wait_for_url(re.compile(r"/accounts/2fa/authenticate/"))
        page.fill("#id_code", "000000" if totp(secret) != "000000" else "111111")
        page.locator("main form button[type=submit]").click()
        expect(page.locator("main")).to_contain_text("Incorrect code.")
        page.fill("#id_code", totp(secret))
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(re.compile(r"/admin/$"))
        expect(page.locator("#site-name")).to_be_visible()
        assert page.js_errors == []
    finally:
        page.context.close()


def passkey_browser(browser, live_site):
    """A context whose Chromium holds a virtual authenticator (DevTools' WebAuthn domain), and its page.
    WebAuthn wants a domain, not an IP address, as the site's identity: the page opens localhost."""
    origin = live_site.url.replace("127.0.0.1", "localhost")
    context = browser.new_context(base_url=origin, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(f"pageerror: {exc}"))
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return context, page


def register_passkey(page, username: str, passwordless: bool) -> None:
    """Logged in by password, the player adds a passkey on allauth's page (after confirming the password)."""
    page.goto("/accounts/login/?next=/accounts/2fa/")
    submit_password(page, username)
    page.wait_for_url(re.compile(r"/accounts/2fa/$"))
    page.goto("/accounts/2fa/webauthn/add/" + ("?passwordless" if passwordless else ""))
    reauthenticate_if_asked(page)
    page.wait_for_url(re.compile(r"/accounts/2fa/webauthn/add/"))
    page.fill("#id_name", "My laptop")
    if page.locator("#id_passwordless").count():
        page.locator("#id_passwordless").set_checked(passwordless)
    page.locator("#mfa_webauthn_add").click()
    page.wait_for_url(lambda url: "/webauthn/add/" not in url)
    page.context.clear_cookies()  # logged out


def record_posted_credential(page, path: str) -> dict:
    """The `credential` field of the next POST to `path` (a signed WebAuthn assertion), once it is sent."""
    posted: dict = {}
    page.on("request", lambda request: posted.setdefault("form", request.post_data)
            if request.method == "POST" and path in request.url else None)
    return posted


def post_credential_again(page, posted: dict, path: str) -> None:
    """Send a recorded assertion once more, from the page now open (with its own CSRF token)."""
    token = page.locator("input[name=csrfmiddlewaretoken]").first.input_value()
    credential = re.search(r"credential=([^&]+)", posted["form"]).group(1)
    page.evaluate("""([token, credential, path]) => {
        const form = document.createElement("form");
        form.method = "post"; form.action = path;
        for (const [name, value] of [["csrfmiddlewaretoken", token], ["credential", decodeURIComponent(credential.replace(/\\+/g, " "))]]) {
          const input = document.createElement("input"); input.name = name; input.value = value; form.appendChild(input);
        }
        document.body.appendChild(form); form.submit();
    }""", [token, credential, path])


def test_a_passkey_registered_in_chromium_logs_in_without_a_password(browser, live_site):
    scenario(live_site, "player", "pia", PASSWORD)
    context, page = passkey_browser(browser, live_site)
    try:
        register_passkey(page, "pia", passwordless=True)
        page.goto("/accounts/login/")
        posted = record_posted_credential(page, "/2fa/webauthn/login/")
        page.locator("#passkey_login").click()
        page.wait_for_url(re.compile(r"/$"))
        expect(page.locator("header .user-name")).to_have_text("pia")

        # The same signed assertion sent again, from a fresh login page: refused, and told so.
        context.clear_cookies()
        page.goto("/accounts/login/")
        post_credential_again(page, posted, "/accounts/2fa/webauthn/login/")
        page.wait_for_url(re.compile(r"/accounts/login/$"))
        expect(page.locator("header")).not_to_contain_text("pia")
        expect(page.locator(".messages")).to_contain_text(PASSKEY_REFUSED)
        assert page.js_errors == []
    finally:
        context.close()


def test_a_passkey_is_the_second_factor_after_the_password(browser, live_site):
    scenario(live_site, "player", "pavel", PASSWORD)
    context, page = passkey_browser(browser, live_site)
    try:
        register_passkey(page, "pavel", passwordless=False)
        page.goto("/accounts/login/?next=/accounts/profile/")
        submit_password(page, "pavel")
        page.wait_for_url(re.compile(r"/accounts/2fa/authenticate/"))
        expect(page.locator("header")).not_to_contain_text("pavel")  # not in yet: the passkey is asked
        posted = record_posted_credential(page, "/accounts/2fa/authenticate/")
        page.locator("#mfa_webauthn_authenticate").click()
        page.wait_for_url(re.compile(r"/accounts/profile/$"))
        expect(page.locator("header .user-name")).to_have_text("pavel")

        # The assertion of that login sent again after the password of another: refused, and told so.
        context.clear_cookies()
        page.goto("/accounts/login/?next=/accounts/profile/")
        submit_password(page, "pavel")
        page.wait_for_url(re.compile(r"/accounts/2fa/authenticate/"))
        post_credential_again(page, posted, "/accounts/2fa/authenticate/")
        expect(page.locator("main")).to_contain_text(PASSKEY_REFUSED)
        page.goto("/accounts/profile/")  # still not logged in
        expect(page.locator("header .user-name")).to_have_count(0)
        assert "/accounts/profile/" not in page.url.split("?")[0]
        assert page.js_errors == []
    finally:
        context.close()


def test_an_account_whose_second_factor_is_a_passkey_is_deleted_only_once_the_passkey_confirms(browser, live_site):
    scenario(live_site, "player", "polina", PASSWORD)
    context, page = passkey_browser(browser, live_site)
    try:
        register_passkey(page, "polina", passwordless=False)
        page.goto("/accounts/login/?next=/accounts/my-data/")
        submit_password(page, "polina")
        page.locator("#mfa_webauthn_authenticate").click()
        page.wait_for_url(re.compile(r"/accounts/my-data/$"))

        page.fill("#id_password", PASSWORD)  # the password alone
        page.locator("#id_confirm").check()
        page.locator("#delete button[type=submit]").click()
        expect(page.locator("#delete")).to_contain_text("Confirm with your passkey")
        page.locator("#confirm-with-passkey a").click()
        page.wait_for_url(re.compile(r"/accounts/2fa/webauthn/reauthenticate/"))
        page.locator("#mfa_webauthn_reauthenticate").click()
        page.wait_for_url(re.compile(r"/accounts/my-data/(#delete)?$"))
        expect(page.locator("#passkey-confirmed")).to_be_visible()
        page.fill("#id_password", PASSWORD)
        page.locator("#id_confirm").check()
        page.locator("#delete button[type=submit]").click()
        page.wait_for_url(re.compile(r"/$"))
        expect(page.locator(".messages")).to_contain_text("Your account is deleted.")
    finally:
        context.close()


def test_my_data_is_downloaded_and_read_then_the_account_deleted(browser, live_site):
    scenario(live_site, "player", "olga", PASSWORD)
    page = new_page(browser, live_site)
    try:
        log_in(page, "olga", PASSWORD, "/accounts/my-data/")
        page.locator("form[action='/accounts/my-data/export/'] button").click()
        link = page.locator("ul.exports a[download]")
        expect(link).to_have_count(1)  # the task ran (eagerly, in the server)
        with page.expect_download() as download:
            link.click()
        archive = zipfile.ZipFile(io.BytesIO(open(download.value.path(), "rb").read()))
        profile = json.loads(archive.read("profile.json"))
        assert profile["account"]["username"] == "olga" and "api_tokens.json" in archive.namelist()

        page.fill("#id_password", "not my password")
        page.locator("#id_confirm").check()
        page.locator("#delete button[type=submit]").click()
        expect(page.locator("#delete")).to_contain_text("That is not your password.")
        page.fill("#id_password", PASSWORD)
        page.locator("#id_confirm").check()
        page.locator("#delete button[type=submit]").click()
        page.wait_for_url(re.compile(r"/$"))
        expect(page.locator(".messages")).to_contain_text("Your account is deleted.")
        page.goto("/accounts/login/")
        submit_password(page, "olga")
        expect(page.locator("main")).to_contain_text("not correct")
        # The refused deletion's page answers 400, which Chromium logs.
        assert [e for e in page.js_errors if "/accounts/delete/" not in e] == []
    finally:
        page.context.close()


def test_a_block_in_a_live_chat_hides_the_lines_between_two_browsers(browser, live_site):
    scenario(live_site, "player", "kira", PASSWORD)
    scenario(live_site, "player", "lev", PASSWORD)
    table = scenario(live_site, "public_table", "kira", "lev")
    kira, lev = new_page(browser, live_site), new_page(browser, live_site)
    try:
        log_in(kira, "kira", PASSWORD, table["url"])
        log_in(lev, "lev", PASSWORD, table["url"])
        lev.fill("#chat form input[name=text], #chat form textarea", "first line from lev")
        lev.locator("#chat form button[type=submit]").click()
        line = kira.locator("#chat li", has_text="first line from lev")
        expect(line).to_be_visible()
        line.locator("a.block-link").click()
        kira.wait_for_url(re.compile(r"/players/lev/#block$"))
        kira.locator("#block button").click()
        expect(kira.locator(".messages")).to_contain_text("Blocked:")
        kira.goto(table["url"])
        expect(kira.locator("#chat")).not_to_contain_text("first line from lev")

        lev.fill("#chat form input[name=text], #chat form textarea", "second line from lev")
        lev.locator("#chat form button[type=submit]").click()
        expect(lev.locator("#chat")).to_contain_text("second line from lev")
        kira.wait_for_timeout(1000)
        expect(kira.locator("#chat")).not_to_contain_text("second line from lev")
        kira.goto("/blocks/")
        expect(kira.locator("tr.blocked")).to_have_count(1)
        assert kira.js_errors == [] and lev.js_errors == []
    finally:
        kira.context.close()
        lev.context.close()


def test_a_spectator_blocked_by_a_player_does_not_see_that_players_live_chat_lines(browser, live_site):
    for name in ("rita", "sasha", "tima"):
        scenario(live_site, "player", name, PASSWORD)
    table = scenario(live_site, "public_table", "rita", "sasha")
    rita, sasha, tima = (new_page(browser, live_site) for _ in range(3))
    try:
        log_in(rita, "rita", PASSWORD, "/players/tima/")
        rita.locator("#block button").click()
        expect(rita.locator(".messages")).to_contain_text("Blocked:")
        rita.goto(table["url"])
        log_in(sasha, "sasha", PASSWORD, table["url"])
        log_in(tima, "tima", PASSWORD, table["url"])  # watches the public table

        rita.fill("#chat form input[name=text], #chat form textarea", "rita's line")
        rita.locator("#chat form button[type=submit]").click()
        expect(sasha.locator("#chat")).to_contain_text("rita's line")
        sasha.fill("#chat form input[name=text], #chat form textarea", "sasha's line")
        sasha.locator("#chat form button[type=submit]").click()
        expect(tima.locator("#chat")).to_contain_text("sasha's line")  # came after rita's
        expect(tima.locator("#chat")).not_to_contain_text("rita's line")
        tima.reload()
        expect(tima.locator("#chat")).to_contain_text("sasha's line")
        expect(tima.locator("#chat")).not_to_contain_text("rita's line")
        assert rita.js_errors == [] and sasha.js_errors == [] and tima.js_errors == []
    finally:
        for page in (rita, sasha, tima):
            page.context.close()
