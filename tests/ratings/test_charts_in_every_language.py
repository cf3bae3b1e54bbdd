"""Numbers inside a chart's SVG are never written in the page's language
(issue 39, item 5): on every page that draws a rating chart, in English and
in Russian, every coordinate is a plain number with a decimal point ("6.0",
never "6,0"), so the browser draws the axes where they belong."""

import re
import xml.etree.ElementTree as ElementTree

import pytest
from django.urls import reverse

from tests.gameplay.conftest import client_for

from .test_rating_pages import people, play_rated_games  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

NUMBER = re.compile(r"-?\d+(\.\d+)?")
COORDINATES = ("x", "y", "x1", "y1", "x2", "y2", "dy", "width", "height", "font-size")
# Every page that draws a rating chart, by the URL name and arguments that lead to it.
CHART_PAGES = [("player", ["board0"])]


def charts_on(html: str) -> list[ElementTree.Element]:
    return [ElementTree.fromstring(svg + "</svg>") for svg in re.findall(r'<svg class="rating-chart".*?(?=</svg>)',
                                                                          html, re.S)]


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("page", CHART_PAGES)
def test_every_number_in_a_chart_is_written_with_a_decimal_point_in_every_language(people, language, page):
    for user in people:
        user.language = language
        user.save()
    play_rated_games(people, 3)
    name, args = page
    html = client_for(people[1]).get(reverse(name, args=args)).content.decode()
    charts = charts_on(html)
    assert charts, f"no chart on {name} in {language}"
    for svg in charts:
        assert all(NUMBER.fullmatch(n) for n in svg.get("viewBox").split())
        for node in svg.iter():
            for attribute in COORDINATES:
                if attribute in node.attrib:
                    assert NUMBER.fullmatch(node.attrib[attribute]), (language, node.tag, attribute, node.attrib)
            if "points" in node.attrib:
                pairs = node.attrib["points"].split()
                assert len(pairs) == 3 and all(
                    NUMBER.fullmatch(x) and NUMBER.fullmatch(y) for x, y in (p.split(",") for p in pairs))
        ticks = [float(text.get("y")) for group in svg if group.get("class") == "axis value-axis"
                 for text in group if text.tag.endswith("text")]
        assert len(set(ticks)) == len(ticks) > 1  # the value labels stand apart, not piled at the top
