"""Tournaments as their players see them in a real Chromium, kept lean (a
loaded CI machine runs it): a three-round Swiss of Joker at tables of four is
created through the form, entered with the button, started by its organizer;
a late player joins with the button and gets a half-point bye; each round
ends by its deadline (beat's clock sweep: the clock still running loses, a
forfeit) and the next starts by itself, to the final standings and the
cross-table. Then a Durak cup of four: its first round's games resigned,
the winners meet in the final, the losers shown out in round 1."""

import re

import pytest

from tests.browser.conftest import log_in, new_page
from tests.browser.tournament_scenario import run

pytestmark = pytest.mark.browser

PASSWORD = "kitchen-Table-2024"
SLUG = "kitchen-joker"


def watch_for_server_errors(page) -> list[str]:
    failed: list[str] = []
    page.on("response", lambda response: failed.append(f"{response.status} {response.url}")
            if response.status >= 500 else None)
    return failed


def standings(page) -> dict[str, list[str]]:
    """The standings' rows by player: the cells after the name (points first)."""
    rows = page.locator("table.standings tbody tr").evaluate_all(
        "(rows) => rows.map((row) => Array.from(row.cells, (cell) => cell.innerText.trim()))")
    return {re.sub(r"\s*withdrew$", "", cells[1]): [cells[0], *cells[2:]] for cells in rows if len(cells) > 2}


def test_a_swiss_of_joker_runs_from_entry_to_its_final_standings(page, live_site, browser):
    from playwright.sync_api import expect

    failed = watch_for_server_errors(page)
    run(live_site, "players", PASSWORD, "olga", "boris", "vera", "gleb", "dasha")

    log_in(page, "olga", PASSWORD, "/tournaments/new/")
    page.fill("#id_name", "Kitchen Joker")
    page.select_option("#id_engine", "joker")
    page.fill("#id_players", "4")
    page.fill("#id_rounds", "3")  # late entries until half the rounds have started
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
    assert rows["Dasha"][1] == "0.50"  # the late entry's half-point bye

    page.get_by_role("link", name="Round 1", exact=True).click()
    expect(page.locator("ol.pairings")).to_contain_text("forfeit")  # the clock that ran out
    expect(page.get_by_role("link", name="the record")).to_have_count(1)

    assert run(live_site, "deadline_passes", SLUG)["rounds"] == 3
    finished = run(live_site, "deadline_passes", SLUG)
    assert finished == {"changed": 1, "rounds": 3, "status": "finished"}
    page.goto(f"/tournaments/{SLUG}/")
    expect(page.locator("p.muted").first).to_contain_text("finished")
    final = standings(page)
    assert sorted(int(row[0]) for row in final.values()) == [1, 2, 3, 4, 5]
    assert "data-refresh" not in (page.locator("#live-tournament-standings").get_attribute("data-refresh") or "")
    page.get_by_role("link", name="Cross-table").click()
    expect(page.locator("table.crosstable tbody tr")).to_have_count(5)
    assert not failed


def test_a_durak_cup_sends_the_winner_on(page, live_site):
    from playwright.sync_api import expect

    failed = watch_for_server_errors(page)
    run(live_site, "players", PASSWORD, "anna", "ivan", "petr", "lena")
    cup = run(live_site, "cup", "kitchen-cup", "anna", "ivan", "petr", "lena")
    assert cup["rounds"] == 2
    log_in(page, "ivan", PASSWORD, f"/tournaments/{cup['slug']}/")  # a player, not the organizer
    expect(page.locator("#round-1 ol.pairings li")).to_have_count(2)
    run(live_site, "resign", cup["slug"], "lena")  # seeds 1-4 and 2-3: both first games end
    run(live_site, "resign", cup["slug"], "petr")
    page.reload()
    rows = standings(page)
    assert rows["Lena"][-1] == rows["Petr"][-1] == "1"  # went out in round 1
    assert rows["Anna"][-1] == rows["Ivan"][-1] == "–"
    expect(page.locator("#round-2 ol.pairings li")).to_have_count(1)  # the final, started by the round's task
    expect(page.locator("#round-2 ol.pairings")).to_contain_text("Anna – Ivan")
    assert not failed
