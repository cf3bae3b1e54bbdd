"""Set-ups for the standing orders' browser test (issue 42), run against the live server's database
like tests/browser/scenario.py:

    python -m tests.browser.orders_scenario NAME [ARGS...]

Prints one JSON line.

- ``durak_defender USERNAME PASSWORD OTHER``: a two-player Durak table of two people where the
  other (seat 0) is to attack and the player (seat 1) will defend.
- ``attack GAME``: the attacker attacks with his lowest card.
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
    import subprocess

    from tests.browser.conftest import BASE_DIR, SETUP_SECONDS

    done = subprocess.run([sys.executable, "-m", __name__, name, *args], cwd=BASE_DIR, env=live_site.env,
                          capture_output=True, text=True, timeout=SETUP_SECONDS)
    if done.returncode != 0:
        raise AssertionError(f"scenario {name} failed:\n{done.stdout}\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    name, *args = argv
    print(json.dumps({"durak_defender": durak_defender, "attack": attack, "release": release}[name](*args)))


if __name__ == "__main__":
    main(sys.argv[1:])
