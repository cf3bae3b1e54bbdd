"""Computer levels on the platform (issue 43): each level an account named by its level, a
computer seat plays at its level, the creator picks each computer seat's level (form, table page,
API), and bad input (a level that does not exist, a computer asked to move at a seat that is not
its own, a player that refuses to move) is refused clearly with the game unharmed."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.computers import computer_accounts
from celery import current_app
from gameplay import bots, services, tasks
from gameplay.computer_levels import descriptions
from gameplay.engine import get_engine
from gameplay.models import Game, Move, Seat
from gameplay.services import moves, tables

from .conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def levels_seen(monkeypatch):
    """The level every computer move is asked at (the player itself is today's)."""
    seen = []
    choose = bots.choose_action

    def recording(engine, state, seat, rng, level=1):
        seen.append((seat, level))
        return choose(engine, state, seat, rng, level=level)

    monkeypatch.setattr(bots, "choose_action", recording)
    return seen


def new_table(creator, engine="joker", players=4) -> Game:
    return services.create_game(creator, engine, players=players, rated=False)


def test_every_level_has_an_account_named_by_its_level_in_both_languages():
    accounts = computer_accounts()
    assert sorted(accounts) == list(bots.LEVELS)
    assert all(a.is_bot and not a.has_usable_password() for a in accounts.values())
    with translation.override("en"):
        assert accounts[3].name == "Computer, level 3"
    with translation.override("ru"):
        assert accounts[3].name == "Компьютер, уровень 3"


def test_a_computer_seat_says_its_level_in_its_name(players):
    game = new_table(players[0])
    services.fill_with_bots(game.pk, players[0], [3, 2])
    names = {s.position: s for s in Seat.objects.filter(game=game)}
    with translation.override("en"):
        assert [names[p].player_name for p in (1, 2, 3)] == [
            "Computer 2 (level 3)", "Computer 3 (level 2)", "Computer 4 (level 1)"]
    with translation.override("ru"):
        assert names[1].player_name == "Компьютер 2 (уровень 3)"


def test_each_computer_moves_at_the_level_of_its_seat(players, levels_seen, django_capture_on_commit_callbacks):
    game = new_table(players[0])
    with django_capture_on_commit_callbacks(execute=True):  # the computers' moves run at once (eager tasks)
        services.fill_with_bots(game.pk, players[0], [3, 2, 1])
    for _turn in range(30):  # the person moves whenever it is their turn, until every computer has moved
        game.refresh_from_db()
        if {seat for seat, _level in levels_seen} == {1, 2, 3} or 0 not in actors(game):
            break
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_move(game.pk, players[0], legal(game, 0)[0], game.version)
    assert set(levels_seen) == {(1, 3), (2, 2), (3, 1)}
    assert Move.objects.filter(game=game, by=Move.By.BOT).count() == len(levels_seen)


def test_a_computer_replacing_a_seat_and_the_next_game_of_a_series_keep_the_level(players):
    game = services.create_game(players[0], "durak", players=2, rated=False, series_length=2)
    services.fill_with_bots(game.pk, players[0], [3])
    seat = Seat.objects.get(game=game, position=1)
    assert (seat.is_bot, seat.computer_level) == (True, 3)
    services.resign(game.pk, players[0])
    following = Game.objects.get(series_first=game)
    assert Seat.objects.get(game=following, position=1).computer_level == 3


def test_the_table_form_sets_the_level_of_each_computer_seat(players, levels_seen):
    client = client_for(players[0])
    response = client.post(reverse("new_game"), {
        "engine": "joker", "players": 4, "time_preset": "correspondence", "on_timeout": "autoplay",
        "fill_with_bots": "on", "computer_level_2": "2", "computer_level_3": "3", "computer_level_4": "1"})
    assert response.status_code == 302
    game = Game.objects.latest("pk")
    assert {s.position: s.computer_level for s in game.seats.filter(is_bot=True)} == {1: 2, 2: 3, 3: 1}


def test_the_table_form_says_what_each_level_does(players):
    page = client_for(players[0]).get(reverse("new_game")).content.decode()
    assert "Level 1 plays each move by rules of thumb" in page
    assert "with a small budget" in page and "with a larger budget" in page
    players[1].language = "ru"
    players[1].save()
    assert "Уровень 3 ищет так же" in client_for(players[1]).get(reverse("new_game")).content.decode()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_rules_pages_say_what_each_level_does(language):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("rules_game", args=["durak"])).content.decode()
    with translation.override(language):
        for _level, text in descriptions():
            assert str(text) in page.replace("&#x27;", "'")


def test_the_table_page_fills_the_seats_at_the_level_chosen(players):
    game = new_table(players[0], "durak", 3)
    client = client_for(players[0])
    assert 'id="fill-bots-level"' in client.get(game.get_absolute_url()).content.decode()
    client.post(reverse("fill_bots", args=[game.pk]), {"level": "2"})
    assert {s.computer_level for s in game.seats.filter(is_bot=True)} == {2}


def test_a_level_that_does_not_exist_is_refused_everywhere_and_nothing_changes(players):
    game = new_table(players[0])
    for bad in ([4], [0], ["3"], [True], "3", [1] * 20):
        with pytest.raises(services.GameError) as refused:
            services.fill_with_bots(game.pk, players[0], bad)
        assert refused.value.code == "bad_request"
    assert not game.seats.filter(is_bot=True).exists()
    assert "There is no computer level 4" in str(pytest.raises(services.GameError, tables.checked_levels, [4]).value)

    client = client_for(players[0])
    before = Game.objects.count()
    response = client.post(reverse("new_game"), {
        "engine": "joker", "players": 4, "time_preset": "correspondence", "on_timeout": "autoplay",
        "fill_with_bots": "on", "computer_level_2": "9"})
    assert response.status_code == 200 and "There is no computer level 9." in response.content.decode()
    assert Game.objects.count() == before
    response = client.post(reverse("fill_bots", args=[game.pk]), {"level": "7"}, follow=True)
    assert "There is no computer level 7" in response.content.decode()
    response = client.post(reverse("fill_bots", args=[game.pk]), {"level": "x"}, follow=True)
    assert "There is no computer level x." in response.content.decode()
    assert not game.seats.filter(is_bot=True).exists()


@pytest.fixture
def computer_to_move(players, monkeypatch):
    """A Durak table of a person and a level-3 computer where the computer is to move, nobody moving
    on their own (the queued computer moves are held): (game, the computer's seat)."""
    held = moves.play_bot_move
    monkeypatch.setattr(services, "play_bot_move", lambda *args, **kwargs: False)
    game = services.create_game(players[0], "durak", players=2, rated=False)
    services.fill_with_bots(game.pk, players[0], [3])
    game.refresh_from_db()
    for _ in range(10):  # the person moves until the deal gives the computer its turn
        if 1 in actors(game):
            break
        services.submit_move(game.pk, players[0], legal(game, 0)[0], game.version)
        game.refresh_from_db()
    assert 1 in actors(game)
    monkeypatch.setattr(services, "play_bot_move", held)
    return game, 1


def test_a_computer_asked_to_move_at_a_seat_not_its_own_is_refused_and_the_game_is_unharmed(computer_to_move):
    game, computer = computer_to_move
    for position in (0, 7, "1", -1):
        with pytest.raises(services.GameError) as refused:
            moves.play_bot_move(game.pk, game.version, position=position)
        assert refused.value.code == "not_computer" and "is not played by a computer" in refused.value.message
    assert Game.objects.get(pk=game.pk).version == game.version
    assert moves.play_bot_move(game.pk, game.version, position=computer)  # its own seat: it moves
    assert Game.objects.get(pk=game.pk).version > game.version


def test_a_computer_whose_player_refuses_to_move_leaves_the_game_as_it_was(computer_to_move, monkeypatch):
    game, computer = computer_to_move

    def refusing(*args, **kwargs):
        raise ValueError("A budget of zero leaves no time to think.")

    monkeypatch.setattr(bots, "choose_action", refusing)
    with pytest.raises(services.GameError) as refused:
        moves.play_bot_move(game.pk, game.version)
    assert refused.value.code == "computer_refused"
    assert refused.value.message == "The computer in seat 2 cannot move now."
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.state) == (game.version, game.state)
    tasks.play_bot(game.pk, game.version)  # the worker's task logs the refusal and raises nothing


def test_a_stored_level_that_does_not_exist_is_refused_with_the_game_unharmed(computer_to_move):
    game, computer = computer_to_move
    Seat.objects.filter(game=game, position=computer).update(computer_level=9)
    with pytest.raises(services.GameError) as refused:
        moves.play_bot_move(game.pk, game.version)
    assert refused.value.code == "unknown_level" and "There is no computer level 9" in refused.value.message
    assert Game.objects.get(pk=game.pk).version == game.version


def test_computer_moves_go_to_a_queue_of_their_own_and_deadlines_stay_in_the_default_one(settings):
    router = current_app.amqp.router
    assert router.route({}, "gameplay.tasks.play_bot")["queue"].name == settings.CELERY_COMPUTER_QUEUE == "computers"
    for task in ("gameplay.tasks.enforce_deadlines", "gameplay.tasks.after_changes", "gameplay.tasks.sweep_deadlines"):
        assert router.route({}, task)["queue"].name == settings.CELERY_TASK_DEFAULT_QUEUE


def test_make_run_starts_a_worker_for_the_computers_queue():
    from pathlib import Path

    conf = (Path(__file__).resolve().parents[2] / "config" / "supervisord.conf").read_text()
    assert "[program:computers]" in conf and "--queues=computers" in conf


def actors(game: Game) -> list[int]:
    return get_engine(game.engine).actors(game.state)


def legal(game: Game, position: int) -> list[dict]:
    return get_engine(game.engine).legal_actions(game.state, position)
