"""Loading a game's seats once: the seats and their users prefetched, or set
from objects a service already holds, so that `game.seats.all()` then reads
no database (the services, the broadcast and the pages share these)."""

from django.db.models import Prefetch

from gameplay.models import Game, Seat


def with_seats(games):
    """Games with their seats and the seats' users loaded in one more query
    (`game.seats.all()` then reads no database)."""
    return games.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))


def seats_loaded(game: Game) -> bool:
    """Whether `game.seats.all()` reads no database (`locked_game(..., seats=True)`, `with_seats`)."""
    return "seats" in getattr(game, "_prefetched_objects_cache", {})


def cache_seats(game: Game, seats: list[Seat]) -> None:
    """Make `game.seats.all()` read these seat objects, as `locked_game(...,
    seats=True)` leaves it (a service that has just made the seats)."""
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    cached = game.seats.all()
    cached._result_cache = seats
    cached._prefetch_done = True
    game._prefetched_objects_cache = {"seats": cached}
