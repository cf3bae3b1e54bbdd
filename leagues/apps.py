from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import bots
        from gameplay import events
        from leagues import bot_holds, oversight, services
        from moderation import permissions

        # In the transaction that ends the game or replaces the seat: the
        # standings' inputs (and the next round) commit with it or not at all.
        events.subscribe(events.GAME_FINISHED, services.game_over, after_commit=False)
        events.subscribe(events.GAME_ABORTED, services.game_over, after_commit=False)
        events.subscribe(events.SEAT_REPLACED, services.seat_substituted, after_commit=False)
        permissions.add_overseer(oversight.ORGANIZERS)
        bots.add_switch_hold(bot_holds.seasons_holding_the_switch)
