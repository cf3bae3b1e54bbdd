"""Replay every stored game from its seed and moves and report any game whose
replay differs from its stored state (or cannot be replayed at all)."""

import json

from django.core.management.base import BaseCommand, CommandError

from gameplay.engine import get_engine
from gameplay.engine.core import IllegalMove
from gameplay.models import Game
from gameplay.services import apply_action


def replay(game: Game) -> dict:
    engine = get_engine(game.engine)
    state = engine.start(players=game.seats_count, options=game.options, seed=int(game.seed))
    for move in game.moves.order_by("seq"):
        state, _events = apply_action(engine, state, move.position, move.action)
    return state


def same(a: dict, b: dict) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


class Command(BaseCommand):
    help = "Replay stored games from seed + moves and report those that differ from their stored state."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games (default: all started games)")

    def handle(self, *args, game_ids, **options):
        games = Game.objects.exclude(state=None).order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
        bad = []
        checked = 0
        for game in games.iterator():
            checked += 1
            try:
                ok = same(replay(game), game.state)
                problem = "replayed state differs from the stored state"
            except (IllegalMove, KeyError, ValueError) as exc:
                ok, problem = False, f"replay failed: {getattr(exc, 'message', exc)}"
            if not ok:
                bad.append(game.pk)
                self.stdout.write(self.style.ERROR(f"game {game.pk}: {problem}"))
        self.stdout.write(f"{checked} game(s) replayed, {len(bad)} differ.")
        if bad:
            raise CommandError(f"games that do not replay: {', '.join(map(str, bad))}")
