"""Leagues that finish fairly whatever happens (issue 37): a season never
waits on a player who has left, a suspension settles a player like a
withdrawal, the same facts give the same table by either start mode and
table size, a boundary tie is decided by the lot, and the stored standings
follow every input."""

import csv
import io

import pytest
from django.test import Client
from django.utils import timezone

from gameplay import services as game_services
from gameplay.models import Game, Seat
from leagues import services, stored_standings
from leagues.models import Division, Entry, Fixture, League, Season
from leagues.standings import division_standings
from moderation.services.games import adjudicate_game, substitute_seat
from moderation.services.people import suspend, unsuspend
from scoresheets.standings import lot_value
from scoresheets.standings_view import standings_table
from tests.gameplay.conftest import client_for
from tests.leagues.conftest import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"ff{i}", password="pw-not-used-1", language="en",
                                                  display_name=f"Fair {i}") for i in range(9)]


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_superuser("ffboss", password="pw-not-used-1", email="m@example.com")


def season_with(people, organizer, *, seed: str | None = None, **fields) -> Season:
    settings = {"name": "Fair league", "engine": "durak", "players": 2, "division_size": 10}
    settings.update(fields)
    season = services.create_league(organizer, **settings).seasons.get()
    if seed is not None:
        Season.objects.filter(pk=season.pk).update(seed=seed)
    for user in people:
        services.register(season.pk, user)
    return start(season.pk, organizer)


def division_of(season: Season) -> Division:
    return Division.objects.select_related("season__league").get(season=season)


def entry_of(season: Season, user) -> Entry:
    return Entry.objects.get(season=season, user=user)


def active_games(season: Season) -> list[Game]:
    return list(Game.objects.filter(fixture__division__season=season, status=Game.Status.ACTIVE).order_by("pk"))


def loser_by_name(game: Game):
    """The same facts in every season: the seated person with the greatest name resigns."""
    return max((seat.user for seat in game.seats.select_related("user") if seat.user_id),
               key=lambda user: user.username)


def play_out(season: Season, without=None) -> None:
    """Finish every game in play, round after round, by `loser_by_name`
    (leaving alone the games of `without`, if given)."""
    while True:
        games = [g for g in active_games(season) if without is None or not g.seats.filter(user=without).exists()]
        if not games:
            return
        for game in games:
            game_services.resign(game.pk, loser_by_name(game))


def row_of(season: Season, user):
    entry = entry_of(season, user)
    return next(r for r in division_standings(division_of(season)).rows if r.entry_id == entry.pk)


def table_row_of(season: Season, user):
    entry = entry_of(season, user)
    return next(r for r in standings_table(division_standings(division_of(season))).rows if r.entry_id == entry.pk)


def fixtures_of(season: Season, user) -> list[Fixture]:
    entry = entry_of(season, user)
    return [f for f in Fixture.objects.filter(division__season=season).select_related("game").order_by("round", "pk")
            if entry.pk in f.seats]


def standings_csv(season: Season) -> dict[str, dict[str, str]]:
    url = division_of(season).get_absolute_url() + "standings.csv"
    rows = list(csv.DictReader(io.StringIO(Client().get(url).content.decode())))
    return {row["player"]: row for row in rows}


# -- a season always reaches its end -----------------------------------------------------


def test_round_by_round_two_withdrawals_in_round_two_leave_no_round_unstarted_and_no_game_left(people):
    season = season_with(people[:5], people[0], start=League.Start.ROUNDS, annul_below_half=False)
    play_out_round = [g for g in active_games(season)]
    for game in play_out_round:
        game_services.resign(game.pk, loser_by_name(game))
    # Round 2: two players leave, with their games of the round in play.
    round_two = {seat.user for game in active_games(season) for seat in game.seats.all() if seat.user_id}
    leaving = sorted(round_two, key=lambda user: user.username)[:2]
    for user in leaving:
        services.withdraw(entry_of(season, user).pk, user)
    play_out(season)
    fixtures = list(Fixture.objects.filter(division__season=season).select_related("game"))
    rounds = {f.round for f in fixtures}
    assert len(rounds) == 5
    gone = {entry_of(season, user).pk for user in leaving}
    for fixture in fixtures:
        assert (fixture.game is not None and fixture.game.status == Game.Status.FINISHED) or set(fixture.seats) & gone
    for user in set(people[:5]) - set(leaving):
        assert row_of(season, user).left == 0
    division = division_of(season)
    assert stored_standings.read(division, "en").current_round == max(rounds)


def test_a_round_whose_every_table_holds_a_player_who_left_starts_the_next_one_at_once(people):
    season = season_with(people[:4], people[0], start=League.Start.ROUNDS, annul_below_half=False)
    quitter = people[1]
    rounds = [f.round for f in fixtures_of(season, quitter)]
    services.withdraw(entry_of(season, quitter).pk, quitter)  # his round-1 game is resigned
    play_out(season)
    assert {f.round for f in Fixture.objects.filter(division__season=season, game__isnull=False)} == {1, 2, 3}
    assert rounds == [1, 2, 3]
    assert all(row.left == 0 for row in division_standings(division_of(season)).rows)


# -- a suspended player is settled like a withdrawn one -------------------------------------


def test_a_suspension_withdraws_the_player_from_his_season_in_play_with_forfeits_marked_suspended(people, moderator):
    season = season_with(people[:5], people[0])  # four games each, all at once, lost games, annulment
    cheat = people[2]
    first = fixtures_of(season, cheat)[0]
    game_services.resign(first.game_id, next(s.user for s in first.game.seats.all() if s.user != cheat))
    suspend(cheat.pk, moderator, "collusion")
    entry = entry_of(season, cheat)
    assert entry.withdrawn_at is not None and entry.withdrawn_for == Entry.Withdrawal.SUSPENDED
    assert not Game.objects.filter(status=Game.Status.ACTIVE, seats__user=cheat).exists()
    row = row_of(season, cheat)
    assert row.annulled and row.rank is None and row.points == 0 and row.played == 1
    page = Client().get(division_of(season).get_absolute_url()).content.decode()
    assert "(suspended: results annulled)" in page
    assert standings_csv(season)["Fair 2"]["left_season"] == "suspended"
    assert standings_csv(season)["Fair 2"]["annulled"] == "1"


def test_round_by_round_a_suspended_players_later_tables_are_scored_as_forfeits_and_the_rounds_go_on(
        people, moderator):
    season = season_with(people[:4], people[0], start=League.Start.ROUNDS, annul_below_half=False)
    cheat = people[3]
    suspend(cheat.pk, moderator, "abuse")
    play_out(season)
    for user in people[:3]:
        row = row_of(season, user)
        assert row.left == 0 and row.forfeits_won == 1
    row = row_of(season, cheat)
    assert (row.played, row.forfeits_lost, row.left) == (3, 3, 0)
    assert table_row_of(season, cheat).suspended


def test_lifting_a_suspension_brings_back_no_settled_result(people, moderator):
    season = season_with(people[:3], people[0], annul_below_half=False)
    suspend(people[1].pk, moderator, "abuse")
    before = row_of(season, people[1])
    unsuspend(people[1].pk, moderator, "appeal upheld")
    assert entry_of(season, people[1]).withdrawn_at is not None
    assert row_of(season, people[1]) == before
    assert not Game.objects.filter(status=Game.Status.ACTIVE, seats__user=people[1]).exists()


def test_a_suspension_in_a_league_where_computers_finish_games_gives_his_seats_to_a_computer(people, moderator):
    season = season_with(people[:3], people[0], on_withdrawal=League.OnWithdrawal.COMPUTER)
    suspend(people[1].pk, moderator, "abuse")
    assert entry_of(season, people[1]).withdrawn_for == Entry.Withdrawal.SUSPENDED
    games = [f.game for f in fixtures_of(season, people[1])]
    assert all(g.status == Game.Status.ACTIVE and g.seats.filter(user=None).exists() for g in games)


def test_a_player_suspended_when_his_season_starts_is_withdrawn_at_its_start(people, moderator):
    league = services.create_league(people[0], name="Later", engine="durak", players=2, annul_below_half=False)
    season = league.seasons.get()
    for user in people[:3]:
        services.register(season.pk, user)
    suspend(people[2].pk, moderator, "abuse", until=timezone.now() + timezone.timedelta(days=2))
    start(season.pk, people[0])
    entry = entry_of(season, people[2])
    assert entry.withdrawn_for == Entry.Withdrawal.SUSPENDED and entry.division_id is not None
    assert row_of(season, people[2]).forfeits_lost == 2


# -- one rule, whatever the start mode and table size ----------------------------------------


def comparable(season: Season) -> dict[str, tuple]:
    """Each player's figures, leaving out what depends on entry numbers (the lot)."""
    rows = division_standings(division_of(season)).rows
    return {row.name: (row.points, row.played, row.left, row.scheduled, row.forfeits_lost, row.forfeits_won,
                       row.annulled, row.tiebreaks.get("wins"), row.tiebreaks.get("game_score"),
                       row.tiebreaks.get("sonneborn_berger"))
            for row in rows}


@pytest.mark.parametrize("players, annul", [(2, False), (2, True), (4, False), (4, True)])
def test_the_same_withdrawal_gives_the_same_table_whether_the_games_start_at_once_or_round_by_round(
        people, players, annul):
    tables = {}
    for mode in (League.Start.ALL, League.Start.ROUNDS):
        games_each = {} if players == 2 else {"games_per_player": 3}
        season = season_with(people[:4], people[8], seed="12345", players=players, start=mode,
                             annul_below_half=annul, **games_each)
        quitter = people[1]
        first = next(g for g in active_games(season) if g.seats.filter(user=quitter).exists())
        game_services.resign(first.pk, loser_by_name(first))  # the game he finishes
        play_out(season, without=quitter)  # round 1 over
        services.withdraw(entry_of(season, quitter).pk, quitter)
        play_out(season)
        tables[mode] = comparable(season)
    assert tables[League.Start.ALL] == tables[League.Start.ROUNDS]


def test_a_forfeit_resigned_in_play_adds_no_game_score_and_the_same_points_as_an_unplayed_one(people):
    season = season_with(people[:4], people[0], players=4, games_per_player=2, start=League.Start.ROUNDS,
                         annul_below_half=False)
    quitter = people[1]
    services.withdraw(entry_of(season, quitter).pk, quitter)  # table 1 resigned in play, table 2 never started
    games = division_standings(division_of(season)).games
    assert len(games) == 2
    resigned, unplayed = sorted((result for _f, result in games), key=lambda r: r.unplayed)
    assert not resigned.unplayed and unplayed.unplayed
    assert dict(resigned.places) == dict(unplayed.places) and not resigned.scores and resigned.last_seat is None
    for user in (people[0], people[2], people[3]):
        row = row_of(season, user)
        assert row.points == pytest.approx(4 / 3) and row.tiebreaks["wins"] == 0  # ⅔ twice: shared first


def test_at_tables_of_four_an_annulled_players_unfinished_tables_count_for_nobody(people):
    season = season_with(people[:4], people[0], players=4, games_per_player=3)  # all at once, annulment
    quitter = people[1]
    services.withdraw(entry_of(season, quitter).pk, quitter)
    for user in (people[0], people[2], people[3]):
        row = row_of(season, user)
        assert (row.points, row.played, row.scheduled) == (0, 0, 0)


# -- the league's substitute setting from the moment of the withdrawal ------------------------


def test_with_results_passed_to_a_computer_a_player_who_left_after_one_of_four_games_is_annulled(people):
    season = season_with(people[:5], people[0], on_withdrawal=League.OnWithdrawal.COMPUTER,
                         substitute_results=League.SubstituteResults.SUBSTITUTE)
    quitter = people[1]
    first = fixtures_of(season, quitter)[0]
    game_services.resign(first.game_id, next(s.user for s in first.game.seats.all() if s.user != quitter))
    services.withdraw(entry_of(season, quitter).pk, quitter)
    row = row_of(season, quitter)
    assert row.annulled and row.rank is None and row.played == 1


def test_while_a_computer_finishes_his_games_in_his_name_his_row_is_not_annulled(people):
    season = season_with(people[:5], people[0], on_withdrawal=League.OnWithdrawal.COMPUTER,
                         substitute_results=League.SubstituteResults.ENTRY)
    quitter = people[1]
    services.withdraw(entry_of(season, quitter).pk, quitter)
    row = table_row_of(season, quitter)
    assert row.withdrawn and not row.annulled and row.left == 4
    page = Client().get(division_of(season).get_absolute_url()).content.decode()
    assert "results annulled" not in page and "(withdrew)" in page


# -- pairs --------------------------------------------------------------------------------


def pairs_season(people) -> Season:
    season = services.create_league(people[0], name="Pairs", engine="durak", players=4,
                                    options={"teams": True}).seasons.get()
    for first, second in ((people[1], people[2]), (people[3], people[4]), (people[5], people[6])):
        invitation = services.register(season.pk, first, second)
        services.accept_invitation(invitation.pk, second)
    return start(season.pk, people[0])


@pytest.mark.parametrize("who", ["user", "partner"])
def test_either_partner_may_withdraw_the_pair(people, who):
    season = pairs_season(people)
    entry = Entry.objects.get(season=season, user=people[2]) if Entry.objects.filter(
        season=season, user=people[2]).exists() else Entry.objects.get(season=season, partner=people[2])
    member = getattr(entry, who)
    client_for(member).post(f"/leagues/{season.league.slug}/{season.number}/withdraw/{entry.pk}/")
    entry.refresh_from_db()
    assert entry.withdrawn_at is not None
    assert not Game.objects.filter(status=Game.Status.ACTIVE, seats__user__in=[entry.user, entry.partner]).exists()


def test_the_season_page_offers_the_partner_the_withdraw_button(people):
    season = pairs_season(people)
    entry = Entry.objects.filter(season=season).first()
    page = client_for(entry.partner).get(season.get_absolute_url()).content.decode()
    assert f"/withdraw/{entry.pk}/" in page


# -- what an annulled or forfeiting row says ------------------------------------------------


def test_an_annulled_rows_played_counts_the_games_he_finished_not_his_schedule(people):
    season = season_with(people[:5], people[0])
    quitter = people[1]
    first = fixtures_of(season, quitter)[0]
    game_services.resign(first.game_id, quitter)
    services.withdraw(entry_of(season, quitter).pk, quitter)
    row = table_row_of(season, quitter)
    assert row.annulled and row.played == 1


def test_a_why_line_decided_by_the_lot_names_the_forfeits(people):
    season = season_with(people[:4], people[0], tiebreaks=["lot"], annul_below_half=False)
    quitter = people[3]
    services.withdraw(entry_of(season, quitter).pk, quitter)  # the three others win one game each by forfeit
    a, b, c = people[:3]
    for winner, loser in ((a, b), (b, c), (c, a)):  # a circle: level on points
        game = next(g for g in active_games(season) if {s.user for s in g.seats.all()} == {winner, loser})
        game_services.resign(game.pk, loser)
    table = standings_table(division_standings(division_of(season)))
    lot_lines = [row.why for row in table.rows if "by the lot" in row.why]
    assert len(lot_lines) == 2 and all("won 1 game by forfeit" in line for line in lot_lines)


# -- ties on the boundary --------------------------------------------------------------------


def test_players_level_on_every_tie_break_at_the_boundary_are_separated_by_the_lot_and_it_moves_them(people):
    league = services.create_league(people[0], name="Boundary", engine="durak", players=2, division_size=2,
                                    meetings=2, tiebreaks=["wins"], promotion=1, relegation=1)
    season = league.seasons.get()
    for user in people[:4]:
        services.register(season.pk, user)
    entries = list(season.entries.order_by("pk"))
    # A seed whose lot favours the later entry of the lower division (entries 3 and 4 by rating order: pk order).
    seed = next(str(s) for s in range(1000)
                if lot_value(str(s), entries[3].pk) < lot_value(str(s), entries[2].pk))
    Season.objects.filter(pk=season.pk).update(seed=seed)
    season = start(season.pk, people[0])
    for division in season.divisions.all():
        pair = list(division.entries.all())
        for game, loser in zip(Game.objects.filter(fixture__division=division).order_by("pk"), pair):
            game_services.resign(game.pk, loser.user)  # one win each: level on points and wins
        rows = division_standings(division).rows
        assert [row.rank for row in rows] == [1, 2] and rows[1].separated_by == "lot"
    services.end_season(season.pk, people[0])
    assert sorted(Entry.objects.filter(season=season).values_list("final_rank", flat=True)) == [1, 1, 2, 2]
    lower = Division.objects.get(season=season, number=2)
    promoted = Entry.objects.get(division=lower, final_rank=1)
    assert promoted.pk == entries[3].pk
    following = league.seasons.get(number=2)
    for user in people[:4]:
        services.register(following.pk, user)
    following = start(following.pk, people[0])
    top = Division.objects.get(season=following, number=1)
    assert promoted.user_id in set(top.entries.values_list("user_id", flat=True))


# -- every input refreshes the stored standings ----------------------------------------------


def change_a_result(season, people, moderator):
    game = active_games(season)[0]
    game_services.resign(game.pk, loser_by_name(game))


def change_a_name(season, people, moderator):
    people[1].display_name = "Renamed"
    people[1].save()


def change_the_tiebreaks(season, people, moderator):
    league = season.league
    league.tiebreaks = ["game_score", "lot"]
    league.save()


def change_the_points(season, people, moderator):
    league = season.league
    league.points_per_place = [3, 0]
    league.save()


def change_by_withdrawal(season, people, moderator):
    services.withdraw(entry_of(season, people[2]).pk, people[2])


def change_by_suspension(season, people, moderator):
    suspend(people[2].pk, moderator, "abuse")


def change_by_adjudication(season, people, moderator):
    adjudicate_game(active_games(season)[0].pk, moderator, "agreed", {"places": [1, 2]})


def change_by_substitution(season, people, moderator):
    game = active_games(season)[0]
    substitute_seat(game.pk, 0, moderator, "left the site", user=None)


def change_the_seed(season, people, moderator):
    season.seed = "987654321"
    season.save()


@pytest.mark.parametrize("change", [change_a_result, change_a_name, change_the_tiebreaks, change_the_points,
                                    change_by_withdrawal, change_by_suspension, change_by_adjudication,
                                    change_by_substitution, change_the_seed])
def test_the_stored_standings_match_a_full_recompute_after_each_kind_of_change(people, moderator, change):
    season = season_with(people[:4], people[0], annul_below_half=False,
                         substitute_results=League.SubstituteResults.SUBSTITUTE)
    division = division_of(season)
    for game in active_games(season)[:2]:
        game_services.resign(game.pk, loser_by_name(game))
    stored_standings.read(division, "en")  # stored now
    change(season, people, moderator)
    division = division_of(season)
    shown = stored_standings.read(division, "en").html
    assert shown == stored_standings.render(division_standings(division), "en")
    page = Client().get(division.get_absolute_url()).content.decode()
    assert shown in page


def test_points_changed_in_the_admin_show_on_the_division_page_at_once(people, moderator):
    season = season_with(people[:3], people[0], annul_below_half=False)
    game = active_games(season)[0]
    game_services.resign(game.pk, loser_by_name(game))
    division = division_of(season)
    page = Client().get(division.get_absolute_url()).content.decode()  # stores the standings
    assert "<strong>1</strong>" in page
    league = season.league
    admin = client_for(moderator)
    form = admin.get(f"/admin/leagues/league/{league.pk}/change/").context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    data = {name: ("" if value is None else value) for name, value in data.items()
            if value is not False}
    data["points_per_place"] = "[3, 0]"
    data["tiebreaks"] = '["wins", "lot"]'
    data["options"] = data.get("options") or "{}"
    response = admin.post(f"/admin/leagues/league/{league.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    page = Client().get(division.get_absolute_url()).content.decode()
    assert "<strong>3</strong>" in page
