"""Set-ups for the correspondence browser tests (issue 25), run against the
live server's database like tests/browser/scenario.py:

    python -m tests.browser.correspondence_scenario NAME [ARGS...]

- ``players PASSWORD USERNAME...``: English-speaking players (UTC), each
  named by his username capitalised.
- ``durak_on_clock FIRST SECOND ON_CLOCK``: a started two-player Durak table
  of FIRST (seat 0) and SECOND where ON_CLOCK attacks first (the deal
  decides: tables are dealt until it does); "answered" names a card he
  may lead that the other can beat (a lead he cannot beat makes him take
  at once, and the attacker stays on the clock).
- ``durak_defending FIRST SECOND DEFENDER``: the same table after the
  other's attack, DEFENDER on the clock.
- ``next_game_by_itself USERNAME``: his profile setting "go to the next
  game after my move" turned on.
- ``challenge FROM TO``: FROM challenges TO to a two-player Durak table.
- ``russian USERNAME...``: these players read the site in Russian, in Moscow time.
Prints one JSON line.
"""

import json
import os
import sys


def players(password: str, *usernames: str) -> dict:
    from django.contrib.auth import get_user_model

    for username in usernames:
        get_user_model().objects.create_user(username=username, password=password, email=f"{username}@example.com",
                                             language="en", time_zone="UTC", display_name=username.capitalize())
    return {"players": list(usernames)}


def durak_on_clock(first: str, second: str, on_clock: str) -> dict:
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.models import Game, Seat

    users = [get_user_model().objects.get(username=name) for name in (first, second)]
    for _ in range(50):
        game = services.create_seated_game(users, "durak", {}, time_preset="correspondence")
        seat = Seat.objects.get(game=game, deadline__isnull=False)
        answered = _lead_the_other_answers(game.state, seat.position)
        if seat.user.username == on_clock and answered is not None:
            return {"game": game.pk, "url": game.get_absolute_url(), "answered": answered}
        Game.objects.filter(pk=game.pk).delete()
    raise AssertionError(f"{on_clock} never attacked first with a card the other could beat")


def _lead_the_other_answers(state: dict, attacker: int) -> str | None:
    """A card `attacker` may lead after which the game waits for the other seat."""
    from gameplay.engine import get_engine

    engine = get_engine("durak")
    for action in engine.legal_actions(state, attacker):
        if action["type"] == "attack" and len(action["cards"]) == 1:
            after, _events = engine.apply(state, attacker, action)
            if 1 - attacker in engine.actors(after):
                return action["cards"][0]
    return None


def durak_defending(first: str, second: str, defender: str) -> dict:
    """A two-player Durak table where the other player has attacked and
    DEFENDER is on the clock (he may always take)."""
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.engine import get_engine
    from gameplay.models import Game, Seat

    engine = get_engine("durak")
    attacker = first if defender == second else second
    for _ in range(50):
        game = Game.objects.get(pk=durak_on_clock(first, second, attacker)["game"])
        seat = Seat.objects.get(game=game, deadline__isnull=False)
        action = next(a for a in engine.legal_actions(game.state, seat.position) if a["type"] == "attack")
        services.submit_move(game.pk, seat.user, action, game.version)
        on_clock = Seat.objects.filter(game=game, deadline__isnull=False).select_related("user").first()
        if on_clock is not None and on_clock.user.username == defender:
            return {"game": game.pk, "url": game.get_absolute_url()}
        Game.objects.filter(pk=game.pk).delete()
    raise AssertionError(f"{defender} never had to defend")


def next_game_by_itself(username: str) -> dict:
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username=username).update(next_game_after_move=True)
    return {"player": username}


def challenge(by: str, to: str) -> dict:
    from django.contrib.auth import get_user_model

    from correspondence import services

    sent = services.create_challenge(get_user_model().objects.get(username=by), [to], "durak", {}, {})
    return {"challenge": sent.pk}


def russian(*usernames: str) -> dict:
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username__in=usernames).update(language="ru", time_zone="Europe/Moscow")
    return {"players": list(usernames)}


SCENARIOS = {"russian": russian, "players": players, "durak_on_clock": durak_on_clock, "durak_defending": durak_defending,
             "next_game_by_itself": next_game_by_itself, "challenge": challenge}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    name, *args = argv
    print(json.dumps(SCENARIOS[name](*args)))


if __name__ == "__main__":
    main(sys.argv[1:])
