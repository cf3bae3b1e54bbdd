"""How a game ended, as a player sees it in a real Chromium: the game-over box
and the score sheet agree and say who lost on time; a Durak forfeit is shown
as one; a moderator's abort arrives live with its reason, readable; the chat
of a finished game stays on its page."""

import re

import pytest

from tests.browser.conftest import log_in_to_the_admin, log_in, new_page

pytestmark = pytest.mark.browser

PASSWORD = "kitchen-Table-2024"


def positions(page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("(items) => items.map((li) => li.dataset.position)")


def rgb(css: str) -> tuple[float, ...]:
    return tuple(float(v) for v in re.findall(r"[\d.]+", css)[:3])


def contrast(first: str, second: str) -> float:
    """The WCAG contrast ratio of two CSS rgb() colours."""
    def luminance(colour: tuple[float, ...]) -> float:
        linear = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in colour]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    light, dark = sorted((luminance(rgb(first)), luminance(rgb(second))), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_game_over_box_and_the_sheet_agree_and_say_who_lost_on_time(page, live_site):
    from playwright.sync_api import expect

    setup = live_site.run_scenario("lost_on_time", "lena", PASSWORD)
    log_in(page, "lena", PASSWORD, setup["url"])

    said = f"{setup['late']} lost on time; the game ended."
    box = page.locator("#table .outcome")
    expect(box).to_contain_text("Game over")
    expect(box.locator(".ending")).to_have_text(said)
    expect(page.locator("#game-ending")).to_have_text(said)
    expect(page.locator("#sheet .sheet-result .ending")).to_have_text(said)
    page.wait_for_function("() => document.getElementById('sheet').dataset.version === "
                           "document.getElementById('table').dataset.version")
    in_box = positions(page, "#table .outcome li")
    in_sheet = positions(page, "#sheet ol.ranking li")
    assert in_box == in_sheet and len(in_box) == 4
    assert in_box[-1] == "0"  # the late player, seat 0, is last in both
    assert page.locator("#table .outcome li").last.inner_text().startswith(f"4. {setup['late']}")
    assert page.js_errors == [], page.js_errors


def test_the_chat_of_a_finished_game_stays_on_its_page_read_only(page, live_site):
    from playwright.sync_api import expect

    setup = live_site.run_scenario("lost_on_time", "mira", PASSWORD)
    log_in(page, "mira", PASSWORD, setup["url"])

    chat = page.locator("#chat")
    expect(chat.locator(".chat-messages li")).to_have_text([f"{setup['late']}: Good luck, computers!"])
    expect(chat.locator(".chat-closed")).to_be_visible()
    expect(chat.locator("form.chat-form")).to_be_hidden()
    assert page.js_errors == [], page.js_errors


def test_a_durak_forfeit_is_shown_as_one_never_as_out(page, live_site):
    from playwright.sync_api import expect

    setup = live_site.run_scenario("durak_resigned", "oleg", PASSWORD)
    log_in(page, "oleg", PASSWORD, setup["url"])

    expect(page.locator("#game-ending")).to_have_text(f"{setup['name']} resigned; the game ended.")
    roles = page.locator("#table .seat .role")
    expect(roles).to_have_count(3)
    texts = roles.evaluate_all("(nodes) => nodes.map((n) => n.textContent)")
    assert texts[0] == "resigned"  # his own seat comes first
    assert texts[1:] == ["won", "won"]  # they still hold their cards: not "out: won"
    assert not any("out" in text.lower() for text in texts)
    assert page.js_errors == [], page.js_errors


def test_a_moderators_abort_arrives_live_with_its_reason_and_is_readable(browser, page, live_site):
    from playwright.sync_api import expect

    setup = live_site.run_scenario("abort_table", "pavel", PASSWORD, "moder", PASSWORD)
    log_in(page, "pavel", PASSWORD, setup["url"])
    expect(page.locator("#table")).to_have_attribute("data-version", re.compile(r"\d+"))
    expect(page.locator("#game-ending")).to_be_hidden()
    page.wait_for_function("() => !document.getElementById('table').classList.contains('offline')")
    page.evaluate("() => { window.notReloaded = true; }")

    moderator = new_page(browser, live_site)
    try:
        abort_url = f"/admin/gameplay/game/{setup['game']}/abort/"
        log_in_to_the_admin(moderator, "moder", PASSWORD, abort_url)
        moderator.fill("#id_reason", "Two accounts of one player")
        moderator.locator("input[type=submit]").click()
        expect(moderator.locator(".messagelist")).to_contain_text("Game aborted.")
    finally:
        moderator.context.close()

    notice = page.locator("#game-ending")
    expect(notice).to_have_text("Aborted by a moderator: Two accounts of one player")
    expect(page.locator("#table .outcome")).to_contain_text("Aborted by a moderator: Two accounts of one player")
    assert page.evaluate("() => window.notReloaded === true")  # it came over the socket, not by a reload
    colour, background = notice.evaluate(
        "(node) => { const s = getComputedStyle(node); return [s.color, s.backgroundColor]; }")
    assert contrast(colour, background) >= 4.5, (colour, background)
    box_colour, box_background = page.locator("#table .outcome .ending").evaluate(
        "(node) => [getComputedStyle(node).color, getComputedStyle(document.getElementById('table')).backgroundColor]")
    assert contrast(box_colour, box_background) >= 4.5, (box_colour, box_background)
    assert page.js_errors == [], page.js_errors
