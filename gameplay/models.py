"""Game, Seat, Move (append-only) and table chat.

The database is the single source of truth: `Game.state` is the engine state
after the last move, and it can always be rebuilt from `Game.seed` plus the
`Move` rows (see `manage.py replay_games`).

The state's `history` (the records of complete deals, appended to and never
changed) is stored apart, in `Game.history`, so that the `state` column a
move writes stays the same size however long the game (see `StateField`).
In memory `Game.state` is the whole engine state, as the engines know it.
"""

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from gameplay import labels
from gameplay.engine import ENGINES, get_engine
from gameplay.i18n import engine_name


SEED_BYTES = 32  # 256 bits: no offline search of the published SHA-256 can recover it


def new_seed() -> str:
    """A game's secret seed: a whole number from 32 random bytes (`secrets`),
    written in decimal. Games made before issue 24 have 63-bit seeds; both
    shuffle by the same documented derivation (`gameplay.engine.core`)."""
    return str(int.from_bytes(secrets.token_bytes(SEED_BYTES), "big"))


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


HISTORY = "history"  # the engines' key of their complete deals' records (gameplay.engine.core.HISTORY)


def state_to_store(state, history):
    """What the `state` column holds: the state without its history when the
    history is the very list that `Game.history` will hold, else the whole
    state (a path that changed the state without keeping `Game.history` in
    step stores the history inline, as every game did before: nothing lost)."""
    if isinstance(state, dict) and isinstance(history, list) and state.get(HISTORY) is history:
        return {key: value for key, value in state.items() if key != HISTORY}
    return state


class StateField(models.JSONField):
    """`Game.state`: the engine state, stored without the history records that
    `Game.history` keeps (`state_to_store`). A late Joker move wrote 6 KB of
    state against 1.2 KB at the start (PostgreSQL moved it out of line, into
    TOAST, on every move); the column now stays near the start's size."""

    def pre_save(self, model_instance, add):
        return state_to_store(super().pre_save(model_instance, add), model_instance.__dict__.get(HISTORY))


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        ACTIVE = "active", _("in play")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    class OnTimeout(models.TextChoices):
        AUTOPLAY = "autoplay", _("automatic move")
        FORFEIT = "forfeit", _("loss of the game")

    engine = models.CharField(_("game"), max_length=32)
    options = models.JSONField(_("options"), default=dict, blank=True)
    seats_count = models.PositiveSmallIntegerField(_("players"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    is_private = models.BooleanField(_("private (invite only)"), default=False)
    rated = models.BooleanField(_("rated"), default=True)
    # Bot accounts (accounts.User.is_bot) may take a seat only where the creator allows them; their
    # games are rated in the bots' own pool (ratings.services.rating_pool) unless the table says otherwise.
    allow_bots = models.BooleanField(_("bot accounts may join"), default=False)
    bots_rated_apart = models.BooleanField(_("games with a bot account rated in the bots' pool"), default=True)
    invite_code = models.CharField(_("invite code"), max_length=32, default=new_invite_code, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games",
                                   verbose_name=_("opened by"))

    time_preset = models.CharField(_("time control"), max_length=32, blank=True)
    move_seconds = models.PositiveIntegerField(_("time per move, seconds"), default=86400)
    reserve_seconds = models.PositiveIntegerField(_("reserve time, seconds"), default=3 * 86400)
    on_timeout = models.CharField(_("when time runs out"), max_length=16, choices=OnTimeout.choices, default=OnTimeout.AUTOPLAY)
    night_pause = models.BooleanField(_("players' night pauses apply"), default=True)
    # Lengths of a game's named clocks (e.g. Durak's "attacker", "defender",
    # "throwers"), in seconds; a clock not named here gets move_seconds.
    timer_seconds = models.JSONField(_("clock lengths, seconds"), default=dict, blank=True)

    # A series of games at one table ("партии"): the games after the first
    # point at it; the next game starts by itself when one ends.
    series_length = models.PositiveSmallIntegerField(_("games in the series"), default=1)
    series_first = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="series_games", editable=False,
        verbose_name=_("first game of the series"),
    )
    series_number = models.PositiveSmallIntegerField(_("game number in the series"), default=1, editable=False)

    state = StateField(_("state"), null=True, blank=True, editable=False)
    # The state's complete deals' records (state["history"]), written only
    # when a deal ends; None for games without them or stored whole (older rows).
    history = models.JSONField(_("complete deals' records"), null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(_("version (moves applied)"), default=0, editable=False)
    # The version of the game's rules it started under (the engine's
    # `rules_version` then); the state says which it is played under now.
    rules_version = models.PositiveSmallIntegerField(_("rules version"), default=1, editable=False)
    seed = models.CharField(_("seed"), max_length=80, default=new_seed, editable=False)
    seed_sha256 = models.CharField(_("seed SHA-256"), max_length=64, editable=False)
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True, editable=False)
    # When the queued deadline task of this game will run (None: none queued);
    # beat's sweep queues one for every deadline that comes within reach.
    deadline_check_at = models.DateTimeField(_("deadline check at"), null=True, blank=True, editable=False)

    created_at = models.DateTimeField(_("opened at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    abort_reason = models.TextField(_("abort reason"), blank=True)
    aborted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("aborted by"),
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            # The lobby's open tables and games in play, the newest first.
            models.Index(fields=["status", "created_at"], name="game_status_created"),
            # The games in play, the newest first (the moderators' list), without reading the others.
            models.Index(fields=["status", "-id"], name="game_status_newest"),
        ]

    @classmethod
    def from_db(cls, db, field_names, values):
        """The row, its state whole again: the history column put back into
        the state (a state stored whole, as older rows are, is taken as it is)."""
        game = super().from_db(db, field_names, values)
        state = game.__dict__.get("state")
        if isinstance(state, dict) and HISTORY not in state:
            history = game.history  # read now if a query left it out but loaded the state
            if history is not None:
                state[HISTORY] = history
        return game

    def keep_history(self) -> bool:
        """After a change of `state`: `history` follows the state's history
        (the same list, so that the state column is stored without it); True
        if its records changed and the history column must be written too."""
        history = self.state.get(HISTORY) if isinstance(self.state, dict) else None
        if not isinstance(history, list):
            return False
        stored = self.history
        self.history = history
        return not (isinstance(stored, list) and len(stored) == len(history)
                    and (not history or stored[-1] == history[-1]))

    def save(self, *args, **kwargs):
        if not self.seed_sha256:
            self.seed_sha256 = seed_hash(self.seed)
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        # The game's name as people read it (the admin's titles and lists), not its engine's slug.
        name = engine_name(ENGINES[self.engine]) if self.engine in ENGINES else self.engine
        return f"#{self.pk} {name} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])

    def series(self) -> list["Game"]:
        """Every game of this game's series so far, in order."""
        first = self.series_first or self
        return [first, *first.series_games.order_by("series_number")]

    @property
    def next_in_series(self) -> "Game | None":
        first = self.series_first or self
        return first.series_games.filter(series_number=self.series_number + 1).first()

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    def seconds_for(self, timer: dict) -> int:
        """The length of the clock an engine timer entry names."""
        return int(self.timer_seconds.get(timer.get("clock") or "", self.move_seconds))

    @property
    def revealed_seed(self) -> str | None:
        """The seed is secret until the game ends."""
        return self.seed if self.is_over else None


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game"))
    position = models.PositiveSmallIntegerField(_("seat number (from 0)"))
    # No index of its own: the indexes below begin with the user (a single-column one made SQLite's
    # planner read a player's whole history for My games instead of `seat_user_unfinished`).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats",
        verbose_name=_("player"), db_index=False,
    )
    is_bot = models.BooleanField(_("computer player"), default=False)
    # The level of the computer playing the seat (gameplay.bots.LEVELS; read only while is_bot).
    computer_level = models.PositiveSmallIntegerField(_("computer level"), default=1)
    team = models.PositiveSmallIntegerField(_("team"), null=True, blank=True)
    reserve_seconds_left = models.PositiveIntegerField(_("reserve left, seconds"), default=0)
    # The clock of the seat's current turn (all None/False while not on the clock).
    clock_started_at = models.DateTimeField(_("clock started at"), null=True, blank=True)
    clock_seconds = models.PositiveIntegerField(_("time for this move, seconds"), default=0)
    clock_uses_reserve = models.BooleanField(_("reserve may be used"), default=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    in_reserve = models.BooleanField(_("in reserve time"), default=False)
    warn_at = models.DateTimeField(_("warning due at"), null=True, blank=True, db_index=True)
    warned = models.BooleanField(_("warned"), default=False)
    turn_notified = models.BooleanField(_("notified of the turn"), default=False)
    auto_streak = models.PositiveSmallIntegerField(_("automatic moves in a row"), default=0)
    # The player said his "done" in advance for this stretch of the game
    # (Durak: the bout number); applied when the game waits for it. Private.
    ahead_scope = models.PositiveIntegerField(_("done said in advance for"), null=True, blank=True)
    # Standing orders (StandingOrder): the seat has pending ones or notices its player has not
    # dismissed (its view lists them, read only then); one was ever applied (his move list marks
    # them, read only then); when the pending ones are next looked at in this turn (private, drawn
    # by `services.orders.release_time`, never sent to anybody).
    has_orders = models.BooleanField(_("has standing orders"), default=False)
    used_orders = models.BooleanField(_("had a standing order applied"), default=False)
    order_at = models.DateTimeField(_("standing orders released at"), null=True, blank=True, db_index=True)
    # Last sign of life from the game page (WebSocket connect or heartbeat).
    seen_at = models.DateTimeField(_("last seen at the table"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    points = models.FloatField(_("points"), null=True, blank=True)
    # When the game finished with a result (its finished_at; None while in
    # play, and for an aborted game): the player page's list of finished
    # games walks an index on it, newest first, reading no game row to order.
    finished_at = models.DateTimeField(_("finished with a result"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_user"
            ),
        ]
        indexes = [
            # A player's games (lobby, profile, badge) counted and ordered
            # from the index alone, however many he has played.
            models.Index(fields=["user", "game", "deadline"], name="seat_user_game_deadline"),
            # A player's finished games, the newest first (the player page).
            models.Index(fields=["user", "-finished_at", "-game"], name="seat_user_finished",
                         condition=models.Q(finished_at__isnull=False)),
            # A player's games not finished (in play, and the few aborted): My games reads
            # these seats alone, however long his history.
            models.Index(fields=["user", "game"], name="seat_user_unfinished",
                         condition=models.Q(finished_at__isnull=True)),
            # A player's moves waiting in games not finished, the nearest deadline first: the head
            # of My games, read without ordering all his games in play.
            models.Index(fields=["user", "deadline", "-game"], name="seat_user_on_clock",
                         condition=models.Q(finished_at__isnull=True, deadline__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.position}: {self.player_name}"

    @property
    def player_name(self) -> str:
        if self.is_bot:
            return _("Computer %(n)s (level %(level)s)") % {"n": self.position + 1, "level": self.computer_level}
        return self.user.name if self.user else "—"

    @property
    def is_taken(self) -> bool:
        return self.is_bot or self.user_id is not None


class Move(models.Model):
    """One applied action. Append-only: never updated, never deleted while the game lives."""

    class By(models.TextChoices):
        PLAYER = "player", _("player")
        TIMEOUT = "timeout", _("timeout")
        BOT = "bot", _("computer")
        MODERATOR = "moderator", _("moderator")
        SYSTEM = "system", _("the site (rules update)")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", verbose_name=_("game"))
    seq = models.PositiveIntegerField(_("move number"))
    # None: the site's own move (a rules update).
    position = models.PositiveSmallIntegerField(_("seat number (from 0)"), null=True, blank=True)
    action = models.JSONField(_("action"))
    by = models.CharField(_("made by"), max_length=16, choices=By.choices, default=By.PLAYER)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             verbose_name=_("player"))
    client_move_id = models.CharField(_("client's move id"), max_length=64, null=True, blank=True)
    time_used_ms = models.PositiveBigIntegerField(_("time used, ms"), default=0)
    created_at = models.DateTimeField(_("made at"), auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_move_per_seq"),
            models.UniqueConstraint(
                fields=["game", "client_move_id"],
                condition=models.Q(client_move_id__isnull=False),
                name="one_move_per_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} seat {self.position}: {self.action}"


class StandingOrder(models.Model):
    """A move a player says in advance (gameplay/engine/orders.py: the vocabulary), private to
    his seat. Pending until it is applied as his move (by the server, at his turn, recorded as a
    move by the player: the table cannot tell it from a move by hand), lapses (its `reason`, an
    engine template, tells him why) or he cancels it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPLIED = "applied", _("applied")
        LAPSED = "lapsed", _("lapsed")
        CANCELLED = "cancelled", _("cancelled")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="orders", verbose_name=_("game"))
    position = models.PositiveSmallIntegerField(_("seat number (from 0)"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("player"))
    kind = models.CharField(_("kind"), max_length=16)
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    scope = models.PositiveIntegerField(_("holds for (deal or bout)"), null=True, blank=True)
    rules = models.PositiveSmallIntegerField(_("rules version"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    reason = models.CharField(_("why it lapsed"), max_length=200, blank=True)
    move_seq = models.PositiveIntegerField(_("applied as move number"), null=True, blank=True)
    seen = models.BooleanField(_("dismissed by the player"), default=False)
    created_at = models.DateTimeField(_("set at"), auto_now_add=True)
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)

    class Meta:
        ordering = ["game", "position", "created_at", "id"]
        verbose_name = _("standing order")
        verbose_name_plural = _("standing orders")
        indexes = [models.Index(fields=["game", "position", "status"], name="order_game_seat_status")]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.position}: {self.kind} {self.params} ({self.status})"

    def as_order(self) -> dict:
        """The engine's form of the order (gameplay.engine.orders)."""
        return {"kind": self.kind, "params": self.params, "scope": self.scope, "rules": self.rules}


class ChatMessage(models.Model):
    MAX_LENGTH = 500

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat", verbose_name=_("game"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("author"))
    text = models.CharField(_("text"), max_length=MAX_LENGTH)
    hidden = models.BooleanField(_("hidden by a moderator"), default=False)
    created_at = models.DateTimeField(_("written at"), auto_now_add=True)

    class Meta:
        ordering = ["game", "created_at"]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def as_json(self) -> dict:
        return {"id": self.pk, "author": self.user.name, "username": self.user.username,
                "text": "" if self.hidden else self.text,
                "hidden": self.hidden, "at": self.created_at.isoformat()}


class PlayerTally(models.Model):
    """A player's finished games counted as they finish (the player page
    shows them and pages through them without counting his every seat):
    kept by `services.moves.finish_with_result`, in the game's transaction."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="tally", verbose_name=_("player"))
    finished = models.PositiveIntegerField(_("finished games"), default=0)
    won = models.PositiveIntegerField(_("games won"), default=0)
    public_finished = models.PositiveIntegerField(_("finished public games"), default=0)

    class Meta:
        verbose_name = _("player's tally")
        verbose_name_plural = _("players' tallies")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.won} / {self.finished}"


class Competition(models.Model):
    """What a league and a tournament share: their first fields (name, address, organizer, description)
    and the words for their tables' game. Each has its own `engine`, `options` and `players` fields
    (where its other settings put them), which the properties read."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=80, unique=True)
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  related_name="organized_%(class)ss", verbose_name=_("organizer"))
    description = models.TextField(_("description"), blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.name

    @property
    def engine_name(self) -> str:
        return engine_name(get_engine(self.engine))

    @property
    def variant_label(self) -> str:
        """The tables in a few words, as the lobby words a table (the game's options)."""
        return labels.variant_words(self.engine, self.options, self.players)

    @property
    def in_pairs(self) -> bool:
        return bool(self.options.get("teams"))
