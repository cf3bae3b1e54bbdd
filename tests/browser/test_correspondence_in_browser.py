"""Correspondence play in real browsers (issue 25): My games re-sorts itself
when an opponent moves in another browser; the next-game button and its key;
a challenge accepted in a second browser starts the table; private notes
stay with their writer; the header counts the challenges waiting for an
answer, live; every new page fits a phone (390×844), header and all."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, new_page
from tests.browser.test_phone_layout import assert_header_on_one_line

pytestmark = pytest.mark.browser

PASSWORD = "a long enough password 7"
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = "/tmp/correspondence-{}.png"


def scenario(live_site, name: str, *args: str) -> dict:
    return live_site.run_scenario_of("tests.browser.correspondence_scenario", name, *args)


def player_page(browser, live_site, username: str, url: str, **options):
    page = new_page(browser, live_site, **options)
    log_in(page, username, PASSWORD, url)
    return page


def attack(page, card: str | None = None) -> None:
    """The attacker's first move: `card` (by default any card he may lead), then "Attack"."""
    table = page.locator("#table")
    cards = table.locator(f'.card-button.playable[data-card="{card}"]' if card else ".card-button.playable")
    cards.first.click()
    table.locator("button[data-move=attack]").click()


def test_my_games_moves_a_game_to_the_top_when_the_opponent_moves_in_another_browser(browser, live_site):
    scenario(live_site, "players", PASSWORD, "alla", "boris")
    mine = scenario(live_site, "durak_on_clock", "alla", "boris", "alla")
    theirs = scenario(live_site, "durak_on_clock", "alla", "boris", "boris")
    alla = player_page(browser, live_site, "alla", "/my-games/")
    boris = player_page(browser, live_site, "boris", theirs["url"])
    try:
        rows = alla.locator("#my-games table.correspondence-games tbody tr")
        expect(rows.first).to_have_attribute("data-game", str(mine["game"]))
        expect(alla.locator(f'tr[data-game="{theirs["game"]}"]')).not_to_have_class(re.compile("my-turn"))
        expect(alla.locator(f'tr[data-game="{theirs["game"]}"] td.turn')).to_contain_text("Boris")

        version = int(boris.locator("#table").get_attribute("data-version"))
        attack(boris, theirs["answered"])  # a lead Alla can only take would leave him on the clock
        # His move is in (on a loaded machine the page may be told "busy" and send it again a few times)...
        boris.wait_for_function("(v) => Number(document.getElementById('table').dataset.version) > v",
                                arg=version, timeout=45_000)

        # ... so Alla must defend there too: her badge counts it, and the row turns to "Your move",
        # live, without a reload.
        expect(alla.locator("#games-waiting .count")).to_have_text("2", timeout=20_000)
        row = alla.locator(f'tr[data-game="{theirs["game"]}"]')
        expect(row).to_have_class(re.compile("my-turn"), timeout=20_000)
        expect(row.locator("td.turn")).to_contain_text("Your move")
        expect(rows).to_have_count(2)
        alla.screenshot(path=SCREENSHOTS.format("my-games"), full_page=True)
        assert alla.js_errors == [] and boris.js_errors == []
    finally:
        alla.context.close()
        boris.context.close()


def take(page) -> None:
    page.locator("#table button[data-move=take]").click()


def test_the_next_game_button_and_its_key_lead_to_the_other_game_waiting_for_my_move(browser, live_site):
    scenario(live_site, "players", PASSWORD, "carl", "dina")
    first = scenario(live_site, "durak_defending", "carl", "dina", "carl")
    second = scenario(live_site, "durak_on_clock", "carl", "dina", "carl")
    carl = player_page(browser, live_site, "carl", first["url"])
    try:
        next_game = carl.locator("#next-game")
        expect(next_game).to_be_hidden()  # my move here: nothing to skip to yet
        take(carl)
        expect(next_game).to_be_visible(timeout=20_000)
        carl.keyboard.press("n")
        carl.wait_for_url(re.compile(re.escape(second["url"]) + "$"))
        # Back at the first table, where Dina is to move: the button is there at once.
        carl.goto(first["url"])
        next_game.get_by_role("link", name="Next game").click()
        carl.wait_for_url(re.compile(re.escape(second["url"]) + "$"))
        assert carl.js_errors == []
    finally:
        carl.context.close()


def test_with_the_setting_on_my_move_takes_me_to_the_next_game_by_itself(browser, live_site):
    scenario(live_site, "players", PASSWORD, "kira", "lev")
    scenario(live_site, "next_game_by_itself", "kira")
    first = scenario(live_site, "durak_defending", "kira", "lev", "kira")
    second = scenario(live_site, "durak_on_clock", "kira", "lev", "kira")
    kira = player_page(browser, live_site, "kira", first["url"])
    try:
        take(kira)
        kira.wait_for_url(re.compile(re.escape(second["url"]) + "$"), timeout=20_000)
        # There nothing else waits once she has moved: she stays.
        assert kira.js_errors == []
    finally:
        kira.context.close()


def test_a_challenge_accepted_in_a_second_browser_starts_the_table(browser, live_site):
    scenario(live_site, "players", PASSWORD, "erin", "fedor")
    erin = player_page(browser, live_site, "erin", "/challenges/new/?to=fedor")
    fedor = player_page(browser, live_site, "fedor", "/")
    try:
        form = erin.locator("form.new-challenge")
        expect(form.locator("#id_usernames")).to_have_value("fedor")
        form.locator("#id_engine").select_option("durak")
        form.locator("#id_players").fill("2")
        form.get_by_role("button", name="Send the challenge").click()
        erin.wait_for_url(re.compile(r"/challenges/$"))
        expect(erin.locator("#sent")).to_contain_text("fedor".capitalize())

        # Fedor hears of it live, on the lobby (a notice, and the count in the header), and accepts.
        notice = fedor.locator("#live-notices")
        expect(notice).to_contain_text("New challenge from Erin.", timeout=20_000)
        expect(fedor.locator("#challenges-waiting")).to_be_visible()
        expect(fedor.locator("#challenges-waiting .count")).to_have_text("1")
        notice.get_by_role("link", name="Open").click()
        fedor.wait_for_url(re.compile(r"/challenges/$"))
        fedor.locator("#incoming").get_by_role("button", name="Accept").click()
        fedor.wait_for_url(re.compile(r"/games/\d+/$"))
        expect(fedor.locator("#table .seats")).to_be_visible()
        expect(fedor.locator("#challenges-waiting")).to_be_hidden()  # nothing waits for his answer any more
        game_url = re.search(r"/games/\d+/$", fedor.url).group(0)

        # Erin is told live that the table started, and finds it there.
        expect(erin.locator("#live-notices")).to_contain_text("the game has started", timeout=20_000)
        erin.locator("#live-notices").get_by_role("link", name="Open").click()
        erin.wait_for_url(re.compile(re.escape(game_url) + "$"))
        expect(erin.locator("#table .seats")).to_contain_text("Fedor")
        assert erin.js_errors == [] and fedor.js_errors == []
    finally:
        erin.context.close()
        fedor.context.close()


def test_private_notes_are_saved_as_typed_and_never_shown_to_the_other_seat(browser, live_site):
    scenario(live_site, "players", PASSWORD, "greta", "hugo")
    game = scenario(live_site, "durak_on_clock", "greta", "hugo", "greta")
    greta = player_page(browser, live_site, "greta", game["url"])
    hugo = player_page(browser, live_site, "hugo", game["url"])
    secret = "Hugo keeps his trumps: lead the sixes"
    try:
        notes = greta.locator("#notes textarea")
        expect(notes).to_be_enabled()
        notes.press_sequentially(secret, delay=10)
        expect(greta.locator("#notes .notes-status")).to_have_text("Saved")
        greta.reload()
        expect(greta.locator("#notes textarea")).to_have_value(secret)

        hugo.reload()
        expect(hugo.locator("#notes textarea")).to_be_enabled()
        expect(hugo.locator("#notes textarea")).to_have_value("")
        assert secret not in hugo.content()
        # What Hugo's browser can fetch of the game knows nothing of it either.
        for path in (game["url"] + "notes/", game["url"] + "state/"):
            assert secret not in hugo.evaluate("(u) => fetch(u).then((r) => r.text())", path)
        assert greta.js_errors == [] and hugo.js_errors == []
    finally:
        greta.context.close()
        hugo.context.close()


def test_every_new_page_fits_a_phone(browser, live_site):
    scenario(live_site, "players", PASSWORD, "ira", "jan")
    game = scenario(live_site, "durak_on_clock", "ira", "jan", "ira")
    scenario(live_site, "durak_on_clock", "ira", "jan", "jan")
    scenario(live_site, "challenge", "jan", "ira")  # the header's fullest: a game and a challenge waiting
    page = player_page(browser, live_site, "ira", "/my-games/", viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page.goto("/friends/")
        page.locator("input[name=username]").fill("jan")
        page.get_by_role("button", name="Follow").click()
        for name, path in [("my-games", "/my-games/"), ("friends", "/friends/"), ("challenge", "/challenges/new/?to=jan"),
                           ("challenges", "/challenges/"), ("lobby", "/"), ("game", game["url"])]:
            page.goto(path)
            page.wait_for_load_state("networkidle")
            expect(page.locator("#challenges-waiting .count")).to_have_text("1")
            assert_header_on_one_line(page)
            width = page.evaluate("document.documentElement.scrollWidth")
            page.screenshot(path=SCREENSHOTS.format("phone-" + name), full_page=True)
            assert width <= PHONE["width"], f"{path} is {width}px wide on a 390px phone"
        page.goto("/my-games/")
        row = page.locator("table.correspondence-games tbody tr").first
        expect(row.locator("td.turn")).to_be_visible()
        # Each game a block of its own, as wide as the screen at most (the list may be redrawn live meanwhile).
        right = page.evaluate("Math.max(...[...document.querySelectorAll('table.correspondence-games tr')]"
                              ".map((r) => r.getBoundingClientRect().right))")
        assert right <= PHONE["width"]
        assert page.js_errors == []
    finally:
        page.context.close()
