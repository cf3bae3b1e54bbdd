"""Small things a correspondence player met (issue 39, item 10), one test each."""

import pytest
from django.core import mail
from django.urls import reverse

from correspondence import services

pytestmark = pytest.mark.django_db


def test_the_challenge_emails_settings_link_leads_to_the_notification_settings(players,
                                                                                django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.create_challenge(players[0], ["player1"], "durak", {}, {})
    body = mail.outbox[0].body
    assert reverse("notification_preferences") in body and reverse("profile_edit") not in body


def test_every_notification_emails_settings_link_leads_to_the_notification_settings(players):
    from notifications.emails import render_email

    _subject, body = render_email(players[0], "your_turns", {"games": [], "count": 0})
    assert reverse("notification_preferences") in body and reverse("profile_edit") not in body


def test_the_admin_names_a_game_and_a_challenge_by_the_games_name_not_its_slug(players, django_user_model):
    from django.test import Client

    from gameplay import services as game_services

    admin = django_user_model.objects.create_superuser("boss", password="pw-not-used-1", language="ru")
    game = game_services.create_game(players[0], "joker", players=4)
    challenge = services.create_challenge(players[0], ["player1"], "durak", {}, {})
    client = Client()
    client.force_login(admin)
    page = client.get(reverse("admin:gameplay_game_change", args=[game.pk])).content.decode()
    assert f"#{game.pk} Джокер" in page and f"#{game.pk} joker" not in page
    page = client.get(reverse("admin:correspondence_challenge_change", args=[challenge.pk])).content.decode()
    assert f"#{challenge.pk} Дурак" in page and f"#{challenge.pk} durak" not in page


def test_a_game_of_one_table_size_says_exactly_how_many_play_not_from_4_to_4(players):
    from django.utils import translation

    from gameplay import services as game_services

    with pytest.raises(game_services.GameError) as refused:
        game_services.create_game(players[0], "joker", players=3)
    assert refused.value.message == "This game is for exactly 4 players."
    with translation.override("ru"), pytest.raises(game_services.GameError) as refused:
        game_services.create_game(players[0], "joker", players=5)
    assert refused.value.message == "В эту игру играют ровно 4 игрока."
    with pytest.raises(services.CorrespondenceError) as refused:
        services.create_challenge(players[0], ["player1", "player2"], "joker", {}, {}, players=3)
    assert "exactly 4 players" in refused.value.message
