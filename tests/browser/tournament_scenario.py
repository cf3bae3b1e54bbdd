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
- ``cup SLUG NAME...``: a knockout cup of two-player Durak of these players, organised by the first,
  started.
- ``resign SLUG NAME``: the player resigns his game in play in the tournament.
"""

import json
import os
import sys

from tests.browser.scenario import _player


def players(password: str, *names: str) -> dict:
    return {"names": [_player(name, password, display_name=name.capitalize()).name for name in names]}


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


def cup(slug: str, *names: str) -> dict:
    from tournaments import services

    people = [_user(name) for name in names]
    tournament = services.create_tournament(people[0], name=slug.replace("-", " ").title(), engine="durak",
                                            players=2, format="knockout")
    for user in people:
        services.join(tournament.pk, user)
    services.start(tournament.pk, people[0])
    tournament.refresh_from_db()
    return {"slug": tournament.slug, "rounds": tournament.rounds}


def resign(slug: str, name: str) -> dict:
    from gameplay import services as game_services
    from gameplay.models import Game
    from tournaments.models import Table

    user = _user(name)
    table = Table.objects.filter(round__tournament__slug=slug, game__status=Game.Status.ACTIVE,
                                 game__seats__user=user).first()
    game_services.resign(table.game_id, user)
    return {"game": table.game_id}


SCENARIOS = {"players": players, "entries": entries, "deadline_passes": deadline_passes, "cup": cup,
             "resign": resign}


def run(live_site, name: str, *args: str) -> dict:
    """This module's scenario `name` against the live server's database (see conftest.LiveServer)."""
    return live_site.run_scenario_of(__name__, name, *args)


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
