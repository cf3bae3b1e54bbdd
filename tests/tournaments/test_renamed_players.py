"""The cached standings and cross-table show a renamed player's new name at
once: a name change moves the cache key of every tournament the player is in
(tournaments/shown_standings.py), other saves of the account do not."""

import pytest

from tests.tournaments.conftest import committed, entered, start, tournament_of
from tournaments.shown_standings import shown_cross_table, shown_standings

pytestmark = pytest.mark.django_db


def _names(tournament) -> set[str]:
    return {row.name for row in shown_standings(tournament)}


def _cross_table_names(tournament) -> set[str]:
    _rows, lines, _numbers = shown_cross_table(tournament)
    return {line.row.name for line in lines}


def test_a_renamed_player_shows_the_new_name_in_the_standings_and_the_cross_table_at_once(people):
    swiss = start(entered(tournament_of(people[0]), people[1:3]).pk, people[0])
    assert "tp1" in _names(swiss) and "tp1" in _cross_table_names(swiss)
    player = people[1]
    player.display_name = "Renamed"
    with committed():
        player.save(update_fields=["display_name"])
    assert "Renamed" in _names(swiss) and "tp1" not in _names(swiss)
    assert "Renamed" in _cross_table_names(swiss)


def test_saving_an_account_without_renaming_it_keeps_the_cached_standings(people, django_assert_max_num_queries):
    swiss = start(entered(tournament_of(people[0]), people[1:3]).pk, people[0])
    _names(swiss)
    with committed():
        people[1].save(update_fields=["last_login"])
    with django_assert_max_num_queries(3):  # the fingerprint only: read from the cache
        assert "tp1" in _names(swiss)
