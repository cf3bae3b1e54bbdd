"""My games shows a tournament's games with the tournament's name and round, linked to its page."""

import pytest
from django.urls import reverse

from tests.tournaments.conftest import entered, start, tournament_of


pytestmark = pytest.mark.django_db


def test_my_games_names_the_tournament_and_the_round(client, people):
    tournament = entered(tournament_of(people[0], name="Autumn Swiss"), people[1:3])
    start(tournament.pk, people[0])
    client.force_login(people[1])
    page = client.get(reverse("my_games")).content.decode()
    assert "Autumn Swiss, round 1" in page
    assert reverse("tournament", args=[tournament.slug]) in page
