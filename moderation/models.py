"""The moderation audit: one row for every action a moderator takes, never
changed and never deleted (the admin shows it read-only; `AuditEntry` refuses
`delete()` and updates of a saved row)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditEntry(models.Model):
    class Action(models.TextChoices):
        ABORT = "abort", _("abort a game")
        ADJUDICATE = "adjudicate", _("adjudicate a game")
        SUBSTITUTE = "substitute", _("substitute a seat")
        HIDE_CHAT = "hide_chat", _("hide a chat message")
        UNHIDE_CHAT = "unhide_chat", _("show a chat message again")
        SUSPEND = "suspend", _("suspend an account")
        UNSUSPEND = "unsuspend", _("lift a suspension")
        MUTE = "mute", _("mute in chat")
        UNMUTE = "unmute", _("lift a chat mute")
        RESOLVE_REPORT = "resolve_report", _("resolve a report")
        DISMISS_REPORT = "dismiss_report", _("dismiss a report")

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_actions",
                                  verbose_name=_("moderator"))
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)
    action = models.CharField(_("action"), max_length=32, choices=Action.choices, db_index=True)
    reason = models.TextField(_("reason"))
    # What the action was about (any that apply). SET_NULL: the entry outlives
    # whatever it names; `before`/`after` keep the ids and values it changed.
    game = models.ForeignKey("gameplay.Game", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="audit_entries", verbose_name=_("game"))
    target_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="moderation_audit", verbose_name=_("player concerned"))
    chat_message = models.ForeignKey("gameplay.ChatMessage", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="audit_entries", verbose_name=_("chat message"))
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("moderation record")
        verbose_name_plural = _("moderation records")
        permissions = [
            ("moderate_games", _("Can abort, adjudicate and substitute in games and hide chat messages")),
        ]
        indexes = [models.Index(fields=["game", "at"], name="audit_game_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}"

    def save(self, *args, **kwargs):
        if self.pk is not None and not self._state.adding:
            raise ValueError("A moderation record is never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("A moderation record is never deleted.")
