from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from gameplay import events
        from moderation import permissions
        from tournaments import oversight, services, shown_standings

        # In the transaction that ends the game: the forfeits, the round's end
        # and the next round's tables commit with the result or not at all.
        events.subscribe(events.GAME_FINISHED, services.game_over, after_commit=False)
        events.subscribe(events.GAME_ABORTED, services.game_over, after_commit=False)
        permissions.add_overseer(oversight.ORGANIZERS)
        # The one input of the cached standings outside the tournament's rows: its players' names.
        post_save.connect(shown_standings.player_saved, sender=get_user_model(),
                          dispatch_uid="tournaments.player_saved")
