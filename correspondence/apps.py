from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CorrespondenceConfig(AppConfig):
    name = "correspondence"
    verbose_name = _("Correspondence play")

    def ready(self) -> None:
        from correspondence import tasks  # noqa: F401 (registers the expiry task with the services)
