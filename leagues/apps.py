from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from accounts import bots
        from gameplay import events
        from leagues import bot_holds, live, oversight, services
        from leagues.models import Entry, Fixture, League, Season
        from moderation import permissions

        # In the transaction that ends the game or replaces the seat: the
        # standings' inputs (and the next round) commit with it or not at all.
        events.subscribe(events.GAME_FINISHED, services.game_over, after_commit=False)
        events.subscribe(events.GAME_ABORTED, services.game_over, after_commit=False)
        events.subscribe(events.SEAT_REPLACED, services.seat_substituted, after_commit=False)
        permissions.add_overseer(oversight.ORGANIZERS)
        # Every other input of the stored standings (leagues.live): names, settings, entries edited.
        post_save.connect(live.player_saved, sender=get_user_model(), dispatch_uid="leagues.player_saved")
        post_save.connect(live.league_saved, sender=League, dispatch_uid="leagues.league_saved")
        post_save.connect(live.season_saved, sender=Season, dispatch_uid="leagues.season_saved")
        post_save.connect(live.entry_saved, sender=Entry, dispatch_uid="leagues.entry_saved")
        post_save.connect(live.fixture_saved, sender=Fixture, dispatch_uid="leagues.fixture_saved")
        bots.add_switch_hold(bot_holds.seasons_holding_the_switch)
