"""allauth's passkey forms (settings MFA_FORMS), with one change: an
assertion the site refuses (sent again, made for another page's challenge,
or by a key the account does not hold) is told as such, not as allauth's
"Incorrect code." meant for the authenticator app (and a malformed
answer too, which allauth lets through as a server error). Nothing is looked at
differently: allauth checks the challenge, the signature and the key.
And whether a passkey confirmed, a moment ago, that the player is who
they say (asked before the account is deleted: pages/forms.py)."""

from __future__ import annotations

import time

from allauth.account import app_settings as account_settings
from allauth.account.internal.flows.login import get_authentication_records
from allauth.mfa.models import Authenticator
from allauth.account.utils import get_next_redirect_url
from allauth.mfa.webauthn.views import ReauthenticateWebAuthnView
from allauth.mfa.webauthn.forms import AuthenticateWebAuthnForm, LoginWebAuthnForm, ReauthenticateWebAuthnForm
from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

PASSKEY_REFUSED = _("Your passkey's answer was refused: it was used already or given for another page. Try again "
                    "with your passkey.")


class PasskeyRefusalTold:
    def clean_credential(self):
        try:
            return super().clean_credential()
        # A malformed answer (a field missing, of another type) escapes allauth's parsing as a bare
        # KeyError or AttributeError: refused the same way, never a 500.
        except (forms.ValidationError, KeyError, AttributeError, TypeError, ValueError) as refused:
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


class ReauthenticateWithPasskeyView(ReauthenticateWebAuthnView):
    """allauth's passkey confirmation, except that a refused answer brings the player back to it (with
    the page they were going to) rather than to the login page, which only sends a signed-in player away."""

    def form_invalid(self, form) -> HttpResponse:
        for message in form.errors.get("credential", []):
            messages.error(self.request, message)
        next_url = get_next_redirect_url(self.request)
        return HttpResponseRedirect(reverse("mfa_reauthenticate_webauthn")
                                    + (f"?{urlencode({'next': next_url})}" if next_url else ""))
