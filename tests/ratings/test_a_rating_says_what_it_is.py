"""The rating pages say what the number is (issue 39, item 8): OpenSkill's
ordinal, which starts at 0 and falls below it for a player who loses; no
page promises a rating that only grows."""

import pytest
from django.urls import reverse

from ratings.models import Rating
from tests.gameplay.conftest import client_for

from .test_rating_pages import people, play_rated_games  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

EXPLAINED = "a negative rating is no debt, only a place below a newcomer’s"


def test_the_leaderboard_explains_a_rating_below_zero(people):
    play_rated_games(people, 6)
    page = client_for(people[0]).get(reverse("leaderboard", args=["joker"])).content.decode()
    assert "grows as the site learns" not in page
    assert "OpenSkill’s ordinal" in page and EXPLAINED in page


def test_a_loser_with_a_negative_rating_reads_on_his_page_why(people):
    play_rated_games(people, 3, loser=3)
    loser = Rating.objects.get(user=people[3], engine="joker")
    assert loser.value < 0
    page = client_for(people[3]).get(reverse("player", args=[people[3].username])).content.decode()
    assert f"<td data-label=\"Rating\">{loser.value}" in page and EXPLAINED in page
