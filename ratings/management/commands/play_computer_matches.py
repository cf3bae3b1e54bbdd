"""Duplicate-deal matches between the computer levels, recorded as rated games in the computers'
pool (issue 43): what the page of the levels ranked reads (ratings/views.py, `computer_levels`).

    manage.py play_computer_matches --deals 4                       # every game, levels 1, 2, 3
    manage.py play_computer_matches --games durak --levels 1 3 --deals 20 --players 2 --seed 7

Each pair of levels plays each deal once per arrangement of their seats (the pattern a, b, a,
b... rotated), every game stored with its moves (a replay of it checks it), then rated: a level
holding several seats of a game is rated at the mean place of its seats."""

from itertools import combinations

from django.core.management.base import BaseCommand, CommandError

from gameplay import bots
from gameplay.computer_matches import arrangements, deal_seed, play_game
from gameplay.engine import ENGINES, get_engine
from gameplay.services import GameError
from gameplay.services.computer_games import record_computer_game
from ratings import services


class Command(BaseCommand):
    help = "Play duplicate deals between computer levels and record them as rated games in the computers' pool."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", nargs="+", default=list(ENGINES), help="game kinds (default: every one)")
        parser.add_argument("--levels", nargs="+", type=int, default=list(bots.LEVELS), help="levels (default: all)")
        parser.add_argument("--deals", type=int, default=2, help="deals per pair of levels and game kind")
        parser.add_argument("--players", type=int, default=None, help="players per table (default: the game's least)")
        parser.add_argument("--seed", type=int, default=1, help="the matches' seed: the same one plays the same deals")

    def handle(self, *args, games: list[str], levels: list[int], deals: int, players: int | None, seed: int,
               **options) -> None:
        self._check(games, levels, deals)
        for engine in games:
            table = players or get_engine(engine).min_players
            for first, second in combinations(sorted(set(levels)), 2):
                self._match(engine, table, first, second, deals, seed)
        self._report(games)

    def _check(self, games: list[str], levels: list[int], deals: int) -> None:
        unknown = [game for game in games if game not in ENGINES]
        if unknown:
            raise CommandError(f"Unknown game: {', '.join(unknown)} (the games: {', '.join(ENGINES)}).")
        wrong = [level for level in levels if level not in bots.LEVELS]
        if wrong:
            raise CommandError(f"There is no computer level {wrong[0]}: the levels are "
                               f"{', '.join(map(str, bots.LEVELS))}.")
        if len(set(levels)) < 2:
            raise CommandError("Name at least two levels to play against each other.")
        if deals < 1:
            raise CommandError("Play at least one deal.")

    def _match(self, engine: str, players: int, first: int, second: int, deals: int, seed: int) -> None:
        places, count = {first: [], second: []}, 0
        for deal in range(deals):
            for levels in arrangements(first, second, players):
                try:
                    played = play_game(engine, levels, deal_seed(seed, engine, deal))
                    game = record_computer_game(played)
                except (ValueError, GameError) as exc:
                    raise CommandError(f"{engine}, levels {levels}: {exc}") from None
                count += 1
                for seat in game.seats.all():
                    places[seat.computer_level].append(seat.place)
        means = {level: sum(found) / len(found) for level, found in places.items()}
        self.stdout.write(f"{engine} ({players} players): level {first} vs level {second}, {deals} deals, "
                          f"{count} games; mean place "
                          f"{means[first]:.2f} vs {means[second]:.2f}")

    def _report(self, games: list[str]) -> None:
        ranked = services.computer_levels_ranked()
        for engine in games:
            rows = [f"level {s.level}: {s.rating.value if s.rating else '-'} ({s.rating.games if s.rating else 0} games)"
                    for s in ranked[engine]]
            self.stdout.write(f"{engine}: " + "; ".join(rows))
