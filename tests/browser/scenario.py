"""Set-ups for the browser tests, run against the live server's database:

    python -m tests.browser.scenario NAME [ARGS...]

(with the server's environment, see conftest.py). Prints one JSON line.

- ``follow_suit USERNAME PASSWORD``: an English-speaking player at a Joker
  table with three computer players, brought (through the services, the way
  the site does it) to a moment where it is his turn to play and some card
  in his hand may not be played. Games are built from fixed seeds 1, 2, 3...
  so the result is the same on every run.
- ``joker_against_computers USERNAME PASSWORD``: his Joker table with three
  computer players, in its first deal (seed 1).
- ``joker_trump_choice USERNAME PASSWORD``: the same, brought to a 9-card
  deal where he names the trump after his first 3 cards.
- ``finished_games_only USERNAME PASSWORD``: a player (on the default time
  zone) whose only game is over: he resigned it.
- ``two_joker_tables USERNAME PASSWORD``: two such tables, both waiting for his move.
"""

import json
import os
import sys

MAX_SEEDS = 60
MAX_DEAL = 4


def follow_suit(username: str, password: str) -> dict:
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game, seed_hash

    user = get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en",
        time_zone="UTC",
    )
    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = services.create_game(user, "joker", players=4)
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
        services.fill_with_bots(game.pk, user)  # the computers move at once (eager Celery)
        while True:
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE or game.state["deal"] > MAX_DEAL:
                break
            payload = game_payload(game, 0)
            if not payload["legal"]:
                raise AssertionError(f"game {game.pk}: the computers did not move (version {game.version})")
            if payload["view"]["phase"] == "play" and payload["blocked"]:
                playable = sorted({a["card"] for a in payload["legal"] if a["type"] == "play"})
                return {"game": game.pk, "url": game.get_absolute_url(), "seed": seed, "version": game.version,
                        "deal": game.state["deal"], "blocked": payload["blocked"], "playable": playable}
            services.submit_move(game.pk, user, payload["legal"][0], game.version)
        game.delete()
    raise AssertionError(f"no seed up to {MAX_SEEDS} gives a card that may not be played")


def _player(username: str, password: str, time_zone: str | None = "UTC"):
    """An English-speaking player; time_zone None: the model's default, as if he never chose one."""
    from django.contrib.auth import get_user_model

    zone = {} if time_zone is None else {"time_zone": time_zone}
    return get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en", **zone,
    )


def joker_against_computers(username: str, password: str) -> dict:
    """A Joker table of the player and three computer players, in its first
    deal (the choice of the first dealer is shown); his move or not."""
    from gameplay import services
    from gameplay.models import Game, seed_hash

    user = _player(username, password)
    game = services.create_game(user, "joker", players=4)
    Game.objects.filter(pk=game.pk).update(seed="1", seed_sha256=seed_hash("1"))
    services.fill_with_bots(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    return {"game": game.pk, "url": game.get_absolute_url(), "my_turn": 0 in _actors(game)}


def _actors(game) -> list[int]:
    from gameplay.engine import get_engine

    return get_engine(game.engine).actors(game.state)


def joker_trump_choice(username: str, password: str) -> dict:
    """A Joker table of the player and three computer players, brought to a
    9-card deal where he names the trump after seeing his first 3 cards
    (he always makes his first legal move until then)."""
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game

    user = _player(username, password)
    game = services.create_game(user, "joker", players=4)
    services.fill_with_bots(game.pk, user)
    while True:
        game = Game.objects.get(pk=game.pk)
        payload = game_payload(game, 0)
        if payload["view"]["phase"] == "trump" and 0 in payload["view"]["actors"]:
            return {"game": game.pk, "url": game.get_absolute_url(), "deal": game.state["deal"],
                    "hand": payload["view"]["hand"]}
        if game.status != Game.Status.ACTIVE or not payload["legal"]:
            raise AssertionError(f"game {game.pk} stopped at version {game.version} before a trump choice")
        services.submit_move(game.pk, user, payload["legal"][0], game.version)


def finished_games_only(username: str, password: str) -> dict:
    """A player whose only game (against three computer players) is over: he
    resigned it. His account is on the default time zone."""
    from gameplay import services
    from gameplay.models import Game

    user = _player(username, password, time_zone=None)
    game = services.create_game(user, "joker", players=4)
    services.fill_with_bots(game.pk, user)
    services.resign(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    return {"game": game.pk, "url": game.get_absolute_url(), "status": game.status}


def two_joker_tables(username: str, password: str) -> dict:
    """Two Joker tables of the player against computer players, both in play."""
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.models import Game

    first = joker_against_computers(username, password)
    user = get_user_model().objects.get(username=username)
    game = services.create_game(user, "joker", players=4)
    services.fill_with_bots(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    return {"first": first, "second": {"game": game.pk, "url": game.get_absolute_url(),
                                       "my_turn": 0 in _actors(game)}}


SCENARIOS = {"follow_suit": follow_suit, "joker_against_computers": joker_against_computers,
             "joker_trump_choice": joker_trump_choice, "finished_games_only": finished_games_only,
             "two_joker_tables": two_joker_tables}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.utils import translation

    name, *args = argv
    with translation.override("en"):  # the scenario's player reads English
        print(json.dumps(SCENARIOS[name](*args)))


if __name__ == "__main__":
    main(sys.argv[1:])
