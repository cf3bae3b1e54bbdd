"""A person plays Joker against three computer players in a real Chromium.

The site runs under daphne with WebSockets (see conftest.py); everything is
done the way a person does it: sign up through the form, create the table
from the lobby, click the bids and the cards.
"""

import json
import re
import time

import pytest

from tests.browser.conftest import (
    deal_number, sign_up, table_version, wait_for_sheet_of_current_version, wait_for_version_above,
)

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/joker-browser.png"
PLAY_UNTIL_DEAL = 3  # deals 1 and 2 have 1 and 2 cards each
PLAY_SECONDS = 45
STEP_TIMEOUT_MS = 20_000

# What the page shows when it is waiting for this player, or that the goal is reached.
NEXT_STEP_JS = """(untilDeal) => {
  const table = document.getElementById("table");
  const info = table && table.querySelector(".deal-info > span");
  const m = info && info.textContent.match(/Deal (\\d+) of/);
  if (m && Number(m[1]) >= untilDeal) return "done";
  if (table.querySelector("button[data-joker]")) return "joker";
  if (!table.querySelector(".seat.me.acting")) return null;
  if (table.querySelector("button[data-trump]:not([disabled])")) return "trump";
  if (table.querySelector("button[data-bid]:not([disabled])")) return "bid";
  if (table.querySelector("button[data-card]:not([disabled])")) return "card";
  return null;
}"""


def assert_deal_row_complete(page, deal_index: int) -> None:
    row = page.locator("#sheet table.joker-sheet tr.deal").nth(deal_index)
    from playwright.sync_api import expect

    expect(row).not_to_have_class(re.compile(r"\bin-progress\b"))
    points = [cell.strip() for cell in row.locator("td.points").all_inner_texts()]
    bids = [cell.strip() for cell in row.locator("td.bid").all_inner_texts()]
    took = [cell.strip() for cell in row.locator("td.took").all_inner_texts()]
    assert len(points) == 4, points
    assert all(re.fullmatch(r"-?\d+\D*", p) for p in points), f"deal {deal_index + 1} points: {points}"
    assert all(re.fullmatch(r"—|\d+", b) for b in bids), f"deal {deal_index + 1} bids: {bids}"
    assert all(re.match(r"\d+", t) for t in took), f"deal {deal_index + 1} tricks: {took}"


def wait_for_frames(page, frames: list[dict], condition, seconds: float = 10) -> list[dict]:
    """The state messages received so far, once `condition(states)` holds (Playwright
    delivers WebSocket frame events while it waits)."""
    deadline = time.monotonic() + seconds
    while True:
        states = [f for f in frames if f.get("type") == "state"]
        if states and condition(states):
            return states
        assert time.monotonic() < deadline, f"{len(states)} state messages: {[f['version'] for f in states]}"
        page.wait_for_timeout(100)


def test_sign_up_create_a_table_and_play_the_first_deals(page, live_site):
    from playwright.sync_api import expect

    started = time.monotonic()
    frames: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(json.loads(data))))

    sign_up(page, "nino", "Nino", "kitchen-Table-2024")

    # The lobby's "New table" form, with computer players in the free seats.
    form = page.locator("form.new-game")
    form.locator("#id_engine").select_option("joker")
    form.locator("#id_fill_with_bots").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = page.url

    table = page.locator("#table")
    expect(table).to_have_attribute("data-version", re.compile(r"^\d+$"))
    expect(table.locator(".deal-info")).to_contain_text("Deal 1 of 24")
    expect(table.locator(".seat")).to_have_count(4)
    expect(table.locator(".seat.me .name")).to_contain_text("Nino")
    for n in (2, 3, 4):
        expect(table.locator(".seats")).to_contain_text(f"Computer {n}")
    wait_for_frames(page, frames, lambda states: True)  # the socket is open and sent the state
    expect(table).not_to_have_class(re.compile(r"\boffline\b"))
    page.wait_for_function("() => document.getElementById('sheet').dataset.version !== undefined",
                           timeout=STEP_TIMEOUT_MS)

    # From here on nothing may reload the page: moves arrive over the socket.
    page.evaluate("() => { window.__noReload = true; }")
    navigations = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and navigations.append(frame.url))
    first_version = table_version(page)
    first_sheet_version = page.locator("#sheet").get_attribute("data-version")

    clicks = 0
    checked_deal_1_sheet = False
    deadline = time.monotonic() + PLAY_SECONDS
    while True:
        assert time.monotonic() < deadline, f"still in deal {deal_number(page, of=24)} after {PLAY_SECONDS}s"
        step = page.wait_for_function(NEXT_STEP_JS, arg=PLAY_UNTIL_DEAL, timeout=STEP_TIMEOUT_MS).json_value()
        if not checked_deal_1_sheet and deal_number(page, of=24) >= 2:
            # Deal 1 is over: its row on the sheet is filled in without a reload.
            wait_for_sheet_of_current_version(page)
            assert_deal_row_complete(page, 0)
            checked_deal_1_sheet = True
        if step == "done":
            break
        before = table_version(page)
        if step == "card":
            card = table.locator("button[data-card]:not([disabled])").first
            code = card.get_attribute("data-card")
            card.click()
            if code.startswith("X"):  # the joker: say how it plays first
                expect(table.locator("button[data-joker]").first).to_be_visible()
                continue
        else:
            selector = {"joker": "button[data-joker]", "trump": "button[data-trump]:not([disabled])",
                        "bid": "button[data-bid]:not([disabled])"}[step]
            table.locator(selector).first.click()
        clicks += 1
        wait_for_version_above(page, before)

    assert checked_deal_1_sheet
    assert deal_number(page, of=24) >= PLAY_UNTIL_DEAL
    # The computers before this player in deal 3 have bid: the table is still now.
    expect(table.locator(".seat.me.acting")).to_have_count(1)
    last_version = table_version(page)

    # The computers' moves came in without a reload, over the WebSocket.
    assert page.evaluate("() => window.__noReload") is True, "the page was reloaded"
    assert navigations == [] and page.url == game_url, navigations
    assert last_version - first_version > clicks, (first_version, last_version, clicks)
    states = wait_for_frames(page, frames, lambda states: max(f["version"] for f in states) >= last_version)
    bot_events = [e for f in states for e in f.get("events") or []
                  if e.get("type") in ("bid", "played") and e.get("seat") != 0]
    assert bot_events, "no computer move arrived over the WebSocket"
    log = table.locator(".event-log li")
    expect(log.filter(has_text=re.compile(r"^Computer [234] \(level 1\) (played|bid) "))).not_to_have_count(0)
    expect(log.filter(has_text=f"Deal {PLAY_UNTIL_DEAL} begins")).to_have_count(1)

    # The sheet followed: refreshed for the latest version, deals 1 and 2 filled in.
    wait_for_sheet_of_current_version(page)
    assert page.locator("#sheet").get_attribute("data-version") != first_sheet_version
    assert_deal_row_complete(page, 0)
    assert_deal_row_complete(page, 1)
    expect(page.locator("#sheet .joker-sheet thead")).to_contain_text("Nino")

    assert page.js_errors == [], page.js_errors
    page.screenshot(path=SCREENSHOT, full_page=True)
    assert time.monotonic() - started < 90


def test_a_card_that_may_not_be_played_says_why(page, live_site):
    """A card the rules forbid is disabled, and its title gives the engine's reason."""
    from playwright.sync_api import expect

    password = "kitchen-Table-2024"
    setup = live_site.run_scenario("follow_suit", "tamar", password)
    frames: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(json.loads(data))))

    page.goto("/accounts/login/?next=" + setup["url"])
    page.fill("#id_username", "tamar")
    page.fill("#id_password", password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(re.escape(setup["url"]) + "$"))

    table = page.locator("#table")
    wait_for_frames(page, frames, lambda states: True)
    expect(table).not_to_have_class(re.compile(r"\boffline\b"))
    expect(table).to_have_attribute("data-version", str(setup["version"]))
    expect(table.locator(".deal-info")).to_contain_text(f"Deal {setup['deal']} of 24")
    expect(table.locator(".seat.me.acting")).to_have_count(1)

    for code, reason in setup["blocked"].items():
        card = table.locator(f'button[data-card="{code}"]')
        expect(card).to_be_disabled()
        expect(card).to_have_attribute("title", reason)
        assert re.search(r"must (follow suit|play)", reason), reason
    for code in setup["playable"]:
        card = table.locator(f'button[data-card="{code}"]')
        expect(card).to_be_enabled()
        assert card.get_attribute("title") is None

    # Clicking the forbidden card changes nothing. The mouse clicks where the card is, as
    # a player does: a redraw that replaces the button in place does not lose the click.
    code = next(iter(setup["blocked"]))
    box = table.locator(f'button[data-card="{code}"]').bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    under_mouse = "([x, y]) => document.elementFromPoint(x, y).closest('button').dataset.card"
    assert page.evaluate(under_mouse, [x, y]) == code
    page.mouse.click(x, y)
    page.wait_for_timeout(500)
    assert table_version(page) == setup["version"]
    assert page.locator("#move-error").inner_text() == ""
    assert page.js_errors == [], page.js_errors
