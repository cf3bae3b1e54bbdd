"""Tournaments as their players see them in a real Chromium, end to end (issue 41), kept lean (a
loaded CI machine runs it): the browser enters, adds the computers and reads the pages; the games
nobody needs to watch are resigned, or lost on time, through the services (tournament_scenario).

A four-round Swiss of Joker at tables of four: created through the form, entered with the button,
started by its organizer; a late player joins with the button and gets a half-point bye; rounds end
by their deadline (beat's clock sweep: the clock still running loses, a forfeit) or when their table
is over, and the next starts by itself, to the final standings, the cross-table and the players'
ratings on the leaderboard.

A Durak knockout cup of six accounts and two computer players the organizer adds on the cup's page:
a player forfeits to a computer on time, which ends round 1 by its deadline; the people resign the
rest, so the computers meet in the final, played to its end by themselves (the Celery task a worker
runs, eager in the test's server); the cup's winner, its standings, the people's ratings (their
games against each other only) and the levels' ratings in the computers' pool."""

import re

import pytest

from tests.browser.conftest import log_in, new_page, watch_for_server_errors
from tests.browser.tournament_scenario import run

pytestmark = pytest.mark.browser

PASSWORD = "kitchen-Table-2024"
SLUG = "kitchen-joker"


def standings(page) -> dict[str, dict[str, str]]:
    """The standings' rows by player: {column heading: cell} ("#", "Points", "Went out in round"...)."""
    table = page.locator("table.standings")
    headings = table.locator("thead th").all_inner_texts()
    rows = table.locator("tbody tr").evaluate_all(
        "(rows) => rows.map((row) => Array.from(row.cells, (cell) => cell.innerText.trim()))")
    return {re.sub(r"\s*withdrew$", "", cells[1]): dict(zip(headings, cells)) for cells in rows if len(cells) > 2}


def seated_at(page, round_number: int) -> list[str]:
    """The players at the round's first table, as its pairings show them."""
    table = page.locator(f"#round-{round_number} ol.pairings li:not(.bye)").first.inner_text()
    return table.split(" · ")[0].split(" – ")


def rated_games(page, engine: str) -> dict[str, int]:
    """{player: rated games} on the game's leaderboard (ranked and provisional players)."""
    page.goto(f"/ratings/{engine}/")
    rows = page.locator("table.leaderboard tbody tr").evaluate_all(
        "(rows) => rows.map((row) => Array.from(row.cells, (cell) => cell.innerText.trim()))")
    return {cells[-3]: int(cells[-1]) for cells in rows}


def test_a_swiss_of_joker_runs_from_entry_to_its_final_standings_and_ratings(page, live_site, browser):
    from playwright.sync_api import expect

    failed = watch_for_server_errors(page)
    run(live_site, "players", PASSWORD, "olga", "boris", "vera", "gleb", "dasha")

    log_in(page, "olga", PASSWORD, "/tournaments/new/")
    page.fill("#id_name", "Kitchen Joker")
    page.select_option("#id_engine", "joker")
    page.fill("#id_players", "4")
    page.fill("#id_rounds", "4")  # late entries until half the rounds have started
    page.fill("#id_round_days", "1")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(f"/tournaments/{SLUG}/$"))
    run(live_site, "entries", SLUG, "boris", "vera", "gleb")
    page.get_by_role("button", name="Join the tournament").click()
    expect(page.locator("ul.messages")).to_contain_text("You have joined.")
    page.get_by_role("button", name="Start the tournament").click()
    expect(page.locator("ul.messages")).to_contain_text("The tournament has started.")
    expect(page.locator("#round-1 ol.pairings li")).to_have_count(1)  # one table of four

    dasha = new_page(browser, live_site)
    try:
        log_in(dasha, "dasha", PASSWORD, f"/tournaments/{SLUG}/")
        dasha.get_by_role("button", name="Join the tournament").click()
        expect(dasha.locator("ul.messages")).to_contain_text("You have joined.")
        expect(dasha.locator("#round-1 li.bye")).to_contain_text("Dasha: late entry (0.5)")
    finally:
        dasha.context.close()

    after_one = run(live_site, "deadline_passes", SLUG)
    assert after_one["rounds"] == 2 and after_one["status"] == "running"
    page.reload()
    expect(page.locator("#round-2 ol.pairings li.bye")).to_have_count(1)  # five players: a table and a bye
    expect(page.locator("#round-2")).to_contain_text("deadline")
    rows = standings(page)
    assert set(rows) == {"Olga", "Boris", "Vera", "Gleb", "Dasha"}
    assert rows["Dasha"]["Points"] == "0.50"  # the late entry's half-point bye
    at_round_two = seated_at(page, 2)
    assert len(at_round_two) == 4 and "Dasha" in at_round_two  # never a second bye

    page.get_by_role("link", name="Round 1", exact=True).click()
    expect(page.locator("ol.pairings")).to_contain_text("forfeit")  # the clock that ran out
    expect(page.get_by_role("link", name="the record")).to_have_count(1)

    # Round 2's table ends when a player resigns: round 3 starts at once, without its deadline.
    assert run(live_site, "resign", SLUG, at_round_two[0].lower())["rounds"] == 3
    page.goto(f"/tournaments/{SLUG}/")
    assert run(live_site, "resign", SLUG, seated_at(page, 3)[0].lower())["rounds"] == 4
    finished = run(live_site, "deadline_passes", SLUG)
    assert finished == {"changed": 1, "rounds": 4, "status": "finished"}
    page.reload()
    expect(page.locator("p.muted").first).to_contain_text("finished")
    final = standings(page)
    assert sorted(int(row["#"]) for row in final.values()) == [1, 2, 3, 4, 5]
    assert sum(int(row["Games"]) for row in final.values()) == 16  # four tables of four
    assert "data-refresh" not in (page.locator("#live-tournament-standings").get_attribute("data-refresh") or "")
    page.get_by_role("link", name="Cross-table").click()
    expect(page.locator("table.crosstable tbody tr")).to_have_count(5)

    # Every table was rated: each player's rated games are the games they played in it.
    assert rated_games(page, "joker") == {name: int(row["Games"]) for name, row in final.items()}
    assert not failed


def test_a_durak_cup_with_computer_players_runs_to_its_winner(page, live_site):
    from playwright.sync_api import expect

    failed = watch_for_server_errors(page)
    slug = run(live_site, "open_cup", PASSWORD, "anna", "ivan", "petr", "lena", "oleg", "nina")["slug"]
    log_in(page, "anna", PASSWORD, f"/tournaments/{slug}/")  # the organizer
    for level in ("1", "2"):
        page.locator(".tournament-computers select[name=level]").select_option(level)
        page.get_by_role("button", name="Add a computer player").click()
        expect(page.locator("ul.messages")).to_contain_text("The computer player has entered.")
    expect(page.locator(".tournament-computers")).to_contain_text("Computer, level 2")
    # Seeded by rating (all new), then by entry: the six people 1 to 6, the computers 7 and 8.
    page.get_by_role("button", name="Start the tournament").click()
    expect(page.locator("ul.messages")).to_contain_text("The tournament has started.")
    first = page.locator("#round-1 ol.pairings")
    expect(first.locator("li")).to_have_count(4)
    expect(first).to_contain_text("Anna – Computer, level 2")
    expect(first).to_contain_text("Ivan – Computer, level 1")

    # Three games resigned; Ivan lets his clock run out against the computer: the deadline ends the round.
    assert run(live_site, "resign", slug, "anna", "nina", "oleg")["rounds"] == 1
    assert run(live_site, "deadline_passes", slug) == {"changed": 1, "rounds": 2, "status": "running"}
    page.reload()
    rows = standings(page)
    assert len(rows) == 8
    assert {name for name, row in rows.items() if row["Went out in round"] == "1"} == {"Anna", "Ivan", "Nina", "Oleg"}
    second = page.locator("#round-2 ol.pairings")
    expect(second).to_contain_text("Petr – Computer, level 2")
    expect(second).to_contain_text("Lena – Computer, level 1")
    page.get_by_role("link", name="Round 1", exact=True).click()
    expect(page.locator("ol.pairings li", has_text="Ivan")).to_contain_text("forfeit")

    # The people resign: the final is the computers', played to its end by them as it starts.
    done = run(live_site, "resign", slug, "petr", "lena")
    assert (done["rounds"], done["status"]) == (3, "finished")
    page.goto(f"/tournaments/{slug}/")
    expect(page.locator("p.muted").first).to_contain_text("finished")
    final_table = page.locator("#round-3 ol.pairings li")
    expect(final_table).to_contain_text("Computer, level 1 – Computer, level 2")
    expect(final_table.get_by_role("link", name="the record")).to_have_count(1)
    final = standings(page)
    winner = next(name for name, row in final.items() if row["#"] == "1")
    assert winner.startswith("Computer, level") and final[winner]["Went out in round"] == "–"
    assert final["Petr"]["Went out in round"] == final["Lena"]["Went out in round"] == "2"

    # Rated: the people's games among themselves; a person's game against a computer is not.
    assert rated_games(page, "durak") == {"Petr": 1, "Lena": 1, "Oleg": 1, "Nina": 1}
    page.goto("/ratings/computers/")  # the computers' final rates the levels against each other
    levels = page.locator("#levels-durak tbody tr")
    for level in ("Computer, level 1", "Computer, level 2"):
        expect(levels.filter(has_text=level).locator("td").nth(3)).to_have_text("1")
    assert not failed
