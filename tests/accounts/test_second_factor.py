"""Issue 40, part 2: a second factor (TOTP with recovery codes, allauth.mfa),
optional for players, required of staff before the admin opens."""

import re
import time

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value
from django.test import Client
from django.urls import reverse

PASSWORD = "a staff password 2468"


def code_for(secret: str, margin: float = 3) -> str:
    """The authenticator's code now, once at least `margin` seconds of its 30 are left: the site accepts
    only the current period's code (allauth's MFA_TOTP_TOLERANCE, 0), and a code made at the period's end
    reached it in the next one, refused (seen once in a full run)."""
    left = 30 - time.time() % 30
    if left < margin:
        time.sleep(left + 0.05)
    return format_hotp_value(hotp_value(secret, int(time.time()) // 30))


def log_in(client: Client, username: str, password: str = PASSWORD, next_url: str = ""):
    url = reverse("login") + (f"?next={next_url}" if next_url else "")
    return client.post(url, {"username": username, "password": password})


def set_up_totp(client: Client) -> str:
    """Through the pages: the password asked again, the secret shown, a code from it."""
    asked = client.get(reverse("mfa_activate_totp"))
    assert asked.status_code == 302 and asked.url.startswith(reverse("account_reauthenticate"))
    client.post(asked.url, {"password": PASSWORD})
    page = client.get(reverse("mfa_activate_totp"))
    assert page.status_code == 200
    secret = page.context["form"].secret
    assert secret in page.text  # shown to be typed into an authenticator app
    response = client.post(reverse("mfa_activate_totp"), {"code": code_for(secret)})
    assert response.status_code == 302
    return secret


def recovery_codes(client: Client) -> list[str]:
    page = client.get(reverse("mfa_view_recovery_codes"))
    return page.context["unused_codes"]


@pytest.fixture
def boss(django_user_model):
    from allauth.account.models import EmailAddress

    user = django_user_model.objects.create_user("boss", "boss@example.com", PASSWORD, is_staff=True,
                                                 is_superuser=True, language="en")
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    return user


@pytest.mark.staff_without_second_factor
def test_a_staff_account_without_a_second_factor_is_sent_to_set_one_up(client, boss):
    assert log_in(client, "boss").status_code == 302

    response = client.get(reverse("admin:index"), follow=True)

    assert response.redirect_chain[-1][0] == reverse("mfa_index")
    assert "Set up a second factor" in response.text


@pytest.mark.staff_without_second_factor
def test_once_set_up_the_admin_opens_and_the_next_login_asks_for_the_code(client, boss):
    log_in(client, "boss")
    secret = set_up_totp(client)
    assert client.get(reverse("admin:index")).status_code == 200
    client.post(reverse("logout"))

    response = log_in(client, "boss", next_url=reverse("admin:index"))
    assert response.status_code == 302 and response.url == reverse("mfa_authenticate")
    assert client.get(reverse("admin:index")).status_code == 302  # not logged in yet

    wrong = client.post(reverse("mfa_authenticate"), {"code": "000000" if code_for(secret) != "000000" else "111111"})
    assert wrong.status_code == 200 and "Incorrect code." in wrong.text
    right = client.post(reverse("mfa_authenticate"), {"code": code_for(secret)})
    assert right.status_code == 302 and right.url == reverse("admin:index")
    assert client.get(reverse("admin:index")).status_code == 200


@pytest.mark.staff_without_second_factor
def test_a_used_code_is_refused_the_second_time(client, boss):
    log_in(client, "boss")
    secret = set_up_totp(client)
    client.post(reverse("logout"))
    log_in(client, "boss")
    code = code_for(secret, margin=15)  # the replay below comes within the same period: refused as used, not as old
    assert client.post(reverse("mfa_authenticate"), {"code": code}).status_code == 302
    client.post(reverse("logout"))

    log_in(client, "boss")
    replay = client.post(reverse("mfa_authenticate"), {"code": code})
    assert replay.status_code == 200 and "Incorrect code." in replay.text


@pytest.mark.staff_without_second_factor
def test_a_recovery_code_logs_in_once(client, boss):
    log_in(client, "boss")
    set_up_totp(client)
    codes = recovery_codes(client)
    assert len(codes) == 10
    client.post(reverse("logout"))

    log_in(client, "boss")
    assert client.post(reverse("mfa_authenticate"), {"code": codes[0]}).status_code == 302
    client.post(reverse("logout"))
    log_in(client, "boss")
    assert "Incorrect code." in client.post(reverse("mfa_authenticate"), {"code": codes[0]}).text


@pytest.mark.staff_without_second_factor
def test_the_admins_own_login_hands_an_account_with_a_second_factor_to_the_sites(client, boss):
    log_in(client, "boss")
    set_up_totp(client)
    client.post(reverse("logout"))

    response = Client().post(reverse("admin:login") + "?next=/admin/",
                             {"username": "boss", "password": PASSWORD, "next": "/admin/"})

    assert response.status_code == 302 and response.url.startswith(reverse("login") + "?next=")
    assert "_auth_user_id" not in Client().session


def test_a_second_factor_is_optional_for_players(client, django_user_model):
    django_user_model.objects.create_user("anna", "anna@example.com", PASSWORD, language="en")
    assert log_in(client, "anna").url == reverse("lobby")
    assert not Authenticator.objects.exists()
    assert re.search(r'href="/accounts/2fa/"', client.get(reverse("profile")).text)
