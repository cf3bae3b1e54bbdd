from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    """Telling players what happened in their games when they are not
    looking: it follows `gameplay`'s events (`gameplay.events`), after the commit."""

    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from gameplay import events
        from notifications import channels, dispatch, emails, subscribers
        from notifications.push.channel import PushChannel
        from notifications.telegram.channel import TelegramChannel

        events.subscribe(events.TURN_CHANGED, emails.turn_started, after_commit=True)
        events.subscribe(events.CLOCK_WARNING, emails.time_warning, after_commit=True)
        events.subscribe(events.GAME_FINISHED, emails.game_over, after_commit=True)
        events.subscribe(events.SEAT_REPLACED, emails.seat_replaced, after_commit=True)

        # Push and Telegram (and email, for the kinds without their own email) through the dispatcher.
        events.subscribe(events.TURN_CHANGED, subscribers.turn_changed, after_commit=True)
        events.subscribe(events.CLOCK_WARNING, subscribers.clock_warning, after_commit=True)
        events.subscribe(events.GAME_FINISHED, subscribers.game_finished, after_commit=True)
        events.subscribe(events.GAME_ABORTED, subscribers.game_aborted, after_commit=True)
        events.subscribe(events.SEAT_REPLACED, subscribers.seat_replaced, after_commit=True)
        events.subscribe(events.ORDERS_LAPSED, subscribers.orders_lapsed, after_commit=True)

        channels.register(dispatch.EmailChannel())
        channels.register(PushChannel())
        channels.register(TelegramChannel())
