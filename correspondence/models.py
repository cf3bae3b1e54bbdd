"""Friends (who follows whom), challenges to named players, and each
player's private notes on a game.

This app stands above gameplay, ratings and leagues: it reads their models
and creates tables through gameplay's services; none of them knows it.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from gameplay.engine import ENGINES
from gameplay.i18n import engine_name
from gameplay.models import Game


class Follow(models.Model):
    """`follower` follows `followed`: `followed` is one of his friends."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows",
                                 verbose_name=_("follower"))
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers",
                                 verbose_name=_("followed player"))
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("friend")
        verbose_name_plural = _("friends")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")), name="follow_not_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.follower} → {self.followed}"


class Challenge(models.Model):
    """An invitation of named players to a table. The table is created when
    every challenged player has accepted; a decline, a withdrawal or the
    expiry ends it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for answers")
        STARTED = "started", _("accepted: the game started")
        DECLINED = "declined", _("declined")
        EXPIRED = "expired", _("expired")
        WITHDRAWN = "withdrawn", pgettext_lazy("challenge", "withdrawn")
        FAILED = "failed", _("could not start")

    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="challenges_sent", verbose_name=_("challenger"))
    engine = models.CharField(_("game"), max_length=32)
    seats_count = models.PositiveSmallIntegerField(_("players"))
    # The table: engine options and the keyword arguments of gameplay's
    # create_seated_game (time preset, move and reserve seconds, on_timeout...).
    options = models.JSONField(_("options"), default=dict, blank=True)
    table = models.JSONField(_("time control and table settings"), default=dict, blank=True)
    rated = models.BooleanField(_("rated"), default=False)
    fill_with_bots = models.BooleanField(_("fill the other seats with computer players"), default=False)
    # Their level (gameplay.bots.LEVELS); a computer level named in the challenge plays at its own.
    computer_level = models.PositiveSmallIntegerField(_("level of the computer players"), default=1)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING,
                              db_index=True)
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"), db_index=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    game = models.OneToOneField(Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge",
                                verbose_name=_("game"))

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")

    def __str__(self) -> str:
        name = engine_name(ENGINES[self.engine]) if self.engine in ENGINES else self.engine
        return f"#{self.pk} {name}: {self.created_by} ({self.get_status_display()})"

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING


class Invitation(models.Model):
    """One challenged player's answer to a challenge."""

    class Answer(models.TextChoices):
        WAITING = "waiting", _("no answer yet")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    REASON_LENGTH = 200

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="invitations",
                                  verbose_name=_("challenge"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations",
                             verbose_name=_("challenged player"))
    position = models.PositiveSmallIntegerField(_("seat number (from 0)"))
    answer = models.CharField(_("answer"), max_length=16, choices=Answer.choices, default=Answer.WAITING)
    reason = models.CharField(_("reason"), max_length=REASON_LENGTH, blank=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        ordering = ["challenge", "position"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [models.UniqueConstraint(fields=["challenge", "user"], name="invite_once")]

    def __str__(self) -> str:
        return f"{self.challenge_id}: {self.user} ({self.answer})"


class Note(models.Model):
    """A player's private notes on a game: only their writer ever reads them."""

    MAX_LENGTH = 10_000

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", verbose_name=_("game"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("writer"))
    text = models.TextField(_("text"), max_length=MAX_LENGTH, blank=True)
    updated_at = models.DateTimeField(_("saved at"), auto_now=True)

    class Meta:
        verbose_name = _("private note")
        verbose_name_plural = _("private notes")
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_note_per_game")]

    def __str__(self) -> str:
        return f"{self.user_id}/{self.game_id}"
