"""Tournaments: anyone joins for a few weeks. A Swiss tournament plays a set
number of rounds; each round's tables (`Table`) are ordinary games of the
platform, paired from the scores so far (`tournaments.pairing`); a player
left out of a round has a `Bye`."""

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from gameplay.bots import LEVELS
from gameplay.models import Competition, Game

DEFAULT_TIEBREAKS = ["buchholz", "median_buchholz", "sonneborn_berger", "direct", "wins", "rating"]


def new_seed() -> str:
    return str(secrets.randbits(63))


class Tournament(Competition):
    class Status(models.TextChoices):
        OPEN = "open", _("open for entry")
        RUNNING = "running", _("in progress")
        FINISHED = "finished", _("finished")

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        KNOCKOUT = "knockout", _("knockout cup")

    class NextRound(models.TextChoices):
        FINISHED = "finished", _("when the previous round is finished")
        SCHEDULED = "scheduled", _("on its date")

    engine = models.CharField(_("game"), max_length=32)
    options = models.JSONField(_("options of the game"), default=dict, blank=True)
    players = models.PositiveSmallIntegerField(_("players at a table"))
    format = models.CharField(_("format"), max_length=16, choices=Format.choices, default=Format.SWISS)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    # A knockout cup at tables of 3 to 6: the top places of each table that go on.
    advance = models.PositiveSmallIntegerField(_("places that go on from a table"), default=1)
    # A knockout cup at two-player tables: the games of each match (`tournaments.matches`).
    games_per_match = models.PositiveSmallIntegerField(_("games per match"), default=1)
    # A knockout cup with round-robin groups first (`tournaments.groups`): players in a group (0: no
    # groups), how many of each go on to the cup, and the rounds of the group stage (set at the start).
    group_size = models.PositiveSmallIntegerField(_("players in a group"), default=0,
                                                  help_text=_("0: no groups before the cup."))
    group_advance = models.PositiveSmallIntegerField(_("players that go on from a group"), default=1)
    group_rounds = models.PositiveSmallIntegerField(_("rounds of the group stage"), default=0)
    max_entries = models.PositiveIntegerField(_("most players"), null=True, blank=True)
    rated = models.BooleanField(_("rated games"), default=True)
    allow_bots = models.BooleanField(_("bot accounts may enter"), default=False)
    min_rating = models.IntegerField(_("lowest rating"), null=True, blank=True)
    max_rating = models.IntegerField(_("highest rating"), null=True, blank=True)
    min_rated_games = models.PositiveIntegerField(_("rated games played, at least"), default=0)
    # The rounds
    round_days = models.PositiveSmallIntegerField(_("days for a round"), default=7)
    next_round = models.CharField(_("the next round starts"), max_length=16, choices=NextRound.choices,
                                  default=NextRound.FINISHED)
    starts_at = models.DateTimeField(_("starts"), null=True, blank=True)
    # The start window: a player who has not begun his game within this many hours of the round's start
    # forfeits it; on dates, a round is open for play as soon as the previous one is over (0: no window).
    start_window_hours = models.PositiveSmallIntegerField(_("hours to begin a round's game"), default=0,
                                                          help_text=_("0: no start window."))
    forfeits_to_withdraw = models.PositiveSmallIntegerField(
        _("forfeits that withdraw a player"), default=2, help_text=_("0: never."))
    time_preset = models.CharField(_("time control"), max_length=32, blank=True)
    move_seconds = models.PositiveIntegerField(_("time per move, seconds"), null=True, blank=True)
    reserve_seconds = models.PositiveIntegerField(_("reserve time, seconds"), null=True, blank=True)
    tiebreaks = models.JSONField(_("tie-breaks, in order"), default=list, blank=True)
    seed = models.CharField(_("seed of the lot"), max_length=32, default=new_seed)
    # Computer substitutes (issue 43): a computer at this level finishes the games in play of a player who
    # leaves (withdrawn, or suspended); 0: they are forfeited.
    substitute_level = models.PositiveSmallIntegerField(
        _("level of the computer that finishes a leaver's games"), default=0,
        validators=[MaxValueValidator(max(LEVELS))], help_text=_("0: a player who leaves forfeits the game in play."))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.OPEN,
                              db_index=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at"]

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.slug])

    @property
    def tiebreak_chain(self) -> list[str]:
        return list(self.tiebreaks) or list(DEFAULT_TIEBREAKS)

    @property
    def has_groups(self) -> bool:
        return self.format == self.Format.KNOCKOUT and self.group_size > 0

    @property
    def computers_substitute(self) -> bool:
        return self.substitute_level > 0

    @property
    def table_size(self) -> int:
        """Entries at a table: players, or in pairs two pairs."""
        return 2 if self.in_pairs else self.players


class Entry(models.Model):
    """A player (in pairs, a fixed pair) in a tournament. It is kept once the
    tournament has started, even when he leaves: rejoining brings back the
    same entry, with its byes."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries",
                                   verbose_name=_("tournament"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries",
                             verbose_name=_("player"))
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                                related_name="+", verbose_name=_("partner"))
    number = models.PositiveIntegerField(_("starting number"), null=True, blank=True)
    rating = models.FloatField(_("rating at entry"), default=0)
    forfeits = models.PositiveSmallIntegerField(_("forfeits"), default=0)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrew"), null=True, blank=True)
    final_rank = models.PositiveIntegerField(_("final rank"), null=True, blank=True)
    # A knockout cup: the round he went out in (None: still in).
    out_in_round = models.PositiveSmallIntegerField(_("went out in round"), null=True, blank=True)
    # A cup with groups: the group (1, 2, ...), and the seed in the cup drawn from the group results.
    group = models.PositiveSmallIntegerField(_("group"), null=True, blank=True)
    cup_seed = models.PositiveIntegerField(_("seed in the cup"), null=True, blank=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [models.UniqueConstraint(fields=["tournament", "user"],
                                               name="one_entry_per_player_and_tournament")]
        ordering = ["tournament", "number", "pk"]

    def __str__(self) -> str:
        if self.partner_id:
            return f"{self.user.name} & {self.partner.name}"
        return str(self.user.name)

    @property
    def is_computer(self) -> bool:
        """A computer level's entrant (accounts/computers.py), added by the organizer."""
        return self.user.computer_level is not None


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set",
                                   verbose_name=_("tournament"))
    number = models.PositiveSmallIntegerField(_("round"))
    started_at = models.DateTimeField(_("started"))
    deadline = models.DateTimeField(_("deadline"))
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # When its players were warned that the deadline is near (once per round).
    warned_at = models.DateTimeField(_("deadline warning sent"), null=True, blank=True)
    # When the organizer or a moderator restarted it (its games in play aborted, paired again): once only.
    restarted_at = models.DateTimeField(_("restarted"), null=True, blank=True)
    # The start window's end (None: no window), and when the sweep forfeited who had not begun by then.
    window_ends = models.DateTimeField(_("start window ends"), null=True, blank=True)
    window_closed_at = models.DateTimeField(_("start window closed"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number_per_tournament")]
        ordering = ["tournament", "number"]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class Table(models.Model):
    """One table of a round: its entries by seat (in pairs [pair A, pair B]),
    its game, and the entries that forfeited it (ran out of time, or left)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round"))
    board = models.PositiveSmallIntegerField(_("table"))
    seats = models.JSONField(_("entries by seat"))
    game = models.OneToOneField(Game, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="tournament_table", verbose_name=_("game"))
    forfeits = models.JSONField(_("forfeited by"), default=list, blank=True)
    # A cup match of several games: which game of the match (after its games, a decider).
    match_game = models.PositiveSmallIntegerField(_("game of the match"), default=1)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "board"]

    def __str__(self) -> str:
        return f"{self.round} · {self.board}"


class Bye(models.Model):
    class Kind(models.TextChoices):
        PAIRING = "pairing", _("bye")
        LATE = "late", _("late entry")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes", verbose_name=_("round"))
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="byes", verbose_name=_("entry"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    points = models.FloatField(_("points"))

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [models.UniqueConstraint(fields=["round", "entry"], name="one_bye_per_entry_and_round")]

    def __str__(self) -> str:
        return f"{self.round} · {self.entry}"
