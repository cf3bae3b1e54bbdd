"""What moderation keeps:

- `AuditEntry`, the moderation audit: one row for every action a moderator
  takes, never changed and never deleted (the admin shows it read-only;
  `AuditEntry` refuses `delete()` and updates of a saved row);
- `Report`, what players report about a game, a player or a chat message;
- `PairReview`, the fair-play evidence about a pair of accounts in one game
  kind (`moderation.fairplay`), queued for moderators when it says so;
- `Player`, the moderators' view of an account (a proxy of the user model;
  the restrictions themselves are fields of `accounts.User`, read by
  `accounts.standing`).

`Report` and `Player` were the `conduct` app's (migrated here with their rows:
moderation/migrations/0003_reports_from_conduct.py)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import User


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
        DISMISS_PAIR = "dismiss_pair", _("dismiss a fair-play alert")
        ANNUL_RATINGS = "annul_ratings", _("annul the ratings of games")
        WARN = "warn", _("warn a player")
        WITHDRAW_ENTRY = "withdraw_entry", _("withdraw a player from a tournament")
        RESTART_ROUND = "restart_round", _("restart a tournament round")
        ADD_COMPUTER = "add_computer", _("enter a computer player in a tournament")
        REMOVE_COMPUTER = "remove_computer", _("remove a computer player from a tournament")

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


class Report(models.Model):
    class Subject(models.TextChoices):
        GAME = "game", _("a game")
        PLAYER = "player", _("a player")
        MESSAGE = "message", _("a chat message")

    class Reason(models.TextChoices):
        CHEATING = "cheating", _("cheating or playing in collusion")
        ABUSE = "abuse", _("insults or harassment")
        SPAM = "spam", _("spam or advertising")
        STALLING = "stalling", _("stalling or abandoning games")
        NAME = "name", _("an offensive name")
        OTHER = "other", _("something else")

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for a moderator")
        RESOLVED = "resolved", _("resolved: action taken")
        DISMISSED = "dismissed", _("dismissed: no action needed")

    TEXT_MAX_LENGTH = 1000

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made",
                                 verbose_name=_("reported by"))
    subject = models.CharField(_("about"), max_length=16, choices=Subject.choices)
    # "game:12", "player:5", "message:77": one open report per reporter and subject (the constraint below).
    subject_key = models.CharField(_("subject key"), max_length=40, editable=False)
    game = models.ForeignKey("gameplay.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="reports",
                             verbose_name=_("game"))
    target_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="reports_against", verbose_name=_("player reported"))
    chat_message = models.ForeignKey("gameplay.ChatMessage", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="reports", verbose_name=_("chat message"))
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    text = models.TextField(_("what happened"), max_length=TEXT_MAX_LENGTH, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("handled by"))
    # The moderator's reason (also in the audit); not shown to the reporter.
    resolution = models.TextField(_("moderator's reason"), blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        constraints = [
            models.UniqueConstraint(fields=["reporter", "subject_key"], condition=models.Q(status="open"),
                                    name="one_open_report_per_reporter_and_subject"),
        ]
        indexes = [
            # The moderators' queue (open reports, the oldest first) and a player's own list.
            models.Index(fields=["status", "created_at"], name="report_status_created"),
            models.Index(fields=["reporter", "created_at"], name="report_reporter_created"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_subject_display()}: {self.get_reason_display()}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class Player(User):
    """The moderators' view of an account: its restrictions, the reports about
    it and its games lost on time or resigned; suspended and muted from here."""

    class Meta:
        proxy = True
        verbose_name = _("player (moderation)")
        verbose_name_plural = _("players (moderation)")
        permissions = [
            ("suspend_player", _("Can suspend an account and lift its suspension")),
            ("mute_player", _("Can mute an account in chat and lift its mute")),
            ("warn_player", _("Can send an account a moderator's warning")),
        ]


class PairReview(models.Model):
    """What the finished rated games of one game kind say about two accounts
    who sat at them together (`moderation.fairplay.evidence`): the figures of
    each one's play towards the other, added over their games, and the
    reasons they are queued for moderators (none: they are not). Players
    never see any of it."""

    class Status(models.TextChoices):
        CLEAR = "clear", _("nothing to look at")
        OPEN = "open", _("waiting for a moderator")
        DISMISSED = "dismissed", _("dismissed: a false alarm")

    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                              verbose_name=_("player"))
    second = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("other player"))  # first.pk < second.pk
    engine = models.CharField(_("game kind"), max_length=32)
    # {"first>second": {figure: count}, "second>first": {...}} (evidence.py says what each figure is)
    figures = models.JSONField(_("figures"), default=dict)
    games = models.JSONField(_("games"), default=list)  # the ids of the games behind the figures
    # The figures a dismissal looked at: only what comes after them can raise the pair again.
    dismissed_figures = models.JSONField(_("figures at the dismissal"), default=dict, blank=True)
    reasons = models.JSONField(_("reasons"), default=list, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.CLEAR)
    flagged_at = models.DateTimeField(_("queued at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-flagged_at", "-pk"]
        verbose_name = _("fair-play alert")
        verbose_name_plural = _("fair-play alerts")
        constraints = [models.UniqueConstraint(fields=["first", "second", "engine"], name="one_review_per_pair_and_game"),
                       models.CheckConstraint(condition=models.Q(first__lt=models.F("second")),
                                              name="pair_review_first_below_second")]
        indexes = [models.Index(fields=["status", "flagged_at"], name="pair_review_queue")]

    def __str__(self) -> str:
        return f"{self.first} & {self.second} · {self.engine}"
