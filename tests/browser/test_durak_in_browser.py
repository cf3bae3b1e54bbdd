"""A person plays a 2-player podkidnoy Durak against a computer player, to the end, in a real Chromium.

The site runs under daphne with WebSockets (see conftest.py): sign up through
the form, create the table from the lobby, then click the cards and the move
buttons the page enables until the game is over. Once every card on the
table is beaten (or the computer takes) the throwers' window waits for this
player too: he presses "done" ("Бито"), except in one bout where he ticks
"Say done for me in this bout" before attacking and the site says it for
him, at his secret release time (beat's sweep's work, run here without
waiting for it). A second test opens a new table on a phone-sized screen.
"""

import re
import time

import pytest

from tests.browser.conftest import new_page, sign_up, table_version, wait_for_version_above
from tests.browser.orders_scenario import run

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/durak-browser.png"
END_SCREENSHOT = "/tmp/durak-browser-over.png"
WINDOW_SCREENSHOT = "/tmp/durak-browser-window.png"
AHEAD_SCREENSHOT = "/tmp/durak-browser-ahead.png"
PHONE_SCREENSHOT = "/tmp/durak-phone.png"
PHONE_WINDOW_SCREENSHOT = "/tmp/durak-phone-window.png"
PHONE_AHEAD_SCREENSHOT = "/tmp/durak-phone-ahead.png"
PASSWORD = "kitchen-Table-2024"
MAX_ACTIONS = 400
PLAY_SECONDS = 150  # with up to one heartbeat (30 s) of waiting for the "done" said in advance
HEARTBEAT_MS = 30_000
STEP_TIMEOUT_MS = 20_000
PHONE = {"width": 390, "height": 844}
PHONE_SLACK = 2  # px: rounding of fractional layouts

# What the page lets this player do now, or that the game is over; null while
# a move is on its way or the computer is to move. "done": the throwers' window
# waits for him (everything beaten, or the computer taking); he may also throw
# in then, but this policy always says done.
NEXT_STEP_JS = """() => {
  const table = document.getElementById("table");
  if (table.querySelector(".outcome")) return "over";
  const enabled = (sel) => table.querySelector(sel + ":not([disabled])");
  if (table.querySelector("button[data-attack]")) return "defend";
  if (table.querySelector("button[data-move=attack]") && enabled("button[data-card]")) return "attack";
  if (enabled("button[data-move=done]")) return "done";
  if (enabled("button[data-move=take]")) return "take";
  return null;
}"""

# The bout number the page shows.
BOUT_JS = """() => Number(document.querySelector("#table .deal-info").textContent.match(/Bout (\\d+)/)[1])"""

# After an attack card was chosen: the move buttons are live again (no move pending).
BEAT_CHOICES_JS = """() => {
  const table = document.getElementById("table");
  return !!table.querySelector("button[data-move=take]:not([disabled])");
}"""


def create_durak_table(page) -> str:
    """From the lobby: 2 players, podkidnoy, computer players in the free seat. The game page's URL."""
    from playwright.sync_api import expect

    form = page.locator("form.new-game")
    form.locator("#id_engine").select_option("durak")
    options = form.locator('fieldset[data-for-engine="durak"]')
    expect(options).to_be_visible()
    form.locator("#id_players").fill("2")
    options.locator("#id_durak_mode").select_option("podkidnoy")
    form.locator("#id_fill_with_bots").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))

    table = page.locator("#table")
    expect(table).to_have_attribute("data-version", re.compile(r"^\d+$"))
    expect(table).not_to_have_class(re.compile(r"\boffline\b"))
    expect(table.locator(".seat")).to_have_count(2)
    expect(table.locator(".seats")).to_contain_text("Computer 2")
    # Not necessarily bout 1: when this player cannot beat the computer's
    # attack he takes at once, and the computer attacks again.
    expect(table.locator(".deal-info")).to_contain_text(re.compile(r"Bout \d+"))
    expect(table.locator(".deal-info")).to_contain_text("Trump")
    assert table.locator(".hand button[data-card]").count() >= 6
    return page.url


def wait_for_step(page) -> str:
    try:
        return page.wait_for_function(NEXT_STEP_JS, timeout=STEP_TIMEOUT_MS).json_value()
    except Exception as exc:
        text = page.locator("#table").inner_text()
        raise AssertionError(f"the page offers this player nothing to do:\n{text}") from exc


def play_one(page, done_labels: list | None = None) -> str:
    """One move by the simple policy; the step it was. The done button's
    label is added to `done_labels` each time it is pressed."""
    from playwright.sync_api import expect

    table = page.locator("#table")
    step = wait_for_step(page)
    if step == "over":
        return step
    before = table_version(page)
    if step == "defend":
        table.locator("button[data-attack]").first.click()
        page.wait_for_function(BEAT_CHOICES_JS, timeout=STEP_TIMEOUT_MS)
        beats = table.locator(".hand button[data-card]:not([disabled])")
        if beats.count():
            beats.first.click()
        else:
            table.locator("button[data-move=take]").click()
    elif step == "attack":
        table.locator(".hand button[data-card]:not([disabled])").first.click()
        attack = table.locator("button[data-move=attack]")
        expect(attack).to_be_enabled()
        attack.click()
    else:
        button = table.locator(f"button[data-move={step}]")
        if step == "done" and done_labels is not None:
            done_labels.append(button.inner_text())
        button.click()
    wait_for_version_above(page, before)
    return step


def say_done_in_advance(page) -> int:
    """Before attacking: tick "Say done for me in this bout" and wait until the
    server's state shows it ticked. The bout number."""
    from playwright.sync_api import expect

    box = page.locator("#table label.ahead")
    expect(box).to_contain_text("Say done for me in this bout")
    box.locator("input[data-ahead]").check()
    expect(page.locator("#table label.ahead.on input[data-ahead]")).to_be_checked()  # re-rendered from the server
    return page.evaluate(BOUT_JS)


def test_play_a_two_player_game_against_the_computer_to_the_end(page, live_site):
    from playwright.sync_api import expect

    started = time.monotonic()
    sign_up(page, "vanya", "Vanya", PASSWORD)
    game_url = create_durak_table(page)
    table = page.locator("#table")
    expect(table.locator(".seat.me .name")).to_contain_text("Vanya")
    expect(page.locator("#game-status")).not_to_have_text("finished")

    # From here on nothing may reload the page: moves arrive over the socket.
    page.evaluate("() => { window.__noReload = true; }")
    navigations = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and navigations.append(frame.url))
    first_version = table_version(page)

    steps: dict[str, int] = {}
    done_labels: list[str] = []
    done_bouts: set[int] = set()  # bouts in which the window waited for him
    ahead_bout = None  # the bout in which he said done in advance
    said_for_him = False  # the site made that "done" at his release time
    game_id = re.search(r"/games/(\d+)/", game_url).group(1)
    screenshot_taken = window_shot = False
    deadline = started + PLAY_SECONDS
    for _ in range(MAX_ACTIONS):
        assert time.monotonic() < deadline, f"not over after {PLAY_SECONDS}s: {steps}\n{table.inner_text()}"
        step = wait_for_step(page)
        if step == "done" and page.evaluate(BOUT_JS) == ahead_bout and not said_for_him:
            # The window waits for him in the bout he said done in advance: at his release time
            # the site says it for him ("done", or "throws in no more" if the computer takes).
            before = table_version(page)
            assert run(live_site, "release", game_id)["moved"] == 1
            # Made by another process (no channel layer between them here): the page's heartbeat,
            # within 30 s, learns the new version and asks for it.
            wait_for_version_above(page, before, timeout_ms=HEARTBEAT_MS + STEP_TIMEOUT_MS)
            # (Asked for, the state comes without the move's events: the bout has moved on.)
            page.wait_for_function(f"() => ({BOUT_JS})() > {ahead_bout}", timeout=STEP_TIMEOUT_MS)
            said_for_him = True
            continue
        if step == "done":
            done_bouts.add(page.evaluate(BOUT_JS))
            if not window_shot:
                page.screenshot(path=WINDOW_SCREENSHOT, full_page=True)
                window_shot = True
        if step == "attack" and ahead_bout is None:
            # His first attack: he never was a thrower before, so any "Vanya: done" in the log is the site's.
            ahead_bout = say_done_in_advance(page)
            page.screenshot(path=AHEAD_SCREENSHOT, full_page=True)
            expect(table.locator(".event-log")).not_to_contain_text(re.compile("Vanya: done|Vanya throws in no more"))
        step = play_one(page, done_labels)
        if step == "over":
            break
        steps[step] = steps.get(step, 0) + 1
        if not screenshot_taken and sum(steps.values()) >= 8 and table.locator(".durak-table .pair").count():
            page.screenshot(path=SCREENSHOT, full_page=True)
            screenshot_taken = True
    else:
        pytest.fail(f"not over after {MAX_ACTIONS} actions: {steps}")

    # The game is over, on the same page.
    outcome = table.locator(".outcome")
    expect(outcome).to_be_visible()
    expect(outcome).to_contain_text("Game over")
    expect(outcome.locator("li")).to_have_count(2)
    expect(page.locator("#game-status")).to_have_text("finished")
    assert page.evaluate("() => window.__noReload") is True, "the page was reloaded"
    assert navigations == [] and page.url == game_url, navigations
    assert steps.get("attack") or steps.get("defend"), steps  # cards were clicked, not only buttons
    assert "Done: beaten" in done_labels, done_labels  # "Бито" after the computer beat everything
    assert ahead_bout is not None and ahead_bout not in done_bouts, (ahead_bout, done_bouts)
    assert said_for_him
    assert set(done_labels) <= {"Done: beaten", "Done: the defender takes"}, done_labels
    assert table_version(page) - first_version > sum(steps.values()), "the computer's moves did not arrive"
    expect(table.locator(".seat.me .role")).to_have_text(re.compile(r"^(out: won|durak|draw)$"))
    expect(table.locator(".event-log")).to_contain_text("The game is over")

    # The score sheet followed without a reload: the series table with the result.
    page.wait_for_function(
        "() => document.getElementById('sheet').dataset.version === document.getElementById('table').dataset.version",
        timeout=STEP_TIMEOUT_MS,
    )
    sheet = page.locator("#sheet")
    expect(sheet.locator("table.durak-sheet thead")).to_contain_text("Vanya")
    expect(sheet.locator("table.durak-sheet thead")).to_contain_text("Computer 2")
    expect(sheet.locator("tfoot")).to_contain_text("Series score")
    points = [c.strip() for c in sheet.locator("tbody tr").first.locator("td").all_inner_texts()]
    assert sorted(points) in (["0", "1"], ["0.5", "0.5"]), points
    result = sheet.locator("p.durak-mark, p", has_text=re.compile(r"is the durak\.|ended in a draw\."))
    expect(result.first).to_be_visible()
    if sorted(points) == ["0", "1"]:
        expect(sheet.locator("p.durak-mark")).to_have_text(re.compile(r"^Game 1: (Vanya|Computer 2 \(level 1\)) is the durak\.$"))

    if not screenshot_taken:
        page.screenshot(path=SCREENSHOT, full_page=True)
    page.screenshot(path=END_SCREENSHOT, full_page=True)
    assert page.js_errors == [], page.js_errors
    assert time.monotonic() - started < PLAY_SECONDS + 30


@pytest.fixture
def phone_page(browser, live_site):
    """Like conftest's `page`, on a 390×844 phone screen with touch."""
    page = new_page(browser, live_site, viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        yield page
    finally:
        page.context.close()


def assert_fits_the_phone(page) -> None:
    """The table, the hand and the move buttons lie within the screen's width (measured at one moment:
    the page re-renders whenever a state arrives)."""
    wait_for_step(page)  # settled: this player's move, nothing on its way
    sizes = page.evaluate("""() => {
        const table = document.getElementById("table");
        const box = (node) => { const r = node.getBoundingClientRect(); return { left: r.left, right: r.right, width: r.width, height: r.height }; };
        return {
            doc: document.documentElement.scrollWidth,
            table: box(table),
            tableScroll: table.scrollWidth,
            tableClient: table.clientWidth,
            cards: [...table.querySelectorAll(".hand button[data-card]")].map(box),
            moves: [...table.querySelectorAll("button[data-move], label.ahead")].map(box),
        };
    }""")
    limit = PHONE["width"] + PHONE_SLACK
    assert sizes["table"]["right"] <= limit, f"#table sticks out of the screen: {sizes}"
    assert sizes["tableScroll"] <= sizes["tableClient"] + PHONE_SLACK, f"#table scrolls sideways: {sizes}"
    assert sizes["doc"] <= limit, f"the page scrolls sideways: {sizes}"
    assert sizes["cards"], "no hand cards"
    for i, box in enumerate(sizes["cards"] + sizes["moves"]):
        assert box["width"] > 0 and box["height"] > 0, f"button {i} is not shown: {sizes}"
        assert box["left"] >= 0 and box["right"] <= limit, f"button {i} is off screen: {box}"


def test_the_game_page_works_on_a_phone_sized_screen(phone_page, live_site):
    from playwright.sync_api import expect

    page = phone_page
    sign_up(page, "masha", "Masha", PASSWORD)
    create_durak_table(page)
    table = page.locator("#table")
    expect(table.locator(".hand button[data-card]").first).to_be_visible()
    assert_fits_the_phone(page)

    # A few moves by tapping work here too, and the table still fits.
    for _ in range(4):
        if play_one(page) == "over":
            break
    expect(table.locator(".hand button[data-card]").first).to_be_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=PHONE_SCREENSHOT, full_page=True)

    # The "say done in advance" box (before an attack) and the window's done button fit too.
    shots = {"attack": PHONE_AHEAD_SCREENSHOT, "done": PHONE_WINDOW_SCREENSHOT}
    for _ in range(MAX_ACTIONS):
        step = wait_for_step(page)
        if step in shots:
            assert_fits_the_phone(page)
            page.screenshot(path=shots.pop(step), full_page=True)
        if not shots or play_one(page) == "over":
            break
    assert page.js_errors == [], page.js_errors
