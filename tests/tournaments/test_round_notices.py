"""A tournament's new round is told to the players of each of its tables
after the commit, once per round, through the site's notices (the league
round's kind of notice, so the same preference decides where it goes)."""

import pytest

from notifications.models import Delivery
from tests.notifications.conftest import fake, players  # noqa: F401 (fixtures)
from tests.tournaments.conftest import entered, play_round, start, tournament_of


pytestmark = pytest.mark.django_db(transaction=True)


def test_each_round_is_told_to_its_players_once(fake, players):  # noqa: F811
    tournament = entered(tournament_of(players[0], name="Autumn Swiss"), players)
    start(tournament.pk, players[0])
    def rounds_told(player):
        return [n for n in fake.notices_to(player) if n.title.startswith("Autumn Swiss")]

    for player in players:
        [notice] = rounds_told(player)
        assert notice.title == "Autumn Swiss: round 1"
        assert "/games/" in notice.url
    play_round(tournament, 1)
    for player in players:
        assert [n.title for n in rounds_told(player)] == ["Autumn Swiss: round 1", "Autumn Swiss: round 2"]
    assert Delivery.objects.filter(kind="league_round", key__startswith="tournament_round:",
                                   destination="email").count() == 8
