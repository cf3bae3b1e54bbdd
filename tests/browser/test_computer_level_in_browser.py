"""A table with a level-3 computer, in a real Chromium (issue 43): the new-table form sets the
computer seat's level, the table names the computer with its level, and the computer moves."""

import re

import pytest

from tests.browser.conftest import sign_up
from tests.browser.test_durak_in_browser import play_one, table_version

pytestmark = pytest.mark.browser

PASSWORD = "kitchen-Table-2024"


def test_a_level_3_computer_is_named_with_its_level_and_moves(page):
    from playwright.sync_api import expect

    sign_up(page, "levels", "Lev", PASSWORD)
    form = page.locator("form.new-game")
    form.locator("#id_engine").select_option("durak")
    form.locator("#id_players").fill("2")
    form.locator("#id_fill_with_bots").check()
    expect(form.locator("fieldset.computer-levels")).to_contain_text("Level 3 searches the same way")
    form.locator("#id_computer_level_2").select_option("3")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))

    table = page.locator("#table")
    expect(table).to_have_attribute("data-version", re.compile(r"^\d+$"))
    expect(table.locator(".seats")).to_contain_text("Computer 2 (level 3)")
    if table_version(page) == 0:  # this player attacks first: the computer answers the attack
        play_one(page)
    page.reload()
    log = page.locator("details.move-log")
    log.locator("summary").click()
    expect(log.locator("li").filter(has_text="Computer 2 (level 3)")).not_to_have_count(0)
    assert page.js_errors == [], page.js_errors
