"""Replay every stored game from its seed and moves, under the rules version it
started with, and report per game kind and version how many replayed to their
stored state; name any game whose replay differs (or cannot be replayed)."""

from collections import Counter

from django.core.management.base import BaseCommand, CommandError

from gameplay.engine import get_engine
from gameplay.engine.core import IllegalMove
from gameplay.models import Game
from gameplay.records import record_of_play, replay_record, same_state


def record_of(game: Game) -> dict:
    """The game's record (gameplay/records.py) as stored: seed, rules version, options, moves, state."""
    engine = get_engine(game.engine)
    start = {"rules": game.rules_version, "players": game.seats_count, "options": game.options,
             "seed": int(game.seed)}
    moves = [{"seq": m.seq, "seat": m.position, "action": m.action, "by": m.by} for m in game.moves.order_by("seq")]
    return {**record_of_play(engine, start, moves, game.state), "outcome": None}


def replays_identically(game: Game) -> tuple[bool, str]:
    try:
        if same_state(replay_record(record_of(game)), game.state):
            return True, ""
        return False, "replayed state differs from the stored state"
    except (IllegalMove, KeyError, ValueError, TypeError) as exc:
        return False, f"replay failed: {getattr(exc, 'message', exc)}"


class Command(BaseCommand):
    help = ("Replay stored games from seed + moves under the rules version each started with; "
            "report per game kind and version, and name the games that differ from their stored state.")

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games (default: all started games)")

    def handle(self, *args, game_ids, **options):
        games = Game.objects.filter(state__isnull=False).order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
        checked, identical, bad = Counter(), Counter(), []
        for game in games.iterator():
            kind = (game.engine, game.rules_version)
            checked[kind] += 1
            ok, problem = replays_identically(game)
            if ok:
                identical[kind] += 1
            else:
                bad.append(game.pk)
                self.stdout.write(self.style.ERROR(f"game {game.pk} ({game.engine}, rules v{game.rules_version}): "
                                                   f"{problem}"))
        for engine, version in sorted(checked):
            kind = (engine, version)
            self.stdout.write(f"{engine} rules v{version}: {identical[kind]} of {checked[kind]} replayed identically")
        self.stdout.write(f"{sum(checked.values())} game(s) replayed, {len(bad)} differ.")
        if bad:
            raise CommandError(f"games that do not replay: {', '.join(map(str, bad))}")
