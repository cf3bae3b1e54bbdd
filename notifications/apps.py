from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    """Telling players what happened in their games when they are not
    looking: it follows `gameplay`'s events (`gameplay.events`), after the commit."""

    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from gameplay import events
        from notifications import channels, emails
        from notifications.telegram.channel import TelegramChannel

        events.subscribe(events.TURN_CHANGED, emails.turn_started, after_commit=True)
        events.subscribe(events.CLOCK_WARNING, emails.time_warning, after_commit=True)
        events.subscribe(events.GAME_FINISHED, emails.game_over, after_commit=True)
        events.subscribe(events.SEAT_REPLACED, emails.seat_replaced, after_commit=True)

        channels.register(TelegramChannel())
