"""Set-ups for the browser tests, run against the live server's database:

    python -m tests.browser.scenario NAME [ARGS...]

(with the server's environment, see conftest.py). Prints one JSON line.

- ``follow_suit USERNAME PASSWORD``: an English-speaking player at a Joker
  table with three computer players, brought (through the services, the way
  the site does it) to a moment where it is his turn to play and some card
  in his hand may not be played. Games are built from fixed seeds 1, 2, 3...
  so the result is the same on every run.
- ``phone_tables USERNAME PASSWORD``: an English-speaking player at four
  4-player tables with computer players, each at a moment where it is his
  move: Joker in the bids of the first deal (``joker_first``) and of the
  first 9-card deal (``joker``: pulka 1 on the sheet), Durak when he defends
  (a "Take" button), Ipuker in its third round (his stake); and an open
  table of another player with a long name. Fixed seeds, so the same on
  every run.
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


def _player(username: str, password: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en",
        time_zone="UTC",
    )


def _play_until(user, engine: str, options: dict | None, wanted) -> dict:
    """A 4-player table of `engine` with computer players, played by this
    player's first legal move each time until `wanted(game, payload)` holds
    on his move (seeds 1, 2, 3...). The game's URL and the view's phase."""
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game, seed_hash

    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = services.create_game(user, engine, options, players=4)
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
        services.fill_with_bots(game.pk, user)  # the computers move at once (eager Celery)
        while True:
            game = Game.objects.get(pk=game.pk)
            payload = game_payload(game, 0)
            if game.status != Game.Status.ACTIVE or not payload["legal"]:
                break
            if wanted(game, payload):
                return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version,
                        "phase": payload["view"].get("phase")}
            services.submit_move(game.pk, user, payload["legal"][0], game.version)
        game.delete()
    raise AssertionError(f"no {engine} seed up to {MAX_SEEDS} reaches the wanted moment")


def phone_tables(username: str, password: str) -> dict:
    from gameplay import services

    user = _player(username, password)
    host = _player(username + "-host", password)
    host.display_name = "Anna Karenina-Vronskaya"
    host.save(update_fields=["display_name"])
    services.create_game(host, "durak", players=3)  # an open table in the lobby
    return {
        "joker_first": _play_until(user, "joker", None, lambda g, p: p["view"]["phase"] == "bid"),
        "joker": _play_until(user, "joker", None, lambda g, p: g.state["deal"] == 9 and p["view"]["phase"] == "bid"),
        "durak": _play_until(user, "durak", None, lambda g, p: any(a["type"] == "take" for a in p["legal"])),
        "ipuker": _play_until(user, "ipuker", None, lambda g, p: p["view"]["round"] >= 3
                              and any(a["type"] == "stake" for a in p["legal"])),
    }


SCENARIOS = {"follow_suit": follow_suit, "phone_tables": phone_tables}


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
