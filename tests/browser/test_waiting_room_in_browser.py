"""The waiting room is live, in a real Chromium: two people in two browser
contexts, the table's creator and a player who joins it.

- The creator sees the joiner take a seat without reloading, and when the
  seats are filled with computer players both pages become the running game.
- In Durak 2×2 the joiner chooses his seat, and so his partner, from the
  free seats; both pages say who partners whom, before and during the game,
  and so does the score sheet.
- With its WebSocket refused, the waiting room still follows the table (it
  polls the state URL).
- At the end of a game of a series, its page leads to the next game.
"""

import re

import pytest

from tests.browser.conftest import new_page, sign_up

pytestmark = pytest.mark.browser

PASSWORD = "kitchen-Table-2024"
SCREENSHOT = "/tmp/waiting-room.png"
PAIRS_SCREENSHOT = "/tmp/waiting-room-pairs.png"
PAIRS_GAME_SCREENSHOT = "/tmp/waiting-room-pairs-game.png"

# A mark set on the page; a reload loses it.
MARK_JS = "() => { window.__sameDocument = true; }"
SAME_DOCUMENT_JS = "() => window.__sameDocument === true"


def create_durak_table(page, players: int, mode: str = "podkidnoy", pairs: bool = False) -> str:
    """From the lobby, a Durak table nobody else sits at yet; its URL."""
    form = page.locator("form.new-game")
    form.locator("#id_engine").select_option("durak")
    form.locator("#id_players").fill(str(players))
    options = form.locator('fieldset[data-for-engine="durak"]')
    options.locator("#id_durak_mode").select_option(mode)
    if pairs:
        options.locator("#id_durak_teams").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    return page.url


def expect_live_waiting_room(page) -> None:
    from playwright.sync_api import expect

    room = page.locator("#waiting")
    expect(room).to_be_visible()
    page.wait_for_function("() => !document.getElementById('waiting').classList.contains('offline')")
    page.wait_for_timeout(300)  # the socket is open: let its first state arrive


def expect_running_game(page) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#waiting")).to_have_count(0, timeout=20_000)
    table = page.locator("#table")
    expect(table).to_have_attribute("data-version", re.compile(r"^\d+$"))
    expect(table.locator(".deal-info")).to_contain_text("Trump")


@pytest.fixture
def two_people(browser, live_site):
    pages = [new_page(browser, live_site), new_page(browser, live_site)]
    try:
        yield pages
    finally:
        for page in pages:
            page.context.close()


def test_the_creator_sees_a_player_sit_down_live_and_both_land_in_the_game(two_people):
    from playwright.sync_api import expect

    creator, joiner = two_people
    sign_up(creator, "wroomhost", "Hostess", PASSWORD)
    sign_up(joiner, "wroomguest", "Guest", PASSWORD)
    url = create_durak_table(creator, players=3)
    expect(creator.locator("#waiting .variant")).to_have_text("podkidnoy, 3 players")
    expect_live_waiting_room(creator)
    expect(creator.locator("#waiting-count")).to_have_text("Waiting for 2 more players.")
    creator.evaluate(MARK_JS)

    # The joiner finds the table in the lobby, with its variant, and sits down.
    joiner.goto("/")
    row = joiner.locator("table.open-tables tr", has=joiner.locator(f'a[href="{url[url.index("/games/"):]}"]'))
    expect(row).to_contain_text("podkidnoy, 3 players")
    row.locator("a").click()
    expect_live_waiting_room(joiner)
    joiner.locator("#join-form button[type=submit]").click()
    expect(joiner.locator("#fill-bots")).to_be_visible()

    seats = creator.locator("#waiting-seats li")
    expect(seats.nth(1).locator(".name")).to_have_text("Guest")
    expect(seats.nth(1).locator(".rating")).to_have_text("rating 0?")  # a newcomer's provisional rating, live
    expect(seats.nth(0).locator(".rating")).to_have_text("rating 0?")  # drawn by the page itself at first
    expect(creator.locator("#waiting-count")).to_have_text("Waiting for 1 more player.")
    assert creator.evaluate(SAME_DOCUMENT_JS), "the creator's page reloaded to show the new seat"
    creator.screenshot(path=SCREENSHOT, full_page=True)

    expect_live_waiting_room(joiner)
    joiner.locator("#fill-bots").click()
    expect_running_game(joiner)
    expect_running_game(creator)
    expect(creator.locator("#table .seats")).to_contain_text("Guest")
    expect(creator.locator("#table .seats")).to_contain_text("Computer 3")
    assert not creator.js_errors and not joiner.js_errors, creator.js_errors + joiner.js_errors


def test_in_pairs_the_joiner_chooses_his_partner_and_every_page_names_the_pairs(two_people):
    from playwright.sync_api import expect

    creator, joiner = two_people
    sign_up(creator, "pairshost", "Anna", PASSWORD)
    sign_up(joiner, "pairsguest", "Boris", PASSWORD)
    url = create_durak_table(creator, players=4, mode="perevodnoy", pairs=True)
    expect(creator.locator("#waiting .variant")).to_have_text("perevodnoy, 2×2 in pairs")
    expect_live_waiting_room(creator)
    creator.evaluate(MARK_JS)

    joiner.goto(url)
    expect_live_waiting_room(joiner)
    choices = joiner.locator("#join-form .join-seats button")
    expect(choices).to_have_text(["Take seat 2 · partner: seat 4, still free",
                                  "Take seat 3 · partner: Anna",
                                  "Take seat 4 · partner: seat 2, still free"])
    joiner.screenshot(path=PAIRS_SCREENSHOT, full_page=True)
    choices.nth(1).click()

    seats = creator.locator("#waiting-seats li")
    expect(seats.nth(2)).to_contain_text("Boris")
    expect(seats.nth(2)).to_contain_text("partner: Anna")
    expect(seats.nth(0)).to_contain_text("partner: Boris")
    assert creator.evaluate(SAME_DOCUMENT_JS), "the creator's page reloaded to show the new seat"

    creator.locator("#fill-bots").click()
    expect_running_game(creator)
    expect_running_game(joiner)
    expected = {0: ("Anna", "Boris"), 1: ("Computer 2 (level 1)", "Computer 4 (level 1)"), 2: ("Boris", "Anna"),
                3: ("Computer 4 (level 1)", "Computer 2 (level 1)")}
    for page, me in ((creator, "Anna"), (joiner, "Boris")):
        expect(page.locator("#table .seat.me .name")).to_contain_text(me)
        for position, (name, partner) in expected.items():
            seat = page.locator(f'#table .seat[data-position="{position}"]')
            expect(seat.locator(".name")).to_contain_text(name)
            expect(seat.locator(".partner")).to_have_text(f"partner: {partner}")
        expect(page.locator("#sheet")).to_contain_text("Pairs: Anna and Boris against Computer 2 (level 1) and Computer 4 (level 1).")
    creator.screenshot(path=PAIRS_GAME_SCREENSHOT, full_page=True)
    assert not creator.js_errors and not joiner.js_errors, creator.js_errors + joiner.js_errors


def test_without_its_websocket_the_waiting_room_still_follows_the_table(two_people):
    from playwright.sync_api import expect

    creator, joiner = two_people
    sign_up(creator, "pollhost", "Vera", PASSWORD)
    sign_up(joiner, "pollguest", "Gleb", PASSWORD)
    # Every socket of the creator's page is refused: the page must poll.
    creator.route_web_socket(re.compile(r"/ws/games/"), lambda ws: ws.close())
    url = create_durak_table(creator, players=2)
    expect(creator.locator("#waiting")).to_have_class(re.compile(r"\boffline\b"))
    creator.evaluate(MARK_JS)

    joiner.goto(url)
    joiner.locator("#join-form button[type=submit]").click()  # the last seat: the game starts

    expect_running_game(creator)
    expect(creator.locator("#table .seats")).to_contain_text("Gleb")
    expect_running_game(joiner)


def test_the_end_of_a_series_game_leads_to_the_next_game_which_has_started(page, live_site):
    from playwright.sync_api import expect

    setup = live_site.run_scenario("finished_series_game", "serieswalker", PASSWORD)
    page.goto("/accounts/login/?next=" + setup["url"])
    page.fill("#id_username", "serieswalker")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(re.escape(setup["url"]) + "$"))

    expect(page.locator("#table .outcome")).to_contain_text("Game over")
    page.locator("#table .next-game a", has_text="On to the next game of the series").click()
    page.wait_for_url(re.compile(re.escape(setup["next_url"]) + "$"))
    expect_running_game(page)
    assert not page.js_errors, page.js_errors
