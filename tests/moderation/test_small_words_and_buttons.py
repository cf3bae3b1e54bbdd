"""Small things a newcomer reads (issue 27, 11): the admin offers no "Delete"
that could only end in "cannot delete" (a game, whose moves are append-only;
an account that has played), the replay's step buttons are drawn (no glyph a
common font lacks), and the README names the record's "by" values as stored."""

from pathlib import Path

import pytest
from django.urls import reverse

from gameplay import services
from gameplay.models import Move
from tests.gameplay.conftest import started_game

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def boss(django_user_model, client):
    user = django_user_model.objects.create_superuser("boss", password="pw-not-used-1", email="boss@example.com",
                                                      language="en")
    client.force_login(user)
    return client


def test_a_games_admin_page_offers_no_delete(boss, players):
    game = started_game("joker", players)
    page = boss.get(reverse("admin:gameplay_game_change", args=[game.pk])).content.decode()
    assert "deletelink" not in page
    assert boss.get(reverse("admin:gameplay_game_delete", args=[game.pk])).status_code == 403


def test_a_games_admin_page_shows_each_seats_reserve_in_days_and_hours_not_in_seconds(boss, players):
    game = started_game("joker", players)
    game.seats.update(reserve_seconds_left=2 * 86400 + 3 * 3600)
    page = boss.get(reverse("admin:gameplay_game_change", args=[game.pk])).content.decode()
    assert page.count(">2 d 3 h<") == 4 and "183600" not in page
    assert "Reserve left, seconds" not in page


def test_an_account_that_has_played_offers_no_delete_and_one_that_has_not_does(boss, players, django_user_model):
    started_game("joker", players)
    assert "deletelink" not in boss.get(reverse("admin:accounts_user_change", args=[players[0].pk])).content.decode()
    idle = django_user_model.objects.create_user("idle", password="pw-not-used-1")
    assert "deletelink" in boss.get(reverse("admin:accounts_user_change", args=[idle.pk])).content.decode()


def test_the_admins_titles_do_not_put_a_model_name_into_a_sentence(boss, players, django_user_model):
    game = started_game("joker", players)
    django_user_model.objects.filter(username="boss").update(language="ru")
    change = boss.get(reverse("admin:gameplay_game_change", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    listing = boss.get(reverse("admin:gameplay_game_changelist"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Изменить партия" not in change and "Изменить игра" not in change
    assert "<h1>Партии</h1>" in listing and "Джокер" in listing and ">joker<" not in listing


def test_the_admins_other_titles_name_the_model_apart_from_the_verb_in_russian(boss, players, django_user_model):
    from leagues.services import create_league

    django_user_model.objects.filter(username="boss").update(language="ru")
    league = create_league(django_user_model.objects.get(username="boss"), name="Пятничный дурак", engine="durak",
                           players=2)
    change = boss.get(reverse("admin:leagues_league_change", args=[league.pk])).content.decode()
    listing = boss.get(reverse("admin:leagues_league_changelist")).content.decode()
    assert "Изменить лига" not in change and "Изменение: лига" in change
    assert "Выберите лига" not in listing and "Выбор для изменения: лига" in listing


def test_the_replays_step_buttons_are_drawn(players):
    game = started_game("durak", players[:2])
    services.resign(game.pk, players[1])
    from tests.gameplay.conftest import client_for

    page = client_for(players[0]).get(f"/sheets/{game.pk}/replay/").content.decode()
    controls = page.split('class="replay-controls"')[1].split("</nav>")[0]
    assert controls.count("<svg") == 4 and "⏮" not in controls and "⏭" not in controls


def test_the_readme_names_the_by_values_the_records_carry():
    readme = (ROOT / "README.md").read_text()
    for value in Move.By.values:
        assert f"`{value}`" in readme.split("`by` (")[1].split(")")[0]
