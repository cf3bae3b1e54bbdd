"""The preferences page: every destination a column, every kind a row, saved through one service;
"your move" by email only when nothing else of the player's gets it, or as the daily digest."""

import pytest
from django.core import mail
from django.urls import reverse

from gameplay.models import Seat
from notifications import emails
from notifications.forms import field_name
from notifications.models import Preference

from .conftest import acting_player, started_game
from tests.gameplay.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)

KINDS = ("your_move", "time_warning", "game_over", "challenge", "league_round", "moderation")


def everything_on(user) -> dict:
    data = {field_name("email", "your_move"): "now"}
    data.update({field_name("email", kind): "on" for kind in KINDS[1:]})
    data.update({field_name(f"fake:{user.pk}", kind): "on" for kind in KINDS})
    return data


def test_the_page_shows_every_destination_and_every_kind(fake, players):
    response = client_for(players[0]).get(reverse("notification_preferences"))

    assert response.status_code == 200
    page = response.content.decode()
    assert "fake of player0" in page and ">Email<" in page
    for kind in KINDS:
        assert field_name(f"fake:{players[0].pk}", kind) in page
    assert reverse("notification_preferences") in client_for(players[0]).get(reverse("profile")).content.decode()


def test_the_page_is_complete_in_russian(fake, players):
    players[0].language = "ru"
    players[0].save()
    client = client_for(players[0])
    client.cookies["django_language"] = "ru"

    page = client.get(reverse("notification_preferences"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()

    for russian in ("Уведомления", "Ваш ход", "Время на исходе", "Игра окончена", "Вызов", "Новый тур лиги",
                    "Решение модератора", "Сохранить"):
        assert russian in page


def test_saving_turns_a_cell_off_and_the_digest_on(fake, players):
    player = players[0]
    data = everything_on(player)
    del data[field_name(f"fake:{player.pk}", "game_over")]
    data[field_name("email", "your_move")] = "digest"

    response = client_for(player).post(reverse("notification_preferences"), data)

    assert response.status_code == 302
    player.refresh_from_db()
    assert player.turn_emails == "daily"
    assert Preference.objects.get(user=player, destination=f"fake:{player.pk}", kind="game_over").mode == "off"
    assert Preference.objects.get(user=player, destination=f"fake:{player.pk}", kind="your_move").mode == "now"


def test_a_bad_choice_changes_nothing(fake, players):
    player = players[0]
    data = everything_on(player)
    data[field_name("email", "your_move")] = "hourly"

    response = client_for(player).post(reverse("notification_preferences"), data)

    assert response.status_code == 200
    assert Preference.objects.count() == 0
    player.refresh_from_db()
    assert player.turn_emails == "now"


def test_your_move_is_emailed_only_when_nothing_else_gets_it(fake, players, settings):
    game = started_game("joker", players)
    position, player = acting_player(game, players)
    Seat.objects.filter(game=game).update(turn_notified=False)
    mail.outbox.clear()

    assert emails.send_turn_email(game.pk, game.version, position) is False  # the fake channel tells him

    Preference.objects.create(user=player, destination=f"fake:{player.pk}", kind="your_move", mode="off")
    assert emails.send_turn_email(game.pk, game.version, position) is True
    assert [m.to for m in mail.outbox] == [[player.email]]
