"""django-allauth as this site uses it (settings ACCOUNT_*, MFA_*): sign-up
remembers the visitor's language, the links in its emails lead to SITE_URL
(like every link the site mails, never to the host a request named), and a
name is shown as the site shows it everywhere."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from allauth.mfa.adapter import DefaultMFAAdapter
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation


def user_display(user) -> str:
    return user.name


def site_link(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request: HttpRequest, user, form, commit: bool = True):
        user = super().save_user(request, user, form, commit=False)
        language = translation.get_language()
        user.language = language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        user.address_confirmed = False  # until the link is followed (accounts/verification.py)
        if commit:
            user.save()
        return user

    # Signing in and out show where one lands (the game, the lobby); a banner saying so only pushes a
    # game's table below a phone's first screen.
    QUIET_MESSAGES = {"account/messages/logged_in.txt", "account/messages/logged_out.txt"}

    def add_message(self, request, level, message_template=None, message_context=None, extra_tags="",
                    message=None) -> None:
        if message_template in self.QUIET_MESSAGES:
            return
        super().add_message(request, level, message_template=message_template, message_context=message_context,
                            extra_tags=extra_tags, message=message)

    def get_email_confirmation_url(self, request: HttpRequest | None, emailconfirmation) -> str:
        return site_link(reverse("account_confirm_email", args=[emailconfirmation.key]))


class MFAAdapter(DefaultMFAAdapter):
    def get_totp_label(self, user) -> str:
        return user.username
