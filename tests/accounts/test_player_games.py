"""The player page's finished games: filters, pages, the head-to-head record, and its address."""

import pytest
from django.urls import reverse

from gameplay.models import Game, Seat
from tests.gameplay.conftest import as_finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga(django_user_model):
    return django_user_model.objects.create_user("olga", password="pw-not-used-1", display_name="Olga")


@pytest.fixture
def ivan(django_user_model):
    return django_user_model.objects.create_user("ivan", password="pw-not-used-1", display_name="Ivan", language="en")


def finished(engine: str, places: dict, is_private: bool = False) -> Game:
    """A finished game where each user in `places` finished at that place."""
    first = next(iter(places))
    game = Game.objects.create(engine=engine, seats_count=len(places), created_by=first,
                               status=Game.Status.FINISHED, is_private=is_private)
    for position, (user, place) in enumerate(places.items()):
        Seat.objects.create(game=game, position=position, user=user, place=place, points=0)
    return as_finished(game)


def listed(response) -> set[int]:
    return {seat.game_id for seat in response.context["finished_page"].object_list}


def test_the_player_page_lives_at_players_name_and_the_old_address_leads_there(client, olga):
    client.force_login(olga)
    assert reverse("player", args=["olga"]) == "/players/olga/"
    old = client.get("/accounts/players/olga/")
    assert old.status_code == 301 and old.url == "/players/olga/"


def test_finished_games_filter_by_game_opponent_and_result(client, olga, ivan, django_user_model):
    third = django_user_model.objects.create_user("third", password=None)
    won_joker = finished("joker", {olga: 1, ivan: 2})
    lost_durak = finished("durak", {olga: 2, ivan: 1})
    without_ivan = finished("joker", {olga: 1, third: 2})
    client.force_login(ivan)
    page = reverse("player", args=["olga"])
    assert listed(client.get(page)) == {won_joker.pk, lost_durak.pk, without_ivan.pk}
    assert listed(client.get(page, {"game": "joker"})) == {won_joker.pk, without_ivan.pk}
    assert listed(client.get(page, {"opponent": "ivan"})) == {won_joker.pk, lost_durak.pk}
    assert listed(client.get(page, {"result": "won"})) == {won_joker.pk, without_ivan.pk}
    assert listed(client.get(page, {"result": "not_won"})) == {lost_durak.pk}
    assert listed(client.get(page, {"game": "joker", "opponent": "ivan", "result": "won"})) == {won_joker.pk}


def test_a_bad_filter_says_what_is_wrong_and_lists_everything(client, olga, ivan):
    game = finished("joker", {olga: 1, ivan: 2})
    client.force_login(ivan)
    response = client.get(reverse("player", args=["olga"]), {"game": "chess", "opponent": "nobody"})
    assert response.status_code == 200
    assert listed(response) == {game.pk}
    assert "Select a valid choice" in response.text


def test_unknown_opponent_is_reported(client, olga, ivan):
    finished("joker", {olga: 1, ivan: 2})
    client.force_login(ivan)
    response = client.get(reverse("player", args=["olga"]), {"opponent": "nobody"})
    assert "There is no player with that username." in response.text


def test_the_head_to_head_record_counts_who_finished_above_whom_in_public_games(client, olga, ivan):
    finished("joker", {olga: 1, ivan: 2})
    finished("joker", {olga: 1, ivan: 3})
    finished("durak", {olga: 2, ivan: 1})
    finished("durak", {olga: 1, ivan: 1})
    finished("joker", {olga: 4, ivan: 1}, is_private=True)  # invite-only: not shown
    client.force_login(ivan)
    response = client.get(reverse("player", args=["olga"]), {"opponent": "ivan"})
    record = response.context["head_to_head"]
    assert (record.games, record.ahead, record.behind, record.level) == (4, 2, 1, 1)
    assert "Against Ivan: 4 finished games together" in response.text
    joker_only = client.get(reverse("player", args=["olga"]), {"opponent": "ivan", "game": "joker"})
    assert joker_only.context["head_to_head"].games == 2


def test_finished_games_come_in_pages_with_a_constant_number_of_queries(client, olga, ivan,
                                                                        django_assert_max_num_queries):
    for _ in range(45):
        finished("joker", {olga: 1, ivan: 2})
    client.force_login(ivan)
    # 15: the signed-in viewer's "you follow this player" is one query (correspondence, issue 25).
    with django_assert_max_num_queries(15) as few:
        first = client.get(reverse("player", args=["olga"]))
    assert len(listed(first)) == 20 and first.context["finished_page"].paginator.num_pages == 3
    for _ in range(45):
        finished("joker", {olga: 2, ivan: 1})
    with django_assert_max_num_queries(len(few.captured_queries)):
        last = client.get(reverse("player", args=["olga"]), {"page": 5})
    assert len(listed(last)) == 10


def test_finished_games_filter_by_league(client, olga, ivan):
    from leagues import services as leagues
    from leagues.drawing import draw_season
    from leagues.models import Fixture
    from gameplay import services as game_services

    league = leagues.create_league(olga, name="Friday Durak", engine="durak", players=2)
    season = league.seasons.get()
    leagues.register(season.pk, olga)
    leagues.register(season.pk, ivan)
    leagues.start_season(season.pk, olga)
    draw_season(season.pk)  # the schedule's task, which runs after the commit
    league_game = Fixture.objects.get().game
    game_services.resign(league_game.pk, ivan)
    casual = finished("joker", {olga: 1, ivan: 2})
    client.force_login(ivan)
    page = reverse("player", args=["olga"])
    assert listed(client.get(page)) == {league_game.pk, casual.pk}
    assert listed(client.get(page, {"league": "friday-durak"})) == {league_game.pk}
    assert 'value="friday-durak"' in client.get(page).content.decode()
