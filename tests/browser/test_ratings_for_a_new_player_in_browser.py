"""Ratings as a new player reads them in a real Chromium: the leaderboard
lists him, marked provisional, from his first rated game and says why he is
not ranked yet; his rating chart has a value axis and a date axis (issue 27, 7)."""

import re

import pytest

from tests.browser.conftest import log_in
from tests.browser.returning_player_scenario import run

pytestmark = pytest.mark.browser
PASSWORD = "kitchen-Table-2024"


def test_a_provisional_player_is_on_the_leaderboard_marked_and_told_why_not_ranked(page, live_site):
    from playwright.sync_api import expect

    run(live_site, "rated_twice", PASSWORD, "lena", "mark", "nina", "oleg")
    log_in(page, "lena", PASSWORD, "/ratings/joker/")
    section = page.locator("#provisional")
    expect(section).to_contain_text("fewer than 5 rated games")
    row = section.locator("tr", has_text="Lena")
    expect(row).to_have_count(1)
    expect(row.locator("abbr.provisional")).to_have_text("?")
    expect(page.locator("main")).to_contain_text("a player joins it on finishing 5 rated games")
    assert page.js_errors == []


def test_the_rating_chart_shows_its_values_and_dates(page, live_site):
    from playwright.sync_api import expect

    run(live_site, "rated_twice", PASSWORD, "pavla", "roman", "sveta", "timur")
    log_in(page, "pavla", PASSWORD, "/players/pavla/")
    chart = page.locator("svg.rating-chart")
    expect(chart).to_be_visible()
    values = [text.text_content() for text in chart.locator(".value-axis text").all()]
    dates = [text.text_content() for text in chart.locator(".date-axis text").all()]
    assert values and all(v.lstrip("-").isdigit() for v in values), values
    # The axis runs from the highest rating (top) to the lowest (bottom), the chart's title names both;
    # two games that left the same rating draw a flat line with its one value.
    low, high = re.findall(r"-?\d+", chart.locator("title").text_content())[-2:]
    assert (values[0], values[-1]) == (high, low), (values, low, high)
    assert dates and all(any(ch.isdigit() for ch in d) for d in dates), dates
    box = chart.bounding_box()
    for text in chart.locator("text").all():
        t = text.bounding_box()
        assert t["x"] >= box["x"] - 1 and t["x"] + t["width"] <= box["x"] + box["width"] + 1, (t, box)
    assert page.js_errors == []
