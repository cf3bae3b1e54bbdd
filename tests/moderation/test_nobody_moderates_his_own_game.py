"""Nobody moderates a game in which he or his partner sits, whatever his role
(issue 24): a league organizer who plays in his league, a moderator, even a
superuser, is refused every moderator action on that game, by the pages and
by the services themselves; the game's players are told of every
adjudication by email (whatever their settings) and on the game page, and
the audit keeps it."""

import pytest
from django.core import mail
from django.urls import reverse

from moderation.services import games as actions
from gameplay.models import Game
from gameplay.services.base import GameError
from leagues import services as leagues
from leagues.models import Fixture, Invitation
from moderation.models import AuditEntry
from moderation.permissions import can_moderate, moderated_games
from tests.gameplay.conftest import client_for, started_game
from tests.leagues.conftest import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer_at_his_table(django_user_model):
    """The reported set-up: an organizer invites an opponent, who accepts, and starts the season."""
    organizer = django_user_model.objects.create_user("org", password="pw-not-used-1", language="en", is_staff=True)
    rival = django_user_model.objects.create_user("rival", password="pw-not-used-1", language="en")
    league = leagues.create_league(organizer, name="Rigged", engine="durak", players=2)
    season = league.seasons.get()
    leagues.register(season.pk, organizer)
    leagues.invite(season.pk, rival, by=organizer)
    leagues.accept_invitation(Invitation.objects.get(user=rival).pk, rival)
    start(season.pk, organizer)
    return organizer, rival, Fixture.objects.get().game


def test_an_organizer_cannot_adjudicate_his_own_league_game(organizer_at_his_table):
    organizer, rival, game = organizer_at_his_table
    assert not can_moderate(organizer, game)
    assert not moderated_games(organizer, Game.objects.all()).exists()
    with pytest.raises(GameError, match="You play in this game"):
        actions.adjudicate_game(game.pk, organizer, "I won", {"places": [1, 2]})
    with pytest.raises(GameError, match="You play in this game"):
        actions.abort_game(game.pk, organizer, "I was losing")
    page = client_for(organizer).post(reverse("moderation_game", args=[game.pk]),
                                      {"action": "adjudicate", "adjudicate-reason": "I won"})
    assert page.status_code == 403
    admin = client_for(organizer).get(reverse("admin:gameplay_game_adjudicate", args=[game.pk]))
    assert admin.status_code in (302, 403)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and not AuditEntry.objects.exists()


def test_a_seated_superuser_or_moderator_moderates_nothing_of_his_own_game(django_user_model, players):
    boss = django_user_model.objects.create_superuser("boss", password="pw-not-used-1", language="en")
    game = started_game("durak", [boss, players[1]])
    assert not can_moderate(boss, game)
    for action in ("abort", "adjudicate", "substitute"):
        assert client_for(boss).get(reverse(f"admin:gameplay_game_{action}", args=[game.pk])).status_code == 403
    assert not moderated_games(boss, Game.objects.filter(pk=game.pk)).exists()


def test_a_player_replaced_at_a_table_still_moderates_nothing_of_it(django_user_model, players, moderator):
    boss = django_user_model.objects.create_superuser("boss", password="pw-not-used-1", language="en")
    game = started_game("durak", [boss, players[1], players[2]])
    actions.substitute_seat(game.pk, 0, moderator, "Left", user=None)
    assert not can_moderate(boss, game)
    with pytest.raises(GameError, match="You play in this game"):
        actions.adjudicate_game(game.pk, boss, "Fine", {"places": [1, 2, 3]})


def test_a_moderator_outside_the_game_still_moderates_it(organizer_at_his_table, moderator):
    organizer, rival, game = organizer_at_his_table
    assert can_moderate(moderator, game)
    actions.adjudicate_game(game.pk, moderator, "Agreed", {"places": [2, 1]})
    assert AuditEntry.objects.get().action == AuditEntry.Action.ADJUDICATE


def test_every_player_is_emailed_an_adjudication_even_with_notifications_off(organizer_at_his_table, moderator,
                                                                            django_capture_on_commit_callbacks):
    organizer, rival, game = organizer_at_his_table
    for user, wants in ((organizer, True), (rival, False)):
        user.email, user.email_notifications = f"{user.username}@example.com", wants
        user.save()
    with django_capture_on_commit_callbacks(execute=True):
        actions.adjudicate_game(game.pk, moderator, "Server trouble", {"places": [2, 1]})
    assert sorted(m.to[0] for m in mail.outbox) == ["org@example.com", "rival@example.com"]
    to_rival = next(m for m in mail.outbox if m.to == ["rival@example.com"])
    assert "Adjudicated by a moderator: Server trouble" in to_rival.body
    assert "a moderator decided the result of your game" in to_rival.body
    state = client_for(rival).get(reverse("game_state", args=[game.pk])).json()
    assert state["result"]["ending"] == "adjudicated" and state["result"]["reason"] == "Server trouble"
