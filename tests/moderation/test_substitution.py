"""A moderator gives a seat of a game in play to another account or to a
computer: the game goes on, the new holder sees that seat's view (page,
state, WebSocket), and the replaced player gets nothing of it any more."""

import json

import pytest
from django.urls import reverse

from gameplay import services
from gameplay.engine import get_engine
from gameplay.models import Game, Move, Seat
from moderation.models import AuditEntry
from tests.gameplay.conftest import a_legal_action, acting_player, client_for
from moderation.services import games as moderation_actions
from django.db import transaction
from gameplay import events

pytestmark = pytest.mark.django_db


@pytest.fixture
def newcomer(django_user_model):
    return django_user_model.objects.create_user("newcomer", password="pw-not-used-1", language="en")


def hand_of(game: Game, position: int) -> list[str]:
    return get_engine(game.engine).view(game.state, position)["hand"]


def state_for(user, game: Game):
    return client_for(user).get(reverse("game_state", args=[game.pk]))


@pytest.mark.parametrize("kind", ["joker", "durak"])
def test_the_substitute_gets_the_seats_view_and_the_replaced_player_gets_none(
        kind, joker_game, durak_game, players, newcomer, moderator):
    game = {"joker": joker_game, "durak": durak_game}[kind]
    position, replaced = acting_player(game, players) if kind == "joker" else (1, players[1])
    moderation_actions.substitute_seat(game.pk, position, moderator, "Left the site for good", user=newcomer)
    game.refresh_from_db()
    mine = state_for(newcomer, game).json()
    assert mine["seat"] == position and mine["view"]["hand"] == hand_of(game, position)
    theirs = state_for(replaced, game).json()  # a public table: now a spectator
    assert theirs["seat"] is None and theirs["legal"] == []
    public = {"tuz", "trump_card", "trick", "last_trick", "shown_trump"}  # cards face up for everyone
    text = json.dumps({**theirs, "view": {k: v for k, v in theirs["view"].items() if k not in public}})
    assert not [card for card in hand_of(game, position) if f'"{card}"' in text]
    assert client_for(replaced).get(game.get_absolute_url()).context["position"] is None


def test_the_substitute_moves_for_the_seat_and_the_replaced_player_cannot(joker_game, players, newcomer, moderator):
    position, replaced = acting_player(joker_game, players)
    moderation_actions.substitute_seat(joker_game.pk, position, moderator, "Asked to be replaced", user=newcomer)
    joker_game.refresh_from_db()
    action = a_legal_action(joker_game, position)
    with pytest.raises(services.GameError):
        services.submit_move(joker_game.pk, replaced, action, joker_game.version)
    services.submit_move(joker_game.pk, newcomer, action, joker_game.version)
    move = Move.objects.filter(game=joker_game).order_by("-seq").first()
    assert (move.position, move.user) == (position, newcomer)


def test_a_private_table_is_closed_to_the_replaced_player(players, newcomer, moderator):
    from tests.gameplay.conftest import started_game

    game = started_game("joker", players, is_private=True)
    moderation_actions.substitute_seat(game.pk, 2, moderator, "Replaced", user=newcomer)
    assert state_for(players[2], game).status_code == 404
    assert state_for(newcomer, game).json()["seat"] == 2


def test_a_computer_in_the_seat_of_the_player_to_move_plays_at_once(joker_game, players, moderator, run_on_commit):
    position, _replaced = acting_player(joker_game, players)
    with run_on_commit():  # the computer's move is queued after the commit (eager in the tests)
        moderation_actions.substitute_seat(joker_game.pk, position, moderator, "Left the game")
    seat = Seat.objects.get(game=joker_game, position=position)
    assert seat.is_bot and seat.user is None
    moves = list(Move.objects.filter(game=joker_game).order_by("seq"))
    assert moves[0].action["type"] == "substitute" and moves[0].action["computer"]
    assert moves[1].position == position and moves[1].by == Move.By.BOT


def test_the_seats_clock_starts_afresh_for_its_new_holder(joker_game, players, newcomer, moderator):
    position, _replaced = acting_player(joker_game, players)
    before = Seat.objects.get(game=joker_game, position=position)
    moderation_actions.substitute_seat(joker_game.pk, position, moderator, "Replaced", user=newcomer)
    after = Seat.objects.get(game=joker_game, position=position)
    assert after.deadline is not None and after.clock_started_at >= before.clock_started_at
    assert after.seen_at is None and after.ahead_scope is None


def test_the_move_log_and_the_record_say_a_moderator_replaced_the_seat(joker_game, players, newcomer, moderator):
    moderation_actions.substitute_seat(joker_game.pk, 2, moderator, "Left the site", user=newcomer)
    moderation_actions.substitute_seat(joker_game.pk, 3, moderator, "Connection lost")
    for url in (joker_game.get_absolute_url(), reverse("game_record", args=[joker_game.pk])):
        text = client_for(players[0]).get(url).content.decode()
        assert "A moderator replaced seat 3: Left the site" in text, url
        assert "A moderator replaced seat 4 with a computer player: Connection lost" in text, url


def test_the_audit_keeps_who_held_the_seat_before(joker_game, players, newcomer, moderator):
    moderation_actions.substitute_seat(joker_game.pk, 1, moderator, "Left", user=newcomer)
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target_user, entry.game) == ("substitute", players[1], joker_game)
    assert entry.before == {"seat": 1, "user": players[1].pk, "name": players[1].name, "computer": False}
    assert entry.after == {"seat": 1, "user": newcomer.pk, "name": newcomer.name, "computer": False}
    assert Move.objects.get(game=joker_game).user == players[1]


@pytest.mark.parametrize("case", ["seated already", "no reason", "no such seat", "computer again", "over"])
def test_a_substitution_that_cannot_be_made_is_refused_and_nothing_changes(case, joker_game, players, moderator):
    if case == "computer again":
        moderation_actions.substitute_seat(joker_game.pk, 0, moderator, "Left")
    if case == "over":
        moderation_actions.abort_game(joker_game.pk, moderator, "Broken")
    rows = AuditEntry.objects.count(), Move.objects.filter(game=joker_game).count()
    call = {"seated already": (1, "Why", players[2]), "no reason": (1, " ", None), "no such seat": (7, "Why", None),
            "computer again": (0, "Why", None), "over": (1, "Why", None)}[case]
    with pytest.raises(services.GameError):
        moderation_actions.substitute_seat(joker_game.pk, call[0], moderator, call[1], user=call[2])
    assert (AuditEntry.objects.count(), Move.objects.filter(game=joker_game).count()) == rows
    assert Seat.objects.get(game=joker_game, position=1).user == players[1]


def test_the_league_is_told_when_it_has_a_rule_for_substitutes(joker_game, players, newcomer, moderator):
    """Leagues hear of it through the `seat_replaced` game event, in the substitution's transaction."""
    told = []

    def recorder(game, **details):
        told.append((game.pk, details, transaction.get_connection().in_atomic_block))

    events.subscribe(events.SEAT_REPLACED, recorder, after_commit=False)
    try:
        moderation_actions.substitute_seat(joker_game.pk, 1, moderator, "Left", user=newcomer)
    finally:
        events.unsubscribe(events.SEAT_REPLACED, recorder)
    assert told == [(joker_game.pk, {"position": 1, "previous_user_id": players[1].pk, "user_id": newcomer.pk,
                                     "reason": "Left"}, True)]


def test_a_moderator_substitutes_in_the_admin(joker_game, players, newcomer, moderator):
    client = client_for(moderator)
    url = reverse("admin:gameplay_game_substitute", args=[joker_game.pk])
    assert client.get(url).status_code == 200
    assert client.post(url, {"position": 1, "username": "nobody-here", "reason": "Left"}).status_code == 200
    assert client.post(url, {"position": 1, "username": "newcomer", "computer": "on", "reason": "Left"}).status_code == 200
    assert client.post(url, {"position": 1, "username": "newcomer", "reason": ""}).status_code == 200
    assert not AuditEntry.objects.exists()
    assert client.post(url, {"position": 1, "username": "newcomer", "reason": "Left"}).status_code == 302
    assert Seat.objects.get(game=joker_game, position=1).user == newcomer
    assert client.post(url, {"position": 2, "computer": "on", "reason": "Left too"}).status_code == 302
    assert Seat.objects.get(game=joker_game, position=2).is_bot
    assert AuditEntry.objects.filter(action="substitute").count() == 2
