"""A notice goes out after the commit of what happened, never on a rollback, and at most once
per (notice, player, destination) whatever runs twice."""

import pytest
from django.db import transaction

from gameplay import services
from notifications import dispatch, notices
from notifications.channels import LEAGUE_ROUND
from notifications.models import Delivery

from .conftest import a_legal_action, acting_player, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def words(user):
    return notices.Words("Round 2", "Your game: Joker", notices.game_url(1), "Open the game")


def test_a_move_tells_the_next_player_his_move_with_a_link_to_the_game(fake, players):
    game = started_game("joker", players)
    position, player = acting_player(game, players)

    [notice] = fake.notices_to(player)
    assert notice.title == "Your move"
    assert notice.url.endswith(f"/games/{game.pk}/")
    assert notice.button == "Open the game"
    assert notice.body.startswith("Joker with ")
    assert [n for u in players if u != player for n in fake.notices_to(u)] == []


def test_nothing_is_sent_when_the_move_rolls_back(fake, players):
    game = started_game("joker", players)
    position, player = acting_player(game, players)
    fake.sent.clear()

    with pytest.raises(RuntimeError), transaction.atomic():
        services.submit_move(game.pk, player, a_legal_action(game, position), expected_version=game.version)
        raise RuntimeError("the request failed after the move")

    assert fake.sent == []


def test_the_same_notice_twice_is_sent_once(fake, players):
    dispatch.notify(LEAGUE_ROUND, players[:1], key="league_round:season=1:round=2", compose=words)
    dispatch.notify(LEAGUE_ROUND, players[:1], key="league_round:season=1:round=2", compose=words)

    assert len(fake.notices_to(players[0])) == 1
    assert Delivery.objects.filter(user=players[0], destination=f"fake:{players[0].pk}").count() == 1


def test_a_duplicate_task_or_a_second_run_sends_nothing_more(fake, players):
    dispatch.notify(LEAGUE_ROUND, players[:1], key="league_round:season=1:round=3", compose=words)
    delivery = Delivery.objects.get(user=players[0], destination=f"fake:{players[0].pk}")

    dispatch.deliver.delay(delivery.pk)
    dispatch.send_delivery(delivery.pk)

    assert len(fake.sent) == 1
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts) == (Delivery.State.SENT, 1)
