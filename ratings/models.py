"""One rating per player per game kind, and its history: one change per rated game."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# A rating is shown as its conservative estimate, mu - 3 sigma (openskill's
# "ordinal"): it starts at 0 and rises for a player who wins, falls (below 0
# too) for one who loses; the pages say so. Until a player has this many rated games it is marked
# provisional.
PROVISIONAL_GAMES = 5


def shown(mu: float, sigma: float) -> int:
    """The number players see: the ordinal, rounded."""
    return round(mu - 3 * sigma)


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings",
                             verbose_name=_("player"))
    engine = models.CharField(_("game"), max_length=32)
    mu = models.FloatField(_("mean (mu)"))
    sigma = models.FloatField(_("uncertainty (sigma)"))
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("updated"))
    # The leaderboards' order, mu - 3 sigma, kept by the database itself so
    # that an index walks it (sorting every rated player took a leaderboard
    # page 3.8x longer at 10,000 games than at 10).
    ordinal = models.GeneratedField(expression=models.F("mu") - 3 * models.F("sigma"),
                                    output_field=models.FloatField(), db_persist=True,
                                    verbose_name=_("cautious rating (mu - 3 sigma)"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "engine"], name="one_rating_per_player_and_game")]
        indexes = [# The leaderboard: the players out of the provisional mark, best first.
                   models.Index(models.F("engine"), models.F("ordinal").desc(), models.F("user"),
                                name="rating_leaderboard", condition=models.Q(games__gte=PROVISIONAL_GAMES)),
                   # The provisional players under it, best first (provisional_players).
                   models.Index(models.F("engine"), models.F("ordinal").desc(), models.F("user"),
                                name="rating_provisional",
                                condition=models.Q(games__gt=0, games__lt=PROVISIONAL_GAMES))]

    def __str__(self) -> str:
        return f"{self.user} · {self.engine} · {self.value}"

    @property
    def value(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def is_provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


class RatingChange(models.Model):
    """What one rated game did to one player's rating (the history, and what
    `recompute_ratings` rebuilds)."""

    game = models.ForeignKey("gameplay.Game", on_delete=models.CASCADE, related_name="rating_changes",
                             verbose_name=_("game"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes",
                             verbose_name=_("player"))
    engine = models.CharField(_("game kind"), max_length=32)
    mu_before = models.FloatField(_("mean (mu) before"))
    sigma_before = models.FloatField(_("uncertainty (sigma) before"))
    mu = models.FloatField(_("mean (mu)"))
    sigma = models.FloatField(_("uncertainty (sigma)"))
    games = models.PositiveIntegerField(_("rated games"))  # the player's count after this game
    at = models.DateTimeField(_("when"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_game_and_player")]
        indexes = [models.Index(fields=["user", "engine", "at"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.user} · {self.engine} · {self.value_before} → {self.value}"

    @property
    def value(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def value_before(self) -> int:
        return shown(self.mu_before, self.sigma_before)
