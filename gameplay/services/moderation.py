"""What moderators do to a game."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay.engine import get_engine
from gameplay.models import Game
from gameplay.services import clocks as seat_clocks
from gameplay.services import tables
from gameplay.services.after_commit import game_changed
from gameplay.services.base import GameError, locked_game


@transaction.atomic
def abort_game(game_id: int, moderator, reason: str) -> Game:
    game = locked_game(game_id)
    if game.is_over:
        raise GameError(_("This game is already over."), code="not_active")
    if not reason.strip():
        raise GameError(_("Give a reason for aborting the game."), code="bad_request")
    game.status = Game.Status.ABORTED
    game.abort_reason = reason.strip()
    game.aborted_by = moderator
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "abort_reason", "aborted_by", "finished_at"])
    # Every open page of the game gets the abort and its reason (the state's "result") after the commit.
    game_changed(game)
    seat_clocks.update_clocks(game, get_engine(game.engine), game.finished_at, mover=None)
    tables.after_table_change(game)
    return game
