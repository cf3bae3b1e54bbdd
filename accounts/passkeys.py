"""allauth's passkey forms (settings MFA_FORMS), with one change: an
assertion the site refuses (sent again, made for another page's challenge,
or by a key the account does not hold) is told as such, not as allauth's
"Incorrect code." meant for the authenticator app. Nothing is looked at
differently: allauth checks the challenge, the signature and the key."""

from __future__ import annotations

from allauth.mfa.webauthn.forms import AuthenticateWebAuthnForm, LoginWebAuthnForm, ReauthenticateWebAuthnForm
from django import forms
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
