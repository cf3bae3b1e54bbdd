"""The table chat in two browsers: a line typed before the page's socket is
open is kept in its box and sent as soon as the socket opens, never dropped."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, new_page
from tests.browser.test_accounts_in_browser import PASSWORD, scenario

pytestmark = pytest.mark.browser


def test_a_line_sent_while_the_socket_is_not_open_goes_when_it_opens(browser, live_site):
    scenario(live_site, "player", "chatnina", PASSWORD)
    scenario(live_site, "player", "chatoleg", PASSWORD)
    table = scenario(live_site, "public_table", "chatnina", "chatoleg")
    nina, oleg = new_page(browser, live_site), new_page(browser, live_site)
    sockets = []

    def first_one_refused(ws) -> None:
        sockets.append(ws)
        if len(sockets) == 1:
            ws.close()  # the page's first socket closes at once; the page retries 3 s later
        else:
            ws.connect_to_server()

    oleg.route_web_socket(re.compile(r"/ws/games/"), first_one_refused)
    try:
        log_in(nina, "chatnina", PASSWORD, table["url"])
        log_in(oleg, "chatoleg", PASSWORD, table["url"])
        expect(oleg.locator("#table")).to_have_class(re.compile(r"\boffline\b"))
        box = oleg.locator("#chat form input[name=text]")
        box.fill("sent while offline")
        oleg.locator("#chat form button[type=submit]").click()
        expect(box).to_have_value("sent while offline")  # kept while there is no socket

        expect(nina.locator("#chat li", has_text="sent while offline")).to_be_visible(timeout=15_000)
        expect(box).to_have_value("")
        expect(oleg.locator("#chat li", has_text="sent while offline")).to_have_count(1)
        assert len(sockets) == 2
        assert nina.js_errors == [] and oleg.js_errors == []
    finally:
        nina.context.close()
        oleg.context.close()
