"""What every service shares: the refusal, a move's result, the locked game row, a user's seat,
what text can be stored."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from gameplay.models import Game, Seat


class GameError(Exception):
    """A refused request, with a message for the player. Nothing was changed."""

    def __init__(self, message: str, code: str = "refused", version: int | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.version = version


@dataclass(frozen=True)
class MoveResult:
    version: int
    duplicate: bool = False


def is_storable_text(text: str) -> bool:
    """Valid Unicode (no lone surrogate such as "\\ud800") without a NUL
    character: text every database stores (SQLite refuses the first,
    PostgreSQL both)."""
    if "\x00" in text:
        return False
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameError(_("There is no such game."), code="not_found") from None


def seat_of(game: Game, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()
