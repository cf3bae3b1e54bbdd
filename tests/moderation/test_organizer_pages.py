"""A league organizer who is not staff moderates the games of their own
leagues on the site's moderation pages, through the same services."""

import pytest
from django.urls import reverse

from gameplay.models import Game, Seat
from leagues.models import Fixture
from moderation.models import AuditEntry
from tests.gameplay.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def league_game(django_user_model):
    from leagues import services as leagues
    from leagues.drawing import draw_season

    organizer = django_user_model.objects.create_user("organizer", password="pw-not-used-1", language="en")
    people = [django_user_model.objects.create_user(f"lp{i}", password="pw-not-used-1", language="en")
              for i in range(2)]
    league = leagues.create_league(organizer, name="Kitchen league", engine="durak", players=2, division_size=2)
    season = league.seasons.get(number=1)
    for user in people:
        leagues.register(season.pk, user)
    leagues.start_season(season.pk, organizer)
    draw_season(season.pk)  # the schedule's task, which runs after the commit
    return Fixture.objects.get(division__season=season).game, organizer


def test_the_organizer_lists_the_games_of_their_leagues_in_play(league_game, joker_game):
    game, organizer = league_game
    page = client_for(organizer).get(reverse("moderation_games"))
    assert page.status_code == 200
    assert list(page.context["games"]) == [game]


def test_the_organizer_gives_a_seat_to_a_computer_with_a_reason(league_game):
    game, organizer = league_game
    client = client_for(organizer)
    url = reverse("moderation_game", args=[game.pk])
    assert client.get(url).status_code == 200
    data = {"action": "substitute", "substitute-position": 1, "substitute-computer": "on"}
    assert client.post(url, data | {"substitute-reason": ""}).status_code == 200  # a reason is required
    assert not AuditEntry.objects.exists()
    assert client.post(url, data | {"substitute-reason": "Withdrew"}).status_code == 302
    assert Seat.objects.get(game=game, position=1).is_bot
    assert AuditEntry.objects.get().moderator == organizer


def test_the_organizer_adjudicates_and_aborts(league_game, django_user_model):
    game, organizer = league_game
    client = client_for(organizer)
    url = reverse("moderation_game", args=[game.pk])
    client.post(url, {"action": "adjudicate", "adjudicate-place_0": 2, "adjudicate-place_1": 1,
                      "adjudicate-points_0": 0, "adjudicate-points_1": 1, "adjudicate-reason": "Agreed"})
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert [s.place for s in Seat.objects.filter(game=game).order_by("position")] == [2, 1]


def test_nobody_else_reaches_the_pages(league_game, joker_game, players):
    game, organizer = league_game
    assert client_for(organizer).get(reverse("moderation_game", args=[joker_game.pk])).status_code == 403
    assert client_for(players[0]).get(reverse("moderation_games")).status_code == 403
    assert client_for(players[0]).post(reverse("moderation_game", args=[game.pk]),
                                       {"action": "abort", "abort-reason": "x"}).status_code == 403
    from django.test import Client

    response = Client().get(reverse("moderation_game", args=[game.pk]))
    assert response.status_code == 302 and "login" in response.url
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE and not AuditEntry.objects.exists()


def test_the_pages_read_in_russian(league_game):
    game, organizer = league_game
    organizer.language = "ru"
    organizer.save()
    text = client_for(organizer).get(reverse("moderation_game", args=[game.pk])).content.decode()
    assert "Передать место" in text and "Substitute a seat" not in text
