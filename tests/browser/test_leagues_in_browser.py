"""A league as its players see it in a real Chromium: the organizer creates a
two-player Durak league (everyone meets everyone) through the form, a third
player registers with the button, the organizer starts the season with the
button, and once a league game is over (its loser resigns on the game's
page, in another browser) the division's open page shows the new standings
without a reload, over its WebSocket (points, played and left, the
why-line, the cross-table); the schedule shows one round at a time; the
player's games in play are marked with the league in the lobby."""

import re

import pytest

from tests.browser.conftest import log_in, new_page, watch_for_server_errors

pytestmark = pytest.mark.browser

PASSWORD = "kitchen-Table-2024"
SLUG = "kitchen-durak"


def standings(page) -> dict[str, dict[str, str]]:
    """The standings table's rows by player: rank, played, left, points."""
    rows = page.locator("table.standings tbody tr[data-entry]").evaluate_all(
        "(rows) => rows.map((row) => Array.from(row.cells, (cell) => cell.innerText.trim()))")
    return {cells[1]: {"rank": cells[0], "played": cells[2], "left": cells[3], "points": cells[4]}
            for cells in rows}


def cross_table(page) -> dict[str, list[str]]:
    """The cross-table's rows by player ("1. Olga" → "Olga"): its cells in column order."""
    rows = page.locator("table.cross-table tbody tr").evaluate_all(
        "(rows) => rows.map((row) => [row.querySelector('th').innerText.trim(),"
        " Array.from(row.querySelectorAll('td'), (cell) => cell.innerText.trim())])")
    return {re.sub(r"^\d+\.\s*", "", name): cells for name, cells in rows}


def test_a_league_is_created_filled_started_and_its_standings_follow_a_finished_game(page, live_site, browser):
    from playwright.sync_api import expect

    failed = watch_for_server_errors(page)
    live_site.run_scenario("league_players", PASSWORD, "olga", "boris", "vera")

    log_in(page, "olga", PASSWORD, "/leagues/new/")
    page.fill("#id_name", "Kitchen Durak")
    page.select_option("#id_engine", "durak")
    page.fill("#id_players", "2")
    expect(page.locator("#id_games_per_player")).to_have_value("")  # everyone meets everyone
    page.get_by_role("button", name="Create the league").click()
    page.wait_for_url(re.compile(f"/leagues/{SLUG}/$"))
    expect(page.locator("main")).to_contain_text("Everyone meets everyone in a division.")

    live_site.run_scenario("league_entries", SLUG, "boris", "vera")
    page.reload()
    season = page.locator("section.current-season")
    expect(season).to_contain_text("2 players registered")
    season.get_by_role("button", name="Register for this season").click()
    expect(page.locator("ul.messages")).to_contain_text("You are registered for season 1.")
    expect(season).to_contain_text("3 players registered")
    expect(season.get_by_role("button", name="Take back my registration")).to_be_visible()

    season.get_by_role("button", name="Start the season").click()
    expect(page.locator("ul.messages")).to_contain_text("The season has started: its schedule is being drawn up")
    expect(page.locator("section.current-season h2")).to_contain_text("in play")
    page.locator("section.current-season").get_by_role("link", name="the season's page").click()
    page.get_by_role("link", name="Division 1").click()
    page.wait_for_url(re.compile(f"/leagues/{SLUG}/1/1/$"))
    before = standings(page)
    assert set(before) == {"Olga", "Boris", "Vera"}
    assert all(row["played"] == "0" and row["left"] == "2" and row["points"] == "0" for row in before.values())
    assert all(cells.count("") == 2 for cells in cross_table(page).values())  # "×" and two empty cells

    expect(page.locator("#live-standings")).to_have_attribute("data-live", "on")

    finished = live_site.run_scenario("league_game", SLUG, "boris", "olga")
    boris = new_page(browser, live_site)
    try:
        log_in(boris, "boris", PASSWORD, f"/games/{finished['game']}/")
        boris.once("dialog", lambda dialog: dialog.accept())
        boris.locator("form.resign button").click()
        boris.wait_for_load_state()
    finally:
        boris.context.close()
    standing_of_olga = page.locator("table.standings tr[data-entry]", has_text="Olga")
    expect(standing_of_olga.locator("td").nth(4)).to_have_text("1")  # no reload: pushed over the socket
    after = standings(page)
    assert after["Olga"] == {"rank": "1", "played": "1", "left": "1", "points": "1"}
    assert (after["Boris"]["played"], after["Boris"]["left"], after["Boris"]["points"]) == ("1", "1", "0")
    assert (after["Vera"]["played"], after["Vera"]["left"], after["Vera"]["points"]) == ("0", "2", "0")
    order = list(cross_table(page))
    assert order[0] == "Olga"
    second = order[1]
    expect(page.locator("table.standings tr.why").first).to_have_text(
        f"Olga is above {second} on points: 1 against 0.")
    grid = cross_table(page)
    assert grid["Olga"][order.index("Boris")] == "1"
    assert grid["Boris"][order.index("Olga")] == "0"
    assert grid["Olga"][order.index("Olga")] == "×"
    assert grid["Vera"] == ["" if name != "Vera" else "×" for name in order]
    page.goto(f"/leagues/{SLUG}/1/1/?round={finished['round']}")
    expect(page.locator("#schedule + form input[name=round]")).to_have_value(str(finished["round"]))
    schedule = page.locator("ul.schedule")
    expect(schedule.locator("li.fixture")).to_have_count(1)  # three players: one table a round, one bye
    expect(schedule.get_by_role("link", name=f"#{finished['game']}")).to_be_visible()
    expect(schedule).to_contain_text("finished")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the round picker must not widen the page
    widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"the division page scrolls sideways on a phone: {widths}"
    page.set_viewport_size({"width": 1280, "height": 900})

    page.goto("/")
    mark = page.locator("#my-games .league-mark")
    expect(mark).to_have_count(1)  # his other league game, against Vera, still in play
    expect(mark).to_have_text(re.compile(r"^Kitchen Durak, season 1, round \d+$"))
    mark.click()
    page.wait_for_url(re.compile(f"/leagues/{SLUG}/1/1/$"))
    expect(page.locator("h1")).to_have_text("Kitchen Durak · Season 1, division 1")

    assert failed == [], failed
    assert page.js_errors == [], page.js_errors
