"""A computers-only game played elsewhere (`gameplay.computer_matches`) stored as a finished,
rated game of the site (issue 43): its seats the computer levels that played them, every move
(by the computer), its result from the engine's outcome. Finishing it publishes `game_finished`
like any game, so ratings rates the levels in the computers' pool."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import computers
from gameplay.computer_levels import UnknownLevel, checked_level
from gameplay.computer_matches import PlayedGame
from gameplay.engine import get_engine
from gameplay.models import Game, Move, Seat
from gameplay.services.base import GameError, insert_rows
from gameplay.services.moves import finish_with_result


@transaction.atomic
def record_computer_game(played: PlayedGame) -> Game:
    """Store `played` (a game that ended) as a finished rated game; GameError if it did not end
    or a level does not exist."""
    try:
        levels = [checked_level(level) for level in played.levels]
    except UnknownLevel as exc:
        raise GameError(str(exc), code="bad_request") from None
    engine = get_engine(played.engine)
    if not engine.is_over(played.state):
        raise GameError(_("Only a game that ended can be recorded."), code="bad_request")
    accounts = {account.computer_level: account for account in computers.ensure_computer_accounts(sorted(set(levels)))}
    now = timezone.now()
    game = Game(engine=played.engine, options=played.options, seats_count=len(levels), status=Game.Status.ACTIVE,
                rated=True, created_by=accounts[levels[0]], seed=played.seed, state=played.state,
                version=len(played.moves), rules_version=played.state.get("rules", 1), started_at=now,
                turn_started_at=now)
    game.keep_history()
    game.save()
    Seat.objects.bulk_create(Seat(game=game, position=p, is_bot=True, computer_level=level,
                                  reserve_seconds_left=game.reserve_seconds) for p, level in enumerate(levels))
    insert_rows([Move(game=game, seq=seq, position=seat, action=action, by=Move.By.BOT)
                 for seq, (seat, action) in enumerate(played.moves, 1)])
    finish_with_result(game, played.outcome["places"], played.outcome["scores"], now)
    game.save(update_fields=["status", "finished_at"])
    return game
