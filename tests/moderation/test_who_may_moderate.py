"""Moderator actions are for moderators (the group) and superusers, and for a
league organizer who is staff on the games of their own leagues; a staff
member who is none of these and a plain user reach none of them."""

import pytest
from django.urls import reverse

from gameplay import services
from gameplay.models import ChatMessage, Game, Seat
from moderation.models import AuditEntry
from moderation.permissions import can_moderate
from tests.gameplay.conftest import client_for

pytestmark = pytest.mark.django_db

ACTIONS = ["abort", "adjudicate", "substitute"]
FORMS = {"abort": {"reason": "x"}, "adjudicate": {"reason": "x", **{f"place_{p}": p + 1 for p in range(4)},
                                                  **{f"points_{p}": 0 for p in range(4)}},
         "substitute": {"position": 1, "computer": "on", "reason": "x"}}


def unchanged(game: Game) -> bool:
    game = Game.objects.get(pk=game.pk)
    return (game.status == Game.Status.ACTIVE and not AuditEntry.objects.exists()
            and not Seat.objects.filter(game=game, is_bot=True).exists())


@pytest.mark.parametrize("action", ACTIONS)
def test_a_staff_member_who_is_not_a_moderator_is_refused_every_game_action(joker_game, staff_user, action):
    client = client_for(staff_user)
    url = reverse(f"admin:gameplay_game_{action}", args=[joker_game.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, FORMS[action]).status_code == 403
    assert unchanged(joker_game)
    page = client.get(reverse("admin:gameplay_game_change", args=[joker_game.pk])).content.decode()
    assert url not in page  # not even offered


@pytest.mark.parametrize("action", ACTIONS)
def test_a_plain_user_is_sent_to_the_admin_login(joker_game, plain_user, players, action):
    for user in (plain_user, players[0]):
        response = client_for(user).post(reverse(f"admin:gameplay_game_{action}", args=[joker_game.pk]), FORMS[action])
        assert response.status_code == 302 and "/admin/login/" in response.url
    assert unchanged(joker_game)


def test_neither_hides_a_chat_message_nor_reads_the_audit(joker_game, players, staff_user, plain_user):
    message = services.post_chat(joker_game.pk, players[0], "rude words")
    hide = {"action": "hide", "_selected_action": [message.pk], "apply": "1", "reason": "Insults"}
    for user in (staff_user, plain_user):
        client = client_for(user)
        client.post(reverse("admin:gameplay_chatmessage_changelist"), hide)
        assert client.get(reverse("admin:moderation_auditentry_changelist")).status_code in (302, 403)
    assert not ChatMessage.objects.get(pk=message.pk).hidden and not AuditEntry.objects.exists()


def test_a_moderator_sees_the_actions_on_a_game_in_play(joker_game, moderator):
    page = client_for(moderator).get(reverse("admin:gameplay_game_change", args=[joker_game.pk])).content.decode()
    for action in ACTIONS:
        assert reverse(f"admin:gameplay_game_{action}", args=[joker_game.pk]) in page


@pytest.fixture
def league_game(django_user_model):
    """A running game of a two-player Durak league and its organizer (staff, without any permission)."""
    from leagues import services as leagues
    from leagues.drawing import draw_season
    from leagues.models import Fixture

    organizer = django_user_model.objects.create_user("organizer", password="pw-not-used-1", language="en",
                                                      is_staff=True)
    people = [django_user_model.objects.create_user(f"lp{i}", password="pw-not-used-1", language="en")
              for i in range(2)]
    league = leagues.create_league(organizer, name="Kitchen league", engine="durak", players=2, division_size=2)
    season = league.seasons.get(number=1)
    for user in people:
        leagues.register(season.pk, user)
    leagues.start_season(season.pk, organizer)
    draw_season(season.pk)  # the schedule's task, which runs after the commit
    return Fixture.objects.get(division__season=season).game, organizer


def test_a_league_organizer_moderates_the_games_of_their_league_only(league_game, joker_game):
    game, organizer = league_game
    assert can_moderate(organizer, game) and not can_moderate(organizer, joker_game)
    client = client_for(organizer)
    assert client.get(reverse("admin:gameplay_game_adjudicate", args=[joker_game.pk])).status_code == 403
    listed = client.get(reverse("admin:gameplay_game_changelist"))
    assert [g.pk for g in listed.context["cl"].result_list] == [game.pk]
    url = reverse("admin:gameplay_game_abort", args=[game.pk])
    assert client.post(url, {"reason": "Both players asked"}).status_code == 302
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    assert AuditEntry.objects.get().moderator == organizer


def test_a_moderator_who_is_not_staff_cannot_reach_the_admin(joker_game, moderator):
    moderator.is_staff = False
    moderator.save()
    response = client_for(moderator).get(reverse("admin:gameplay_game_abort", args=[joker_game.pk]))
    assert response.status_code == 302 and "/admin/login/" in response.url


def test_a_league_organizer_hides_messages_of_their_league_games_only(league_game, joker_game, players):
    game, organizer = league_game
    theirs = services.post_chat(game.pk, game.seats.first().user, "rude words")
    other = services.post_chat(joker_game.pk, players[0], "rude words too")
    client = client_for(organizer)
    listed = client.get(reverse("admin:gameplay_chatmessage_changelist"))
    assert [m.pk for m in listed.context["cl"].result_list] == [theirs.pk]
    client.post(reverse("admin:gameplay_chatmessage_changelist"),
                {"action": "hide", "apply": "1", "reason": "Insults", "_selected_action": [theirs.pk, other.pk]})
    assert ChatMessage.objects.get(pk=theirs.pk).hidden and not ChatMessage.objects.get(pk=other.pk).hidden
    assert AuditEntry.objects.get().chat_message_id == theirs.pk
