"""The Joker table as a new player meets it, in a real Chromium: the list of
cards that chose the first dealer does not cover its own text, and while the
trump is named after 3 cards of a 9-card deal, each seat says as many cards
as the player holds at that moment."""

import re

import pytest

from tests.browser.conftest import log_in as browser_log_in


pytestmark = pytest.mark.browser

PASSWORD = "a long enough password 7"


def log_in(page, username: str, url: str) -> None:
    browser_log_in(page, username, PASSWORD, url)
    page.locator("#table .seat").first.wait_for()


def boxes_intersect(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


# Every text run of the list of the first dealer's choice (the summary, each
# item's name, each list number's place) and every card, as boxes.
TUZ_BOXES_JS = """() => {
  const tuz = document.querySelector("#table details.tuz");
  const texts = [];
  const walker = document.createTreeWalker(tuz, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || node.parentElement.closest(".card")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) texts.push({text: node.textContent.trim(), x: r.x, y: r.y, width: r.width, height: r.height});
  }
  const markers = [...tuz.querySelectorAll("li")].map((li) => {
    const r = li.getBoundingClientRect();
    const style = getComputedStyle(li);
    // An outside list number sits left of its item, about 1.5em wide.
    if (style.display !== "list-item" || style.listStyleType === "none" || style.listStylePosition !== "outside") return null;
    const em = parseFloat(style.fontSize);
    return {text: "marker", x: r.x - 1.5 * em, y: r.y, width: 1.5 * em, height: em * 1.2};
  }).filter(Boolean);
  const cards = [...tuz.querySelectorAll(".card")].map((c) => {
    const r = c.getBoundingClientRect();
    return {text: c.textContent, x: r.x, y: r.y, width: r.width, height: r.height};
  });
  return {texts: texts.concat(markers), cards: cards};
}"""


def test_the_cards_that_chose_the_first_dealer_never_cover_the_text_beside_them(page, live_site):
    setup = live_site.run_scenario("joker_against_computers", "nino", PASSWORD)
    log_in(page, "nino", setup["url"])

    tuz = page.locator("#table details.tuz")
    tuz.wait_for()
    if tuz.get_attribute("open") is None:
        tuz.locator("summary").click()
    boxes = page.evaluate(TUZ_BOXES_JS)
    page.screenshot(path="/tmp/joker-tuz.png")

    assert boxes["cards"], "the list shows the cards dealt until the first ace"
    overlaps = [(text["text"], card["text"]) for text in boxes["texts"] for card in boxes["cards"]
                if boxes_intersect(text, card)]
    assert overlaps == []
    assert page.js_errors == []


def seat_hand_counts(page) -> list[int]:
    texts = page.locator("#table .seat .hand-size").all_inner_texts()
    return [int(re.search(r"\d+", text).group()) for text in texts]


def test_while_the_trump_is_named_my_seat_says_as_many_cards_as_my_hand_shows(page, live_site):
    setup = live_site.run_scenario("joker_trump_choice", "levan", PASSWORD)
    log_in(page, "levan", setup["url"])
    page.locator("#table button[data-trump]").first.wait_for()
    page.screenshot(path="/tmp/joker-trump-choice.png")

    shown = page.locator("#table .hand .card").count()
    assert shown == len(setup["hand"]) == 3
    my_seat = page.locator("#table .seat.me .hand-size").inner_text()
    assert int(re.search(r"\d+", my_seat).group()) == shown
    # The others hold their first 3 cards too, face down until the trump is named.
    assert seat_hand_counts(page) == [3, 3, 3, 3]
    assert page.js_errors == []
