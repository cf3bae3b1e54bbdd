"""Set-ups for the tournaments' browser test, run against the live server's database like
tests/browser/scenario.py:

    python -m tests.browser.tournament_scenario NAME [ARGS...]

Prints one JSON line.

- ``players PASSWORD NAME...``: English-speaking players (display name: the name capitalised).
- ``entries SLUG NAME...``: these players join the tournament (its service, as the button does).
- ``deadline_passes SLUG``: the latest round's deadline is moved to a minute ago and beat's sweep runs
  (`tournaments.tasks.sweep_rounds`): every clock still running in the round runs out (forfeits), the
  round ends and its task, queued after the commit (Celery eager here), starts the next one or ends the
  tournament. Returns the rounds and the status after it.
- ``open_cup PASSWORD NAME...``: these players (as ``players``) and a knockout cup of two-player Durak
  ("Kitchen Cup", slug kitchen-cup) organised by the first, open for entry, entered by them in their order.
- ``resign SLUG NAME...``: each player resigns their game in play in the tournament, in turn.
"""

import sys

from tests.browser.scenario import _player
from tests.browser.scenario_command import run_command, run_scenario


def players(password: str, *names: str) -> dict:
    return {"names": [user.name for user in _players(password, names)]}


def _players(password: str, names) -> list:
    """The players, their password hashed once for all (a hash takes a good part of a second)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    people = [_player(name, None, display_name=name.capitalize()) for name in names]
    get_user_model().objects.filter(pk__in=[user.pk for user in people]).update(password=make_password(password))
    return people


def _user(name: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=name)


def _tournament(slug: str):
    from tournaments.models import Tournament

    return Tournament.objects.get(slug=slug)


def entries(slug: str, *names: str) -> dict:
    from tournaments import services

    tournament = _tournament(slug)
    for name in names:
        services.join(tournament.pk, _user(name))
    return {"entries": tournament.entries.count()}


def deadline_passes(slug: str) -> dict:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments import tasks
    from tournaments.models import Round

    tournament = _tournament(slug)
    latest = tournament.round_set.order_by("-number").first()
    Round.objects.filter(pk=latest.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    changed = tasks.sweep_rounds()
    tournament.refresh_from_db()
    return {"changed": changed, "rounds": tournament.round_set.count(), "status": tournament.status}


def open_cup(password: str, *names: str) -> dict:
    from tournaments import services

    people = _players(password, names)
    tournament = services.create_tournament(people[0], name="Kitchen Cup", engine="durak", players=2,
                                            format="knockout")
    for user in people:
        services.join(tournament.pk, user)
    return {"slug": tournament.slug}


def _game_in_play(slug: str, user):
    from gameplay.models import Game

    return Game.objects.get(tournament_table__round__tournament__slug=slug, status=Game.Status.ACTIVE,
                            seats__user=user)


def resign(slug: str, *names: str) -> dict:
    from gameplay import services as game_services

    games = []
    for name in names:
        user = _user(name)
        game = _game_in_play(slug, user)
        game_services.resign(game.pk, user)
        games.append(game.pk)
    tournament = _tournament(slug)
    return {"games": games, "rounds": tournament.round_set.count(), "status": tournament.status}


SCENARIOS = {"players": players, "entries": entries, "deadline_passes": deadline_passes, "open_cup": open_cup,
             "resign": resign}


def run(live_site, name: str, *args: str) -> dict:
    """This module's scenario `name` against the live server's database."""
    return run_scenario(__name__, live_site, name, *args)


def main(argv: list[str]) -> None:
    run_command(SCENARIOS, argv)


if __name__ == "__main__":
    main(sys.argv[1:])
