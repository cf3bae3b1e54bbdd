"""Substitutes in league games (issue 14 on issue 13): a computer finishes a
withdrawn player's games when the league says so (audited substitutions),
computers only where the league allows them, and a substituted seat's
results stay with its entry or pass to the substitute, as the standings show."""

import pytest

from gameplay import services as game_services
from moderation.services import games as moderation_actions
from gameplay.models import Game, Seat
from gameplay.services.base import GameError
from leagues import fixtures, services
from leagues.models import Division, Entry, Fixture, League
from leagues.standings import division_standings
from moderation.models import AuditEntry
from scoresheets import standings as engine
from tests.leagues.conftest import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(name, password=None, language="en", display_name=name.title())
            for name in ("olga", "boris", "vera", "gleb", "zoe")]


def durak_league(people, players=3, **fields) -> Division:
    """A running two-player Durak round robin of the first `players` people."""
    league = services.create_league(people[0], name="Subs", engine="durak", players=2, **fields)
    season = league.seasons.get()
    for user in people[:players]:
        services.register(season.pk, user)
    start(season.pk, people[0])
    return Division.objects.get(season=season)


def game_of(division: Division, first, second) -> Game:
    entries = {e.user_id: e.pk for e in Entry.objects.filter(division=division)}
    pair = {entries[first.pk], entries[second.pk]}
    return next(f.game for f in Fixture.objects.filter(division=division).select_related("game") if set(f.seats) == pair)


def position_of(game: Game, user) -> int:
    return game.seats.get(user=user).position


def row_of(division: Division, user):
    entry = Entry.objects.get(division=division, user=user)
    return next(r for r in division_standings(division).rows if r.entry_id == entry.pk)


# -- a computer finishes a withdrawn player's games -------------------------------------


def test_a_computer_finishes_the_games_of_a_player_who_withdraws_each_an_audited_substitution(people):
    division = durak_league(people, on_withdrawal=League.OnWithdrawal.COMPUTER, computer_substitutes=True)
    vera = Entry.objects.get(division=division, user=people[2])
    games = [game_of(division, people[2], people[0]), game_of(division, people[2], people[1])]
    services.withdraw(vera.pk, people[2])
    for game in games:
        game.refresh_from_db()
        seat = game.seats.get(position=[s.position for s in Seat.objects.filter(game=game, is_bot=True)][0])
        assert game.status == Game.Status.ACTIVE and seat.is_bot and seat.user is None  # the game goes on
    audits = list(AuditEntry.objects.filter(action=AuditEntry.Action.SUBSTITUTE).order_by("game_id"))
    assert [a.game_id for a in audits] == sorted(g.pk for g in games)
    assert all(a.moderator == people[2] and a.target_user == people[2] for a in audits)  # the one who withdrew
    assert all(a.reason == "Vera withdrew from the league season." for a in audits)


def test_removed_by_the_organizer_the_organizer_is_the_substitutions_actor(people):
    division = durak_league(people, on_withdrawal=League.OnWithdrawal.COMPUTER, computer_substitutes=True)
    services.withdraw(Entry.objects.get(division=division, user=people[1]).pk, people[0])
    assert set(AuditEntry.objects.values_list("moderator", flat=True)) == {people[0].pk}
    assert AuditEntry.objects.count() == 2


def test_round_by_round_a_withdrawn_players_later_table_starts_with_a_computer(people):
    division = durak_league(people, players=4, on_withdrawal=League.OnWithdrawal.COMPUTER, computer_substitutes=True,
                            start=League.Start.ROUNDS)
    gleb = Entry.objects.get(division=division, user=people[3])
    services.withdraw(gleb.pk, people[3])
    entries = {e.pk: e.user for e in Entry.objects.filter(division=division)}
    for fixture in Fixture.objects.filter(division=division, round=1).select_related("game"):
        humans = [entries[pk] for pk in fixture.seats if pk != gleb.pk]
        game_services.resign(fixture.game_id, humans[-1])  # the first round is over
    later = [f for f in Fixture.objects.filter(division=division, round=2).select_related("game")]
    assert all(f.game is not None for f in later)  # his table too, with a computer in his seat
    his = next(f for f in later if gleb.pk in f.seats)
    assert his.game.seats.get(position=his.seats.index(gleb.pk)).is_bot
    assert AuditEntry.objects.filter(game=his.game, moderator=people[0]).exists()  # the organizer's


def test_a_computer_finishing_games_needs_a_league_that_allows_computer_substitutes(people):
    with pytest.raises(GameError, match="allows computer substitutes"):
        services.create_league(people[0], name="Subs", engine="durak", players=2,
                               on_withdrawal=League.OnWithdrawal.COMPUTER, computer_substitutes=False)
    assert not League.objects.exists()


def test_without_a_computer_the_withdrawn_players_games_are_lost_as_before(people):
    # Not annulled (he finished none of his games before withdrawing: by default he would be, issue 24).
    division = durak_league(people, annul_below_half=False)
    services.withdraw(Entry.objects.get(division=division, user=people[2]).pk, people[2])
    assert not Seat.objects.filter(is_bot=True).exists() and not AuditEntry.objects.exists()
    assert row_of(division, people[0]).points == 1


# -- computers only where allowed ------------------------------------------------------


def test_a_league_without_computer_substitutes_refuses_a_computer_in_a_seat(people, django_user_model):
    division = durak_league(people, computer_substitutes=False)
    game = game_of(division, people[0], people[1])
    with pytest.raises(GameError, match="does not allow computer players"):
        moderation_actions.substitute_seat(game.pk, position_of(game, people[1]), people[0], "gone", user=None)
    assert not Seat.objects.filter(game=game, is_bot=True).exists() and not AuditEntry.objects.exists()
    moderation_actions.substitute_seat(game.pk, position_of(game, people[1]), people[0], "gone", user=people[4])
    assert game.seats.filter(user=people[4]).exists()  # a person is always allowed
    assert fixtures.computer_may_substitute(game.pk) is False
    League.objects.update(computer_substitutes=True)
    assert fixtures.computer_may_substitute(game.pk) is True
    assert fixtures.computer_may_substitute(Game.objects.create(engine="durak", seats_count=2,
                                                                created_by=people[0]).pk) is True


# -- whose results -----------------------------------------------------------------------


def test_by_default_a_substituted_seats_results_stay_with_its_entry(people):
    division = durak_league(people)
    game = game_of(division, people[0], people[1])
    moderation_actions.substitute_seat(game.pk, position_of(game, people[1]), people[0], "vanished", user=people[4])
    game_services.resign(game.pk, people[0])  # Olga loses to Zoe, who plays for Boris
    boris, olga = row_of(division, people[1]), row_of(division, people[0])
    assert (boris.points, boris.played, boris.left) == (1, 1, 1)
    assert (olga.points, olga.played, olga.left) == (0, 1, 1)


def test_passed_to_a_substitute_from_outside_the_results_count_for_nobody_and_the_opponent_keeps_the_game(people):
    division = durak_league(people, substitute_results=League.SubstituteResults.SUBSTITUTE)
    game = game_of(division, people[0], people[1])
    moderation_actions.substitute_seat(game.pk, position_of(game, people[1]), people[0], "vanished", user=people[4])
    boris = row_of(division, people[1])
    assert (boris.played, boris.left, boris.scheduled) == (0, 1, 1)  # that game is no longer his
    game_services.resign(game.pk, people[4])  # Zoe, from outside, loses to Olga
    olga, boris = row_of(division, people[0]), row_of(division, people[1])
    assert (olga.points, olga.played, olga.left) == (1, 1, 1)
    assert (boris.points, boris.played, boris.left, boris.scheduled) == (0, 0, 1, 1)
    assert {r.name for r in division_standings(division).rows} == {"Olga", "Boris", "Vera"}


def test_passed_to_a_substitute_with_an_entry_in_the_division_the_results_count_for_that_entry(people):
    division = durak_league(people, substitute_results=League.SubstituteResults.SUBSTITUTE)
    game = game_of(division, people[0], people[1])
    moderation_actions.substitute_seat(game.pk, position_of(game, people[1]), people[0], "vanished", user=people[2])
    game_services.resign(game.pk, people[0])  # Vera, in Boris's seat, beats Olga
    vera, boris = row_of(division, people[2]), row_of(division, people[1])
    assert (vera.points, vera.played, vera.scheduled) == (1, 1, 3)  # her own two games and this one
    assert (boris.points, boris.played, boris.scheduled) == (0, 0, 1)


def test_a_computer_finishing_a_withdrawn_players_games_takes_their_results_when_substitutes_do(people):
    division = durak_league(people, on_withdrawal=League.OnWithdrawal.COMPUTER, computer_substitutes=True,
                            substitute_results=League.SubstituteResults.SUBSTITUTE, annul_below_half=True)
    services.withdraw(Entry.objects.get(division=division, user=people[2]).pk, people[2])
    game = game_of(division, people[2], people[0])
    game_services.resign(game.pk, people[0])  # the computer beats Olga
    olga, vera = row_of(division, people[0]), row_of(division, people[2])
    assert (olga.points, olga.played) == (0, 1)
    # Her games went to the computer; she finished none of the one drawn for her: annulled (issue 37).
    assert (vera.played, vera.scheduled, vera.annulled) == (0, 0, True)
    assert "a substitute" in division_standings_csv(division)


def division_standings_csv(division: Division) -> str:
    from django.test import Client

    return Client().get(division.get_absolute_url() + "results.csv").content.decode()


# -- the pure standings with guests ----------------------------------------------------------


def test_a_guest_counts_for_the_places_and_points_of_the_others_but_has_no_row_nor_standing():
    entries = [engine.Entry(1, "A"), engine.Entry(2, "B"), engine.Entry(3, "C")]
    games = [
        engine.GameResult(10, {1: 1, -1: 2, 2: 3}, guests=frozenset({-1})),  # A, a guest, B
        engine.GameResult(11, {2: 1, 3: 2, 1: 3}),
    ]
    rows = engine.standings(entries, games, scheduled={1: 2, 2: 2, 3: 1},
                            chain=["sonneborn_berger", "lot"])
    by_id = {r.entry_id: r for r in rows}
    assert [r.entry_id for r in rows] == [2, 1, 3]
    assert (by_id[1].points, by_id[2].points, by_id[3].points) == (1.0, 1.0, 0.5)
    # A: game 10, the guest (no standing: 0) and B (1 point) behind; game 11, nobody behind: 1.
    # B: game 10, nobody behind; game 11, C (½) and A (1) behind: 1½, above A.
    assert by_id[1].tiebreaks["sonneborn_berger"] == 1.0 and by_id[2].tiebreaks["sonneborn_berger"] == 1.5
    assert rows[1].separated_by == "sonneborn_berger"
    assert (by_id[1].played, by_id[2].played) == (2, 2)


def test_a_guest_that_is_an_entry_or_not_in_the_game_is_refused():
    entries = [engine.Entry(1, "A"), engine.Entry(2, "B")]
    with pytest.raises(ValueError, match="guest"):
        engine.standings(entries, [engine.GameResult(1, {1: 1, 2: 2}, guests=frozenset({2}))], scheduled={1: 1, 2: 1})
    with pytest.raises(ValueError, match="guest"):
        engine.standings(entries, [engine.GameResult(1, {1: 1, 2: 2}, guests=frozenset({-5}))],
                         scheduled={1: 1, 2: 1})
