from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = _("API access")

    def ready(self) -> None:
        from api import personal_data

        personal_data.register()
