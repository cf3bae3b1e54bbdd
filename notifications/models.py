"""What each player wants to be told where, and what was sent.

`Preference`: one cell of the preferences page, (destination, kind) -> mode.
No row means the default (`notifications.preferences.default_mode`).

`Delivery`: one notice for one player on one destination. Unique on
(notice key, player, destination): the row is written before the send, so a
notice reaches a destination at most once whatever runs twice (a duplicate
task, a redelivered message, two workers, the sweep).

`PushSubscription` (a device with web push on) lives in `notifications.push.models`.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from notifications import channels
from notifications.push.models import PushSubscription  # noqa: F401 (the app's models)


class Mode(models.TextChoices):
    NOW = "now", _("at once")
    DIGEST = "digest", _("daily digest")
    OFF = "off", _("off")


KIND_CHOICES = [
    (channels.YOUR_MOVE, _("Your move")),
    (channels.TIME_WARNING, _("Time running out")),
    (channels.GAME_OVER, _("Game over")),
    (channels.CHALLENGE, _("A challenge")),
    (channels.LEAGUE_ROUND, _("A new league round")),
    (channels.MODERATION, _("A moderator's decision")),
    (channels.ORDER_LAPSED, _("A standing order lapsed")),
]


class Preference(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notification_preferences", verbose_name=_("player"))
    destination = models.CharField(_("destination"), max_length=64)  # Destination.key: "email", "push:17", "telegram"
    kind = models.CharField(_("about"), max_length=32, choices=KIND_CHOICES)
    mode = models.CharField(_("mode"), max_length=8, choices=Mode.choices)

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")
        constraints = [
            models.UniqueConstraint(fields=["user", "destination", "kind"], name="one_preference_per_cell"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.destination} {self.kind}: {self.mode}"


class Delivery(models.Model):
    class State(models.TextChoices):
        WAITING = "waiting", _("waiting to be coalesced")  # a "your move" inside its burst window
        PENDING = "pending", _("pending")  # a send task is (or will be) queued for it
        SENDING = "sending", _("sending")  # claimed by a task
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")  # retries exhausted (logged)
        DROPPED = "dropped", _("dropped")  # not sent on purpose: merged into another, moot, or the destination is gone

    key = models.CharField(_("notice"), max_length=200)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notification_deliveries", verbose_name=_("player"))
    destination = models.CharField(_("destination"), max_length=64)
    kind = models.CharField(_("about"), max_length=32, choices=KIND_CHOICES)
    game_id = models.BigIntegerField(_("game"), null=True, blank=True)
    notice = models.JSONField(_("notice"), default=dict)  # Notice.as_dict(), worded in the player's language
    state = models.CharField(_("state"), max_length=8, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    not_before = models.DateTimeField(_("held until"), null=True, blank=True)  # the night window or a vacation
    claimed_at = models.DateTimeField(_("claimed"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)  # why it failed or was dropped
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification delivery")
        verbose_name_plural = _("notification deliveries")
        constraints = [
            models.UniqueConstraint(fields=["key", "user", "destination"], name="one_delivery_per_notice"),
        ]
        indexes = [
            models.Index(fields=["user", "state"], name="delivery_user_state"),
            models.Index(fields=["state", "not_before"], name="delivery_state_due"),
        ]

    def __str__(self) -> str:
        return f"{self.key} -> {self.user_id} {self.destination}: {self.state}"


# The Telegram links live in `notifications.telegram`.
from notifications.telegram.models import TelegramLink, TelegramLinkToken  # noqa: E402

__all__ = ["Delivery", "KIND_CHOICES", "Mode", "Preference", "PushSubscription", "TelegramLink", "TelegramLinkToken"]
