"""Several "your move" notices within the coalescing window become one: "3 games wait for your
move", opening My games; one game still waiting opens that game; none, nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay import presence
from gameplay.models import Seat
from notifications import dispatch, subscribers
from notifications.models import Delivery

from .conftest import started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def flushes(monkeypatch):
    """The flushes the dispatcher schedules, not run (Celery is eager in tests)."""
    scheduled = []
    monkeypatch.setattr(dispatch, "_queue_flush", lambda user_id, eta: scheduled.append((user_id, eta)))
    return scheduled


@pytest.fixture
def three_games(players):
    return [started_game("joker", players) for _ in range(3)]


def his_turn_in(game, player) -> int:
    """Make it the player's move in `game` (his clock runs) and publish it: returns his position."""
    seat = Seat.objects.get(game=game, user=player)
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() + timedelta(days=1))
    subscribers.turn_changed(game.pk, game.version + 100, [seat.position])
    return seat.position


def test_three_moves_within_the_window_become_one_notice_opening_my_games(fake, players, three_games, flushes):
    player = players[2]
    fake.sent.clear()

    for game in three_games:
        his_turn_in(game, player)

    assert [user_id for user_id, _ in flushes] == [player.pk]  # only the first schedules the flush
    assert fake.sent == []
    assert dispatch.flush(player.pk) == 1

    [notice] = fake.notices_to(player)
    assert notice.title == "3 games wait for your move"
    assert notice.url.endswith("/my-games/")
    assert notice.button == "Open My games"
    assert notice.body.count("Joker with") == 3
    assert dispatch.flush(player.pk) == 0  # a second flush (another worker) finds nothing
    assert len(fake.notices_to(player)) == 1


def test_one_game_still_waiting_opens_that_game(fake, players, three_games, flushes):
    player = players[2]
    fake.sent.clear()
    for game in three_games:
        his_turn_in(game, player)
    Seat.objects.filter(game__in=three_games[1:], user=player).update(deadline=None)  # he moved there

    dispatch.flush(player.pk)

    [notice] = fake.notices_to(player)
    assert notice.title == "Your move"
    assert notice.url.endswith(f"/games/{three_games[0].pk}/")


def test_nothing_is_sent_when_he_has_moved_everywhere_or_is_looking(fake, players, three_games, flushes):
    player = players[2]
    fake.sent.clear()
    Delivery.objects.all().delete()  # the games' start may have been his move already (random seeds): sent then
    for game in three_games:
        his_turn_in(game, player)
    Seat.objects.filter(game__in=three_games[:2], user=player).update(deadline=None)
    presence.mark(three_games[2].pk, Seat.objects.get(game=three_games[2], user=player).position, player.pk)

    assert dispatch.flush(player.pk) == 0
    assert fake.sent == []
    assert set(Delivery.objects.filter(user=player, kind="your_move").values_list("state", flat=True)) == {"dropped"}
