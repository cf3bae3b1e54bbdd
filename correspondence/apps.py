from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CorrespondenceConfig(AppConfig):
    name = "correspondence"
    verbose_name = _("Correspondence play")

    def ready(self) -> None:
        from correspondence import live, selectors, tasks  # noqa: F401 (tasks registers the expiry task with the services)
        from accounts import bots
        from correspondence import bot_holds
        from gameplay import badge, events

        bots.add_switch_hold(bot_holds.challenges_holding_the_switch)

        # The header's count of challenges waiting for the user's answer, next to the "your move" badge.
        badge.add_count(live.CHALLENGES_COUNT, selectors.pending_challenge_count)

        for event in (events.GAME_STARTED, events.TURN_CHANGED, events.GAME_FINISHED, events.GAME_ABORTED):
            events.subscribe(event, live.games_changed, after_commit=True)
