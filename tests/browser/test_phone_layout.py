"""The site on a 390×844 phone screen, and that the desktop did not suffer.

On a phone the header is one line, no page scrolls sideways, and on the game
page of every game kind the player's hand and move buttons are on the screen
when it is his turn, without scrolling. A score sheet wider than the screen
scrolls inside its own box, with a shadow on the side where more of it is.
The set-up (`phone_tables` in scenario.py) gives one player six games at
his move: Joker at its first deal and at its first 9-card deal, Durak when
he defends, Ipuker in its third round, Odessa poker bidding on a full 9-card hand, domino
Poker at its first 7-tile deal.
"""

import re
import struct
import zlib

import pytest

from tests.browser.conftest import new_page

pytestmark = pytest.mark.browser

USERNAME = "masha"
PASSWORD = "kitchen-Table-2024"
PHONE = {"width": 390, "height": 844}
NARROW_PHONE = {"width": 320, "height": 640}
DESKTOP = {"width": 1280, "height": 800}
SLACK = 1  # px: rounding of fractional layouts
GAMES = ("joker_first", "joker", "durak", "ipuker", "odessa", "domino_poker")
# The player's controls during his turn: his cards and the move buttons (bids, Take, stakes...).
CONTROLS = "#table .hand button[data-card], #table .controls button, #table .controls label.ahead"
SHADOWED = 235  # the brightest pixel of a strip under the shadow is below this...
CLEAR = 245  # ...and above this without it (white cells)

BOX_JS = """(selector) => [...document.querySelectorAll(selector)].map((node) => {
    const r = node.getBoundingClientRect();
    return { text: node.textContent.trim(), top: r.top, bottom: r.bottom, left: r.left, right: r.right,
             width: r.width, height: r.height };
})"""

# The header's visible items: the brand and everything in its menu.
HEADER_ITEMS_JS = """() => {
    const header = document.querySelector(".site-header");
    const items = [header.querySelector(".brand"),
                   ...header.querySelectorAll("nav > a, nav button, nav select")];
    const box = (node) => { const r = node.getBoundingClientRect();
        return { text: node.textContent.trim(), top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
    const h = header.getBoundingClientRect();
    return { header: { top: h.top, bottom: h.bottom, height: h.height, right: h.right },
             items: items.filter((n) => n.offsetParent !== null).map(box) };
}"""


@pytest.fixture(scope="module")
def tables(live_site) -> dict:
    return live_site.run_scenario("phone_tables", USERNAME, PASSWORD)


def log_in(page) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", USERNAME)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))


@pytest.fixture
def phone(browser, live_site, tables):
    """The scenario's player, signed in on a phone with touch."""
    page = new_page(browser, live_site, viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    try:
        log_in(page)
        yield page
    finally:
        page.context.close()


@pytest.fixture
def desktop(browser, live_site, tables):
    page = new_page(browser, live_site, viewport=DESKTOP)
    try:
        log_in(page)
        yield page
    finally:
        page.context.close()


def assert_no_sideways_page_scroll(page) -> None:
    widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"{page.url} scrolls sideways: scrollWidth {widths[0]} > clientWidth {widths[1]}"


def assert_header_on_one_line(page, signed_in: bool = True) -> None:
    """Every item of the header shares one row, and none is cut off at the screen's edge (for the
    scenario's player with the badge of his games waiting, the fullest header)."""
    if signed_in:
        page.wait_for_selector("#games-waiting:not([hidden])")
    found = page.evaluate(HEADER_ITEMS_JS)
    items = found["items"]
    assert len(items) >= 3, found
    width = page.viewport_size["width"]
    assert max(i["top"] for i in items) < min(i["bottom"] for i in items), f"the header wraps: {found}"
    assert found["header"]["height"] < 2 * max(i["bottom"] - i["top"] for i in items), found
    for item in items:
        assert item["left"] >= 0 and item["right"] <= width + SLACK, f"{item['text']!r} is cut off: {found}"


def wait_for_my_turn(page) -> None:
    """The table is drawn from the server's state and shows that he is to move; the sheet, which the
    page fetches again after drawing the table, is the one of that state (it is not replaced any more)."""
    page.wait_for_selector("#table .seat.me.acting")
    page.wait_for_selector(CONTROLS)
    page.wait_for_function("() => document.getElementById('sheet').dataset.version"
                           " === document.getElementById('table').dataset.version")


def png_pixels(data: bytes) -> tuple[int, int, list[bytearray]]:
    """Width, height and rows of (R, G, B[, A]) bytes of an 8-bit, non-interlaced PNG (as Chromium writes them)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    step = 4 if colour == 6 else 3
    raw, rows, prev = zlib.decompress(idat), [], bytearray(width * step)
    stride = width * step + 1
    for y in range(height):
        kind, line = raw[y * stride], bytearray(raw[y * stride + 1:(y + 1) * stride])
        for x in range(len(line)):
            left = line[x - step] if x >= step else 0
            up, corner = prev[x], prev[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(line)
        prev = line
    return width, height, [bytes(r) for r in rows]


def brightest_in_strip(shot: bytes, side: str) -> float:
    """The brightest pixel (mean of R, G, B) of a 4px strip just inside one edge, over the middle third
    of the box's height: white where nothing covers it, darker under a shadow."""
    width, height, rows = png_pixels(shot)
    step = len(rows[0]) // width
    xs = range(1, 5) if side == "left" else range(width - 5, width - 1)
    return max(sum(rows[y][x * step:x * step + 3]) / 3 for y in range(height // 3, 2 * height // 3) for x in xs)


# ---- the phone ---------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_on_a_phone_the_hand_and_the_move_buttons_are_on_the_screen_at_his_turn_without_scrolling(
        phone, tables, game):
    page = phone
    page.goto(tables[game]["url"])
    wait_for_my_turn(page)
    assert_header_on_one_line(page)  # with the badge of his games shown: the header at its fullest
    assert page.evaluate("() => window.scrollY") == 0
    controls = page.evaluate(BOX_JS, CONTROLS)
    assert controls, "no cards and no move buttons"
    if game == "domino_poker":  # tiles, not cards
        assert page.locator("#table .hand button[data-tile]").count() >= 1
    elif game != "ipuker":  # Ipuker has no hand: the secret choices are its moves
        assert page.locator("#table .hand button[data-card]").count() >= 1
    for box in controls:
        assert box["width"] > 0 and box["height"] > 0, f"{box['text']!r} is not shown: {box}"
        assert box["top"] >= 0 and box["bottom"] <= PHONE["height"] + SLACK, \
            f"{box['text']!r} is below the fold ({PHONE['height']}px): {box}"
        assert box["left"] >= 0 and box["right"] <= PHONE["width"] + SLACK, f"{box['text']!r} is off screen: {box}"
    assert_no_sideways_page_scroll(page)
    page.screenshot(path=f"/tmp/phone-{game}.png", full_page=True)
    assert page.js_errors == [], page.js_errors


@pytest.mark.parametrize("game", GAMES)
def test_on_a_phone_the_score_sheet_fits_its_box_or_scrolls_inside_it(phone, tables, game):
    page = phone
    page.goto(tables[game]["url"])
    wait_for_my_turn(page)
    box = page.locator("#sheet .sheet-scroll")
    sizes = box.evaluate("(b) => ({ scroll: b.scrollWidth, client: b.clientWidth, "
                         "overflow: getComputedStyle(b).overflowX, right: b.getBoundingClientRect().right })")
    assert sizes["right"] <= PHONE["width"] + SLACK, sizes
    assert sizes["scroll"] <= sizes["client"] or sizes["overflow"] in ("auto", "scroll"), sizes
    legend = page.evaluate(BOX_JS, "#sheet .legend")
    assert legend and legend[0]["right"] <= PHONE["width"] + SLACK, f"the legend is cut off: {legend}"
    assert_no_sideways_page_scroll(page)


def test_a_sheet_wider_than_a_narrow_phone_scrolls_in_its_box_with_a_shadow_where_more_of_it_is(
        browser, live_site, tables):
    page = new_page(browser, live_site, viewport=NARROW_PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    try:
        log_in(page)
        page.goto(tables["ipuker"]["url"])
        wait_for_my_turn(page)
        box = page.locator("#sheet .sheet-scroll")
        box.scroll_into_view_if_needed()
        widths = box.evaluate("(b) => [b.scrollWidth, b.clientWidth]")
        assert widths[0] > widths[1] + 20, f"the sheet is not wider than its box here: {widths}"
        assert_no_sideways_page_scroll(page)

        at_start = box.screenshot()
        assert brightest_in_strip(at_start, "right") < SHADOWED, "no shadow on the right, where more is"
        assert brightest_in_strip(at_start, "left") > CLEAR, "a shadow on the left at the start"

        box.evaluate("(b) => { b.scrollLeft = b.scrollWidth; }")
        page.wait_for_timeout(100)
        at_end = box.screenshot()
        assert brightest_in_strip(at_end, "right") > CLEAR, "a shadow on the right at the end"
        assert brightest_in_strip(at_end, "left") < SHADOWED, "no shadow on the left, where more is"
        legend = page.evaluate(BOX_JS, "#sheet .legend")[0]
        assert legend["left"] >= 0 and legend["right"] <= NARROW_PHONE["width"] + SLACK, legend
        page.screenshot(path="/tmp/phone-narrow-sheet.png")
    finally:
        page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_on_a_phone_the_full_page_sheet_does_not_scroll_the_page_sideways(phone, tables, game):
    page = phone
    page.goto(tables[game]["url"])
    page.locator(".sheet-aside h2 a", has_text="full page").click()
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    page.wait_for_selector("table.sheet")
    assert_header_on_one_line(page)
    assert_no_sideways_page_scroll(page)
    table = page.evaluate(BOX_JS, "table.sheet")[0]
    assert table["left"] >= 0, table
    page.screenshot(path=f"/tmp/phone-sheet-{game}.png", full_page=True)


@pytest.mark.parametrize("path", ["/", "/games/new/", "/accounts/profile/", "/notifications/"])
def test_on_a_phone_the_lobby_the_new_table_page_and_the_profile_do_not_scroll_sideways(phone, path):
    page = phone
    page.goto(path)
    assert_header_on_one_line(page)
    assert_no_sideways_page_scroll(page)
    assert page.js_errors == [], page.js_errors


def test_on_a_phone_the_header_keeps_the_lobby_link_the_badge_and_his_name(phone):
    from playwright.sync_api import expect

    page = phone
    header = page.locator(".site-header")
    expect(header.locator("nav a", has_text="Lobby")).to_be_visible()
    expect(header.locator("#games-waiting .count")).to_have_text("6")
    expect(header.locator("#games-waiting")).to_have_accessible_name(re.compile(r"Your move\s*6"))
    expect(header.locator(".user-name")).to_have_text(USERNAME)
    expect(header.locator(".brand")).to_have_accessible_name("Kitchen table")
    expect(header.locator(".brand-icon")).to_be_visible()


def test_on_a_phone_a_visitor_in_russian_sees_the_lobby_with_its_open_table_and_the_header_on_one_line(
        browser, live_site, tables):
    page = new_page(browser, live_site, viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                    locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    try:
        page.goto("/")
        assert page.locator("html").get_attribute("lang") == "ru"
        assert page.locator("table.open-tables tbody tr", has_text="Anna Karenina-Vronskaya").count() == 1
        assert_header_on_one_line(page, signed_in=False)
        assert_no_sideways_page_scroll(page)
    finally:
        page.context.close()


# ---- the desktop is as it was ------------------------------------------------------------------

def test_on_a_desktop_no_page_scrolls_sideways_and_the_header_spells_everything_out(desktop, tables):
    from playwright.sync_api import expect

    page = desktop
    paths = ["/", "/games/new/", "/accounts/profile/"]
    for game in GAMES:
        paths += [tables[game]["url"], f"/sheets/{tables[game]['game']}/"]
    for path in paths:
        page.goto(path)
        assert_header_on_one_line(page)
        assert_no_sideways_page_scroll(page)
    header = page.locator(".site-header")
    expect(header.locator(".brand-name")).to_have_text("Kitchen table")
    expect(header.locator(".brand-name")).to_be_visible()
    expect(header.locator(".brand-icon")).to_be_hidden()
    page.goto("/")
    expect(header.locator("#games-waiting .label")).to_be_visible()
    expect(header.locator("#games-waiting .label")).to_have_text("Your move")


@pytest.mark.parametrize("game", GAMES)
def test_on_a_desktop_the_table_and_the_sheet_stand_side_by_side(desktop, tables, game):
    page = desktop
    page.goto(tables[game]["url"])
    wait_for_my_turn(page)
    table = page.evaluate(BOX_JS, "#table")[0]
    sheet = page.evaluate(BOX_JS, ".sheet-aside")[0]
    assert sheet["left"] >= table["right"] and sheet["top"] < table["bottom"], (table, sheet)
    box = page.locator("#sheet .sheet-scroll")
    widths = box.evaluate("(b) => [b.scrollWidth, b.clientWidth]")
    assert widths[0] <= widths[1], f"the sheet does not fit beside the table: {widths}"
    assert_no_sideways_page_scroll(page)
    page.screenshot(path=f"/tmp/desktop-{game}.png", full_page=True)
    assert page.js_errors == [], page.js_errors
