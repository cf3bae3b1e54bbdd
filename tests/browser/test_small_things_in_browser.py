"""Small things a correspondence player met, in a real Chromium (issue 39,
item 10): every game panel's text meets WCAG AA contrast; the "key N" hint
is not shown on a touch screen; the offline page says whose move each game
waits for."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, new_page
from tests.browser.test_correspondence_in_browser import PASSWORD, player_page, scenario

pytestmark = pytest.mark.browser

GAMES = ("joker", "durak", "ipuker", "odessa", "domino_poker")
# Every visible piece of text in the game's panel, its colour against the colour behind it (WCAG 2.1 ratio):
# AA asks 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
CONTRAST_JS = """(root) => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, bottom) => { const a = top[3] === undefined ? 1 : top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)); };
  const behind = (node) => { const layers = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const c = rgb(getComputedStyle(n).backgroundColor); if (c.length === 4 && c[3] === 0) continue;
      layers.push(c); if (c.length === 3 || c[3] === 1) break; }
    return layers.reverse().reduce((base, c) => over(c, base), [255, 255, 255]); };
  const bad = [];
  for (const node of document.querySelectorAll(root + " *")) {
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || !node.offsetParent) continue;
    const style = getComputedStyle(node);
    if (style.visibility === "hidden" || Number(style.opacity) === 0) continue;
    const fg = over(rgb(style.color), behind(node)), bg = behind(node);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) bad.push(`${node.tagName.toLowerCase()}.${node.className} "${node.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)} < ${need}`);
  }
  return bad;
}"""


@pytest.fixture(scope="module")
def tables(live_site) -> dict:
    return live_site.run_scenario("phone_tables", "kira", PASSWORD)


@pytest.mark.parametrize("kind", GAMES)
def test_every_text_of_each_game_panel_meets_wcag_aa_contrast(browser, live_site, tables, kind):
    page = new_page(browser, live_site)
    try:
        log_in(page, "kira", PASSWORD, tables[kind]["url"])
        expect(page.locator("#table .seats")).to_be_visible()
        page.wait_for_timeout(300)
        bad = page.evaluate(CONTRAST_JS, "#table")
        assert bad == [], "\n".join(bad)
    finally:
        page.context.close()


def test_the_next_game_key_hint_shows_with_a_keyboard_and_not_on_a_touch_screen(browser, live_site):
    scenario(live_site, "players", PASSWORD, "lev", "mila")
    game = scenario(live_site, "durak_on_clock", "lev", "mila", "mila")  # here Mila is to move...
    scenario(live_site, "durak_on_clock", "lev", "mila", "lev")  # ...and another game waits for his
    desktop = player_page(browser, live_site, "lev", game["url"])
    phone = player_page(browser, live_site, "lev", game["url"], viewport={"width": 390, "height": 844},
                        is_mobile=True, has_touch=True)
    try:
        for page in (desktop, phone):
            expect(page.locator("#next-game")).to_be_visible()
        expect(desktop.locator("#next-game .key-hint")).to_be_visible()
        expect(phone.locator("#next-game .key-hint")).to_be_hidden()
        expect(phone.locator("#next-game")).to_contain_text("My games")
    finally:
        desktop.context.close()
        phone.context.close()


def test_the_offline_page_says_whose_move_each_game_waits_for(browser, live_site):
    scenario(live_site, "players", PASSWORD, "nika", "oleg")
    scenario(live_site, "durak_on_clock", "nika", "oleg", "oleg")
    page = player_page(browser, live_site, "nika", "/my-games/")
    try:
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # the worker controls the page: it keeps the list
        expect(page.locator("tr.game-row")).to_have_count(1)
        page.context.set_offline(True)
        page.goto("/accounts/profile/")
        expect(page.locator("h1")).to_have_text("You are offline")
        expect(page.locator("#last-games li.game")).to_contain_text("To move: Oleg")
        expect(page.locator("#last-games li.game")).to_have_text(re.compile(r"^#\d+ Durak · Oleg · To move: Oleg$"))
    finally:
        page.context.set_offline(False)
        page.context.close()
