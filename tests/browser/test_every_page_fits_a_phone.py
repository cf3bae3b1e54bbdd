"""Every page of the site on a 390×844 phone without sideways scrolling
(issue 39, item 6): a Russian-speaking player with a long name walks all
of them (his games, challenges, friends, player pages, profile, settings,
ratings, leagues, a game in play and a finished one, score sheets, the
record and replay with its 78-digit seed, the rules, the offline page), and
so does a visitor who is not signed in, and a moderator with a long name
through the admin, the moderation pages and the API's documentation. On the
player page the heading's name is whole, the header's shows its short form
with the whole name at hand, and the finished games say what each number
is; on the Joker table every seat's name is whole; on the Joker sheet the
viewer's own column stays in view."""


import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SETUP_SECONDS, log_in, log_in_to_the_admin, new_page

pytestmark = pytest.mark.browser

PASSWORD = "a long enough password 7"
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = "/tmp/phone-walk-{}.png"
# The widest part of a page: what sticks out to the right, with its class, to name the culprit.
WIDEST_JS = """(limit) => [...document.querySelectorAll('body *')]
    .filter((n) => n.getBoundingClientRect().right > limit + 1 && n.offsetParent !== null
            && !n.closest('.sheet-scroll, .table-scroll, [data-scroll]'))
    .slice(0, 3).map((n) => n.tagName.toLowerCase() + '.' + n.className + ' ' + Math.round(n.getBoundingClientRect().right))"""


# The words of the cells under `selector` that a line break cuts in two (a word whose text takes two line boxes).
BROKEN_WORDS_JS = """(selector) => {
    const broken = [];
    for (const cell of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const match of node.textContent.matchAll(/[^\\s,–—-]+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
                if (lines.size > 1) broken.push(match[0]);
            }
        }
    }
    return broken;
}"""
# The header's menu: its scrolling width against its box, and where each of its items stands.
HEADER_JS = """() => { const nav = document.querySelector('.site-header nav');
    return { nav: [nav.scrollWidth, nav.clientWidth],
             items: [...nav.children].filter((n) => n.offsetParent !== null)
                 .map((n) => [n.getBoundingClientRect().left, n.getBoundingClientRect().right]) }; }"""


@pytest.fixture(scope="module")
def site(live_site) -> dict:
    return live_site.run_scenario_of("tests.browser.phone_walk_scenario", "every_page", PASSWORD,
                                     timeout=SETUP_SECONDS * 2)


def phone(browser, live_site):
    return new_page(browser, live_site, viewport=PHONE, is_mobile=True, has_touch=True, locale="ru-RU")


def too_wide(page, pages: list[str]) -> list[str]:
    wide = []
    for path in pages:
        response = page.goto(path)
        assert response.status < 400, f"{path}: {response.status}"
        page.wait_for_load_state("networkidle")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            page.screenshot(path=SCREENSHOTS.format(path.strip("/").replace("/", "-") or "lobby"), full_page=True)
            wide.append(f"{path}: {width}px {page.evaluate(WIDEST_JS, PHONE['width'])}")
    return wide


def test_every_page_of_a_signed_in_player_fits_a_390px_phone(browser, live_site, site):
    page = phone(browser, live_site)
    try:
        log_in(page, site["username"], PASSWORD, "/")
        wide = too_wide(page, site["pages"])
        assert wide == [], "\n".join(wide)
        assert page.js_errors == []
    finally:
        page.context.close()


def test_every_page_of_a_visitor_fits_a_390px_phone(browser, live_site, site):
    page = phone(browser, live_site)
    try:
        assert too_wide(page, site["anonymous"]) == []
    finally:
        page.context.close()


def test_every_page_of_a_moderator_the_admin_moderation_and_the_api_docs_fit_a_390px_phone(browser, live_site, site):
    page = phone(browser, live_site)
    try:
        log_in_to_the_admin(page, site["moderator"], PASSWORD, "/admin/")
        wide = too_wide(page, site["admin_pages"])
        assert wide == [], "\n".join(wide)
        assert page.js_errors == []
    finally:
        page.context.close()


def test_the_player_page_on_a_phone_shows_the_whole_name_and_labels_the_finished_games(browser, live_site, site):
    page = phone(browser, live_site)
    try:
        log_in(page, site["username"], PASSWORD, "/players/boris/")
        heading = page.locator("main h1")
        expect(heading).to_contain_text("Борис Бородин-Запорожский")
        assert heading.evaluate("(h) => h.scrollWidth <= h.clientWidth")  # not cut
        mine = page.locator(".site-header .user-name")  # the header: his short name, the whole one at hand
        expect(mine).to_have_attribute("title", "Борис Бородин-Запорожский")
        expect(mine).to_have_accessible_name("Борис Бородин-Запорожский")
        expect(mine.locator(".name-short")).to_have_text("Борис Б.")
        assert mine.evaluate("(a) => a.getBoundingClientRect().width > 40 && a.scrollWidth <= a.clientWidth + 1")
        header = page.evaluate(HEADER_JS)
        assert header["nav"][0] <= header["nav"][1] and all(0 <= left and right <= PHONE["width"] + 1
                                                             for left, right in header["items"]), header
        cells = page.locator("#finished-games tbody tr").first.locator("td")
        for cell in cells.all():
            if cell.is_visible() and cell.inner_text().strip():
                label = cell.evaluate("(td) => td.dataset.label || getComputedStyle(td, '::before').content")
                assert label and label not in ("none", '""'), cell.inner_html()
    finally:
        page.context.close()


def test_on_a_phone_no_word_of_a_list_is_cut_across_two_lines(browser, live_site, site):
    page = phone(browser, live_site)
    try:
        log_in(page, site["username"], PASSWORD, "/players/boris/")  # playing now, finished games
        expect(page.locator("table.current-games td")).not_to_have_count(0)
        assert page.evaluate(BROKEN_WORDS_JS, "table.current-games td, table.finished-games td") == []
        assert page.locator("table.finished-games td.ending:visible:empty").count() == 0  # no label over nothing
        page.goto(site["division"])  # the standings, in a box that scrolls sideways
        expect(page.locator("table.standings td")).not_to_have_count(0)
        assert page.evaluate(BROKEN_WORDS_JS, "table.standings td, table.cross-table td, table.cross-table th") == []
    finally:
        page.context.close()


def test_on_the_joker_sheet_the_viewers_own_column_stays_in_view_on_a_phone(browser, live_site, site):
    page = phone(browser, live_site)
    try:
        for path in (site["sheet"], site["joker"]):  # the sheet's page, and beside the table
            log_in(page, site["username"], PASSWORD, path) if path == site["sheet"] else page.goto(path)
            for name in page.locator("thead th.player").all():  # each player's name whole, wrapped if need be
                assert name.evaluate("(th) => th.scrollWidth <= th.clientWidth + 1"), name.inner_text()
            box = page.locator(".sheet-scroll")
            assert box.evaluate("(b) => b.scrollWidth > b.clientWidth")  # wider than a phone: it scrolls
            mine = box.locator("thead th.player.pinned")
            expect(mine).to_have_count(1)
            expect(mine).to_contain_text("Борис")
            for scrolled in (0, 10_000):  # at either end of the sheet, his column is on the screen
                box.evaluate("(b, x) => { b.scrollLeft = x; }", scrolled)
                page.wait_for_timeout(100)
                r = mine.bounding_box()
                assert 0 <= r["x"] and r["x"] + r["width"] <= PHONE["width"] + 1, (path, scrolled, r)
                cells = box.locator("tbody tr").first.locator(".pinned")
                assert cells.count() >= 3  # his bid, tricks and points
        names = page.locator("#table .seat .name")  # the table's seats: every name whole, wrapped if need be
        expect(names.first).to_be_visible()
        shown = [(name.inner_text(), name.evaluate("(n) => n.scrollWidth <= n.clientWidth + 1")) for name in names.all()]
        assert sorted(text.replace("\n", " ") for text, _whole in shown) == [
            "Борис Бородин-Запорожский", "Компьютер 2 (уровень 1)",  # (the seat's "· computer" mark: the name says it)
            "Компьютер 3 (уровень 1)", "Компьютер 4 (уровень 1)"], shown
        assert all(whole for _text, whole in shown), shown
        assert page.js_errors == []
    finally:
        page.context.close()
