"""The moderators' list of games in play comes a page at a time, the newest
first, with a link to the older ones: it reads one page's rows (and one
more, to know whether there are older ones), however many games there are."""

import pytest
from django.urls import reverse

from gameplay.models import Game
from moderation import views
from tests.gameplay.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_play(django_user_model) -> list[int]:
    """Seven games in play and two finished ones, the newest first."""
    owner = django_user_model.objects.create_user("owner", password="pw-not-used-1")
    games = [Game.objects.create(engine="durak", seats_count=2, created_by=owner,
                                 status=Game.Status.FINISHED if n in (2, 5) else Game.Status.ACTIVE)
             for n in range(9)]
    return [g.pk for g in reversed(games) if g.status == Game.Status.ACTIVE]


def test_the_games_in_play_come_a_page_at_a_time_newest_first(in_play, django_user_model, monkeypatch,
                                                              django_assert_max_num_queries):
    monkeypatch.setattr(views, "GAMES_PER_PAGE", 3)
    staff = django_user_model.objects.create_superuser("mod", password="pw-not-used-1", language="en")
    client = client_for(staff)
    seen, url = [], reverse("moderation_games")
    while url:
        with django_assert_max_num_queries(4):  # the session, the user, the games, their seats
            page = client.get(url)
        seen += [g.pk for g in page.context["games"]]
        url = page.context["older_url"] and reverse("moderation_games") + page.context["older_url"]
        if url:
            assert "older games" in page.content.decode()
    assert seen == in_play


def test_a_bad_page_number_shows_the_newest(in_play, django_user_model):
    staff = django_user_model.objects.create_superuser("mod", password="pw-not-used-1", language="en")
    for before in ("x", "-1", "9" * 40):
        page = client_for(staff).get(reverse("moderation_games"), {"before": before})
        assert page.status_code == 200 and [g.pk for g in page.context["games"]] == in_play
