"""A person plays domino Poker against a computer player in a real Chromium.

Everything the way a person does it: sign up, choose a short schedule on the
lobby's new-table form (its preview follows), then click the bids, the tiles,
the blind stage's bid with the tiles face down, and stage 5: the row of 28,
the pick when leading, the show-or-hide choice and its confirmation, until
the game is over; the score sheet follows every deal without a reload.
"""

import re
import time

import pytest

from tests.browser.conftest import (
    deal_number, log_in, new_page, sign_up, table_version, wait_for_sheet_of_current_version, wait_for_version_above,
)

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/domino-poker-browser.png"
PLAY_SECONDS = 150
# A person cannot click faster than the site's flood guard allows (gameplay/inbound.py:
# 40 frames in 5 s, 300 a minute, pings and syncs included); against computer players that
# answer at once this script could, so it leaves at least this long between its moves.
MOVE_INTERVAL_SECONDS = 0.25
STEP_TIMEOUT_MS = 20_000
DEALS = 14  # stage 1's twelve deals without sevens, one blind deal, stage 5

# What the page waits for from this player now, or that the game is over.
NEXT_STEP_JS = """() => {
  const table = document.getElementById("table");
  if (table.querySelector(".outcome")) return "over";
  if (table.querySelector("button[data-confirm-reveal]:not([disabled])")) return "confirm";
  if (!table.querySelector(".seat.me.acting")) return null;
  if (table.querySelector("button[data-reveal]:not([disabled])")) return "reveal";
  if (table.querySelector("button[data-direction]:not([disabled])")) return "direction";
  if (table.querySelector("button[data-index]")) return "pick";
  if (table.querySelector("button[data-bid]:not([disabled])")) return "bid";
  if (table.querySelector("button[data-tile]:not([disabled])")) return "tile";
  return null;
}"""


def create_a_short_table(page) -> None:
    """The lobby's form: domino Poker for two, no deals of 7, one blind deal, stage 5; the preview follows."""
    from playwright.sync_api import expect

    form = page.locator("form.new-game")
    form.locator("#id_engine").select_option("domino_poker")
    preview = form.locator(".domino-schedule")
    expect(preview).to_be_visible()
    expect(preview).to_contain_text("In all: 19 deals")
    form.locator("#id_players").fill("2")
    form.locator("#id_domino_sevens").fill("0")
    form.locator("#id_domino_grab_deals").fill("9")
    expect(preview.locator("[data-preview-error]")).to_contain_text("Enter a whole number of deals from 0 to 4.")
    form.locator("#id_domino_grab_deals").fill("0")
    form.locator("#id_domino_misere_deals").fill("0")
    form.locator("#id_domino_final_stage").check()
    expect(preview).to_contain_text(f"In all: {DEALS} deals")
    expect(preview).to_contain_text("Stage 5: show or hide — one tile each from the row of 28")
    expect(preview.locator("[data-preview-error]")).to_have_text("")
    form.locator("#id_fill_with_bots").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))


def test_a_person_plays_domino_poker_through_the_blind_deal_and_the_stage_5_showdown(page, live_site):
    from playwright.sync_api import expect

    started = time.monotonic()
    sign_up(page, "dasha", "Dasha", "kitchen-Table-2024")
    create_a_short_table(page)
    game_url = page.url

    table = page.locator("#table")
    expect(table.locator(".deal-info")).to_contain_text(f"Deal 1 of {DEALS}")
    expect(table.locator(".seat")).to_have_count(2)
    # The draw for the first player, and real tiles with their names for screen readers.
    expect(table.locator(".domino-draw summary")).to_contain_text("drew the most pips")
    expect(table.locator(".domino-draw .tile svg circle").first).to_be_attached()
    expect(table.locator(".domino-hand .tile")).to_have_count(1)
    assert re.fullmatch(r"\d-\d", table.locator(".domino-hand .tile").first.get_attribute("aria-label"))
    page.wait_for_function("() => document.getElementById('sheet').dataset.version !== undefined",
                           timeout=STEP_TIMEOUT_MS)

    page.evaluate("() => { window.__noReload = true; }")
    seen = {"blind": False, "row": False, "pick": False, "confirm": False}
    checked_sheet_after_deal_1 = False
    deadline = time.monotonic() + PLAY_SECONDS
    last_move = 0.0
    while True:
        assert time.monotonic() < deadline, f"still in deal {deal_number(page, of=DEALS)} after {PLAY_SECONDS}s"
        step = page.wait_for_function(NEXT_STEP_JS, timeout=STEP_TIMEOUT_MS).json_value()
        if step == "over":
            break
        if not checked_sheet_after_deal_1 and deal_number(page, of=DEALS) >= 2:
            wait_for_sheet_of_current_version(page)
            row = page.locator("#sheet table.domino-sheet tr.deal").first
            expect(row).not_to_have_class(re.compile(r"\bin-progress\b"))
            totals = row.locator(".total").all_inner_texts()
            assert len(totals) == 2 and all(re.fullmatch(r"-?\d+", t) for t in totals), totals
            checked_sheet_after_deal_1 = True
        before = table_version(page)
        time.sleep(max(0.0, last_move + MOVE_INTERVAL_SECONDS - time.monotonic()))
        last_move = time.monotonic()
        if step == "bid":
            if table.locator(".stage-note[data-kind=blind]").count():
                # Blind: the tiles are face down while the bids are made.
                expect(table.locator(".domino-hand .tile.back")).to_have_count(7)
                expect(table.locator(".domino-hand button[data-tile]")).to_have_count(0)
                if not seen["blind"]:
                    page.screenshot(path="/tmp/domino-poker-blind.png", full_page=True)
                seen["blind"] = True
            table.locator("button[data-bid]:not([disabled])").first.click()
        elif step == "tile":
            table.locator("button[data-tile]:not([disabled])").first.click()
        elif step == "pick":
            expect(table.locator(".domino-row .tile")).to_have_count(28)
            table.locator("button[data-index='5']").click()
            expect(table.locator("button[data-direction]")).to_have_count(2)
            page.screenshot(path="/tmp/domino-poker-pick.png", full_page=True)
            seen["pick"] = True
            continue
        elif step == "direction":
            table.locator("button[data-direction='left']").click()
        elif step == "reveal":
            expect(table.locator(".domino-row .tile")).to_have_count(28)
            expect(table.locator(".domino-row .tile.turned")).to_have_count(1)
            expect(table.locator(".my-final-tile .tile")).to_have_count(1)
            seen["row"] = True
            table.locator("button[data-reveal='show']").click()
            continue
        elif step == "confirm":
            page.screenshot(path="/tmp/domino-poker-confirm.png", full_page=True)
            expect(table.locator(".reveal-controls .confirm")).to_contain_text("The choice is final.")
            seen["confirm"] = True
            table.locator("button[data-confirm-reveal='show']").click()
        wait_for_version_above(page, before)

    assert seen["blind"] and seen["row"] and seen["confirm"], seen
    assert page.evaluate("() => window.__noReload") is True and page.url == game_url

    # The game is over: the sheet has every deal under its stage, stage 5's row and the final ranking.
    wait_for_sheet_of_current_version(page)
    sheet = page.locator("#sheet")
    expect(sheet.locator("table.domino-sheet tr.deal")).to_have_count(DEALS)
    expect(sheet.locator("table.domino-sheet tr.in-progress")).to_have_count(0)
    expect(sheet.locator("tr.stage-heading")).to_have_count(3)
    expect(sheet.locator("tr.stage-heading").nth(1)).to_contain_text("Stage 2: blind")
    expect(sheet.locator("tr.stage-heading").nth(2)).to_contain_text("Stage 5: show or hide")
    expect(sheet.locator("tbody[data-stage='5'] tr.deal .choice").first).to_be_attached()
    expect(sheet.locator(".sheet-result .ranking li")).to_have_count(2)
    expect(table.locator(".outcome")).to_contain_text("Game over")

    assert page.js_errors == [], page.js_errors
    page.screenshot(path=SCREENSHOT, full_page=True)
    assert time.monotonic() - started < PLAY_SECONDS + 30


def test_the_leader_points_at_a_tile_of_the_row_and_a_direction_then_hides_the_tile_given(page, live_site):
    from playwright.sync_api import expect


    password = "kitchen-Table-2024"
    setup = live_site.run_scenario("domino_leader", "lev", password)
    log_in(page, "lev", password, setup["url"])
    table = page.locator("#table")
    expect(table).to_have_attribute("data-version", str(setup["version"]))
    expect(table.locator(".deal-info")).to_contain_text("Stage 5: show or hide")
    expect(table.locator(".seat.me")).to_contain_text("leader")
    row = table.locator(".domino-row")
    expect(row.locator("button[data-index]")).to_have_count(28)
    expect(row.locator(".tile.back")).to_have_count(28)
    expect(row.locator("button[data-index='20']")).to_have_accessible_name("Tile 21 of the row, face down")
    row.locator("button[data-index='20']").click()
    expect(row.locator("button[data-index='20']")).to_have_attribute("aria-pressed", "true")
    expect(table.locator(".pick-controls .prompt")).to_have_text("Tile 21: count which way?")
    table.locator("button[data-direction='left']").click()
    wait_for_version_above(page, setup["version"])

    # The tile is turned for everyone; the two tiles dealt lie 1 + its pips further to the left.
    turned = row.locator(".tile.turned")
    expect(turned).to_have_count(1)
    code = turned.get_attribute("data-tile")
    pips = sum(int(half) for half in code.split("-"))
    dealt = [(20 - pips - offset) % 28 for offset in (1, 2)]
    expect(table.locator(".pick-note")).to_contain_text(f"turned over tile 21, {code}: {pips} pips counted to the left")
    expect(row.locator(".tile.dealt")).to_have_count(2)
    assert sorted(int(i) for i in row.locator(".tile.dealt").evaluate_all(
        "(tiles) => tiles.map((t) => [...t.parentNode.children].indexOf(t))")) == sorted(dealt)
    mine = table.locator(".my-final-tile .tile").get_attribute("data-tile")
    expect(row.locator(f".tile.dealt[data-owner='0']")).to_have_attribute("data-tile", mine)
    expect(row.locator(".tile.dealt[data-owner='1']")).not_to_have_attribute("data-tile", re.compile("."))

    # Hide it, after the confirmation; then the computer's choice comes and both are revealed.
    before = table_version(page)
    table.locator("button[data-reveal='hide']").click()
    expect(table.locator(".reveal-controls .confirm")).to_have_text("Hide your tile? The choice is final.")
    table.locator("button[data-confirm-reveal='hide']").click()
    wait_for_version_above(page, before)
    expect(table.locator(".outcome")).to_contain_text("Game over")
    expect(table.locator(".seat.me .choice-made")).to_have_text(" hides")
    wait_for_sheet_of_current_version(page)
    final = page.locator("#sheet tbody[data-stage='5'] tr.deal")
    expect(final.locator(".tiles")).to_have_text(code)
    expect(final.locator(".choice").first).to_have_text("hides")
    assert page.js_errors == [], page.js_errors


def scrolls_sideways(page) -> bool:
    widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    return widths[0] > widths[1]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_on_a_phone_the_rules_and_the_form_with_its_preview_do_not_scroll_sideways(browser, live_site, language):
    from playwright.sync_api import expect


    page = new_page(browser, live_site, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                    locale="ru-RU" if language == "ru" else "en-US", extra_http_headers={"Accept-Language": language})
    try:
        page.goto("/rules/domino_poker/")
        expect(page.locator("#options dt").first).to_be_visible()
        assert not scrolls_sideways(page), "the rules scroll sideways"
        if language == "en":  # the lobby's form is for signed-in players (sign_up reads the English page)
            sign_up(page, "phone-en", "Phone", "kitchen-Table-2024")
            page.locator("form.new-game #id_engine").select_option("domino_poker")
            expect(page.locator(".domino-schedule")).to_be_visible()
            assert not scrolls_sideways(page), "the new-table form scrolls sideways"
        assert page.js_errors == [], page.js_errors
    finally:
        page.context.close()


@pytest.mark.parametrize("moment", ["blind", "final"])
def test_on_a_phone_a_table_for_four_shows_the_blind_bid_and_stage_5_without_scrolling(browser, live_site, moment):
    from playwright.sync_api import expect

    password = "kitchen-Table-2024"
    username = f"mila-{moment}"
    setup = live_site.run_scenario("domino_final", username, password, moment)
    phone = {"width": 390, "height": 844}
    page = new_page(browser, live_site, viewport=phone, is_mobile=True, has_touch=True)
    try:
        log_in(page, username, password, setup["url"])
        table = page.locator("#table")
        expect(table.locator(".seat.me.acting")).to_have_count(1)
        if moment == "final":
            expect(table.locator(".domino-row .tile")).to_have_count(28)
            expect(table.locator(".domino-draw")).to_have_count(0)  # deal 1's draw is in the move log by now
            controls = ["button[data-reveal='show']", "button[data-reveal='hide']", ".my-final-tile .tile"]
        else:
            expect(table.locator(".domino-hand .tile.back")).to_have_count(7)
            controls = ["button[data-bid='0']", "button[data-bid='7']", ".domino-hand .tile.back >> nth=6"]
        assert not scrolls_sideways(page), f"{moment} scrolls sideways"
        page.screenshot(path=f"/tmp/phone-domino-{moment}.png", full_page=True)  # for people, and a failure
        for selector in controls:
            # Wholly on the phone's first screen; retried, as a live update may redraw the table meanwhile.
            expect(table.locator(selector)).to_be_in_viewport(ratio=1)
        assert page.js_errors == [], page.js_errors
    finally:
        page.context.close()
