"""Every sentence of /leagues/rules/ about leaving a season, aborted games and
ties is true: one test per sentence (its `data-rule`), in Russian and
English, each checking what the sentence says through the services."""

import pytest
from django.test import Client

from gameplay import services as game_services
from gameplay.models import Game
from leagues import services
from leagues.models import Entry, League
from leagues.standings import division_standings
from moderation.services.games import abort_game
from moderation.services.people import suspend, unsuspend
from tests.gameplay.conftest import client_for
from tests.leagues.test_seasons_finish_fairly import (  # noqa: F401
    active_games, division_of, entry_of, fixtures_of, moderator, pairs_season, people, play_out, row_of,
    season_with, standings_csv, table_row_of)

pytestmark = pytest.mark.django_db


def rules_page(language: str) -> str:
    return Client(headers={"accept-language": language}).get("/leagues/rules/").content.decode()


def says(rule: str) -> None:
    """The sentence is on the page in both languages."""
    for language, word in (("en", "How leagues are scored"), ("ru", "Как считаются лиги")):
        page = rules_page(language)
        assert word in page, language
        assert f'data-rule="{rule}"' in page, (rule, language)


def test_leaving_loses_by_forfeit(people):
    says("leaving-loses-by-forfeit")
    season = season_with(people[:5], people[0], start=League.Start.ROUNDS, annul_below_half=False)
    pair_season = pairs_season(people)
    quitter = people[1]
    client_for(quitter).post(f"/leagues/{season.league.slug}/1/withdraw/{entry_of(season, quitter).pk}/")
    assert not Game.objects.filter(fixture__division__season=season, status=Game.Status.ACTIVE,
                                   seats__user=quitter).exists()
    row = row_of(season, quitter)
    assert row.left == 0 and row.forfeits_lost == 4  # every table of his: resigned or never started
    play_out(season)
    assert all(r.left == 0 for r in division_standings(division_of(season)).rows)
    pair = Entry.objects.filter(season=pair_season).first()
    client_for(pair.partner).post(f"/leagues/{pair_season.league.slug}/1/withdraw/{pair.pk}/")
    pair.refresh_from_db()
    assert pair.withdrawn_at is not None


def test_a_forfeit_is_a_forfeit(people):
    says("a-forfeit-is-a-forfeit")
    two = season_with(people[:3], people[0], annul_below_half=False)
    services.withdraw(entry_of(two, people[1]).pk, people[1])
    winner = row_of(two, people[0])
    assert (winner.points, winner.tiebreaks["wins"], winner.forfeits_won) == (1, 1, 1)
    four = season_with(people[3:7], people[0], players=4, games_per_player=2, start=League.Start.ROUNDS,
                       annul_below_half=False)
    services.withdraw(entry_of(four, people[4]).pk, people[4])  # one table resigned in play, one never started
    for user in (people[3], people[5], people[6]):
        row = row_of(four, user)
        assert (row.points, row.tiebreaks["wins"], row.tiebreaks["game_score"]) == (pytest.approx(4 / 3), 0, 0)
    assert "2 won by forfeit" in Client().get(division_of(four).get_absolute_url()).content.decode()


def test_annulled_below_half(people):
    says("annulled-below-half")
    season = season_with(people[:5], people[0])  # four games each, annulment
    quitter = people[1]
    first = fixtures_of(season, quitter)[0]
    game_services.resign(first.game_id, people[0] if people[0] in [s.user for s in first.game.seats.all()]
                         else next(s.user for s in first.game.seats.all() if s.user != quitter))
    services.withdraw(entry_of(season, quitter).pk, quitter)
    rows = division_standings(division_of(season)).rows
    assert rows[-1].name == "Fair 1" and rows[-1].rank is None and rows[-1].points == 0 and rows[-1].played == 1
    assert all(row.played == 0 and row.points == 0 for row in rows[:-1])  # his one game and forfeits: void


def test_a_computer_finishes_his_games(people):
    says("a-computer-finishes-his-games")
    kept = season_with(people[:3], people[0], on_withdrawal=League.OnWithdrawal.COMPUTER,
                       substitute_results=League.SubstituteResults.ENTRY)
    services.withdraw(entry_of(kept, people[1]).pk, people[1])
    games = [f.game for f in fixtures_of(kept, people[1])]
    assert all(g.status == Game.Status.ACTIVE and g.seats.filter(user=None).exists() for g in games)
    for game in games:
        game_services.resign(game.pk, next(s.user for s in game.seats.all() if s.user_id))  # the computer wins
    row = row_of(kept, people[1])
    assert not row.annulled and (row.played, row.points) == (2, 2)
    passed = season_with(people[3:6], people[0], on_withdrawal=League.OnWithdrawal.COMPUTER,
                         substitute_results=League.SubstituteResults.SUBSTITUTE)
    services.withdraw(entry_of(passed, people[4]).pk, people[4])
    assert row_of(passed, people[4]).annulled  # finished none of his two games himself


def test_a_suspension_withdraws(people, moderator):
    says("a-suspension-withdraws")
    season = season_with(people[:3], people[0], annul_below_half=False)
    suspend(people[2].pk, moderator, "abuse")
    assert table_row_of(season, people[2]).suspended
    assert standings_csv(season)["Fair 2"]["left_season"] == "suspended"
    assert "(suspended)" in Client().get(division_of(season).get_absolute_url()).content.decode()
    unsuspend(people[2].pk, moderator, "lifted")
    assert entry_of(season, people[2]).withdrawn_at is not None and row_of(season, people[2]).forfeits_lost == 2


def test_an_aborted_game_is_void(people, moderator):
    says("an-aborted-game-is-void")
    season = season_with(people[:3], people[0], start=League.Start.ROUNDS)
    first_round = active_games(season)
    abort_game(first_round[0].pk, moderator, "a broken deal")
    rows = division_standings(division_of(season)).rows
    assert sum(row.played for row in rows) == 0 and sum(row.scheduled for row in rows) == 4  # 3 tables, 1 void
    assert active_games(season) and first_round[0].pk not in [g.pk for g in active_games(season)]


def test_the_lot_decides_last(people):
    says("the-lot-decides-last")
    season = season_with(people[:4], people[0], tiebreaks=["wins"])
    assert division_of(season).season.league.tiebreak_chain == ["wins", "lot"]
    ranks = [row.rank for row in division_standings(division_of(season)).rows]
    assert ranks == [1, 2, 3, 4]  # nothing played: the lot alone


def test_promotion_and_relegation(people):
    says("promotion-and-relegation")
    league = services.create_league(people[0], name="Ladder", engine="durak", players=2, division_size=2,
                                    promotion=1, relegation=1, annul_below_half=True)
    season = league.seasons.get()
    for user in people[:4]:
        services.register(season.pk, user)
    season = season_with.__globals__["start"](season.pk, people[0])
    top, bottom = season.divisions.order_by("number")
    top_pair, bottom_pair = list(top.entries.all()), list(bottom.entries.all())
    game_services.resign(Game.objects.get(fixture__division=top).pk, top_pair[0].user)  # top_pair[1] wins
    game_services.resign(Game.objects.get(fixture__division=bottom).pk, bottom_pair[1].user)  # bottom_pair[0] wins
    services.end_season(season.pk, people[0])
    following = league.seasons.get(number=2)
    for user in people[:4]:
        services.register(following.pk, user)
    following = season_with.__globals__["start"](following.pk, people[0])
    new_top = set(following.divisions.get(number=1).entries.values_list("user_id", flat=True))
    assert new_top == {top_pair[1].user_id, bottom_pair[0].user_id}
