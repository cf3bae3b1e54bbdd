"""End to end: a real move in a real game, the dispatcher, the push channel,
and the local push service, where the next player's browser decrypts "your
move" with the game's address; a device its push service says is gone is
dropped by the dispatcher and the game goes on."""

import pytest
from django.conf import settings

from gameplay import services
from gameplay.engine import get_engine
from gameplay.models import Game
from notifications.models import Delivery
from notifications.push import devices
from notifications.push.models import PushSubscription
from tests.gameplay.conftest import a_legal_action, acting_player, started_game
from tests.notifications.push_service import push_service, vapid  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(f"player{i}", password="pw-not-used-1", language="en",
                                                  time_zone="UTC") for i in range(4)]


def with_devices(players, push_service, vapid) -> dict:
    """Each player turns push on in one browser: {player id: that browser}."""
    browsers = {}
    for user in players:
        browser = push_service.subscribe(vapid)
        keys = browser.to_json()["keys"]
        devices.add_device(user, devices.Subscription(browser.endpoint, keys["p256dh"], keys["auth"]), "Firefox")
        browsers[user.pk] = browser
    return browsers


def move(game: Game, players) -> Game:
    position, mover = acting_player(game, players)
    services.submit_move(game.pk, mover, a_legal_action(game, position), expected_version=game.version)
    return Game.objects.get(pk=game.pk)


def next_player(game: Game, players):
    assert game.status == Game.Status.ACTIVE, (game.status, game.state.get("phase"))
    [position] = get_engine(game.engine).actors(game.state)
    return players[position]


def test_a_move_reaches_the_next_players_browser_as_your_move_with_the_games_address(players, push_service, vapid):
    game = started_game("joker", players)
    browsers = with_devices(players, push_service, vapid)

    game = move(game, players)
    player = next_player(game, players)

    assert push_service.refused == []
    [message] = push_service.messages_for(browsers[player.pk])
    assert message["title"] == "Your move"
    assert message["body"].startswith("Joker with ")
    assert message["url"] == f"{settings.SITE_URL.rstrip('/')}/games/{game.pk}/"
    assert message["tag"] == f"your_move:game={game.pk}"
    assert [m for user in players if user != player for m in push_service.messages_for(browsers[user.pk])] == []
    delivery = Delivery.objects.get(user=player, destination__startswith="push:")
    assert delivery.state == Delivery.State.SENT


def test_a_device_gone_from_its_push_service_is_dropped_and_a_later_move_still_goes_out(players, push_service, vapid):
    game = started_game("joker", players)
    browsers = with_devices(players, push_service, vapid)
    for browser in browsers.values():
        push_service.answer(browser, 410)

    game = move(game, players)
    gone = next_player(game, players)

    assert not PushSubscription.objects.filter(user=gone).exists()
    assert PushSubscription.objects.count() == 3
    assert push_service.received == []
    assert Delivery.objects.filter(user=gone, destination__startswith="push:", state=Delivery.State.SENT).count() == 0
    push_service.answer_normally()

    game = move(game, players)  # the game goes on
    player = next_player(game, players)

    assert player != gone
    [message] = push_service.messages_for(browsers[player.pk])
    assert message["url"].endswith(f"/games/{game.pk}/")
