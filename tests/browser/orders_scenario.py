"""Set-ups for the standing orders' browser test (issue 42), run against the live server's database
like tests/browser/scenario.py:

    python -m tests.browser.orders_scenario NAME [ARGS...]

Prints one JSON line.

- ``durak_defender USERNAME PASSWORD OTHER``: a two-player Durak table of two people where the
  other (seat 0) is to attack and the player (seat 1) will defend.
- ``joker_bidder USERNAME PASSWORD OTHER``: a Joker table of four people at the bids of its first
  deal, where the player bids after someone else (the other is the first to bid).
- ``orders_table ENGINE PREFIX PASSWORD``: a table of four people PREFIX0..PREFIX3 of ENGINE (Odessa,
  domino Poker, Ipuker) at its start; the player is the one who bids second (Ipuker: the round's
  leader), the other the first to move.
- ``attack GAME``: the attacker attacks with his lowest card.
- ``advance GAME POSITION``: the other people move by hand (their first legal move) until the game
  waits for seat POSITION.
- ``release GAME``: the time of the standing orders of every seat on the clock has come (the beat
  sweep's work, without waiting for it): `services.release_orders`.
"""

import json
import os
import sys

from tests.browser.scenario import _player


def durak_defender(username: str, password: str, other: str) -> dict:
    from gameplay import services
    from gameplay.models import Game

    user = _player(username, password)
    attacker = _player(other, password)
    game = services.create_game(attacker, "durak", {"first_attacker": 0}, players=2)
    services.join_game(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version}


def joker_bidder(username: str, password: str, other: str) -> dict:
    from gameplay import services
    from gameplay.models import Game, seed_hash

    user = _player(username, password)
    people = [_player(f"{other}{i}" if i else other, password) for i in range(3)]
    game = services.create_game(people[0], "joker", None, players=4)
    # A fixed deal (its seed set before the last player starts it), so the same player bids first every run.
    Game.objects.filter(pk=game.pk).update(seed="1", seed_sha256=seed_hash("1"))
    for person in people[1:]:
        services.join_game(game.pk, person)
    services.join_game(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    first = game.state["turn"]
    position = game.seats.get(user=user).position
    if position == first:  # the player must not be the first to bid: swap his seat with the next one
        raise AssertionError("the player is the first to bid; change the scenario's seats")
    return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version, "position": position,
            "first": first, "first_name": game.seats.get(position=first).user.username}


def orders_table(engine_slug: str, prefix: str, password: str) -> dict:
    from gameplay import services
    from gameplay.engine import get_engine
    from gameplay.models import Game

    people = [_player(f"{prefix}{i}", password) for i in range(4)]
    game = services.create_game(people[0], engine_slug, None, players=4)
    for person in people[1:]:
        services.join_game(game.pk, person)
    game = Game.objects.get(pk=game.pk)
    engine = get_engine(engine_slug)
    first = engine.actors(game.state)[0]
    if engine_slug == "ipuker":
        position = game.state["leader"]
    else:  # who bids after the first bidder
        after, _ = engine.apply(game.state, first, engine.legal_actions(game.state, first)[0])
        position = engine.actors(after)[0]
    return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version, "position": position,
            "player": game.seats.get(position=position).user.username,
            "other": game.seats.get(position=first).user.username}


def advance(game_id: str, position: str) -> dict:
    from gameplay import services
    from gameplay.engine import get_engine
    from gameplay.models import Game

    game = Game.objects.get(pk=int(game_id))
    engine = get_engine(game.engine)
    while int(position) not in engine.actors(game.state):
        actor = engine.actors(game.state)[0]
        seat = game.seats.get(position=actor)
        services.submit_move(game.pk, seat.user, engine.legal_actions(game.state, actor)[0], game.version)
        game = Game.objects.get(pk=game.pk)
    return {"version": game.version}


def attack(game_id: str) -> dict:
    from gameplay import services
    from gameplay.engine import get_engine
    from gameplay.models import Game

    game = Game.objects.get(pk=int(game_id))
    action = get_engine("durak").legal_actions(game.state, 0)[0]
    seat = game.seats.get(position=0)
    services.submit_move(game.pk, seat.user, action, game.version)
    return {"version": Game.objects.get(pk=game.pk).version, "attack": action["cards"]}


def release(game_id: str) -> dict:
    from django.utils import timezone

    from gameplay import services
    from gameplay.models import Game, Seat

    Seat.objects.filter(game_id=int(game_id), order_at__isnull=False).update(order_at=timezone.now())
    moved = services.release_orders(int(game_id))
    return {"moved": moved, "version": Game.objects.get(pk=int(game_id)).version}


def run(live_site, name: str, *args: str) -> dict:
    """This module's scenario `name` against the live server's database (see conftest.LiveServer)."""
    return live_site.run_scenario_of(__name__, name, *args)


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    name, *args = argv
    print(json.dumps({"durak_defender": durak_defender, "joker_bidder": joker_bidder, "orders_table": orders_table,
                      "attack": attack, "advance": advance, "release": release}[name](*args)))


if __name__ == "__main__":
    main(sys.argv[1:])
