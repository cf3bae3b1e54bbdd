from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoresheetsConfig(AppConfig):
    name = "scoresheets"
    verbose_name = _("Score sheets")
