"""Personal access tokens and their audit.

A token is shown to its owner once, when it is made; the database keeps its
SHA-256 only (a token is 32 random bytes: a fast hash of a secret that
cannot be guessed is enough, and it lets a request find its token with one
indexed lookup, as GitHub's and Lichess's tokens are kept).
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Scope(models.TextChoices):
    READ = "read", _("read my games")
    PLAY = "play", _("play: move, resign, chat, create and join tables")
    CHALLENGE = "challenge", _("send and answer challenges")
    LEAGUE = "league", _("leagues: standings")
    TOURNAMENT = "tournament", _("tournaments: read, join and leave")


class ApiToken(models.Model):
    PREFIX_LENGTH = 8  # the first characters of a token, shown in lists so that its owner recognises it

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens",
                             verbose_name=_("owner"))
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(_("begins with"), max_length=16)
    key_hash = models.CharField(_("SHA-256 of the token"), max_length=64, unique=True)
    scopes = models.JSONField(_("scopes"), default=list)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.user} · {self.name} ({self.prefix}…)"

    def is_usable(self, now=None) -> bool:
        now = now or timezone.now()
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)

    @property
    def scope_labels(self) -> list[str]:
        labels = dict(Scope.choices)
        return [str(labels.get(s, s)) for s in self.scopes]


class TokenEvent(models.Model):
    """One line of the tokens' audit: a token created or revoked, by whom. Append-only."""

    class Action(models.TextChoices):
        CREATED = "created", _("created")
        REVOKED = "revoked", _("revoked")

    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="events", verbose_name=_("token"))
    action = models.CharField(_("action"), max_length=16, choices=Action.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
                           verbose_name=_("by"))
    address = models.GenericIPAddressField(_("network address"), null=True, blank=True)
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("token event")
        verbose_name_plural = _("token events")

    def __str__(self) -> str:
        return f"{self.token} {self.action} {self.at:%Y-%m-%d %H:%M}"
