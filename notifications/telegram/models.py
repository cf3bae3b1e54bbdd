"""A player's Telegram chat, and the one-time tokens of the profile's deep link."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class TelegramLink(models.Model):
    """The chat with the site's bot where the player gets his notices."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="telegram_link",
                                verbose_name=_("player"))
    chat_id = models.BigIntegerField(_("Telegram chat"), unique=True)
    linked_at = models.DateTimeField(_("linked"), default=timezone.now)
    muted_until = models.DateTimeField(_("muted until"), null=True, blank=True)  # /mute <hours>
    stopped = models.BooleanField(_("stopped"), default=False)  # /stop; /start turns messages on again

    class Meta:
        verbose_name = _("Telegram link")
        verbose_name_plural = _("Telegram links")

    def __str__(self) -> str:
        return f"{self.user_id} -> chat {self.chat_id}"

    def is_muted(self, at=None) -> bool:
        return self.muted_until is not None and self.muted_until > (at or timezone.now())


class TelegramLinkToken(models.Model):
    """One "Link Telegram" deep link: only the SHA-256 of its token is kept; used once, valid a few minutes."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="telegram_tokens",
                             verbose_name=_("player"))
    digest = models.CharField(_("token digest"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    used_at = models.DateTimeField(_("used"), null=True, blank=True)

    class Meta:
        verbose_name = _("Telegram link token")
        verbose_name_plural = _("Telegram link tokens")

    def __str__(self) -> str:
        return f"{self.user_id} until {self.expires_at:%Y-%m-%d %H:%M}"
