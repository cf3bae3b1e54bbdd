"""The push channel delivers a notice to a device through its push service:
signed with the site's VAPID key, encrypted for that browser alone, and the
browser's decryption gives the title, the text and the page to open. A
subscription the service says is gone is dropped; a busy or unreachable
service is a temporary failure, to try again."""

import pytest
from django.contrib.auth import get_user_model

from notifications import channels
from notifications.channels import Destination, DestinationGone, Notice, TemporaryFailure
from notifications.push import devices
from notifications.push.channel import notification_tag
from notifications.push.models import PushSubscription
from tests.notifications.push_service import push_service, vapid  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"


def player(username: str = "anna"):
    return get_user_model().objects.create_user(username=username, password="pw", language="en")


def device_of(user, browser) -> Destination:
    row = devices.add_device(user, devices.Subscription(browser.endpoint, browser.p256dh, browser.to_json()["keys"]["auth"]), UA)
    return Destination("push", str(row.pk), row.label)


def your_move(user, game_id: int = 12, version: int = 40) -> Notice:
    return Notice(kind="your_move", user_id=user.pk, title="Your move", body="Joker with Boris, Vera, Gleb: 2 h 10 min left",
                  url=f"https://games.example.org/games/{game_id}/", key=f"your_move:game={game_id}:v={version}",
                  button="Open the game")


def test_the_channel_is_registered_and_configured_by_the_vapid_keys(settings, vapid):
    push = channels.get("push")
    assert push.is_configured()
    settings.VAPID_PRIVATE_KEY = ""
    assert not push.is_configured()
    assert push not in channels.configured()


def test_a_players_destinations_are_his_devices_named_by_browser_and_date(vapid, push_service):
    anna, boris = player("anna"), player("boris")
    first = device_of(anna, push_service.subscribe(vapid))
    second = device_of(anna, push_service.subscribe(vapid))
    device_of(boris, push_service.subscribe(vapid))

    found = channels.get("push").destinations(anna)

    assert [d.key for d in found] == [first.key, second.key]
    assert found[0].key == f"push:{PushSubscription.objects.filter(user=anna).first().pk}"
    assert found[0].label.startswith("Chrome on Android, ")


def test_the_browser_decrypts_the_title_the_text_and_the_page_to_open(vapid, push_service):
    anna = player()
    browser = push_service.subscribe(vapid)
    destination = device_of(anna, browser)

    channels.get("push").send(destination, your_move(anna))

    assert push_service.refused == []
    assert push_service.messages_for(browser) == [{
        "title": "Your move", "body": "Joker with Boris, Vera, Gleb: 2 h 10 min left",
        "url": "https://games.example.org/games/12/", "tag": "your_move:game=12",
    }]
    assert push_service.received[0].ttl > 0
    assert PushSubscription.objects.get().last_success is not None


def test_another_browsers_keys_cannot_read_the_message(vapid, push_service):
    anna = player()
    browser = push_service.subscribe(vapid)
    destination = device_of(anna, browser)
    browser.private_key = push_service.subscribe(vapid).private_key  # the service decrypts with other keys

    channels.get("push").send(destination, your_move(anna))

    assert push_service.received == []
    assert push_service.refused and "InvalidTag" in push_service.refused[0]


def test_a_games_next_your_move_replaces_the_one_before_on_the_device(vapid, push_service):
    anna = player()
    browser = push_service.subscribe(vapid)
    destination = device_of(anna, browser)

    channels.get("push").send(destination, your_move(anna, version=40))
    channels.get("push").send(destination, your_move(anna, version=44))
    channels.get("push").send(destination, your_move(anna, game_id=13))

    assert [m["tag"] for m in push_service.messages_for(browser)] == [
        "your_move:game=12", "your_move:game=12", "your_move:game=13"]


def test_a_long_list_is_cut_to_fit_a_push_message(vapid, push_service):
    anna = player()
    browser = push_service.subscribe(vapid)
    notice = Notice(kind="your_move", user_id=anna.pk, title="9 games wait for your move",
                    body="\n".join(f"Сика with Бориска, Вероника, Глеб: {n} h left" for n in range(200)),
                    url="https://games.example.org/my-games/", key=f"your_move:user={anna.pk}:burst=1")

    channels.get("push").send(device_of(anna, browser), notice)

    [message] = push_service.messages_for(browser)
    assert len(message["body"]) == 1000 and message["body"].endswith("…")
    assert notice.body.startswith(message["body"][:-1])


def test_a_newer_several_games_wait_replaces_the_older_one():
    burst = Notice(kind="your_move", user_id=5, title="3 games wait for your move", body="", url="/my-games/",
                   key="your_move:user=5:burst=123")
    assert notification_tag(burst) == "your_move:user=5"


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_dropped(vapid, push_service, status):
    anna = player()
    browser = push_service.subscribe(vapid)
    destination = device_of(anna, browser)
    push_service.answer(browser, status)
    push = channels.get("push")

    with pytest.raises(DestinationGone):
        push.send(destination, your_move(anna))
    push.forget(destination)

    assert not PushSubscription.objects.exists()
    assert push.destinations(anna) == []


@pytest.mark.parametrize("status", [429, 500, 503])
def test_a_busy_or_failing_push_service_is_tried_again_later(vapid, push_service, status):
    anna = player()
    browser = push_service.subscribe(vapid)
    destination = device_of(anna, browser)
    push_service.answer(browser, status)
    push = channels.get("push")

    with pytest.raises(TemporaryFailure):
        push.send(destination, your_move(anna))
    push.send(destination, your_move(anna))  # the retry

    assert len(push_service.messages_for(browser)) == 1
    assert PushSubscription.objects.count() == 1


def test_an_unreachable_push_service_is_a_temporary_failure(vapid, push_service):
    anna = player()
    browser = push_service.subscribe(vapid)
    destination = device_of(anna, browser)
    push_service.__exit__(None, None, None)  # the service is down: connection refused

    with pytest.raises(TemporaryFailure):
        channels.get("push").send(destination, your_move(anna))
    assert PushSubscription.objects.count() == 1


def test_a_device_that_moved_to_another_account_gets_nothing_of_the_first(vapid, push_service):
    anna, boris = player("anna"), player("boris")
    browser = push_service.subscribe(vapid)
    annas = device_of(anna, browser)
    device_of(boris, browser)  # Boris logs in on the same browser and turns push on

    with pytest.raises(DestinationGone):
        channels.get("push").send(annas, your_move(anna))
    channels.get("push").forget(annas)  # what the dispatcher does: Boris's device stays
    assert push_service.received == []
    assert channels.get("push").destinations(anna) == []
    assert len(channels.get("push").destinations(boris)) == 1


def test_a_removed_device_is_gone(vapid, push_service):
    anna = player()
    destination = device_of(anna, push_service.subscribe(vapid))
    devices.remove_device(anna, int(destination.ident))

    with pytest.raises(DestinationGone):
        channels.get("push").send(destination, your_move(anna))


def test_a_send_costs_two_queries_however_many_devices_the_player_has(vapid, push_service, django_assert_num_queries):
    anna = player()
    destinations = [device_of(anna, push_service.subscribe(vapid)) for _ in range(3)]

    with django_assert_num_queries(2):  # the subscription, then its last success
        channels.get("push").send(destinations[1], your_move(anna))
    with django_assert_num_queries(1):
        assert len(channels.get("push").destinations(anna)) == 3
