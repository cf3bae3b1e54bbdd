"""Ipuker on the platform: simultaneous secret commitments, stale-tolerant,
never visible to the others before the reveal, every actor on the clock."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from gameplay import services
from gameplay.broadcast import game_payload
from gameplay.engine import get_engine
from gameplay.models import Game

from .conftest import client_for, started_game

pytestmark = pytest.mark.django_db
IPUKER = get_engine("ipuker")


@pytest.fixture
def game(players) -> Game:
    return started_game("ipuker", players)


def stakers(game: Game) -> list[int]:
    return IPUKER.actors(game.state)


def test_every_player_who_has_not_committed_is_on_the_clock(game):
    on_clock = set(game.seats.filter(deadline__isnull=False).values_list("position", flat=True))
    assert on_clock == set(stakers(game)) and len(on_clock) == 3


def test_a_commitment_made_on_an_older_version_is_still_accepted(game, players):
    first, second, _ = stakers(game)
    services.submit_move(game.pk, players[first], {"type": "stake", "tokens": 17}, 0)
    result = services.submit_move(game.pk, players[second], {"type": "stake", "tokens": 11}, 0)  # made on version 0
    assert result.version == 2
    seat = game.seats.get(position=first)
    assert seat.deadline is None  # he has committed: off the clock


def test_a_commitment_is_final(game, players):
    first = stakers(game)[0]
    services.submit_move(game.pk, players[first], {"type": "stake", "tokens": 17}, 0)
    with pytest.raises(services.GameError) as refused:
        services.submit_move(game.pk, players[first], {"type": "stake", "tokens": 9}, 1)
    assert refused.value.code == "illegal"


def test_nobody_sees_another_players_stake_before_everyone_has_committed(game, players):
    first, second, third = stakers(game)
    services.submit_move(game.pk, players[first], {"type": "stake", "tokens": 23}, 0)
    game.refresh_from_db()
    for position in [second, third, game.state["leader"], None]:
        payload = game_payload(game, position)
        assert payload["view"]["stakes"][first] is None
        assert payload["view"]["committed"][first] is True
    page = client_for(players[second]).get(game.get_absolute_url()).content.decode()
    initial = json.loads(page.split('id="initial-state" type="application/json">')[1].split("</script>")[0])
    assert initial["view"]["stakes"][first] is None
    sheet = Client().get(reverse("sheet", args=[game.pk])).content.decode()
    assert ">23<" not in sheet
    mine = game_payload(game, first)
    assert mine["view"]["stakes"][first] == 23


def test_all_stakes_are_revealed_at_once(game, players):
    for i, position in enumerate(stakers(game)):
        services.submit_move(game.pk, players[position], {"type": "stake", "tokens": 10 + i}, i)
    game.refresh_from_db()
    payload = game_payload(game, None)
    assert sorted(s for s in payload["view"]["stakes"] if s is not None) == [10, 11, 12]


def test_the_pulya_sheet_page_renders(game, players):
    response = Client().get(reverse("sheet", args=[game.pk]))
    assert response.status_code == 200 and b"ipuker-sheet" in response.content


def test_a_whole_game_with_computer_players_ends_and_replays(players, django_capture_on_commit_callbacks):
    from django.core.management import call_command

    game = services.create_game(players[0], "ipuker")
    with django_capture_on_commit_callbacks(execute=True):
        services.fill_with_bots(game.pk, players[0])
    for _ in range(100):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_move(game.pk, players[0], IPUKER.auto_action(game.state, 0), game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert sum(s.points for s in game.seats.all()) == 0  # tokens balance
    call_command("replay_games", game.pk)
