"""A league's organizer finds the moderation pages from the league's own
pages (the league, its seasons, its divisions, each game in play of the
schedule); players and staff who may not moderate see no link."""

import pytest
from django.urls import reverse

from leagues import services
from leagues.models import Division, Fixture
from tests.gameplay.conftest import client_for
from tests.leagues.conftest import start
from tests.moderation.conftest import moderators_group

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(django_user_model):
    people = [django_user_model.objects.create_user(f"ml{i}", password="pw-not-used-1", language="en",
                                                    display_name=f"Player {i}") for i in range(4)]
    league = services.create_league(people[0], name="Durak", engine="durak", players=2, division_size=4)
    season = league.seasons.get()
    for user in people[1:4]:
        services.register(season.pk, user)
    start(season.pk, people[0])
    return league, people


def pages(league) -> list[str]:
    division = Division.objects.get(season__league=league)
    return [league.get_absolute_url(), division.season.get_absolute_url(), division.get_absolute_url()]


def test_the_organizer_finds_the_moderation_page_on_every_league_page(league):
    league, people = league
    client = client_for(people[0])
    moderation = reverse("moderation_games")
    for url in pages(league):
        text = client.get(url).content.decode()
        assert f'href="{moderation}"' in text and "Moderate the games in play" in text, url
    assert client.get(moderation).status_code == 200  # and the link opens


def test_the_schedule_links_each_game_in_play_to_its_moderation_page(league):
    league, people = league
    fixtures = list(Fixture.objects.filter(division__season__league=league).order_by("round", "pk"))
    shown = [f for f in fixtures if f.round == fixtures[0].round]
    text = client_for(people[0]).get(Division.objects.get().get_absolute_url()).content.decode()
    for fixture in shown:
        assert f'href="{reverse("moderation_game", args=[fixture.game_id])}"' in text
    assert client_for(people[0]).get(reverse("moderation_game", args=[shown[0].game_id])).status_code == 200


def test_players_and_staff_who_do_not_moderate_see_no_link(league, django_user_model):
    league, people = league
    staff = django_user_model.objects.create_user("ml-staff", password="pw-not-used-1", language="en", is_staff=True)
    for user in (people[1], staff):
        for url in pages(league):
            assert "/moderation/" not in client_for(user).get(url).content.decode(), (user, url)
    moderator = django_user_model.objects.create_user("ml-mod", password="pw-not-used-1", language="en",
                                                      is_staff=True)
    moderator.groups.add(moderators_group())
    assert reverse("moderation_games") in client_for(moderator).get(league.get_absolute_url()).content.decode()


def test_the_link_reads_in_russian(league):
    league, people = league
    people[0].language = "ru"
    people[0].save(update_fields=["language"])
    text = client_for(people[0]).get(league.get_absolute_url()).content.decode()
    assert "Модерация партий" in text and "Moderate the games in play" not in text
