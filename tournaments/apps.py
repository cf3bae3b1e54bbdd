from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from gameplay import events
        from moderation import permissions
        from tournaments import oversight, services

        # In the transaction that ends the game: the forfeits, the round's end
        # and the next round's tables commit with the result or not at all.
        events.subscribe(events.GAME_FINISHED, services.game_over, after_commit=False)
        events.subscribe(events.GAME_ABORTED, services.game_over, after_commit=False)
        permissions.add_overseer(oversight.ORGANIZERS)
