"""Issue 40, part 2: the profile lists the account's sessions (device,
network address, last seen) and ends any of them, which also closes its
sockets; a sign-in from a device the account has not used is emailed."""

from datetime import timedelta

import pytest
import time_machine
from allauth.usersessions.models import UserSession
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.sockets import CLOSE_SIGNED_OUT
from tests.accounts.test_sockets_end_with_the_session import closed_after, joker_game, players  # noqa: F401

PASSWORD = "an-old-password-1"
CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"


def logged_in(username: str, agent: str, address: str = "198.51.100.20") -> Client:
    client = Client(HTTP_USER_AGENT=agent, REMOTE_ADDR=address)
    response = client.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 302
    return client


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user("anna", "anna@example.com", PASSWORD, language="en")


def test_the_sessions_page_lists_each_device_with_its_address_and_last_seen(anna):
    laptop = logged_in("anna", CHROME_LINUX, "198.51.100.20")
    logged_in("anna", FIREFOX_ANDROID, "203.0.113.9")

    page = laptop.get(reverse("my_sessions")).text

    assert "Chrome on Linux" in page and "198.51.100.20" in page and "(this device)" in page
    assert "Firefox Mobile on Android" in page and "203.0.113.9" in page
    assert reverse("my_sessions") in laptop.get(reverse("profile")).text


def test_last_seen_is_refreshed_at_most_every_few_minutes(anna, settings):
    laptop = logged_in("anna", CHROME_LINUX)
    first = UserSession.objects.get().last_seen_at
    laptop.get(reverse("lobby"))
    assert UserSession.objects.get().last_seen_at == first  # seen lately: no write
    with time_machine.travel(timezone.now() + timedelta(seconds=settings.SESSION_SEEN_SECONDS + 5)):
        from django.core.cache import cache

        cache.clear()  # the local-memory cache does not follow the travelled clock
        laptop.get(reverse("lobby"))
    assert UserSession.objects.get().last_seen_at > first


def test_ending_another_session_logs_that_device_out(anna):
    laptop = logged_in("anna", CHROME_LINUX)
    phone = logged_in("anna", FIREFOX_ANDROID)
    other = UserSession.objects.get(user_agent=FIREFOX_ANDROID)

    response = laptop.post(reverse("my_sessions"), {"session": other.pk}, follow=True)

    assert "That session is ended" in response.text
    assert phone.get(reverse("profile")).status_code == 302
    assert laptop.get(reverse("profile")).status_code == 200
    assert list(UserSession.objects.values_list("user_agent", flat=True)) == [CHROME_LINUX]


def test_ending_ones_own_session_logs_out(anna):
    laptop = logged_in("anna", CHROME_LINUX)
    mine = UserSession.objects.get()
    assert laptop.post(reverse("my_sessions"), {"session": mine.pk}).url == reverse("login")
    assert laptop.get(reverse("profile")).status_code == 302


def test_another_accounts_session_cannot_be_ended(anna, django_user_model):
    django_user_model.objects.create_user("boris", "boris@example.com", PASSWORD)
    theirs = logged_in("boris", FIREFOX_ANDROID)
    laptop = logged_in("anna", CHROME_LINUX)
    boris_session = UserSession.objects.get(user__username="boris")
    assert "There is no such session." in laptop.post(reverse("my_sessions"), {"session": boris_session.pk},
                                                      follow=True).text
    assert theirs.get(reverse("profile")).status_code == 200


def test_a_sign_in_from_a_new_device_is_emailed_and_a_known_one_is_not(anna, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        logged_in("anna", CHROME_LINUX)  # the account's first device
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        logged_in("anna", FIREFOX_ANDROID, "203.0.113.9")
    assert [m.subject for m in mail.outbox] == ["A new sign-in to your account"]
    assert "Firefox Mobile on Android" in mail.outbox[0].body and "203.0.113.9" in mail.outbox[0].body
    with django_capture_on_commit_callbacks(execute=True):
        logged_in("anna", CHROME_LINUX)
    assert len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
def test_ending_a_session_closes_its_game_socket(joker_game, players, redis_channel_layer):  # noqa: F811
    from django.conf import settings

    phone = logged_in(players[1].username, FIREFOX_ANDROID, "203.0.113.9")
    laptop = logged_in(players[1].username, CHROME_LINUX)
    cookie = f"{settings.SESSION_COOKIE_NAME}={phone.cookies[settings.SESSION_COOKIE_NAME].value}"
    headers = [(b"origin", b"http://127.0.0.1"), (b"cookie", cookie.encode())]
    session = UserSession.objects.get(user_agent=FIREFOX_ANDROID)

    output = closed_after(joker_game.pk, headers,
                          lambda: laptop.post(reverse("my_sessions"), {"session": session.pk}))

    assert output["type"] == "websocket.close" and output["code"] == CLOSE_SIGNED_OUT
