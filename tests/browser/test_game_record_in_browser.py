"""A finished game's record and replay in a real Chromium: the arrow keys step
through the moves, every hand is shown, and the seat whose eyes the table is
seen with can be changed."""

import re

import pytest

from tests.browser.conftest import log_in

pytestmark = pytest.mark.browser

PASSWORD = "kitchen-Table-2024"


def test_the_replay_steps_through_the_game_with_the_arrow_keys_and_shows_every_hand(page, live_site):
    from playwright.sync_api import expect

    setup = live_site.run_scenario("replayable_game", "rita", PASSWORD)
    log_in(page, "rita", PASSWORD, setup["url"])
    page.locator("a", has_text="replay").first.click()
    page.wait_for_url(re.compile(r"/sheets/\d+/replay/$"))
    position = page.locator(".replay-position")
    expect(position).to_have_text(f"Move 0 of {setup['moves']}")
    hands = page.locator("#table .all-hands .hand-row")
    expect(hands).to_have_count(2)
    expect(hands.nth(0).locator(".card")).to_have_count(6)  # the deal: six cards each
    expect(hands.nth(1).locator(".card")).to_have_count(6)

    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Move 1 of {setup['moves']}")
    expect(page.locator("#table .event-log li").first).not_to_be_empty()
    page.keyboard.press("End")
    expect(position).to_have_text(f"Move {setup['moves']} of {setup['moves']}")
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"Move {setup['moves'] - 1} of {setup['moves']}")
    assert page.url.endswith(f"#{setup['moves'] - 1}")

    page.select_option(".replay-seat", "1")  # the computer's eyes: its own hand at the bottom
    expect(position).to_have_text(f"Move {setup['moves'] - 1} of {setup['moves']}")
    page.locator(".replay-controls [data-step=first]").click()
    expect(position).to_have_text(f"Move 0 of {setup['moves']}")


def test_the_record_page_lists_the_moves_in_words_by_bout(page, live_site):
    from playwright.sync_api import expect

    setup = live_site.run_scenario("replayable_game", "rosa", PASSWORD)
    log_in(page, "rosa", PASSWORD, setup["url"])
    page.locator("a", has_text="all moves").first.click()
    expect(page.locator("h2").first).to_have_text("Bout 1")
    # A row per move; the steps that followed a move by themselves (draws, the end of a bout) are rows of their own.
    expect(page.locator("table.record tbody tr:not(.step)")).to_have_count(setup["moves"])
    expect(page.locator("table.record tbody tr.step", has_text="draws").first).to_be_visible()
    expect(page.locator("main")).to_contain_text(setup["name"] + " attacks with")
