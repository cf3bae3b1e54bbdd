"""Computer players in tournaments (issues 41 and 43): the organizer enters a computer level before the
start, audited; it is paired, plays its seat at its level through the worker's path, is scored and
ranked under its level's name; entry conditions are not its; bad input changes nothing."""

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.computers import computer_account
from gameplay import bots, services as game_services
from gameplay.engine import get_engine
from gameplay.models import Game, Move
from gameplay.services.base import GameError
from moderation.models import AuditEntry
from ratings.models import Rating
from tests.api.conftest import api_for
from tests.gameplay.conftest import client_for
from tournaments import computer_entrants, pairing, services
from tournaments.models import Entry, Tournament
from tournaments.shown_standings import shown_cross_table, shown_standings

from .conftest import committed, entered, round_tables, start, tournament_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def quick_search(monkeypatch):
    """The search levels think with a budget of two rollouts a decision (the tests check the path, not
    the strength)."""
    monkeypatch.setattr(bots, "budget_for", lambda slug, level: 2)


def play_out(game: Game, person) -> Game:
    """The person plays the first legal action whenever the game waits for them; each computer move runs
    as the worker runs it (the task queued after the commit, eager in tests) until the game is over."""
    engine = get_engine(game.engine)
    for _turn in range(400):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        seat = game.seats.get(user=person).position
        assert seat in engine.actors(game.state), "the game waits for the computer: its move was not played"
        with committed():
            game_services.submit_move(game.pk, person, engine.legal_actions(game.state, seat)[0], game.version)
    raise AssertionError("the game did not end")


def test_the_organizer_enters_a_computer_level_named_by_its_level_and_audited(people):
    tournament = tournament_of(people[0], min_rated_games=5)  # a condition no computer meets: not its
    entry = computer_entrants.add_computer(tournament.pk, people[0], 2)
    assert entry.user == computer_account(2) and entry.is_computer
    with translation.override("en"):
        assert str(entry) == "Computer, level 2"
    with translation.override("ru"):
        assert str(entry) == "Компьютер, уровень 2"
    audit = AuditEntry.objects.get(action=AuditEntry.Action.ADD_COMPUTER)
    assert (audit.moderator, audit.after["level"], audit.after["entry"]) == (people[0], 2, entry.pk)


def test_the_organizer_removes_a_computer_before_the_start_audited(people):
    tournament = tournament_of(people[0])
    entry = computer_entrants.add_computer(tournament.pk, people[0], 3)
    computer_entrants.remove_computer(entry.pk, people[0])
    assert not tournament.entries.exists()
    assert AuditEntry.objects.get(action=AuditEntry.Action.REMOVE_COMPUTER).before["level"] == 3


@pytest.mark.parametrize("bad", [4, 0, "2", True, None])
def test_a_level_that_does_not_exist_is_refused(people, bad):
    tournament = tournament_of(people[0])
    with pytest.raises(GameError) as refused:
        computer_entrants.add_computer(tournament.pk, people[0], bad)
    assert refused.value.code == "bad_request" and "There is no computer level" in refused.value.message
    assert not tournament.entries.exists() and not AuditEntry.objects.exists()


def test_only_the_organizer_adds_or_removes_computers_once_each_and_only_before_the_start(people):
    tournament = tournament_of(people[0])
    entry = computer_entrants.add_computer(tournament.pk, people[0], 1)
    refusals = [
        (lambda: computer_entrants.add_computer(tournament.pk, people[1], 2), "forbidden"),
        (lambda: computer_entrants.remove_computer(entry.pk, people[1]), "forbidden"),
        (lambda: computer_entrants.add_computer(tournament.pk, people[0], 1), "duplicate"),
    ]
    for act, code in refusals:
        with pytest.raises(GameError) as refused:
            act()
        assert refused.value.code == code
    entered(tournament, people[1:2])
    start(tournament.pk, people[0])
    for act in (lambda: computer_entrants.add_computer(tournament.pk, people[0], 2),
                lambda: computer_entrants.remove_computer(entry.pk, people[0])):
        with pytest.raises(GameError) as refused:
            act()
        assert refused.value.code == "started"
    with pytest.raises(GameError):
        services.withdraw(entry.pk, people[0], "no longer wanted")
    assert tournament.entries.filter(withdrawn_at=None).count() == 2
    assert AuditEntry.objects.filter(action=AuditEntry.Action.ADD_COMPUTER).count() == 1


def test_no_computer_in_a_tournament_played_in_pairs(people):
    tournament = tournament_of(people[0], players=4, options={"teams": True})
    with pytest.raises(GameError) as refused:
        computer_entrants.add_computer(tournament.pk, people[0], 1)
    assert refused.value.code == "bad_request" and not tournament.entries.exists()


def test_the_page_adds_and_removes_a_computer_for_the_organizer_only(people):
    tournament = tournament_of(people[0])
    organizer, other = client_for(people[0]), client_for(people[1])
    assert "Add a computer player" in organizer.get(tournament.get_absolute_url()).content.decode()
    assert "Add a computer player" not in other.get(tournament.get_absolute_url()).content.decode()
    other.post(reverse("tournament_add_computer", args=[tournament.slug]), {"level": "2"})
    assert not tournament.entries.exists()
    page = organizer.post(reverse("tournament_add_computer", args=[tournament.slug]), {"level": "9"}, follow=True)
    assert "There is no computer level 9" in page.content.decode() and not tournament.entries.exists()
    organizer.post(reverse("tournament_add_computer", args=[tournament.slug]), {"level": "2"})
    entry = tournament.entries.get()
    assert "Computer, level 2" in organizer.get(tournament.get_absolute_url()).content.decode()
    organizer.post(reverse("tournament_remove_computer", args=[tournament.slug, entry.pk]))
    assert not tournament.entries.exists()


def test_a_computer_entrant_plays_its_round_at_its_level_and_is_scored_under_its_name(people, quick_search):
    tournament = tournament_of(people[0], rounds=1)
    entered(tournament, people[1:2])
    computer = computer_entrants.add_computer(tournament.pk, people[0], 2)
    with committed():
        start(tournament.pk, people[0])
    (table,) = round_tables(tournament, 1)
    bot_seat = table.game.seats.get(is_bot=True)
    assert (bot_seat.computer_level, bot_seat.user_id) == (2, None)
    assert table.seats[bot_seat.position] == computer.pk
    game = play_out(table.game, people[1])
    assert game.status == Game.Status.FINISHED
    assert Move.objects.filter(game=game, position=bot_seat.position, by=Move.By.BOT).exists()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    rows = {row.entry_id: row for row in pairing.current_standings(tournament)}
    winner_place = {pk: place for pk, place in pairing.table_places(table).items()}
    firsts = sum(place == 1 for place in winner_place.values())  # two: a drawn game (win 1, draw ½)
    assert rows[computer.pk].points == (1.0 / firsts if winner_place[computer.pk] == 1 else 0.0)
    assert rows[computer.pk].name == "Computer, level 2"
    assert {e.final_rank for e in Entry.objects.filter(tournament=tournament)} == {1, 2}
    assert not Rating.objects.exists()  # a person against a computer: not rated, for anybody (ratings' rule)


def test_a_table_of_computer_entrants_rates_the_levels_in_the_computers_pool(people, quick_search):
    tournament = tournament_of(people[0], rounds=1)
    for level in (1, 2):
        computer_entrants.add_computer(tournament.pk, people[0], level)
    with committed():
        start(tournament.pk, people[0])  # the computers play the whole game through the worker's path
    (table,) = round_tables(tournament, 1)
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED
    pools = set(Rating.objects.values_list("engine", "user__computer_level"))
    assert pools == {("durak:computers", 1), ("durak:computers", 2)}


def test_the_kept_standings_name_a_computer_in_each_readers_language(people):
    tournament = tournament_of(people[0])
    entered(tournament, people[1:2])
    computer_entrants.add_computer(tournament.pk, people[0], 3)
    with translation.override("en"):
        assert "Computer, level 3" in {row.name for row in shown_standings(tournament)}
    with translation.override("ru"):
        assert "Компьютер, уровень 3" in {row.name for row in shown_standings(tournament)}
        assert "Компьютер, уровень 3" in {line.row.name for line in shown_cross_table(tournament)[1]}


def test_the_api_gives_a_computer_entrants_level_and_the_substitutes_level(people):
    tournament = tournament_of(people[0], substitute_level=2)
    entered(tournament, people[1:2])
    computer = computer_entrants.add_computer(tournament.pk, people[0], 3)
    detail = api_for(people[1]).get(f"/api/v1/tournaments/{tournament.slug}").json()
    levels = {row["entry"]: row["computer_level"] for row in detail["standings"]}
    assert levels[computer.pk] == 3 and list(levels.values()).count(None) == 1
    assert detail["substitute_level"] == 2
