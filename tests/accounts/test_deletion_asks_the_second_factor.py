"""Issue 40, part 3: "Delete my account" asks the password AND the second
factor when one is on: an authenticator app's code (or a recovery code), or
a passkey, confirmed a moment before through allauth's reauthentication
(`mfa_reauthenticate_webauthn`). The passkey's signature check is allauth's
(tested with a real key in tests/browser/test_accounts_in_browser.py); here
it is stood in for, to see what the deletion asks."""

import time
from unittest import mock

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value
from allauth.mfa.utils import encrypt
from allauth.mfa.webauthn.internal import auth as webauthn
from django.urls import reverse

SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


def deleted(user) -> bool:
    user.refresh_from_db()
    return not user.is_active and user.username == f"deleted-{user.pk}"


@pytest.fixture(autouse=True)
def reads_english(user):
    user.language = "en"
    user.save(update_fields=["language"])


@pytest.fixture
def with_app(user):
    Authenticator.objects.create(user=user, type=Authenticator.Type.TOTP, data={"secret": encrypt(SECRET)})
    return user


@pytest.fixture
def passkey(user) -> Authenticator:
    """A passkey, and the recovery codes allauth makes with the first one."""
    key = Authenticator.objects.create(user=user, type=Authenticator.Type.WEBAUTHN,
                                       data={"name": "My laptop", "credential": {}})
    RecoveryCodes.activate(user)
    return key


def confirm_with_passkey(client, key: Authenticator) -> None:
    """allauth's passkey reauthentication, its signature check stood in for: the key answered."""
    with mock.patch.object(webauthn, "parse_authentication_response"), \
            mock.patch.object(webauthn, "complete_authentication", return_value=key):
        response = client.post(reverse("mfa_reauthenticate_webauthn"),
                               {"credential": '{"id": "key"}', "next": reverse("personal_data")})
    assert response.status_code == 302 and response["Location"] == reverse("personal_data")


def test_an_account_with_an_authenticator_app_is_deleted_only_with_its_code(signed_in, with_app, password):
    without = signed_in.post(reverse("delete_account"), {"password": password, "confirm": "on"})
    assert without.status_code == 400 and "Give the code of your second factor." in without.text
    wrong = signed_in.post(reverse("delete_account"), {"password": password, "confirm": "on", "code": "000000"
                                                        if format_hotp_value(hotp_value(SECRET, int(time.time()) // 30)) != "000000" else "111111"})
    assert wrong.status_code == 400 and "Incorrect code." in wrong.text
    assert not deleted(with_app)
    code = format_hotp_value(hotp_value(SECRET, int(time.time()) // 30))
    signed_in.post(reverse("delete_account"), {"password": password, "confirm": "on", "code": code})
    assert deleted(with_app)


def test_an_account_whose_factor_is_a_passkey_is_not_deleted_with_the_password_only(signed_in, user, passkey,
                                                                                     password):
    page = signed_in.get(reverse("personal_data"))
    assert reverse("mfa_reauthenticate_webauthn") + "?next=/accounts/my-data/%23delete" in page.text
    refused = signed_in.post(reverse("delete_account"), {"password": password, "confirm": "on"})
    assert refused.status_code == 400
    assert "Confirm with your passkey, or give a code of your second factor." in refused.text
    assert not deleted(user)


def test_a_passkey_confirmed_a_moment_before_lets_the_password_delete_the_account(signed_in, user, passkey,
                                                                                   password):
    confirm_with_passkey(signed_in, passkey)
    page = signed_in.get(reverse("personal_data"))
    assert 'id="passkey-confirmed"' in page.text and 'name="code"' not in page.text
    wrong = signed_in.post(reverse("delete_account"), {"password": "not mine", "confirm": "on"})
    assert wrong.status_code == 400 and "That is not your password." in wrong.text and not deleted(user)
    signed_in.post(reverse("delete_account"), {"password": password, "confirm": "on"})
    assert deleted(user)


def test_a_passkey_confirmation_grows_stale_after_the_reauthentication_timeout(signed_in, user, passkey, password,
                                                                              settings):
    confirm_with_passkey(signed_in, passkey)
    settings.ACCOUNT_REAUTHENTICATION_TIMEOUT = 0
    refused = signed_in.post(reverse("delete_account"), {"password": password, "confirm": "on"})
    assert refused.status_code == 400 and not deleted(user)


def test_a_recovery_code_stands_in_for_a_lost_passkey(signed_in, user, passkey, password):
    recovery_code = RecoveryCodes(Authenticator.objects.get(user=user, type=Authenticator.Type.RECOVERY_CODES)) \
        .get_unused_codes()[0]
    signed_in.post(reverse("delete_account"), {"password": password, "confirm": "on", "code": recovery_code})
    assert deleted(user)


def test_a_passkey_confirmation_of_another_session_does_not_count(client, user, passkey, password):
    other = type(client)()
    other.force_login(user)
    confirm_with_passkey(other, passkey)
    client.force_login(user)
    refused = client.post(reverse("delete_account"), {"password": password, "confirm": "on"})
    assert refused.status_code == 400 and not deleted(user)


def test_a_refused_passkey_confirmation_comes_back_to_it_and_says_why(signed_in, user, passkey, password):
    refused = signed_in.post(reverse("mfa_reauthenticate_webauthn"),
                             {"credential": '{"id": "key"}', "next": reverse("personal_data")})
    assert refused["Location"] == reverse("mfa_reauthenticate_webauthn") + "?next=%2Faccounts%2Fmy-data%2F"
    assert "Your passkey&#x27;s answer was refused" in signed_in.get(reverse("personal_data")).text
    still = signed_in.post(reverse("delete_account"), {"password": password, "confirm": "on"})
    assert still.status_code == 400 and not deleted(user)


@pytest.mark.parametrize("credential", ['{"id": "key"}', '"text"', '[1]', '{"id": 1, "rawId": 2, "response": 3}'])
def test_a_malformed_passkey_answer_is_refused_at_every_door_never_a_server_error(client, user, passkey, credential):
    client.force_login(user)
    confirm = client.post(reverse("mfa_reauthenticate_webauthn"), {"credential": credential})
    assert confirm.status_code == 302
    client.logout()
    login = client.post(reverse("mfa_login_webauthn"), {"credential": credential}, follow=True)
    assert login.status_code == 200 and "Your passkey&#x27;s answer was refused" in login.text
