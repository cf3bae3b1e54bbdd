"""The rate limit of reports (django-ratelimit's counters, as accounts/limits.py)."""

from django.utils.translation import gettext_lazy as _

from accounts.limits import Key, Limit, value

REPORTS_FROM_USER = Limit(
    "conduct.reports.user", "REPORTS_PER_USER",
    _("You have sent many reports in a short time, so sending more is paused for a while. "
      "The moderators will read the ones already sent."),
)


def report_limits(user) -> list[tuple[Limit, Key]]:
    return [(REPORTS_FROM_USER, value(str(user.pk)))]
