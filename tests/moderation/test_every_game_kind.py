"""Substitution and adjudication in every game kind: its pages (game, sheet,
record, replay) and its published record keep working and say what happened."""

import pytest
from django.urls import reverse

from gameplay import services
from gameplay.engine import ENGINES, get_engine
from gameplay.models import Game
from gameplay.records import verify_record
from scoresheets.export import game_export
from tests.gameplay.conftest import client_for, started_game
from moderation.services import games as moderation_actions

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_a_substituted_then_adjudicated_game_reads_on_every_page(kind, players, moderator, run_on_commit):
    engine = get_engine(kind)
    game = started_game(kind, players[:max(engine.min_players, 3)] if kind != "joker" else players)
    count = game.seats_count
    with run_on_commit():  # the computer moves if the game waits for it
        moderation_actions.substitute_seat(game.pk, 1, moderator, "Left the site")
    moderation_actions.adjudicate_game(game.pk, moderator, "Agreed", {"places": list(range(1, count + 1))})
    game = Game.objects.get(pk=game.pk)
    client = client_for(players[0])
    pages = {url: client.get(url) for url in (game.get_absolute_url(), reverse("sheet", args=[game.pk]),
                                              reverse("game_record", args=[game.pk]),
                                              reverse("replay", args=[game.pk]))}
    assert {url: r.status_code for url, r in pages.items()} == {url: 200 for url in pages}
    record = pages[reverse("game_record", args=[game.pk])].content.decode()
    assert "A moderator replaced seat 2 with a computer player: Left the site" in record
    assert "Adjudicated by a moderator: Agreed" in record
    assert verify_record(game_export(game))["moves"] == game.version
    assert client.get(reverse("replay_step", args=[game.pk, game.version])).status_code == 200
