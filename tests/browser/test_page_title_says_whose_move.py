"""The game page's title (the browser tab) says when the game waits for the
player: "(2) Your move — Joker #5", 2 being his games waiting for his move as
the header's badge counts them; otherwise just the game's name."""

import pytest

from tests.browser.conftest import log_in as browser_log_in


pytestmark = pytest.mark.browser

PASSWORD = "a long enough password 7"
SITE = " · Kitchen table"


def log_in(page, username: str, url: str) -> None:
    browser_log_in(page, username, PASSWORD, url)
    page.locator("#table .seat").first.wait_for()


def wait_for_title(page, title: str) -> None:
    try:
        page.wait_for_function("(t) => document.title === t", arg=title, timeout=15_000)
    except Exception as exc:
        raise AssertionError(f"title {page.title()!r}, expected {title!r}") from exc


def test_the_title_counts_the_games_waiting_for_my_move(page, live_site):
    setup = live_site.run_scenario("two_joker_tables", "salome", PASSWORD)
    first = setup["first"]
    assert first["my_turn"] and setup["second"]["my_turn"], "the computers moved until each game waits for me"

    log_in(page, "salome", first["url"])

    wait_for_title(page, f"(2) Your move — Joker #{first['game']}{SITE}")
    assert page.locator("#games-waiting").get_attribute("data-waiting") == "2"
    assert page.js_errors == []


def test_the_title_of_a_game_not_waiting_for_me_is_just_its_name(page, live_site):
    setup = live_site.run_scenario("finished_games_only", "nika", PASSWORD)
    log_in(page, "nika", f"/games/{setup['game']}/")
    page.locator("#games-waiting").wait_for(state="attached")
    page.wait_for_function("() => document.getElementById('games-waiting').dataset.waiting !== undefined")
    assert page.title() == f"Joker #{setup['game']}{SITE}"
    assert page.js_errors == []
