"""The lists of games in a real Chromium name who plays: "My games" in the
lobby, the finished games on the player page, and the moderators' list of
games in play (issue 27, 8)."""

import pytest

from tests.browser.conftest import log_in, log_in_to_the_admin

pytestmark = pytest.mark.browser
PASSWORD = "kitchen-Table-2024"
COMPUTERS = "Computer 2 (level 1), Computer 3 (level 1), Computer 4 (level 1)"


def test_my_games_in_the_lobby_name_the_opponents(page, live_site):
    from playwright.sync_api import expect

    live_site.run_scenario("two_joker_tables", "sasha", PASSWORD)
    log_in(page, "sasha", PASSWORD, "/")
    # The lobby's live My games list (issue 25) names the other players of each game.
    others = page.locator("table.my-games td.players")
    expect(others).to_have_count(2)
    expect(others.first).to_have_text(COMPUTERS)
    expect(page.locator("table.my-games thead")).to_contain_text("Players")
    assert page.js_errors == []


def test_the_player_pages_finished_games_name_the_opponents(page, live_site):
    from playwright.sync_api import expect

    live_site.run_scenario("finished_games_only", "tanya", PASSWORD)
    log_in(page, "tanya", PASSWORD, "/players/tanya/")
    expect(page.locator("table.finished-games td.opponents")).to_have_text([COMPUTERS])
    assert page.js_errors == []


def test_the_moderators_list_of_games_names_their_players(page, live_site):
    from playwright.sync_api import expect

    setup = live_site.run_scenario("abort_table", "ulya", PASSWORD, "moderator1", PASSWORD)
    log_in_to_the_admin(page, "moderator1", PASSWORD, "/moderation/")  # staff: with the authenticator's code
    item = page.locator("ul.moderation-games li", has_text=f"#{setup['game']}")
    expect(item.locator(".players")).to_have_text("ulya, " + COMPUTERS)
    assert page.js_errors == []


def test_the_player_pages_games_in_play_name_the_opponents(page, live_site):
    """Issue 39, item 9: "Playing now" on the player page names who he plays."""
    from playwright.sync_api import expect

    live_site.run_scenario("two_joker_tables", "yana", PASSWORD)
    log_in(page, "yana", PASSWORD, "/players/yana/")
    expect(page.locator("table.current-games td.opponents")).to_have_text([COMPUTERS, COMPUTERS])
    expect(page.locator("table.current-games thead")).to_contain_text("Opponents")
    assert page.js_errors == []


def test_the_lobbys_games_in_play_name_their_players(page, live_site):
    """Issue 39, item 9: the lobby's "Games in play" names the players of each public game."""
    from playwright.sync_api import expect

    live_site.run_scenario("two_joker_tables", "zlata", PASSWORD)
    log_in(page, "zlata", PASSWORD, "/")
    games = page.locator("section", has=page.get_by_role("heading", name="Games in play")).locator("li")
    seated = games.filter(has_text="zlata").first.locator(".seated .player")
    expect(seated).to_have_count(4)
    expect(seated.first).to_contain_text("zlata")
    expect(seated.nth(1)).to_have_text("Computer 2 (level 1)")
    assert page.js_errors == []
