"""Odessa poker set-ups for the browser tests, run against the live server's database:

    python -m tests.browser.odessa_scenario NAME USERNAME PASSWORD

(with the server's environment, as ``tests/browser/scenario.py``). Prints one JSON line.

- ``joker_lead``: an English-speaking player at a 3-player Odessa table with two
  computer players, brought (through the services) to his turn to lead with
  the joker in hand, so that he chooses how it plays (high, low or a demand,
  with a suit).
- ``blind_bid``: the same player at a 2-player table (hands up to 2, only the
  blind special) with one computer player, brought to his bid in the blind
  deal, his cards face down.

Fixed seeds 1, 2, 3..., so the same on every run.
"""

import json
import os
import sys

MAX_SEEDS = 60


def _english_player(username: str, password: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en", time_zone="UTC",
    )


def _table(user, seed: str, players: int, options: dict):
    from gameplay import services
    from gameplay.models import Game, seed_hash

    game = services.create_game(user, "odessa", options, players=players)
    Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
    services.fill_with_bots(game.pk, user)  # the computers move at once (eager Celery)
    return Game.objects.get(pk=game.pk)


def _advance(user, game, wanted):
    """His first legal move (never the joker) until `wanted(game, payload)`; the game or None."""
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game

    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            return None
        payload = game_payload(game, 0)
        if wanted(game, payload):
            return game
        if not payload["legal"]:
            raise AssertionError(f"game {game.pk}: the computers did not move (version {game.version})")
        plain = [a for a in payload["legal"] if not a.get("joker")]
        services.submit_move(game.pk, user, (plain or payload["legal"])[0], game.version)


def joker_lead(username: str, password: str) -> dict:
    user = _english_player(username, password)

    def leading_with_the_joker(game, payload) -> bool:
        return any(a.get("joker") == "demand" for a in payload["legal"])

    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = _advance(user, _table(user, seed, 3, {"max_hand": 4, "specials": []}), leading_with_the_joker)
        if game is not None:
            from gameplay.engine.odessa_setup import joker_card

            return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version,
                    "joker": joker_card(game.options["deck"])}
        _delete_games(user)
    raise AssertionError(f"no seed up to {MAX_SEEDS} lets him lead the joker")


def blind_bid(username: str, password: str) -> dict:
    user = _english_player(username, password)

    def his_blind_bid(game, payload) -> bool:
        return game.state["special"] == "blind" and payload["view"]["phase"] == "bid" and bool(payload["legal"])

    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = _advance(user, _table(user, seed, 2, {"max_hand": 2, "specials": ["blind"]}), his_blind_bid)
        if game is not None:
            return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version,
                    "cards": game.state["cards"], "hand": game.state["hands"][0]}
        _delete_games(user)
    raise AssertionError(f"no seed up to {MAX_SEEDS} brings him to a blind bid")


def _delete_games(user) -> None:
    from gameplay.models import Game

    Game.objects.filter(created_by=user).delete()


SCENARIOS = {"joker_lead": joker_lead, "blind_bid": blind_bid}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.utils import translation

    name, *args = argv
    with translation.override("en"):
        print(json.dumps(SCENARIOS[name](*args)))


if __name__ == "__main__":
    main(sys.argv[1:])
