from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from gameplay import events
        from moderation.fairplay import reviews

        # After the commit, off the move path: the finished game's fair-play evidence (its own task).
        events.subscribe(events.GAME_FINISHED, reviews.game_finished, after_commit=True)
