"""A person plays Odessa poker against computer players in a real Chromium: creates the table
from the lobby with options of their own (the deal schedule following them on the form), bids
and plays by clicking, leads the joker with a demand, bids blind with the cards face down, and
watches the score sheet fill in without a reload."""

import re
import time

import pytest

from tests.browser.conftest import (
    deal_number, log_in, sign_up, table_version, wait_for_sheet_of_current_version,
    wait_for_version_above,
)

pytestmark = pytest.mark.browser

PASSWORD = "kitchen-Table-2024"
PLAY_UNTIL_DEAL = 3  # deals 1 and 2 have 1 and 2 cards each
PLAY_SECONDS = 60
STEP_TIMEOUT_MS = 20_000
SCREENSHOT = "/tmp/odessa-browser.png"

NEXT_STEP_JS = """(untilDeal) => {
  const table = document.getElementById("table");
  const info = table && table.querySelector(".deal-info > span");
  const m = info && info.textContent.match(/Deal (\\d+) of/);
  if (m && Number(m[1]) >= untilDeal) return "done";
  if (table.querySelector("button[data-joker]")) return "joker";
  if (!table.querySelector(".seat.me.acting")) return null;
  if (table.querySelector("button[data-bid]:not([disabled])")) return "bid";
  if (table.querySelector("button[data-card]:not([disabled])")) return "card";
  return null;
}"""


def run_odessa_scenario(live_site, name: str, username: str) -> dict:
    return live_site.run_scenario_of("tests.browser.odessa_scenario", name, username, PASSWORD)


def test_create_a_table_with_chosen_options_and_play_the_first_deals(page, live_site):
    from playwright.sync_api import expect

    started = time.monotonic()
    sign_up(page, "olena", "Olena", PASSWORD)
    form = page.locator("form.new-game")
    form.locator("#id_engine").select_option("odessa")
    schedule = form.locator(".odessa-schedule .schedule-deals")
    expect(schedule).to_have_text("1–8, 9 ×4, 8–1, blind 9 ×4, golden 9 ×4, miser 9 ×4, no trump 9 ×4 — 36 deals")
    form.locator("#id_players").fill("3")
    form.locator("#id_odessa_max_hand").fill("3")
    form.locator("#id_odessa_special_1").select_option("miser")
    form.locator("#id_odessa_special_2").select_option("")
    form.locator("#id_odessa_special_3").select_option("")
    form.locator("#id_odessa_special_4").select_option("")
    form.locator("#id_odessa_specials_mode").select_option("once")
    form.locator("#id_odessa_special_multiplier").select_option("3")
    form.locator("#id_odessa_trump").select_option("H")
    expect(schedule).to_have_text("1–2, 3 ×3, 2–1, miser 3 — 8 deals")
    form.locator("#id_odessa_max_hand").fill("13")
    form.locator("#id_odessa_max_hand").dispatch_event("change")
    expect(form.locator(".odessa-schedule .schedule-error")).to_contain_text("less than or equal to 12")
    form.locator("#id_odessa_max_hand").fill("3")
    form.locator("#id_odessa_max_hand").dispatch_event("change")
    expect(schedule).to_have_text("1–2, 3 ×3, 2–1, miser 3 — 8 deals")
    form.locator("#id_fill_with_bots").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = page.url

    table = page.locator("#table")
    expect(table.locator(".deal-info")).to_contain_text("Deal 1 of 8")
    expect(table.locator(".deal-info .trump")).to_contain_text("♥")
    expect(table.locator(".seat")).to_have_count(3)
    expect(page.locator(".variant, header, main").first).to_be_visible()
    assert "miser (×3)" in page.content()
    page.wait_for_function("() => document.getElementById('sheet').dataset.version !== undefined",
                           timeout=STEP_TIMEOUT_MS)
    page.evaluate("() => { window.__noReload = true; }")

    clicks, deadline = 0, time.monotonic() + PLAY_SECONDS
    while True:
        assert time.monotonic() < deadline, f"still in deal {deal_number(page)} after {PLAY_SECONDS}s"
        step = page.wait_for_function(NEXT_STEP_JS, arg=PLAY_UNTIL_DEAL, timeout=STEP_TIMEOUT_MS).json_value()
        if step == "done":
            break
        before = table_version(page)
        if step == "card":
            card = table.locator("button[data-card]:not([disabled])").first
            card.click()
            if table.locator("button[data-joker]").count():  # the joker: say how it plays first
                continue
        else:
            selector = {"joker": "button[data-joker]", "bid": "button[data-bid]:not([disabled])"}[step]
            table.locator(selector).first.click()
        clicks += 1
        wait_for_version_above(page, before)

    assert clicks >= 4  # at least a bid and a card in each of deals 1 and 2
    assert page.evaluate("() => window.__noReload") is True and page.url == game_url
    wait_for_sheet_of_current_version(page)
    sheet = page.locator("#sheet table.odessa-sheet")
    expect(sheet.locator("thead")).to_contain_text("Olena")
    rows = sheet.locator("tr.deal")
    expect(rows).to_have_count(8)
    for index in (0, 1):
        row = rows.nth(index)
        expect(row).not_to_have_class(re.compile(r"\bin-progress\b"))
        totals = [cell.strip() for cell in row.locator("td.running").all_inner_texts()]
        bids = [cell.strip() for cell in row.locator("td.bid").all_inner_texts()]
        assert all(re.fullmatch(r"-?\d+", t) for t in totals), totals
        assert all(re.fullmatch(r"—|\d+", b) for b in bids), bids
    expect(sheet.locator("tr.special-heading")).to_contain_text("miser")
    log = table.locator(".event-log li")
    expect(log.filter(has_text=re.compile(r"^Computer [23] \(level 1\) (played|bid) "))).not_to_have_count(0)
    assert page.js_errors == [], page.js_errors
    page.screenshot(path=SCREENSHOT, full_page=True)
    assert time.monotonic() - started < 120


def test_leading_the_joker_with_a_demand(page, live_site):
    from playwright.sync_api import expect

    setup = run_odessa_scenario(live_site, "joker_lead", "pavlo")
    log_in(page, "pavlo", PASSWORD, setup["url"])
    table = page.locator("#table")
    expect(table).to_have_attribute("data-version", str(setup["version"]))
    joker = table.locator(f'button[data-card="{setup["joker"]}"]')
    expect(joker).to_be_enabled()
    joker.click()
    choices = table.locator(".joker-choices")
    expect(choices).to_contain_text("How do you play the joker?")
    for mode in ("high", "low", "demand"):
        expect(choices.locator(f'button[data-joker^="{mode}-"]')).to_have_count(4)
    expect(choices.locator(".joker-hints")).to_contain_text("highest card of the suit you name")
    choices.locator('button[data-joker="demand-H"]').click()
    wait_for_version_above(page, setup["version"])
    expect(table.locator(".event-log")).to_contain_text("(demand ♥)")
    page.reload()  # the move log is written by the server with the page
    expect(page.locator(".move-log")).to_contain_text("pavlo leads the joker 7♠ demanding the highest ♥")
    assert page.js_errors == [], page.js_errors


def test_the_blind_bid_is_made_with_the_cards_face_down(page, live_site):
    from playwright.sync_api import expect

    setup = run_odessa_scenario(live_site, "blind_bid", "mariia")
    log_in(page, "mariia", PASSWORD, setup["url"])
    table = page.locator("#table")
    expect(table).to_have_attribute("data-version", str(setup["version"]))
    expect(table.locator(".odessa-special")).to_contain_text("Special deal: blind ×2")
    expect(table.locator(".hand .card.back")).to_have_count(setup["cards"])
    expect(table.locator(".hand button[data-card]")).to_have_count(0)
    expect(table.locator(".deal-info .trump")).to_contain_text("shown once every bid is in")
    expect(table.locator('button[data-bid="0"]')).to_be_disabled()
    expect(table.locator(".controls .prompt")).to_contain_text("Your blind bid")
    table.locator('button[data-bid]:not([disabled])').first.click()
    wait_for_version_above(page, setup["version"])
    # Once every bid is in (the computer bids at once when it bids after this player), the cards show.
    expect(table.locator(".hand button[data-card]")).to_have_count(setup["cards"], timeout=STEP_TIMEOUT_MS)
    for card in setup["hand"]:
        expect(table.locator(f'.hand button[data-card="{card}"]')).to_have_count(1)
    assert page.js_errors == [], page.js_errors
