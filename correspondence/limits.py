"""The rate limit of challenges (django-ratelimit's counters, as accounts/limits.py)."""

from django.utils.translation import gettext_lazy as _

from accounts.limits import Key, Limit, value

CHALLENGES_FROM_USER = Limit(
    "correspondence.challenges.user", "CHALLENGES_PER_USER",
    _("You have sent many challenges in a short time, so sending more is paused for a while."),
)


def challenge_limits(user) -> list[tuple[Limit, Key]]:
    return [(CHALLENGES_FROM_USER, value(str(user.pk)))]
