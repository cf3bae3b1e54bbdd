"""A player turns web push on per device from his profile (a JSON POST of the
browser's subscription), sees his devices named by browser and date, and
removes them; whatever is sent that is not a usable subscription gets a
clear 400 and changes nothing."""

import base64
import json
from datetime import datetime, timezone

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from notifications.push.models import PushSubscription
from tests.notifications.push_service import Browser, push_service, vapid  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def example_push_service(settings):
    settings.PUSH_SERVICE_HOSTS = [*settings.PUSH_SERVICE_HOSTS, "push.example.net"]

ANDROID_CHROME = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/131.0.0.0 Mobile Safari/537.36")
WINDOWS_FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"


def player(client: Client, username: str = "anna"):
    user = get_user_model().objects.create_user(username=username, password="pw", language="en")
    client.force_login(user)
    return user


def a_browser(vapid: str, endpoint: str = "https://push.example.net/send/abc123") -> Browser:
    return Browser(endpoint=endpoint, application_server_key=vapid)


def subscribe(client: Client, body, user_agent: str = ANDROID_CHROME):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(reverse("push_subscribe"), data, content_type="application/json", HTTP_USER_AGENT=user_agent)


@time_machine.travel(datetime(2026, 11, 27, 9, 30, tzinfo=timezone.utc), tick=False)
def test_turning_push_on_stores_the_device_named_by_browser_system_and_date(client, vapid):
    anna = player(client)
    browser = a_browser(vapid)

    response = subscribe(client, browser.to_json())

    assert response.status_code == 201
    assert response.json()["label"] == "Chrome on Android, 27 Nov 2026"
    row = PushSubscription.objects.get()
    assert (row.user, row.endpoint, row.p256dh) == (anna, browser.endpoint, browser.p256dh)
    assert base64.urlsafe_b64decode(row.auth + "==") == browser.auth


def test_the_same_browser_again_updates_its_device_instead_of_adding_one(client, vapid):
    player(client)
    browser = a_browser(vapid)
    subscribe(client, browser.to_json())
    renewed = Browser(endpoint=browser.endpoint, application_server_key=vapid)

    assert subscribe(client, renewed.to_json(), user_agent=WINDOWS_FIREFOX).status_code == 201

    row = PushSubscription.objects.get()
    assert row.p256dh == renewed.p256dh
    assert row.label.startswith("Firefox on Windows, ")


def test_a_browser_used_by_another_account_becomes_the_new_players(client, vapid):
    anna = player(client, "anna")
    browser = a_browser(vapid)
    subscribe(client, browser.to_json())
    boris = player(client, "boris")

    subscribe(client, browser.to_json())

    assert list(PushSubscription.objects.values_list("user", flat=True)) == [boris.pk]
    assert not anna.push_subscriptions.exists()


def test_a_player_has_at_most_so_many_devices(client, vapid, settings):
    settings.PUSH_DEVICES_PER_USER = 2
    player(client)
    for n in range(2):
        assert subscribe(client, a_browser(vapid, f"https://push.example.net/send/{n}").to_json()).status_code == 201

    response = subscribe(client, a_browser(vapid, "https://push.example.net/send/third").to_json())

    assert response.status_code == 400
    assert response.json()["error"] == "You have push notifications on 2 devices already: remove one first."
    assert PushSubscription.objects.count() == 2


def _with(subscription: dict, **changes) -> dict:
    keys = {**subscription["keys"], **changes.pop("keys", {})}
    return {**subscription, **changes, "keys": keys}


@pytest.mark.parametrize(("change", "error"), [
    (lambda s: "not json", "Send the browser's push subscription as a JSON object."),
    (lambda s: [s], "Send the browser's push subscription as a JSON object."),
    (lambda s: _with(s, endpoint=None), "The subscription has no valid endpoint."),
    (lambda s: _with(s, endpoint="http://push.example.net/x"), "The subscription's endpoint must be an https address."),
    (lambda s: _with(s, endpoint="https://push.example.net/" + "x" * 1000), "The subscription has no valid endpoint."),
    (lambda s: _with(s, endpoint="https://intranet.example.org/admin"),
     "This browser's push service is not one the site sends to."),
    (lambda s: _with(s, endpoint="https://evilpush.example.net/x"),
     "This browser's push service is not one the site sends to."),
    (lambda s: {"endpoint": s["endpoint"]}, "The subscription has no keys."),
    (lambda s: _with(s, keys={"p256dh": ""}), "The subscription's p256dh is missing."),
    (lambda s: _with(s, keys={"p256dh": "!!!"}), "The subscription's p256dh is not base64url."),
    (lambda s: _with(s, keys={"p256dh": "BAAA"}), "The subscription's p256dh is not a P-256 public key."),
    (lambda s: _with(s, keys={"auth": "c2hvcnQ"}), "The subscription's auth secret must be 16 bytes."),
])
def test_what_is_not_a_usable_subscription_gets_a_clear_400_and_stores_nothing(client, vapid, change, error):
    player(client)

    response = subscribe(client, change(a_browser(vapid).to_json()))

    assert response.status_code == 400
    assert response.json() == {"error": error}
    assert not PushSubscription.objects.exists()


def test_subscribing_needs_the_csrf_token_and_a_login(vapid):
    browser = a_browser(vapid)
    anonymous = Client()
    assert subscribe(anonymous, browser.to_json()).status_code == 302

    strict = Client(enforce_csrf_checks=True)
    player(strict)
    assert subscribe(strict, browser.to_json()).status_code == 403
    assert not PushSubscription.objects.exists()


def test_a_player_removes_his_device_and_only_his(client, vapid):
    anna = player(client, "anna")
    subscribe(client, a_browser(vapid).to_json())
    annas = PushSubscription.objects.get()
    other = Client()
    player(other, "boris")

    assert other.post(reverse("push_remove", args=[annas.pk])).status_code == 302
    assert PushSubscription.objects.filter(pk=annas.pk).exists()

    response = client.post(reverse("push_remove", args=[annas.pk]))
    assert response.status_code == 302 and response["Location"].endswith("/accounts/profile/#app-and-push")
    assert not anna.push_subscriptions.exists()


def test_the_profile_lists_the_devices_and_offers_push_on_this_device(client, vapid):
    player(client)
    subscribe(client, a_browser(vapid).to_json())

    page = client.get(reverse("profile")).content.decode()

    assert 'id="app-and-push"' in page
    assert "Turn on notifications on this device" in page
    assert f'data-vapid-key="{vapid}"' in page
    assert "Chrome on Android, " in page
    assert reverse("push_remove", args=[PushSubscription.objects.get().pk]) in page


def test_without_vapid_keys_the_profile_offers_no_push(client, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    player(client)

    page = client.get(reverse("profile")).content.decode()

    assert 'id="app-and-push"' in page  # the app's install offer stays
    assert "Turn on notifications on this device" not in page


def test_the_profile_section_speaks_russian(client, vapid):
    user = player(client)
    user.language = "ru"
    user.save()

    page = client.get(reverse("profile")).content.decode()

    assert "Включить уведомления на этом устройстве" in page


@pytest.mark.parametrize("endpoint", [
    "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAA",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
    "https://web.push.apple.com/QGuQyavXutnMH",
])
def test_the_browsers_own_push_services_are_accepted(client, vapid, settings, endpoint):
    settings.PUSH_SERVICE_HOSTS = settings.PUSH_SERVICE_HOSTS[:-1]  # the defaults alone
    player(client)
    assert subscribe(client, a_browser(vapid, endpoint).to_json()).status_code == 201


def test_the_admin_lists_the_devices_read_only(client, vapid, django_user_model):
    player(client)
    subscribe(client, a_browser(vapid).to_json())
    device = PushSubscription.objects.get()
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "pw"))

    assert "Chrome on Android" in client.get(reverse("admin:notifications_pushsubscription_changelist")).content.decode()
    page = client.get(reverse("admin:notifications_pushsubscription_change", args=[device.pk]))
    assert page.status_code == 200 and 'name="endpoint"' not in page.content.decode()
