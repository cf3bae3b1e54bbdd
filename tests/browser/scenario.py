"""Set-ups for the browser tests, run against the live server's database:

    python -m tests.browser.scenario NAME [ARGS...]

(with the server's environment, see conftest.py). Prints one JSON line.

- ``follow_suit USERNAME PASSWORD``: an English-speaking player at a Joker
  table with three computer players, brought (through the services, the way
  the site does it) to a moment where it is his turn to play and some card
  in his hand may not be played. Games are built from fixed seeds 1, 2, 3...
  so the result is the same on every run.
- ``joker_in_hand USERNAME PASSWORD``: the same, brought to his turn to play
  with a joker he may play.
- ``ipuker_table USERNAME PASSWORD``: an English-speaking player's first
  Ipuker table, started with three computer players.
- ``secret_stakes USERNAME PASSWORD``: an English-speaking player at an
  Ipuker table with three computer players, in round 1 where he is not the
  leader: the two other non-leaders (computers) have staked in secret, his
  own stake is awaited.
- ``finished_series_game USERNAME PASSWORD``: a player's first game of a
  two-game Durak series against a computer player, played to its end, so
  that the second has started.
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


def _english_player(username: str, password: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en", time_zone="UTC",
    )


def joker_in_hand(username: str, password: str) -> dict:
    """A new player's Joker table with three computer players, brought to his
    turn to play with a joker he may play (fixed seeds, as follow_suit)."""
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game, seed_hash

    user = _english_player(username, password)
    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = services.create_game(user, "joker", players=4)
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
        services.fill_with_bots(game.pk, user)
        while True:
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE or game.state["deal"] > MAX_DEAL:
                break
            payload = game_payload(game, 0)
            jokers = sorted({a["card"] for a in payload["legal"] if a["type"] == "play" and a["card"][0] == "X"})
            if jokers:
                return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version, "joker": jokers[0],
                        "leading": any("suit" in a for a in payload["legal"] if a["card"] == jokers[0])}
            others = [a for a in payload["legal"] if a.get("card", "")[:1] != "X"]
            services.submit_move(game.pk, user, (others or payload["legal"])[0], game.version)
        game.delete()
    raise AssertionError(f"no seed up to {MAX_SEEDS} gives a joker to play")


def ipuker_table(username: str, password: str) -> dict:
    """A new player's Ipuker table with three computer players, started."""
    from gameplay import services

    user = _english_player(username, password)
    game = services.create_game(user, "ipuker", players=4)
    services.fill_with_bots(game.pk, user)
    return {"game": game.pk, "url": game.get_absolute_url()}


def secret_stakes(username: str, password: str) -> dict:
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.engine import get_engine
    from gameplay.models import Game, seed_hash

    user = get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en",
        time_zone="UTC",
    )
    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = services.create_game(user, "ipuker", players=4)
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
        services.fill_with_bots(game.pk, user)  # the computers stake at once (eager Celery)
        game = Game.objects.get(pk=game.pk)
        if game.state["leader"] != 0 and get_engine("ipuker").actors(game.state) == [0]:
            stakes = {str(s): game.state["stakes"][s] for s in range(4) if s not in (0, game.state["leader"])}
            return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version,
                    "leader": game.state["leader"], "stakes": stakes}
        game.delete()
    raise AssertionError(f"no seed up to {MAX_SEEDS} leaves the player a non-leader")


def finished_series_game(username: str, password: str) -> dict:
    """An English-speaking player's first game of a two-game Durak series
    against a computer player, played to its end (his moves: the first legal
    one), so that the second game has started."""
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game

    user = get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en", time_zone="UTC",
    )
    game = services.create_game(user, "durak", {"mode": "podkidnoy"}, players=2, series_length=2)
    services.fill_with_bots(game.pk, user)  # the computer moves at once (eager Celery)
    for _ in range(MAX_MOVES):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            break
        legal = game_payload(game, 0)["legal"]
        if not legal:
            raise AssertionError(f"game {game.pk}: the computer did not move (version {game.version})")
        services.submit_move(game.pk, user, legal[0], game.version)
    following = game.next_in_series
    if game.status != Game.Status.FINISHED or following is None:
        raise AssertionError(f"game {game.pk} is {game.status} after {MAX_MOVES} moves")
    return {"game": game.pk, "url": game.get_absolute_url(), "next_game": following.pk,
            "next_url": following.get_absolute_url()}


MAX_MOVES = 500


SCENARIOS = {"follow_suit": follow_suit, "joker_in_hand": joker_in_hand, "ipuker_table": ipuker_table, "secret_stakes": secret_stakes, "finished_series_game": finished_series_game}


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
