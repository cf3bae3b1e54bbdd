"""Durak on the platform: racing throw-ins, its three timers, series, pairs."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from gameplay import services
from gameplay.engine import get_engine
from gameplay.models import Game
from tests.engine.durak_helpers import scripted

from .conftest import started_game
from .test_concurrency import run_in_threads

DURAK = get_engine("durak")
START = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def durak_game(players, count=3, **table) -> Game:
    return started_game("durak", players[:count], **table)


def put_state(game: Game, state: dict) -> Game:
    """Play from a scripted position (clocks restarted for whoever must act)."""
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    services.update_clocks(game, DURAK, START, mover=None)
    return game


@pytest.mark.django_db(transaction=True)
def test_two_throw_ins_racing_for_the_last_slot_exactly_one_is_accepted(players):
    game = durak_game(players)
    # The defender will hold 2 cards with 1 unbeaten on the table: room for one more card.
    state = scripted([["7S", "7H", "8D", "KC"], ["8S", "9H", "9D"], ["7D", "QC"]])
    state, _ = DURAK.apply(state, 0, {"type": "attack", "cards": ["7S", "7H"]})
    state, _ = DURAK.apply(state, 1, {"type": "beat", "attack": "7S", "card": "8S"})
    game = put_state(game, state)
    results = run_in_threads([
        lambda: services.submit_move(game.pk, players[0], {"type": "throw", "cards": ["8D"]}, game.version),
        lambda: services.submit_move(game.pk, players[2], {"type": "throw", "cards": ["7D"]}, game.version),
    ])
    accepted = [r for r in results if isinstance(r, services.MoveResult)]
    refused = [r for r in results if isinstance(r, services.GameError)]
    assert len(accepted) == 1 and len(refused) == 1, results
    assert refused[0].code == "illegal"
    assert refused[0].message == "The defender cannot be given more unbeaten cards than the defender's hand holds."
    game.refresh_from_db()
    assert game.version == 1 and len(game.state["table"]) == 3


@pytest.mark.django_db
def test_a_throw_in_made_on_an_older_version_is_judged_on_the_current_state(players):
    game = durak_game(players)
    state = scripted([["7S", "7D", "KC"], ["8S", "9D", "TD", "JD"], ["7C", "QC"]])
    state, _ = DURAK.apply(state, 0, {"type": "attack", "cards": ["7S"]})
    game = put_state(game, state)
    services.submit_move(game.pk, players[1], {"type": "beat", "attack": "7S", "card": "8S"}, 0)
    assert services.submit_move(game.pk, players[2], {"type": "throw", "cards": ["7C"]}, 0).version == 2
    with pytest.raises(services.GameError) as refused:  # "done" depends on what is on the table
        services.submit_move(game.pk, players[0], {"type": "done"}, 0)
    assert refused.value.code == "stale"


@pytest.mark.django_db
def test_the_clocks_of_attacker_defender_and_throwers(players):
    with time_machine.travel(START, tick=False) as traveller:
        game = durak_game(players, move_seconds=600, reserve_seconds=60,
                          timer_seconds={"attacker": 100, "defender": 50, "throwers": 20})
        state = scripted([["7S", "7D", "KC"], ["8S", "9C", "TD", "JD"], ["7C", "QC"]])
        game = put_state(game, state)
        attacker = game.seats.get(position=0)
        assert attacker.deadline == START + timedelta(seconds=100) and attacker.clock_uses_reserve
        traveller.shift(timedelta(seconds=10))
        services.submit_move(game.pk, players[0], {"type": "attack", "cards": ["7S"]}, 0)
        defender = game.seats.get(position=1)
        assert defender.deadline == START + timedelta(seconds=60)
        traveller.shift(timedelta(seconds=30))
        services.submit_move(game.pk, players[2], {"type": "throw", "cards": ["7C"]}, 1)
        defender.refresh_from_db()
        assert defender.deadline == START + timedelta(seconds=90)  # restarted by the throw-in
        services.submit_move(game.pk, players[1], {"type": "beat", "attack": "7S", "card": "8S"}, 2)
        services.submit_move(game.pk, players[1], {"type": "beat", "attack": "7C", "card": "9C"}, 3)
        game.refresh_from_db()
        throwers = list(game.seats.filter(deadline__isnull=False))
        assert throwers and all(not s.clock_uses_reserve and s.clock_seconds == 20 for s in throwers)
        traveller.shift(timedelta(seconds=21))
        while services.expire_deadlines(game.pk):
            pass
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        assert all(m.action["type"] == "done" for m in game.moves.filter(by="timeout"))
        assert game.seats.get(position=0).reserve_seconds_left == 60  # a thrower's expiry costs nothing


@pytest.mark.django_db
def test_an_attacker_out_of_reserve_is_the_durak(players):
    with time_machine.travel(START, tick=False) as traveller:
        game = durak_game(players, count=2, move_seconds=30, reserve_seconds=10)
        attacker = DURAK.actors(game.state)[0]
        traveller.shift(timedelta(seconds=31))
        services.expire_deadlines(game.pk)  # the reserve starts
        traveller.shift(timedelta(seconds=10))
        services.expire_deadlines(game.pk)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        outcome = DURAK.outcome(game.state)
        assert outcome["durak"] == attacker
        assert game.seats.get(position=attacker).points == 0
        assert game.seats.get(position=1 - attacker).points == 1


@pytest.mark.django_db
def test_pairs_sit_opposite_each_other(players):
    game = durak_game(players, count=4, options={"mode": "perevodnoy", "teams": True})
    assert list(game.seats.values_list("team", flat=True)) == [0, 1, 0, 1]
    with pytest.raises(services.GameError):
        services.create_game(players[0], "durak", {"teams": True}, players=3)


@pytest.mark.django_db
def test_the_loser_deals_the_next_game_of_a_series_and_the_series_table_adds_up(players):
    game = durak_game(players, count=2, series_length=3)
    services.resign(game.pk, players[1])
    game.refresh_from_db()
    following = game.next_in_series
    assert following is not None and following.status == Game.Status.ACTIVE
    assert following.options["first_dealer"] == 1
    assert following.state["dealer"] == 1
    services.resign(following.pk, players[1])
    page = Client().get(reverse("sheet", args=[following.pk])).content.decode()
    assert "Series score" in page
    assert '<td>2</td>' in page and "is the durak" in page


@pytest.mark.django_db
def test_in_the_window_every_thrower_with_cards_is_on_the_clock_and_told_it_is_his_move(players):
    from gameplay.badge import waiting_count

    game = durak_game(players, count=4)
    # Nobody holds a seven or a nine: the window still waits for seats 0, 2 and 3, and nobody learns it.
    state = scripted([["7S", "KC"], ["9S", "6C", "8C"], ["TD", "6D"], ["QS", "AC"]])
    state, _ = DURAK.apply(state, 0, {"type": "attack", "cards": ["7S"]})
    game = put_state(game, state)
    services.submit_move(game.pk, players[1], {"type": "beat", "attack": "7S", "card": "9S"}, game.version)
    game.refresh_from_db()
    running = sorted(game.seats.filter(deadline__isnull=False).values_list("position", flat=True))
    assert running == [0, 2, 3]
    assert [waiting_count(players[p]) for p in range(4)] == [1, 0, 1, 1]
    for position in (3, 2, 0):
        services.submit_move(game.pk, players[position], {"type": "done"}, game.version)
        game.refresh_from_db()
    assert game.state["bout"] == 3 and game.state["attacker"] == 1
