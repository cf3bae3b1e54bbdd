"""allauth's passkey forms (settings MFA_FORMS), with one change: an
assertion the site refuses (sent again, made for another page's challenge,
or by a key the account does not hold) is told as such, not as allauth's
"Incorrect code." meant for the authenticator app. Nothing is looked at
differently: allauth checks the challenge, the signature and the key.
And whether a passkey confirmed, a moment ago, that the player is who
they say (asked before the account is deleted: pages/forms.py)."""

from __future__ import annotations

import time

from allauth.account import app_settings as account_settings
from allauth.account.internal.flows.login import get_authentication_records
from allauth.mfa.models import Authenticator
from allauth.mfa.webauthn.forms import AuthenticateWebAuthnForm, LoginWebAuthnForm, ReauthenticateWebAuthnForm
from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

PASSKEY_REFUSED = _("Your passkey's answer was refused: it was used already or given for another page. Try again "
                    "with your passkey.")


class PasskeyRefusalTold:
    def clean_credential(self):
        try:
            return super().clean_credential()
        except forms.ValidationError as refused:
            raise forms.ValidationError(PASSKEY_REFUSED, code="passkey_refused") from refused


class AuthenticatePasskeyForm(PasskeyRefusalTold, AuthenticateWebAuthnForm):
    """The second factor, after the password."""


class LoginPasskeyForm(PasskeyRefusalTold, LoginWebAuthnForm):
    """The passwordless login."""


class ReauthenticatePasskeyForm(PasskeyRefusalTold, ReauthenticateWebAuthnForm):
    """Confirming who one is before a sensitive change (a new factor, the account's deletion)."""


def passkey_confirmed_recently(request: HttpRequest) -> bool:
    """Whether the signed-in player confirmed who they are with a passkey, through allauth's
    reauthentication (`mfa_reauthenticate_webauthn`), within ACCOUNT_REAUTHENTICATION_TIMEOUT."""
    since = time.time() - account_settings.REAUTHENTICATION_TIMEOUT
    return any(record.get("method") == "mfa" and record.get("type") == Authenticator.Type.WEBAUTHN
               and record.get("reauthenticated") and record.get("at", 0) > since
               for record in get_authentication_records(request, request.user))
