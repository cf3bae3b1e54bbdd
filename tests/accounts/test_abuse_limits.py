"""Limits on the account pages against abuse, with their default settings.

- Password reset: a few emails per address, a few more per network address.
- Signup: a few accounts per network address.
- Login: besides django-axes' lock of one username from one address (see
  test_rate_limit.py), failures are counted per network address (any
  usernames) and per username (any addresses).

A refused request gets a page that says what happened and when to try
again, with status 429 and a Retry-After header. The counters live in the
cache; every test starts with an empty one, at a frozen moment, so that no
counting window ends in the middle of a test.
"""

import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from .conftest import PASSWORD

BASE_DIR = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 3, 2, 18, 0, 7, tzinfo=timezone.utc)
ATTACKER = "203.0.113.66"


@pytest.fixture(autouse=True)
def limits_from_a_clean_slate(settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5
    cache.clear()
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller
    cache.clear()


@pytest.fixture
def clock(limits_from_a_clean_slate):
    return limits_from_a_clean_slate


def ask_for_reset(client: Client, email: str, ip: str = "127.0.0.1"):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=ip)


def sign_up(client: Client, username: str, ip: str = "127.0.0.1"):
    return client.post(reverse("signup"), {
        "username": username, "email": f"{username}@example.com",
        "password1": "green tea and lemon", "password2": "green tea and lemon",
    }, REMOTE_ADDR=ip)


def log_in(client: Client, username: str, password: str, ip: str = "127.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def assert_refused_with_a_page_that_says_when_to_retry(response, what: str) -> int:
    """The minutes to wait that the page gives."""
    assert response.status_code == 429
    assert "accounts/too_many_attempts.html" in [t.name for t in response.templates]
    text = response.content.decode()
    assert what in text
    minutes = int(re.search(r"Please try again in (\d+) minutes?\.", text)[1])
    assert 1 <= minutes
    assert 1 <= int(response["Retry-After"]) <= minutes * 60
    return minutes


def make_users(django_user_model, count: int, prefix: str = "user") -> list:
    return [django_user_model.objects.create_user(f"{prefix}{i}", f"{prefix}{i}@example.com", PASSWORD)
            for i in range(count)]


# ---- password reset --------------------------------------------------------

def test_twenty_reset_requests_for_one_address_send_three_emails(client, user):
    answers = [ask_for_reset(Client(), "anna@example.com", ip=f"198.51.100.{i}") for i in range(20)]

    assert len(mail.outbox) == 3
    assert [a.status_code for a in answers[:3]] == [302] * 3
    for answer in answers[3:]:
        assert_refused_with_a_page_that_says_when_to_retry(
            answer, "Too many password reset emails have been asked for this address")


def test_the_address_limit_ignores_case_and_spaces_and_covers_unknown_addresses_too(client, user):
    for email in ["anna@example.com", " ANNA@example.com", "Anna@Example.com "]:
        assert ask_for_reset(client, email).status_code == 302
    assert ask_for_reset(client, "anna@EXAMPLE.com").status_code == 429

    for _ in range(3):
        assert ask_for_reset(Client(), "nobody@example.com", ip="198.51.100.1").status_code == 302
    assert ask_for_reset(Client(), "nobody@example.com", ip="198.51.100.2").status_code == 429


def test_reset_emails_go_out_again_after_the_wait(client, user, clock):
    for _ in range(4):
        ask_for_reset(client, "anna@example.com")
    assert len(mail.outbox) == 3

    clock.shift(timedelta(hours=1, seconds=1))

    assert ask_for_reset(client, "anna@example.com").status_code == 302
    assert len(mail.outbox) == 4


def test_one_network_address_asks_for_ten_reset_emails_at_most(client, django_user_model):
    make_users(django_user_model, 12)

    answers = [ask_for_reset(client, f"user{i}@example.com", ip=ATTACKER) for i in range(12)]

    assert [a.status_code for a in answers[:10]] == [302] * 10
    assert len(mail.outbox) == 10
    for answer in answers[10:]:
        assert_refused_with_a_page_that_says_when_to_retry(
            answer, "Too many password reset emails have been asked for from your network address")
    assert ask_for_reset(Client(), "user11@example.com", ip="198.51.100.7").status_code == 302
    assert len(mail.outbox) == 11


# ---- signup -----------------------------------------------------------------

def test_twenty_signups_from_one_address_create_ten_accounts(db, client):
    answers = [sign_up(Client(), f"newcomer{i}", ip=ATTACKER) for i in range(20)]

    assert [a.status_code for a in answers[:10]] == [302] * 10
    assert get_user_model().objects.filter(computer_level=None).count() == 10  # the computer levels have accounts of their own
    for answer in answers[10:]:
        assert_refused_with_a_page_that_says_when_to_retry(
            answer, "Too many accounts have been created from your network address")


def test_the_signup_page_itself_says_so_once_the_limit_is_reached(db, client):
    for i in range(10):
        sign_up(Client(), f"newcomer{i}", ip=ATTACKER)

    response = Client().get(reverse("signup"), REMOTE_ADDR=ATTACKER)

    assert_refused_with_a_page_that_says_when_to_retry(
        response, "Too many accounts have been created from your network address")
    assert Client().get(reverse("signup"), REMOTE_ADDR="198.51.100.7").status_code == 200


def test_signups_from_other_addresses_and_forms_with_mistakes_are_not_held_back(db, client):
    for i in range(12):
        response = client.post(reverse("signup"), {"username": f"typo{i}", "email": ""}, REMOTE_ADDR=ATTACKER)
        assert response.status_code == 200
    for i in range(10):
        assert sign_up(Client(), f"newcomer{i}", ip=ATTACKER).status_code == 302

    assert sign_up(Client(), "someone-else", ip="198.51.100.7").status_code == 302


def test_signing_up_works_again_the_next_day(db, client, clock):
    for i in range(11):
        sign_up(Client(), f"newcomer{i}", ip=ATTACKER)
    assert get_user_model().objects.filter(computer_level=None).count() == 10  # the computer levels have accounts of their own

    clock.shift(timedelta(days=1, seconds=1))

    assert sign_up(Client(), "tomorrow", ip=ATTACKER).status_code == 302


# ---- login ------------------------------------------------------------------

def test_forty_wrong_passwords_across_ten_users_from_one_address_lock_that_address(client, django_user_model):
    users = make_users(django_user_model, 11)
    answers = [log_in(client, f"user{i % 10}", "wrong", ip=ATTACKER) for i in range(40)]

    assert [a.status_code for a in answers[:20]] == [200] * 20  # the form again, with its error
    for answer in answers[20:]:
        assert_refused_with_a_page_that_says_when_to_retry(
            answer, "Too many logins have failed from your network address")
    # Even the right password of an untouched account, from that address:
    assert log_in(Client(), users[10].username, PASSWORD, ip=ATTACKER).status_code == 429
    # Everyone else logs in as usual:
    assert log_in(Client(), users[10].username, PASSWORD, ip="198.51.100.7").status_code == 302


def test_wrong_passwords_from_thirty_addresses_against_one_user_lock_that_user(client, user, django_user_model):
    answers = [log_in(Client(), "anna", "wrong", ip=f"198.51.100.{i}") for i in range(30)]

    assert [a.status_code for a in answers[:20]] == [200] * 20
    for answer in answers[20:]:
        assert_refused_with_a_page_that_says_when_to_retry(
            answer, "Too many logins to this account have failed")
    refused = log_in(Client(), "anna", PASSWORD, ip="192.0.2.1")
    assert refused.status_code == 429
    assert reverse("password_reset") in refused.content.decode()
    # The username is one whatever its case:
    assert log_in(Client(), "ANNA", "wrong", ip="192.0.2.2").status_code == 429
    # Other users are not affected:
    django_user_model.objects.create_user("boris", password="boris's own password")
    assert log_in(Client(), "boris", "boris's own password", ip="192.0.2.3").status_code == 302


def test_logging_in_works_again_after_the_wait(client, user, clock):
    for i in range(21):
        log_in(Client(), "anna", "wrong", ip=f"198.51.100.{i}")
    assert log_in(Client(), "anna", PASSWORD, ip="192.0.2.1").status_code == 429

    clock.shift(timedelta(hours=1, seconds=1))

    assert log_in(Client(), "anna", PASSWORD, ip="192.0.2.1").status_code == 302


def test_the_admin_login_counts_and_respects_the_same_limits(client, django_user_model):
    django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    for i in range(20):
        client.post(reverse("admin:login"), {"username": "root", "password": "wrong"},
                    REMOTE_ADDR=f"198.51.100.{i}")

    response = Client().post(reverse("admin:login"), {"username": "root", "password": PASSWORD},
                             REMOTE_ADDR="192.0.2.1")

    assert response.status_code == 200  # the admin's form again: not logged in
    assert "_auth_user_id" not in response.wsgi_request.session


def test_the_lock_of_one_username_from_one_address_still_comes_first_and_says_when_to_retry(client, user):
    for _ in range(5):
        log_in(client, "anna", "wrong")

    response = log_in(client, "anna", PASSWORD)

    assert response.status_code == 429
    assert "accounts/locked_out.html" in [t.name for t in response.templates]
    assert "The pause lasts 15 minutes from the last failed attempt." in response.content.decode()
    assert response["Retry-After"] == str(15 * 60)


# ---- settings ---------------------------------------------------------------

def load_setting(name: str, **env: str) -> subprocess.CompletedProcess:
    code = f"import django; django.setup(); from django.conf import settings; print(settings.{name})"
    environ = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true",
               "REDIS_URL": "", **env}
    return subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=environ,
                          capture_output=True, text=True, timeout=120)


def test_the_limits_come_from_the_environment_and_a_malformed_one_is_refused_at_start_up():
    assert load_setting("SIGNUPS_PER_IP").stdout.strip() == "10/d"
    assert load_setting("SIGNUPS_PER_IP", SIGNUPS_PER_IP="3/12h").stdout.strip() == "3/12h"

    refused = load_setting("SIGNUPS_PER_IP", SIGNUPS_PER_IP="ten a day")
    assert refused.returncode != 0
    assert "SIGNUPS_PER_IP" in refused.stderr
