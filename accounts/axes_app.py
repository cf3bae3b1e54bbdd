"""django-axes (the counter of failed logins) as the admin shows it: its app
under a translated name (axes names it "Axes", a plain string) and the
field names its own Russian catalogue leaves in English, translated in ours
(the project's catalogue comes first). Its admin's columns without a
translatable title are given one in accounts/admin.py."""

from axes.apps import AppConfig
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

AXES_UNTRANSLATED = [
    gettext_noop("User Agent"), gettext_noop("HTTP Accept"), gettext_noop("Session key hash (sha256)"),
    gettext_noop("Clean up expired attempts"), gettext_noop("Locked Out"), gettext_noop("Not set"),
]


class AxesConfig(AppConfig):
    verbose_name = _("Login attempts")
