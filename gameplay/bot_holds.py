"""The games that hold a player from turning his account into a bot
(accounts.bots.add_switch_hold, registered in GameplayConfig.ready()): his
unfinished tables that allow no bot accounts, or whose rating would move
from people's pool to the bots' (a rated table that rates bots apart).
Else a player losing a rated game could turn bot and resign, and the game
would be rated in the bots' pool, leaving the people's ratings untouched."""

from django.db.models import Q
from django.utils.translation import gettext as _

from gameplay.labels import game_name
from gameplay.models import Game

UNFINISHED = (Game.Status.OPEN, Game.Status.ACTIVE)


def games_holding_the_switch(user) -> list[str]:
    games = (Game.objects.filter(seats__user=user, status__in=UNFINISHED)
             .filter(Q(allow_bots=False) | Q(rated=True, bots_rated_apart=True))
             .only("id", "engine").distinct().order_by("pk"))
    return [_("%(game)s #%(id)s") % {"game": game_name(game), "id": game.pk} for game in games]
