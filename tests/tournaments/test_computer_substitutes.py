"""Tournament substitutes at the organizer's level (issue 43 item 5): off by default (a leaver forfeits the
game in play, as before); on, a computer of the chosen level finishes a leaver's game, audited as a
substitution, and the seat's result stays the leaver's entry's (as a league that keeps a substitute's
results with the seat's player)."""

import pytest
from django.test import Client
from django.urls import reverse

from gameplay import bots
from gameplay.models import Game
from gameplay.services.base import GameError
from moderation.models import AuditEntry
from moderation.services import people as moderation_people
from tests.gameplay.conftest import client_for
from tests.moderation.conftest import moderator  # noqa: F401 (fixture)
from tournaments import pairing, services

from .conftest import committed, entered, round_tables, start, tournament_of
from .test_computer_entrants import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def quick_search(monkeypatch):
    monkeypatch.setattr(bots, "budget_for", lambda slug, level: 2)


def first_round(people, **fields):
    tournament = tournament_of(people[0], rounds=1, **fields)
    entered(tournament, people[1:3])
    with committed():
        start(tournament.pk, people[0])
    (table,) = round_tables(tournament, 1)
    return tournament, table


def test_by_default_a_player_who_leaves_forfeits_the_game_in_play(people):
    tournament, table = first_round(people)
    assert tournament.substitute_level == 0
    leaver = table.game.seats.get(position=0).user
    services.leave(tournament.pk, leaver)
    table.refresh_from_db()
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED and table.forfeits == [table.seats[0]]
    assert not table.game.seats.filter(is_bot=True).exists()


def test_a_computer_of_the_chosen_level_finishes_a_leavers_game_and_its_result_is_the_leavers(people,
                                                                                           quick_search):
    tournament, table = first_round(people, substitute_level=3)
    leaver, stayer = (table.game.seats.get(position=p).user for p in (0, 1))
    with committed():
        services.leave(tournament.pk, leaver)
    seat = table.game.seats.get(position=0)
    assert (seat.is_bot, seat.computer_level, seat.user_id) == (True, 3, None)
    audit = AuditEntry.objects.get(action=AuditEntry.Action.SUBSTITUTE)
    assert (audit.moderator, audit.target_user, audit.after["level"]) == (people[0], leaver, 3)
    game = play_out(table.game, stayer)
    table.refresh_from_db()
    assert game.status == Game.Status.FINISHED and table.forfeits == []
    places = pairing.table_places(table)
    rows = {row.entry_id: row for row in pairing.current_standings(tournament)}
    leaver_entry = table.seats[0]
    firsts = sum(place == 1 for place in places.values())  # two: a drawn game (win 1, draw ½)
    assert rows[leaver_entry].points == (1.0 / firsts if places[leaver_entry] == 1 else 0.0)
    assert rows[leaver_entry].withdrawn


def test_the_organizers_withdrawal_hands_the_game_to_the_computer_in_the_organizers_name(people, moderator):
    tournament, table = first_round(people, substitute_level=1)
    entry_id = table.seats[1]
    services.withdraw(entry_id, moderator, "abandoned the event")
    seat = table.game.seats.get(position=1)
    assert seat.is_bot and seat.computer_level == 1
    assert AuditEntry.objects.get(action=AuditEntry.Action.SUBSTITUTE).moderator == moderator


def test_a_suspended_players_tournament_game_goes_to_the_tournaments_level(people, moderator):
    tournament, table = first_round(people, substitute_level=2)
    suspended = table.game.seats.get(position=1).user
    done = moderation_people.suspend(suspended.pk, moderator, "cheating")
    assert done["computer"] == [table.game_id]
    seat = table.game.seats.get(position=1)
    assert seat.is_bot and seat.computer_level == 2


def test_without_substitutes_a_suspended_players_tournament_game_is_forfeited(people, moderator):
    tournament, table = first_round(people)
    done = moderation_people.suspend(table.game.seats.get(position=1).user.pk, moderator, "cheating")
    assert done["forfeited"] == [table.game_id]


@pytest.mark.parametrize("bad", [4, -1, True, "2"])
def test_a_substitute_level_that_does_not_exist_is_refused(people, bad):
    with pytest.raises(GameError) as refused:
        tournament_of(people[0], substitute_level=bad)
    assert refused.value.code == "bad_request"


def test_the_form_offers_the_levels_and_the_page_and_rules_say_the_rule(people):
    client = client_for(people[0])
    response = client.post(reverse("new_tournament"), {
        "name": "Cup with substitutes", "engine": "durak", "players": 2, "format": "swiss", "advance": 1,
        "rounds": 3, "round_days": 7, "next_round": "finished", "forfeits_to_withdraw": 2, "rated": "on",
        "substitute_level": "2"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "A computer of level 2 finishes the games of a player who leaves." in page
    for language, words in (("en", "then a computer of the level the organizer chose finishes that game"),
                            ("ru", "доигрывает компьютер того уровня, который выбрал организатор")):
        rules = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("tournament_rules")).content.decode()
        assert words in rules
