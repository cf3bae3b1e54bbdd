"""A Durak record in a real Chromium tells every step as it happened: a take
the rules forced on the defender is in it, and the attacker's "done" after a
take is not called "бито" (issue 27, 1)."""

import pytest

from tests.browser.conftest import log_in, new_page
from tests.browser.returning_player_scenario import run

pytestmark = pytest.mark.browser
PASSWORD = "kitchen-Table-2024"


def test_the_record_shows_the_forced_take_and_no_beaten_after_a_take_in_russian(browser, live_site):
    from playwright.sync_api import expect

    setup = run(live_site, "durak_forced_take", "fedor", PASSWORD)
    page = new_page(browser, live_site, locale="ru-RU")
    try:
        page.goto(setup["record"])  # a Russian-speaking visitor: the game is over and public
        record = page.locator("table.record")
        expect(record.first).to_be_visible()
        text = page.locator("main").inner_text()
        assert f"{setup['name']} не может отбиться и берёт" in text
        assert "больше не подкидывает" in text
        rows = [row.strip() for row in page.locator("table.record tr").all_inner_texts()]
        for index, row in enumerate(rows):
            if "не может отбиться" in row:
                following = next((r for r in rows[index + 1:] if "бито" in r.lower() or "забирает" in r), "")
                assert "забирает" in following, (row, following)
        expect(page.locator("table.record tr.step").first).to_be_visible()
        assert page.js_errors == []
    finally:
        page.context.close()


def test_the_game_pages_move_log_shows_the_forced_take_in_english(page, live_site):
    setup = run(live_site, "durak_forced_take", "greta", PASSWORD)
    log_in(page, "greta", PASSWORD, setup["url"])
    log = page.locator("details.move-log")
    log.locator("summary").click()
    text = log.inner_text()
    assert f"{setup['name']} cannot beat every card and must take" in text
    assert "throws in no more" in text
    assert page.js_errors == []
