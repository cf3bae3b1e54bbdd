"""The rating chart drawn in Russian as in English (issue 39, item 5): no
console errors, the value labels at their own heights (not piled at the
top), every label, dates included, inside the chart."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.browser.returning_player_scenario import run
from tests.browser.test_correspondence_in_browser import scenario

pytestmark = pytest.mark.browser
PASSWORD = "kitchen-Table-2024"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_rating_chart_keeps_its_axes_in_every_language(page, live_site, language):
    names = [f"{language}{who}" for who in ("pavla", "roman", "sveta", "timur")]
    run(live_site, "rated_twice", PASSWORD, *names)
    if language == "ru":
        scenario(live_site, "russian", *names)
    log_in(page, names[0], PASSWORD, f"/players/{names[0]}/")
    chart = page.locator("svg.rating-chart")
    expect(chart).to_be_visible()
    # A loaded machine may read the chart while the page is still laying it out: wait for its value axis.
    # (A locator, not wait_for_function: a string predicate polled again is eval'd, which the CSP forbids.)
    expect(chart.locator(".value-axis text").nth(1)).to_be_attached()
    box = chart.bounding_box()
    values = [text.bounding_box() for text in chart.locator(".value-axis text").all()]
    assert len(values) >= 2 and len({round(v["y"]) for v in values}) == len(values), values
    assert values[-1]["y"] > box["y"] + box["height"] / 2  # the lowest value down by the date axis
    for text in chart.locator("text").all():
        t = text.bounding_box()
        assert box["x"] - 1 <= t["x"] and t["x"] + t["width"] <= box["x"] + box["width"] + 1, (language, t, box)
        assert box["y"] - 1 <= t["y"] and t["y"] + t["height"] <= box["y"] + box["height"] + 1, (language, t, box)
    assert page.js_errors == []


def test_the_ratings_page_says_a_rating_can_fall_below_zero(page, live_site):
    """Issue 39, item 8: the leaderboard says what the number is, in Russian too."""
    names = ["lida", "maxim", "nestor", "oksana"]
    run(live_site, "rated_twice", PASSWORD, *names)
    scenario(live_site, "russian", *names)
    log_in(page, names[0], PASSWORD, "/ratings/joker/")
    expect(page.locator(".rating-explained")).to_contain_text("Все начинают с 0")
    expect(page.locator(".rating-explained")).to_contain_text("в том числе ниже 0")
    page.goto(f"/players/{names[-1]}/")  # the one who resigned both: below 0
    expect(page.locator("#ratings .rating-explained")).to_contain_text("отрицательный рейтинг — не долг")
    assert page.js_errors == []
