"""Leagues: a league runs seasons; a season's players (entries) are split into
divisions, each with its schedule of tables (fixtures), every one an ordinary
game of the platform."""

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from gameplay.models import Competition, Game


def new_lot_seed() -> str:
    """A season's seed: public (shown on the standings, so anyone can check
    the lot and the schedule), so 63 bits are enough."""
    return str(secrets.randbits(63))


# The tie-break chain when a league does not choose one (scoresheets/standings.py has every key).
DEFAULT_TIEBREAKS = ["wins", "sonneborn_berger", "direct", "game_score", "lot"]


class League(Competition):
    class Start(models.TextChoices):
        ALL = "all", _("all the games at once")
        ROUNDS = "rounds", _("round by round")

    class OnWithdrawal(models.TextChoices):
        LOSSES = "losses", _("the unfinished games are lost")
        COMPUTER = "computer", _("a computer player finishes the games")

    class SubstituteResults(models.TextChoices):
        ENTRY = "entry", _("stay with the seat's player")
        SUBSTITUTE = "substitute", _("pass to the substitute")

    is_private = models.BooleanField(_("invite-only"), default=False)
    # Bot accounts (accounts.User.is_bot) enter its seasons only if the league allows them.
    allow_bots = models.BooleanField(_("bot accounts may enter"), default=False)
    invite_code = models.CharField(_("invite code"), max_length=32, blank=True)
    # The tables
    engine = models.CharField(_("game"), max_length=32)
    options = models.JSONField(_("options of the game"), default=dict, blank=True)
    players = models.PositiveSmallIntegerField(_("players at a table"))
    time_preset = models.CharField(_("time control"), max_length=32, blank=True)
    move_seconds = models.PositiveIntegerField(_("time per move, seconds"), null=True, blank=True)
    reserve_seconds = models.PositiveIntegerField(_("reserve time, seconds"), null=True, blank=True)
    on_timeout = models.CharField(_("when time runs out"), max_length=16, choices=Game.OnTimeout.choices,
                                  default=Game.OnTimeout.AUTOPLAY)
    # The season
    games_per_player = models.PositiveSmallIntegerField(
        _("games per player in a season"), null=True, blank=True,
        help_text=_("Leave empty for everyone meets everyone."))
    meetings = models.PositiveSmallIntegerField(_("times each pair meets (two-player games)"), default=1)
    division_size = models.PositiveSmallIntegerField(_("players in a division"), default=8)
    start = models.CharField(_("the games start"), max_length=8, choices=Start.choices, default=Start.ALL)
    points_per_place = models.JSONField(
        _("league points per place"), default=list, blank=True,
        help_text=_("Empty: 1 for the best, 0 for the last, shared places share the points."))
    tiebreaks = models.JSONField(_("tie-breaks, in order"), default=list, blank=True)
    promotion = models.PositiveSmallIntegerField(_("promoted from a division"), default=1)
    relegation = models.PositiveSmallIntegerField(_("relegated from a division"), default=1)
    on_withdrawal = models.CharField(_("when a player withdraws"), max_length=16, choices=OnWithdrawal.choices,
                                     default=OnWithdrawal.LOSSES)
    computer_substitutes = models.BooleanField(
        _("computer players may take over a seat (only as a substitute for a player who left)"), default=True)
    # The level of the computer that takes a seat over (gameplay.bots.LEVELS), the organizer's choice.
    computer_level = models.PositiveSmallIntegerField(_("level of the computer substitutes"), default=1)
    substitute_results = models.CharField(
        _("the results of a seat given to a substitute"), max_length=16, choices=SubstituteResults.choices,
        default=SubstituteResults.ENTRY,
        help_text=_("Passed to a substitute, they count for the substitute's own entry in the division, or "
                    "for nobody in the standings (a computer, a player from outside); the others keep the game."))
    annul_below_half = models.BooleanField(
        _("annul the results of a player who withdraws before playing half of the games"), default=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]

    def get_absolute_url(self) -> str:
        return reverse("league", args=[self.slug])

    def clean(self) -> None:
        if self.on_withdrawal == self.OnWithdrawal.COMPUTER and not self.computer_substitutes:
            raise ValidationError({"computer_substitutes": _(
                "A computer player can finish a withdrawn player's games only in a league that allows "
                "computer substitutes.")})

    @property
    def tiebreak_chain(self) -> list[str]:
        """The league's tie-breaks, always ending with the season's public lot
        (added when the league's chain lacks it): no two players ever share a
        rank, so promotion, relegation and the next season's divisions are
        never decided by who entered first (issue 37)."""
        chain = list(self.tiebreaks) or list(DEFAULT_TIEBREAKS)
        return chain if "lot" in chain else [*chain, "lot"]


class Season(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration open")
        CLOSED = "closed", _("registration closed")
        DRAWING = "drawing", _("the schedule is being drawn up")
        RUNNING = "running", _("in play")
        FINISHED = "finished", _("finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league"))
    number = models.PositiveSmallIntegerField(_("season"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.REGISTRATION)
    registration_closes_at = models.DateTimeField(_("registration closes"), null=True, blank=True)
    # The lot, the last tie-break, is drawn from this seed, shown on the standings so anyone can check it.
    seed = models.CharField(_("seed of the lot"), max_length=32, default=new_lot_seed)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="one_season_number_per_league")]
        ordering = ["league", "-number"]

    def __str__(self) -> str:
        return f"{self.league} · {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("season", args=[self.league.slug, self.number])


class Division(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions", verbose_name=_("season"))
    number = models.PositiveSmallIntegerField(_("division"))  # 1 is the top one
    # Raised in the transaction of every change to what the standings show
    # (leagues.stored_standings.changed): a StoredStandings row of an older
    # version is stale.
    standings_version = models.PositiveIntegerField(_("standings version"), default=0, editable=False)

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        constraints = [models.UniqueConstraint(fields=["season", "number"], name="one_division_number_per_season")]
        ordering = ["season", "number"]

    def __str__(self) -> str:
        return f"{self.season} · {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("division", args=[self.season.league.slug, self.season.number, self.number])


class Entry(models.Model):
    """A player (or, in pairs, a pair) in a season."""

    class Withdrawal(models.TextChoices):
        WITHDREW = "withdrew", _("withdrew")
        SUSPENDED = "suspended", pgettext_lazy("left the season", "suspended")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries", verbose_name=_("season"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_entries",
                             verbose_name=_("player"))
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                                related_name="+", verbose_name=_("partner"))
    division = models.ForeignKey(Division, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries",
                                 verbose_name=_("division"))
    rating_at_start = models.FloatField(_("rating at the start of the season"), null=True, blank=True)
    final_rank = models.PositiveSmallIntegerField(_("final rank"), null=True, blank=True)
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrew"), null=True, blank=True)
    # Why the entry left the season (set with `withdrawn_at`): it withdrew (or was removed), or its
    # player's account was suspended (`leagues.services.account_suspended`).
    withdrawn_for = models.CharField(_("left the season because"), max_length=16, choices=Withdrawal.choices,
                                     blank=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [models.UniqueConstraint(fields=["season", "user"], name="one_entry_per_player_and_season")]

    def __str__(self) -> str:
        if self.partner_id:
            return f"{self.user.name} & {self.partner.name}"
        return str(self.user.name)


class Fixture(models.Model):
    """One scheduled table of a division: who sits where, in which round; its
    game once it has started."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="fixtures",
                                 verbose_name=_("division"))
    round = models.PositiveSmallIntegerField(_("round"))
    seats = models.JSONField(_("entries by seat"))  # [entry id, ...] in seat order; in pairs [pair A, pair B]
    # Seats given to a substitute in a league whose substitutes take the results:
    # {"position": the substitute's entry id, or null for nobody in the standings}.
    credits = models.JSONField(_("results credited to substitutes"), default=dict, blank=True)
    game = models.OneToOneField(Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="fixture",
                                verbose_name=_("game"))

    class Meta:
        verbose_name = _("scheduled table")
        verbose_name_plural = _("scheduled tables")
        ordering = ["division", "round", "pk"]

    def __str__(self) -> str:
        return f"{self.division} · {self.round}"


class Invitation(models.Model):
    """The organizer's invitation to a season (or, in pairs, a player's to his
    partner): nobody is entered in a season without his own consent. An
    entry is made once every player of it has accepted (`leagues.services`)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("season"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_invitations",
                             verbose_name=_("invited player"))
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                                related_name="+", verbose_name=_("partner"))
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                                   verbose_name=_("invited by"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(_("invited"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["season", "pk"]
        constraints = [models.UniqueConstraint(fields=["season", "user"], condition=models.Q(status="pending"),
                                               name="one_pending_invitation_per_player_and_season")]

    def __str__(self) -> str:
        return f"{self.season} · {self.user.name}"


def visible_leagues(user):
    """The leagues `user` may see: the public ones, and the invite-only ones
    he organizes, has played in or is invited to (staff: all)."""
    leagues = League.objects.all()
    if user.is_staff:
        return leagues
    if not user.is_authenticated:
        return leagues.filter(is_private=False)
    return leagues.filter(Q(is_private=False) | Q(organizer=user) | Q(seasons__entries__user=user)
                          | Q(seasons__entries__partner=user) | Q(seasons__invitations__user=user)).distinct()


class StoredStandings(models.Model):
    """A division's standings as its page shows them, in one language:
    computed once per change (leagues.stored_standings), read by the page
    and the live sockets. Stale when `version` is not the division's
    `standings_version`."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="stored_standings",
                                 verbose_name=_("division"))
    language = models.CharField(_("language"), max_length=16)
    version = models.PositiveIntegerField(_("version"))
    html = models.TextField(_("standings (HTML)"))
    rounds = models.JSONField(_("rounds"), default=list)  # the schedule's round numbers, ascending
    current_round = models.PositiveIntegerField(_("first round not over"), null=True, blank=True)
    computed_at = models.DateTimeField(_("computed"))

    class Meta:
        verbose_name = _("stored standings")
        verbose_name_plural = _("stored standings")
        constraints = [models.UniqueConstraint(fields=["division", "language"],
                                               name="one_stored_standings_per_division_and_language")]

    def __str__(self) -> str:
        return f"{self.division} · {self.language} · v{self.version}"
