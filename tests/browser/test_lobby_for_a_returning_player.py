"""The lobby's "My games" as a player sees it: a newcomer has no games yet;
a player whose games are all over is told none is in play and finds his
finished games through the link."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import sign_up

pytestmark = pytest.mark.browser

PASSWORD = "a long enough password 7"


def test_a_newcomer_is_told_he_has_no_games_yet(page):
    sign_up(page, "mariam", "Mariam", PASSWORD)
    expect(page.locator("#my-games")).to_contain_text("You have no games yet")


def test_a_player_whose_games_are_over_is_led_to_them(page, live_site):
    setup = live_site.run_scenario("finished_games_only", "dato", PASSWORD)
    page.goto("/accounts/login/")
    page.fill("#id_username", "dato")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))

    my_games = page.locator("#my-games")
    expect(my_games).to_contain_text("No games in play")
    expect(my_games).not_to_contain_text("You have no games yet")
    my_games.get_by_role("link", name="Your finished games").click()
    page.wait_for_url(re.compile(r"/accounts/profile/#finished-games$"))
    expect(page.locator("#finished-games table.finished-games")).to_contain_text(f"#{setup['game']}")
    assert page.js_errors == []
