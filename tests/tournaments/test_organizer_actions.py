"""The organizer's and moderators' actions on a running tournament: withdraw
a player, adjudicate a table, restart the latest round, each with a reason
and written to the moderation audit; bad input is refused with a clear
error and changes nothing."""

import pytest
from django.urls import reverse

from gameplay.models import Game
from gameplay.services.base import GameError
from moderation import permissions
from moderation.models import AuditEntry
from tests.tournaments.conftest import committed, entered, play_round, round_tables, start, tournament_of
from tournaments import actions, services
from tournaments.models import Bye, Entry, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(people):
    tournament = entered(tournament_of(people[0]), people[1:6])  # five players: four at tables, one bye
    start(tournament.pk, people[0])
    return tournament


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_superuser("mod41b", password="pw-not-used-1")


def _audit(action):
    return list(AuditEntry.objects.filter(action=action))


def test_the_organizer_withdraws_a_player_with_a_reason_and_it_is_audited(running, people):
    table = round_tables(running, 1)[0]
    entry = Entry.objects.get(pk=table.seats[0])
    services.withdraw(entry.pk, people[0], "asked to leave by email")
    entry.refresh_from_db()
    assert entry.withdrawn_at is not None
    assert Game.objects.get(pk=table.game_id).status == Game.Status.FINISHED
    [record] = _audit(AuditEntry.Action.WITHDRAW_ENTRY)
    assert record.moderator == people[0] and record.target_user == entry.user
    assert record.reason == "asked to leave by email" and record.after["entry"] == entry.pk


def test_withdrawing_a_player_without_a_reason_or_by_a_stranger_changes_nothing(running, people):
    entry = Entry.objects.get(pk=round_tables(running, 1)[0].seats[0])
    with pytest.raises(GameError, match="Give a reason"):
        services.withdraw(entry.pk, people[0], "  ")
    with pytest.raises(GameError, match="organizer or a moderator"):
        services.withdraw(entry.pk, people[7], "I do not like them")
    entry.refresh_from_db()
    assert entry.withdrawn_at is None and not AuditEntry.objects.exists()


def test_the_organizer_adjudicates_a_table_and_the_round_goes_on(running, people):
    first, second = round_tables(running, 1)
    actions.adjudicate_table(first.pk, people[0], "agreed a draw by message", [1, 1])
    game = Game.objects.get(pk=first.game_id)
    assert game.status == Game.Status.FINISHED
    assert sorted(s.place for s in game.seats.all()) == [1, 1]
    assert _audit(AuditEntry.Action.ADJUDICATE)[0].game_id == first.game_id
    with committed():
        actions.adjudicate_table(second.pk, people[0], "seat 0 was winning", [1, 2])
    assert Round.objects.filter(tournament=running).count() == 2


def test_an_adjudication_with_bad_places_changes_nothing(running, people):
    table = round_tables(running, 1)[0]
    for places in ([1], [0, 1], [3, 1]):
        with pytest.raises(GameError):
            actions.adjudicate_table(table.pk, people[0], "a reason", places)
    assert Game.objects.get(pk=table.game_id).status == Game.Status.ACTIVE
    assert not AuditEntry.objects.exists()


def test_a_round_with_a_result_cannot_be_restarted(running, people):
    old = round_tables(running, 1)
    services.withdraw(old[0].seats[0], people[0], "never answered")  # resigns the game: a result
    with pytest.raises(GameError, match="has results already"):
        actions.restart_round(running.pk, people[0], 1, "a new pairing without the absent player")
    assert [t.game_id for t in round_tables(running, 1)] == [t.game_id for t in old]


def test_a_round_is_restarted_once_and_a_second_restart_is_refused(running, people, moderator):
    old = round_tables(running, 1)
    old_games = [t.game_id for t in old]
    round_ = actions.restart_round(running.pk, people[0], 1, "the pairing used stale ratings")
    assert round_.restarted_at is not None and round_.finished_at is None
    assert all(Game.objects.get(pk=pk).status == Game.Status.ABORTED for pk in old_games)
    new = round_tables(running, 1)
    assert len(new) == 2 and not {t.game_id for t in new} & set(old_games)
    assert all(t.game.status == Game.Status.ACTIVE for t in new)
    assert Bye.objects.filter(round=round_, kind=Bye.Kind.PAIRING).count() == 1
    assert len(_audit(AuditEntry.Action.ABORT)) == 2
    [record] = _audit(AuditEntry.Action.RESTART_ROUND)
    assert record.before["tables"] == [t.seats for t in old] and record.after["round"] == 1
    with pytest.raises(GameError, match="already been restarted once"):
        actions.restart_round(running.pk, moderator, 1, "once more")
    assert [t.game_id for t in round_tables(running, 1)] == [t.game_id for t in new]
    assert len(_audit(AuditEntry.Action.RESTART_ROUND)) == 1


def test_an_organizer_who_plays_cannot_restart_a_round_to_get_out_of_a_bye(people, moderator):
    tournament = entered(tournament_of(people[0]), people[:5])  # the organizer plays too
    start(tournament.pk, people[0])
    with pytest.raises(GameError, match="You play in this tournament"):
        actions.restart_round(tournament.pk, people[0], 1, "I would rather play")
    assert Round.objects.get(tournament=tournament).restarted_at is None
    actions.restart_round(tournament.pk, moderator, 1, "checked: a moderator may")


def test_only_the_latest_round_with_a_reason_can_be_restarted(running, people):
    with pytest.raises(GameError, match="Give a reason"):
        actions.restart_round(running.pk, people[0], 1, "")
    with pytest.raises(GameError, match="There is no round 5"):
        actions.restart_round(running.pk, people[0], 5, "a reason")
    play_round(running, 1)
    with pytest.raises(GameError, match="Only the latest round"):
        actions.restart_round(running.pk, people[0], 1, "a reason")
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.RESTART_ROUND).exists()


def test_the_organizer_moderates_the_tournaments_games_and_no_other(running, people):
    table = round_tables(running, 1)[0]
    assert permissions.organizes_league_of(people[0], table.game)
    assert not permissions.organizes_league_of(people[7], table.game)


def test_the_organizers_page_restarts_and_refuses_a_second_restart_with_a_message(client, running, people):
    client.force_login(people[0])
    page = client.get(running.get_absolute_url()).content.decode()
    assert "Restart this round" in page and "Adjudicate" in page
    url = reverse("tournament_restart_round", args=[running.slug, 1])
    response = client.post(url, {"reason": "stale ratings"}, follow=True)
    assert "Round 1 has been paired again." in response.content.decode()
    response = client.post(url, {"reason": "again"}, follow=True)
    assert "Round 1 has already been restarted once." in response.content.decode()
    assert "Restart this round" not in response.content.decode()


def test_the_organizers_page_adjudicates_a_table(client, running, people):
    client.force_login(people[0])
    table = round_tables(running, 1)[0]
    url = reverse("tournament_adjudicate", args=[running.slug, table.pk])
    response = client.post(url, {"place": ["x", "1"], "reason": "r"}, follow=True)
    assert response.status_code == 200
    assert Game.objects.get(pk=table.game_id).status == Game.Status.ACTIVE
    client.post(url, {"place": ["2", "1"], "reason": "seat 1 was winning"})
    assert Game.objects.get(pk=table.game_id).status == Game.Status.FINISHED


def test_the_organizers_games_to_moderate_are_their_tournaments_games_in_play(running, people):
    games = permissions.moderated_games(people[0], Game.objects.filter(status=Game.Status.ACTIVE))
    assert sorted(games.values_list("pk", flat=True)) == sorted(t.game_id for t in round_tables(running, 1))
    assert not permissions.moderated_games(people[7], Game.objects.all()).exists()
