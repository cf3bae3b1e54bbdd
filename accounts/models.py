import secrets
import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext, gettext_lazy as _

from accounts.sockets import end_account_sockets

LANGUAGE_CHOICES = [("ru", "Русский"), ("en", "English")]
SHORT_NAME_LENGTH = 14  # characters of a name a phone's header shows (User.short_name)
TIME_ZONE_CHOICES = [(tz, tz) for tz in sorted(zoneinfo.available_timezones()) if "/" in tz or tz == "UTC"]


class User(AbstractUser):
    class TurnEmails(models.TextChoices):
        IMMEDIATELY = "now", _("immediately")
        DAILY = "daily", _("once a day, a digest")
        OFF = "off", _("never")

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES, default="ru")
    time_zone = models.CharField(_("time zone"), max_length=64, choices=TIME_ZONE_CHOICES, default="Europe/Moscow")
    # The player chose his zone (at sign-up or in his profile): no browser's zone ever replaces it then.
    time_zone_chosen = models.BooleanField(_("time zone chosen by the player"), default=False)
    email_notifications = models.BooleanField(_("email notifications"), default=True)
    turn_emails = models.CharField(
        _("\"your turn\" emails"), max_length=8, choices=TurnEmails.choices, default=TurnEmails.IMMEDIATELY
    )
    night_pause_start = models.TimeField(
        _("night pause from"), null=True, blank=True,
        help_text=_("Your clocks stop at night at tables that allow it (your own time zone)."),
    )
    night_pause_end = models.TimeField(_("night pause until"), null=True, blank=True)
    # Correspondence play (the correspondence app reads them; accounts knows nothing of it).
    challenges_from_friends_only = models.BooleanField(
        _("challenges from friends only"), default=False,
        help_text=_("Refuse challenges from players I do not follow."),
    )
    next_game_after_move = models.BooleanField(
        _("go to the next game after my move"), default=False,
        help_text=_("After each move, open by itself the most urgent game where it is my move."),
    )
    # Moderators' restrictions (moderation.services.people sets them, accounts/standing.py reads them):
    # on the user's row, so that a move's transaction, which loads its seats' users, checks them for free.
    # The last suspension: from, until (None: for good). Lifting it sets its end to that moment.
    suspended_at = models.DateTimeField(_("last suspended at"), null=True, blank=True, editable=False)
    suspended_until = models.DateTimeField(_("suspended until"), null=True, blank=True, editable=False,
                                           help_text=_("Empty while suspended: for good."))
    chat_muted_until = models.DateTimeField(_("muted in chat until"), null=True, blank=True, editable=False)
    # A moderator's warning not yet acknowledged: shown at the top of every page until the player
    # says it is read (the audit keeps every warning; moderation.services.people.warn).
    moderator_warning = models.TextField(_("moderator's warning"), blank=True, default="", editable=False)
    warned_at = models.DateTimeField(_("warned at"), null=True, blank=True, editable=False)
    # A bot account (issue 29): played by a program through the API. Set by the player himself
    # (irreversibly) or by a moderator (accounts/bots.py); labelled wherever its name is shown.
    is_bot = models.BooleanField(_("bot account"), default=False, editable=False)
    # Sign-up clears it until the account confirms an address (accounts/verification.py); an
    # account made by the staff or a command has it from the start.
    address_confirmed = models.BooleanField(_("address confirmed"), default=True)
    bot_since = models.DateTimeField(_("bot since"), null=True, blank=True, editable=False)
    # The account of a computer level (issue 43; accounts/computers.py): it holds the level's rating
    # per game in the computers' pool and is challenged by name; it never logs in (no password).
    computer_level = models.PositiveSmallIntegerField(_("computer level"), null=True, blank=True, unique=True,
                                                      editable=False)

    BOT_LABEL = "BOT"  # the same in every language, as chess sites write it

    @property
    def name(self) -> str:
        """The name shown everywhere: a bot account's carries the label."""
        if self.computer_level is not None:  # in the reader's language, as every computer's name
            return gettext("Computer, level %(level)s") % {"level": self.computer_level}
        shown = self.display_name or self.username
        return f"{self.BOT_LABEL} {shown}" if self.is_bot else shown

    @property
    def short_name(self) -> str:
        """The name where only a few letters fit (a phone's header): the name itself when it is short,
        else its first word and the initial of its last ("Борис Б."), else its first letters."""
        name = self.name
        if len(name) <= SHORT_NAME_LENGTH:
            return name
        words = name.split()
        if len(words) > 1 and len(words[0]) + 3 <= SHORT_NAME_LENGTH:
            return f"{words[0]} {words[-1][0]}."
        return name[:SHORT_NAME_LENGTH - 1] + "…"

    def get_session_auth_hash(self) -> str:
        """Django's hash, which ends every session of the account when its
        password changes; a suspension ends them too (from then on the hash
        covers when the last suspension began, which lifting it keeps)."""
        password_hash = super().get_session_auth_hash()
        if self.suspended_at is None:
            return password_hash
        return salted_hmac("accounts.User.suspension", f"{password_hash}:{self.suspended_at.isoformat()}",
                           algorithm="sha256").hexdigest()

    def __str__(self) -> str:
        return self.name

    # What the account's sessions stand on: a change of one ends them all
    # (`get_session_auth_hash`, a deactivated account), and closes the
    # account's open WebSockets (`accounts.sockets`).
    SESSION_FIELDS = ("password", "suspended_at", "is_active")

    @classmethod
    def from_db(cls, db, field_names, values):
        user = super().from_db(db, field_names, values)
        user._stored_session_fields = user._session_fields()
        return user

    def _session_fields(self) -> dict:
        return {name: self.__dict__[name] for name in self.SESSION_FIELDS if name in self.__dict__}

    def save(self, *args, **kwargs) -> None:
        super().save(*args, **kwargs)
        stored = getattr(self, "_stored_session_fields", None)
        current = self._session_fields()
        if stored is not None and any(current.get(name, value) != value for name, value in stored.items()):
            end_account_sockets(self.pk)
        self._stored_session_fields = current


class Vacation(models.Model):
    """While a vacation lasts, the player's clocks stop in all his games."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="vacations", verbose_name=_("player"))
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"))
    created_at = models.DateTimeField(_("taken at"), auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")

    def __str__(self) -> str:
        return f"{self.user}: {self.starts_at:%Y-%m-%d %H:%M} – {self.ends_at:%Y-%m-%d %H:%M}"

    @property
    def days(self) -> float:
        return (self.ends_at - self.starts_at).total_seconds() / 86400


class Block(models.Model):
    """`blocker` blocks `blocked` (issue 40): their chat lines are hidden from
    each other, the blocked player's challenges and follows are refused, and
    neither joins the other's open tables (accounts/blocks.py). League
    pairings are unchanged."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks", verbose_name=_("player"))
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by",
                                verbose_name=_("blocked player"))
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} ⊘ {self.blocked}"


def new_export_key() -> str:
    return secrets.token_urlsafe(24)


class DataExport(models.Model):
    """A player's "Download my data" (issue 40): a zip of JSON files built by a
    Celery task (pages/personal_data.py), kept in the database (every web
    process of every machine serves it) until it expires, 7 days after."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="data_exports", verbose_name=_("player"))
    key = models.CharField(_("key"), max_length=40, unique=True, default=new_export_key, editable=False)
    requested_at = models.DateTimeField(_("asked for at"), auto_now_add=True)
    ready_at = models.DateTimeField(_("ready at"), null=True, blank=True, editable=False)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True, editable=False)
    content = models.BinaryField(_("zip file"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-requested_at"]
        verbose_name = _("data export")
        verbose_name_plural = _("data exports")

    def __str__(self) -> str:
        return f"{self.user}: {self.requested_at:%Y-%m-%d %H:%M}"
