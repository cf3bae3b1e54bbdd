from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConductConfig(AppConfig):
    """Players' conduct: their reports, and the suspensions and chat mutes moderators give."""

    name = "conduct"
    verbose_name = _("Reports and restrictions")
    default_auto_field = "django.db.models.BigAutoField"
