from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PushSubscription(models.Model):
    """One browser (device) where the player turned web push on: what its
    push service needs to deliver there (the endpoint, the browser's ECDH key
    and auth secret, base64url as the browser gives them)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions",
                             verbose_name=_("player"))
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("browser public key"), max_length=100)
    auth = models.CharField(_("auth secret"), max_length=40)
    label = models.CharField(_("device"), max_length=120)  # "Chrome on Android, 27 Nov 2026"
    created = models.DateTimeField(_("turned on"), auto_now_add=True)
    last_success = models.DateTimeField(_("last delivered"), null=True, blank=True)

    class Meta:
        app_label = "notifications"
        ordering = ["created", "pk"]
        verbose_name = _("push device")
        verbose_name_plural = _("push devices")

    def __str__(self) -> str:
        return self.label

    def subscription_info(self) -> dict:
        """What pywebpush takes (the browser's PushSubscription.toJSON())."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
