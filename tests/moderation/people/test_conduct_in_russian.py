"""The reports and restrictions read wholly in Russian: the moderators'
pages show none of the English names of their models, fields, columns and
filters, and a player's report form, list and refusals are in Russian."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from moderation.services import people as services
from gameplay import services as game_services
from gameplay.services.base import GameError
from tests.gameplay.test_admin_in_russian import english_names, texts

from .conftest import client_for, report_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def russian_moderator(moderator):
    moderator.language = "ru"
    moderator.username = "modru"  # "moderator", the admin's greeting, is an English name of the audit's field
    moderator.save(update_fields=["language", "username"])
    return moderator


def test_the_moderators_pages_show_no_english_name_in_russian(joker_game, players, russian_moderator):
    message = game_services.post_chat(joker_game.pk, players[1], "грубость")
    report = report_of(players[0], message=message)
    services.mute(players[1].pk, russian_moderator, "спам", timezone.now() + timedelta(days=1))
    client = client_for(russian_moderator)
    english = english_names()
    for url in (reverse("admin:moderation_report_changelist"), reverse("admin:moderation_report_change", args=[report.pk]),
                reverse("admin:moderation_report_resolve", args=[report.pk]),
                reverse("admin:moderation_player_changelist"),
                reverse("admin:moderation_player_change", args=[players[1].pk]),
                reverse("admin:moderation_player_suspend", args=[players[1].pk])):
        page = client.get(url).content.decode()
        assert texts(page) & english == set(), url
    page = client.get(reverse("admin:moderation_report_change", args=[report.pk])).content.decode()
    assert "Решить…" in page and "Чат вокруг сообщения" in page and "оскорбления или травля" in page


def test_a_player_reports_in_russian(joker_game, players):
    players[0].language = "ru"
    players[0].save(update_fields=["language"])
    client = client_for(players[0])
    form = client.get(f"{reverse('new_report')}?player={players[1].username}").text
    assert "Жалоба модераторам" in form and "жульничество или игра в сговоре" in form
    client.post(f"{reverse('new_report')}?player={players[1].username}", {"reason": "spam"})
    again = client.post(f"{reverse('new_report')}?player={players[1].username}", {"reason": "spam"}, follow=True).text
    assert "Вы уже пожаловались на это" in again and "ждёт модератора" in again


def test_the_refusals_of_a_suspended_or_muted_player_are_in_russian(joker_game, players, moderator, outsider):
    services.mute(players[1].pk, moderator, "спам", timezone.now() + timedelta(days=1))
    with translation.override("ru"), pytest.raises(GameError, match="По решению модератора вы не можете писать в чат до"):
        game_services.post_chat(joker_game.pk, players[1], "привет")
    services.suspend(outsider.pk, moderator, "жульничество")
    page = Client(headers={"accept-language": "ru"}).post(
        reverse("login"), {"username": outsider.username, "password": "pw-not-used-1"}).content.decode()
    assert "Ваша учётная запись заблокирована модератором." in page
