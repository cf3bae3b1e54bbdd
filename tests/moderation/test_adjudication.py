"""A moderator adjudicates a game in play: the result they set is the game's
result everywhere (pages, sheet, record, ratings, league standings)."""

import pytest
from django.urls import reverse

from gameplay import services
from gameplay.models import Game, Move, Seat
from gameplay.records import verify_record
from gameplay.results import ADJUDICATED, game_result
from moderation.models import AuditEntry
from ratings.models import RatingChange
from scoresheets.export import game_export
from tests.gameplay.conftest import a_legal_action, acting_player, client_for
from moderation.services import games as moderation_actions

pytestmark = pytest.mark.django_db

PLACES = [2, 1, 4, 3]


def one_move(game: Game, players) -> Game:
    position, user = acting_player(game, players)
    services.submit_move(game.pk, user, a_legal_action(game, position), game.version)
    game.refresh_from_db()
    return game


def test_an_adjudicated_game_is_over_with_the_places_the_moderator_gave(joker_game, players, moderator):
    game = one_move(joker_game, players)
    moderation_actions.adjudicate_game(game.pk, moderator, "The server lost a day", {"places": PLACES})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert [s.place for s in game.seats.order_by("position")] == PLACES
    result = game_result(game)
    assert result.ending == ADJUDICATED and result.reason == "The server lost a day"
    assert [s.position for s in result.standings] == [1, 0, 3, 2]
    assert result.describe() == "Adjudicated by a moderator: The server lost a day"
    assert not Seat.objects.filter(game=game, deadline__isnull=False).exists()  # every clock stopped


def test_an_adjudication_keeps_every_move_and_adds_the_moderators_own(joker_game, players, moderator):
    game = one_move(joker_game, players)
    before = list(Move.objects.filter(game=game).values_list("seq", "action"))
    moderation_actions.adjudicate_game(game.pk, moderator, "Players agreed", {"places": PLACES})
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    assert [(m.seq, m.action) for m in moves[:-1]] == before
    assert moves[-1].by == Move.By.MODERATOR and moves[-1].action["type"] == "adjudicate"
    assert Game.objects.get(pk=game.pk).version == len(moves)


def test_points_alone_rank_the_seats_and_equal_points_share_a_place(joker_game, moderator):
    moderation_actions.adjudicate_game(joker_game.pk, moderator, "Agreed", {"points": [100, 300, 100, -50]})
    seats = list(Seat.objects.filter(game=joker_game).order_by("position"))
    assert [s.place for s in seats] == [2, 1, 2, 4]
    assert [s.points for s in seats] == [100, 300, 100, -50]


@pytest.mark.parametrize("given", [
    {"places": [1, 2, 3]}, {"places": [1, 1, 2, 3]}, {"places": [0, 1, 2, 3]}, {"places": ["1", 2, 3, 4]},
    {"points": [1, 2, float("nan"), 3]}, {"points": [True, 1, 2, 3]}, {}, [1, 2, 3, 4], None,
])
def test_a_result_that_is_not_a_ranking_is_refused_and_nothing_changes(joker_game, moderator, given):
    with pytest.raises(services.GameError):
        moderation_actions.adjudicate_game(joker_game.pk, moderator, "Agreed", given)
    assert Game.objects.get(pk=joker_game.pk).status == Game.Status.ACTIVE
    assert not AuditEntry.objects.exists() and not Move.objects.filter(game=joker_game).exists()


def test_partners_must_share_their_place(players, moderator):
    from tests.gameplay.conftest import started_game

    game = started_game("durak", players, {"mode": "podkidnoy", "teams": True})
    with pytest.raises(services.GameError, match="Partners"):
        moderation_actions.adjudicate_game(game.pk, moderator, "Agreed", {"places": [1, 2, 3, 4]})
    moderation_actions.adjudicate_game(game.pk, moderator, "Agreed", {"places": [1, 3, 1, 3]})
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def test_a_game_that_is_over_or_has_no_reason_is_not_adjudicated(joker_game, moderator):
    with pytest.raises(services.GameError):
        moderation_actions.adjudicate_game(joker_game.pk, moderator, "   ", {"places": PLACES})
    moderation_actions.abort_game(joker_game.pk, moderator, "Broken")
    with pytest.raises(services.GameError):
        moderation_actions.adjudicate_game(joker_game.pk, moderator, "Agreed", {"places": PLACES})
    assert AuditEntry.objects.filter(action="adjudicate").count() == 0


def test_the_game_page_the_sheet_and_the_record_say_it_was_adjudicated_and_why(joker_game, players, moderator):
    game = one_move(joker_game, players)
    moderation_actions.adjudicate_game(game.pk, moderator, "Connection trouble for everyone", {"places": PLACES})
    client = client_for(players[2])
    for url in (game.get_absolute_url(), reverse("sheet", args=[game.pk]), reverse("game_record", args=[game.pk])):
        page = client.get(url)
        assert page.status_code == 200
        assert "Adjudicated by a moderator: Connection trouble for everyone" in page.content.decode(), url
    state = client.get(reverse("game_state", args=[game.pk])).json()
    assert state["result"]["ending"] == "adjudicated" and state["result"]["reason"] == "Connection trouble for everyone"


def test_the_published_record_of_an_adjudicated_game_still_verifies(joker_game, players, moderator):
    game = one_move(joker_game, players)
    moderation_actions.adjudicate_game(game.pk, moderator, "Agreed", {"places": PLACES})
    summary = verify_record(game_export(Game.objects.get(pk=game.pk)))
    assert summary["moves"] == 2 and not summary["over"]  # the rules did not end it: the moderator did


def test_an_adjudicated_rated_game_changes_the_ratings_in_its_order(joker_game, players, moderator):
    moderation_actions.adjudicate_game(joker_game.pk, moderator, "Agreed", {"places": PLACES})
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=joker_game)}
    assert set(changes) == {p.pk for p in players}
    gains = {position: changes[players[position].pk].mu - changes[players[position].pk].mu_before
             for position in range(4)}
    assert sorted(range(4), key=lambda p: -gains[p]) == [1, 0, 3, 2]


def test_an_adjudicated_league_game_counts_in_the_standings(django_user_model, moderator):
    from leagues import services as leagues
    from leagues.drawing import draw_season
    from leagues.models import Division, Entry, Fixture
    from leagues.standings import division_standings

    people = [django_user_model.objects.create_user(f"lp{i}", password="pw-not-used-1", language="en")
              for i in range(2)]
    league = leagues.create_league(people[0], name="Kitchen league", engine="durak", players=2, division_size=2)
    season = league.seasons.get(number=1)
    for user in people:
        leagues.register(season.pk, user)
    leagues.start_season(season.pk, people[0])
    draw_season(season.pk)  # the schedule's task, which runs after the commit
    fixture = Fixture.objects.get(division__season=season)
    seats = {s.position: s.user_id for s in fixture.game.seats.all()}
    winner = next(p for p, user_id in seats.items() if user_id == people[1].pk)
    moderation_actions.adjudicate_game(fixture.game.pk, moderator, "Agreed",
                             {"places": [1 if p == winner else 2 for p in range(2)]})
    rows = division_standings(Division.objects.get(season=season)).rows
    entry = {e.user_id: e.pk for e in Entry.objects.filter(season=season)}
    assert [r.entry_id for r in rows] == [entry[people[1].pk], entry[people[0].pk]]
    assert [r.played for r in rows] == [1, 1]


def test_a_moderator_adjudicates_in_the_admin_with_the_standings_so_far_filled_in(joker_game, players, moderator):
    client = client_for(moderator)
    url = reverse("admin:gameplay_game_adjudicate", args=[joker_game.pk])
    form = client.get(url)
    assert form.status_code == 200 and 'name="place_0"' in form.content.decode()
    data = {f"place_{p}": place for p, place in enumerate(PLACES)} | {f"points_{p}": 0 for p in range(4)}
    assert client.post(url, data | {"reason": ""}).status_code == 200  # a reason is required
    assert Game.objects.get(pk=joker_game.pk).status == Game.Status.ACTIVE
    assert client.post(url, data | {"reason": "Agreed at the table"}).status_code == 302
    game = Game.objects.get(pk=joker_game.pk)
    assert game.status == Game.Status.FINISHED
    assert [s.place for s in game.seats.order_by("position")] == PLACES
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.moderator, entry.game, entry.reason) == ("adjudicate", moderator, game,
                                                                       "Agreed at the table")


def test_the_game_over_email_says_it_was_adjudicated_and_why(joker_game, players, moderator, run_on_commit):
    from django.core import mail

    for user in players:
        user.email = f"{user.username}@example.com"
        user.save()
    with run_on_commit():
        moderation_actions.adjudicate_game(joker_game.pk, moderator, "Server trouble", {"places": PLACES})
    assert len(mail.outbox) == 4
    assert all("Adjudicated by a moderator: Server trouble" in m.body for m in mail.outbox)
    assert "You placed 1." in next(m.body for m in mail.outbox if m.to == [players[1].email])


def test_a_result_the_service_refuses_is_explained_on_the_admin_form(joker_game, moderator):
    data = {f"place_{p}": place for p, place in enumerate([1, 1, 2, 3])} | {f"points_{p}": 0 for p in range(4)} | {"reason": "Agreed"}
    response = client_for(moderator).post(reverse("admin:gameplay_game_adjudicate", args=[joker_game.pk]), data)
    assert response.status_code == 200 and "must be a ranking" in response.content.decode()
    assert Game.objects.get(pk=joker_game.pk).status == Game.Status.ACTIVE and not AuditEntry.objects.exists()
