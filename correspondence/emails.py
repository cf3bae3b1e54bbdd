"""The challenge email: sent after the commit to a challenged player who
takes notification emails and has an address, in his language and time
zone. A failing mail server loses this one email (logged), nothing else."""

import logging
import zoneinfo

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts import verification
from correspondence.terms import challenge_terms
from gameplay.engine import get_engine
from gameplay.i18n import engine_name
from notifications import preferences
from notifications.channels import CHALLENGE

log = logging.getLogger(__name__)


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _zone(user) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def render_challenge_email(challenge, user) -> tuple[str, str]:
    with translation.override(user.language or settings.LANGUAGE_CODE), timezone.override(_zone(user)):
        context = {
            "name": user.name, "challenger": challenge.created_by.name, "challenge": challenge,
            "engine_name": engine_name(get_engine(challenge.engine)), "time_zone": _zone(user).key,
            "expires_at": timezone.localtime(challenge.expires_at),
            "challenges_url": _absolute(reverse("challenges")),
            "settings_url": _absolute(reverse("notification_preferences")),
            "terms": challenge_terms(challenge),
        }
        subject = " ".join(render_to_string("correspondence/email/challenge_subject.txt", context).split())
        body = render_to_string("correspondence/email/challenge.txt", context).strip() + "\n"
    return subject, body


def challenge_received(challenge, user) -> bool:
    if not user.email or not user.is_active or not preferences.email_wanted_now(user, CHALLENGE):
        return False
    if not verification.may_mail(user.email):  # not before the address is confirmed
        return False
    try:
        subject, body = render_challenge_email(challenge, user)
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email])
    except Exception:
        log.exception("sending the email of challenge %s to user %s failed", challenge.pk, user.pk)
        return False
    return True
