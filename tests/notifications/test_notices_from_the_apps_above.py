"""What correspondence, leagues and moderation announce reaches the dispatcher after their commit:
a challenge (with its one email, never two), a new league round, a moderator's decision."""

import pytest
from django.core import mail

from correspondence import services as correspondence
from moderation.services import games as moderation
from notifications import dispatch
from notifications.models import Delivery

from .conftest import started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_user("moderator", password="pw-not-used-1", is_staff=True)


def test_a_challenge_is_one_notice_and_one_email(fake, players):
    correspondence.create_challenge(players[0], [players[1].username], "durak", {})

    [notice] = fake.notices_to(players[1])
    assert notice.title == "player0 challenges you"
    assert notice.url.endswith("/challenges/")
    assert [m.to for m in mail.outbox] == [[players[1].email]]


def test_a_moderators_abort_is_told_to_every_player_once(fake, players, moderator):
    game = started_game("joker", players)
    fake.sent.clear()
    mail.outbox.clear()

    moderation.abort_game(game.pk, moderator, "a cheater at the table")

    for player in players:
        [notice] = fake.notices_to(player)
        assert notice.title == "Game aborted"
        assert "a cheater at the table" in notice.body
    assert sorted(m.to[0] for m in mail.outbox) == sorted(p.email for p in players)


def test_a_new_league_game_is_told_once_per_round(fake, players):
    game = started_game("joker", players)
    fake.sent.clear()

    for _ in range(2):
        dispatch.notify_league_game(game.pk, league="Winter cup", season_id=7, round_number=2)

    for player in players:
        [notice] = fake.notices_to(player)
        assert notice.title == "Winter cup: round 2"
        assert notice.url.endswith(f"/games/{game.pk}/")
    assert Delivery.objects.filter(kind="league_round", destination="email").count() == 4
