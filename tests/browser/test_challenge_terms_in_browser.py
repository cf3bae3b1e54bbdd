"""A challenge shows every term of its table to the challenged player before
he accepts (issue 39, item 1): in the live notice that reaches his open
page and on the challenges page, in his language."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_correspondence_in_browser import PASSWORD, player_page, scenario

pytestmark = pytest.mark.browser

TERMS_RU = ("переводной, 2 игрока, 3 д на ход + 7 д запаса, когда время выходит: автоматический ход, "
            "ночные паузы действуют, открытый стол, без рейтинга")


def test_the_challenged_player_reads_the_variant_and_time_control_before_accepting(browser, live_site):
    scenario(live_site, "players", PASSWORD, "olga", "boris")
    scenario(live_site, "russian", "olga", "boris")
    olga = player_page(browser, live_site, "olga", "/challenges/new/?to=boris")
    boris = player_page(browser, live_site, "boris", "/")
    try:
        form = olga.locator("form.new-challenge")
        form.locator("#id_engine").select_option("durak")
        form.locator("#id_players").fill("2")
        form.locator("#id_durak_mode").select_option("perevodnoy")
        form.locator("#id_time_preset").select_option("slow")
        form.locator("button[type=submit]").click()
        olga.wait_for_url(re.compile(r"/challenges/$"))
        expect(olga.locator("#sent .challenge-terms")).to_have_text(f"({TERMS_RU})")
        # Her own button says what it does to a challenge (item 3: not the league's "Выйти из сезона").
        expect(olga.locator("#sent .withdraw button")).to_have_text("Отозвать")

        notice = boris.locator("#live-notices")
        expect(notice).to_contain_text(f"Дурак ({TERMS_RU}).", timeout=20_000)
        boris.goto("/challenges/")
        expect(boris.locator("#incoming .challenge-terms")).to_have_text(f"({TERMS_RU})")
        assert olga.js_errors == [] and boris.js_errors == []
    finally:
        olga.context.close()
        boris.context.close()
