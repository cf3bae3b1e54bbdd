from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameplayConfig(AppConfig):
    name = "gameplay"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The tasks register the work the services hand over after a commit
        # (services/after_commit.py): the services never import them.
        from gameplay import tasks  # noqa: F401
