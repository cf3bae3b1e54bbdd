"""Every score sheet in a real Chromium, full of a game played to its end and
read in Russian (the longest words): at 1280 px every column is visible beside
the table, at 390 px a wider sheet scrolls inside its own box, its legend stays
in that box, and the players stand in seat order from the first dealer's (or
leader's, or starter's) left, as on paper (issue 27, 5)."""

import pytest

from tests.browser.conftest import log_in, new_page
from tests.browser.returning_player_scenario import run

pytestmark = pytest.mark.browser
PASSWORD = "kitchen-Table-2024"
USERNAME = "vera"
SLACK = 1  # px: rounding of fractional layouts
KINDS = ("joker", "odessa", "ipuker", "domino_poker", "durak")

MEASURE_JS = """() => {
    const box = document.querySelector('.sheet-scroll');
    const b = box.getBoundingClientRect();
    const legend = box.querySelector('.legend');
    const l = legend ? legend.getBoundingClientRect() : null;
    return { left: b.left, right: b.right, scroll: box.scrollWidth, client: box.clientWidth,
             overflow: getComputedStyle(box).overflowX, legend: l && { left: l.left, right: l.right },
             page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
             heads: [...box.querySelectorAll('th.player')].map((n) => n.textContent.trim()) };
}"""


@pytest.fixture(scope="module")
def games(live_site) -> dict:
    return run(live_site, "played_games", USERNAME, PASSWORD, "ru")


def name_of(position: int) -> str:
    return USERNAME if position == 0 else f"Компьютер {position + 1} (уровень 1)"


def measured(browser, live_site, width: int, path: str) -> dict:
    page = new_page(browser, live_site, viewport={"width": width, "height": 900}, locale="ru-RU")
    try:
        log_in(page, USERNAME, PASSWORD, path)
        page.wait_for_selector(".sheet-scroll table.sheet")
        page.wait_for_timeout(200)  # the game page fetches its sheet again after drawing the table
        found = page.evaluate(MEASURE_JS)
        assert page.js_errors == [], page.js_errors
        return found
    finally:
        page.context.close()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("width", [1280, 390])
def test_every_column_of_the_sheet_is_visible_or_scrolls_in_its_box_and_the_legend_stays_in_it(
        browser, live_site, games, kind, width):
    for path in (games[kind]["url"], games[kind]["sheet"]):
        box = measured(browser, live_site, width, path)
        assert box["page"][0] <= box["page"][1], f"{path} scrolls sideways at {width}: {box}"
        assert box["left"] >= 0 and box["right"] <= width + SLACK, box
        if width >= 1280:
            assert box["scroll"] <= box["client"], f"{kind} at {width} ({path}): a column is out of sight: {box}"
        else:
            assert box["scroll"] <= box["client"] or box["overflow"] in ("auto", "scroll"), box
        if box["legend"]:
            assert box["legend"]["left"] >= box["left"] - SLACK and box["legend"]["right"] <= box["right"] + SLACK, (
                f"{kind} at {width} ({path}): the legend runs past its box: {box}")


@pytest.mark.parametrize("kind", KINDS)
def test_the_sheet_lists_the_players_in_seat_order_from_the_first_dealers_left(browser, live_site, games, kind):
    box = measured(browser, live_site, 1280, games[kind]["sheet"])
    assert box["heads"] == [name_of(p) for p in games[kind]["order"]], box["heads"]
