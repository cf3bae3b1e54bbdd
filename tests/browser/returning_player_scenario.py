"""Set-ups for the browser tests of what a returning player reads (issue 27),
run against the live server's database like tests/browser/scenario.py:

    python -m tests.browser.returning_player_scenario NAME [ARGS...]

Prints one JSON line. Fixed seeds, so the same on every run.

- ``durak_forced_take USERNAME PASSWORD``: a finished two-player Durak game of
  an English-speaking player against a computer (he plays his first legal move
  each time) in which the computer attacked with cards he could not beat: the
  rules made him take.
- ``durak_two_to_beat USERNAME PASSWORD OTHER``: a two-player Durak table of
  the player and another person, where the other has attacked with two cards
  of one rank and the player, defending, can beat both.
"""

import sys

from tests.browser.scenario import _player, _table_with_bots
from tests.browser.scenario_command import run_command, run_scenario

MAX_SEEDS = 80


def durak_forced_take(username: str, password: str) -> dict:
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game

    user = _player(username, password)
    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = _table_with_bots(user, "durak", 2, seed=seed)
        while game.status == Game.Status.ACTIVE:
            legal = game_payload(game, 0)["legal"]
            if not legal:
                raise AssertionError(f"game {game.pk}: the computer did not move (version {game.version})")
            services.submit_move(game.pk, user, legal[0], game.version)
            game = Game.objects.get(pk=game.pk)
        if _computer_forced_a_take(game):
            return {"game": game.pk, "url": game.get_absolute_url(), "name": user.name,
                    "record": f"/sheets/{game.pk}/record/"}
    raise AssertionError(f"no seed up to {MAX_SEEDS} makes the player take")


def _computer_forced_a_take(game) -> bool:
    """True if a move of the computer (seat 1) left the player (seat 0) unable to defend."""
    from gameplay.engine import get_engine
    from gameplay.records import apply_recorded

    engine = get_engine("durak")
    state = engine.start(players=2, options=game.options, seed=int(game.seed), rules_version=game.rules_version)
    for move in game.moves.order_by("seq"):
        state, events = apply_recorded(engine, state, move.position, move.action)
        if move.position == 1 and any(e["type"] == "forced_take" and e["seat"] == 0 for e in events):
            return True
    return False


def durak_two_to_beat(username: str, password: str, other: str) -> dict:
    from gameplay import services
    from gameplay.engine import get_engine
    from gameplay.models import Game, seed_hash

    engine = get_engine("durak")
    user = _player(username, password)
    attacker = _player(other, password)
    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = services.create_game(attacker, "durak", None, players=2)
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
        services.join_game(game.pk, user)
        game = Game.objects.get(pk=game.pk)
        if engine.actors(game.state) == [0]:
            for action in engine.legal_actions(game.state, 0):
                if action["type"] != "attack" or len(action["cards"]) != 2:
                    continue
                after, _events = engine.apply(game.state, 0, action)
                beats = [a for a in engine.legal_actions(after, 1) if a["type"] == "beat"]
                if {a["attack"] for a in beats} == set(action["cards"]):
                    services.submit_move(game.pk, attacker, action, game.version)
                    game = Game.objects.get(pk=game.pk)
                    return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version,
                            "attack": action["cards"], "beats": beats}
        game.delete()
    raise AssertionError(f"no seed up to {MAX_SEEDS} gives a two-card attack the player can beat")


def played_games(username: str, password: str, language: str = "en") -> dict:
    """A player (in `language`) at one table of every game kind with computer players (4 seats; Durak
    3), each played to its end by his first legal move each time: full score sheets."""
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game

    user = _player(username, password)
    user.language = language
    user.save(update_fields=["language"])
    games = {}
    for engine in ("joker", "odessa", "ipuker", "domino_poker", "durak"):
        game = _table_with_bots(user, engine, 3 if engine == "durak" else 4)
        for _ in range(2000):
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE:
                break
            legal = game_payload(game, 0)["legal"]
            if not legal:
                raise AssertionError(f"{engine} game {game.pk}: the computers did not move (version {game.version})")
            services.submit_move(game.pk, user, legal[0], game.version)
        games[engine] = {"game": game.pk, "url": game.get_absolute_url(), "sheet": f"/sheets/{game.pk}/",
                         "order": _sheet_order(game)}
    return games


def _sheet_order(game) -> list[int]:
    """The seats from the first dealer's (Ipuker: leader's) left, as a sheet on paper lists them."""
    state = game.state
    first = next((state[key] for key in ("first_dealer", "first_leader") if state.get(key) is not None), None)
    if first is None and state.get("leaders"):
        first = state["leaders"][0]
    players = game.seats_count
    if state.get("first_starter") is not None:  # domino Poker: from the player who started the first deal
        return [(state["first_starter"] + offset) % players for offset in range(players)]
    return [(first + offset) % players for offset in range(1, players + 1)] if first is not None else list(range(players))


def rated_twice(password: str, *usernames: str) -> dict:
    """Four English-speaking people (the usernames, each his name capitalised) who played two rated
    Joker games together, the last of them resigning both: every one is rated, provisionally. The
    games' seeds are fixed, so the places the resignations leave, and the ratings, are the same every
    run: the first player's two points differ (121, then 227), and his chart has two value labels. With
    random seeds about one run in twelve left him 121 and 121 (a flat line, one label)."""
    from gameplay import services
    from gameplay.models import Game, seed_hash

    users = [_player(name, password, display_name=name.capitalize()) for name in usernames]
    for seed in ("1", "2"):
        game = services.create_game(users[0], "joker", players=4)
        # Before the table fills and the first deal is dealt; its published hash with it, as scenario.py does.
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
        for user in users[1:]:
            services.join_game(game.pk, user)
        services.resign(game.pk, users[-1])
    return {"names": [user.name for user in users]}


SCENARIOS = {"durak_forced_take": durak_forced_take, "durak_two_to_beat": durak_two_to_beat,
             "played_games": played_games, "rated_twice": rated_twice}


def run(live_site, name: str, *args: str) -> dict:
    """This module's scenario `name` against the live server's database."""
    return run_scenario(__name__, live_site, name, *args)


def main(argv: list[str]) -> None:
    run_command(SCENARIOS, argv)


if __name__ == "__main__":
    main(sys.argv[1:])
