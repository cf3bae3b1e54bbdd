"""Durak 2×2 tournaments are played by fixed pairs: a player enters naming
the partner; the pair is one entry, paired and scored as one, pair A in
seats 0 and 2 and pair B in 1 and 3; either partner may leave, which
withdraws the pair; bad input is refused and changes nothing."""

import pytest

from gameplay import services as game_services
from gameplay.models import Game
from gameplay.services.base import GameError
from tests.tournaments.conftest import committed, round_tables, start, tournament_of
from tournaments import pairing, services
from tournaments.models import Bye, Entry, Round

pytestmark = pytest.mark.django_db


def pairs_tournament(organizer, **fields):
    return tournament_of(organizer, name="Pairs Swiss", players=4, options={"teams": True}, **fields)


def _enter_pairs(tournament, people, count: int) -> list[Entry]:
    return [services.join(tournament.pk, people[2 * i], people[2 * i + 1]) for i in range(count)]


def test_pairs_meet_at_tables_of_four_partners_opposite_and_score_as_one(people):
    tournament = pairs_tournament(people[11])
    entries = _enter_pairs(tournament, people, 5)  # five pairs: two tables and a bye
    start(tournament.pk, people[11])
    tables = round_tables(tournament, 1)
    assert len(tables) == 2 and Bye.objects.filter(round__tournament=tournament).count() == 1
    by_pk = {e.pk: e for e in entries}
    for table in tables:
        a, b = (by_pk[pk] for pk in table.seats)
        seated = [s.user for s in table.game.seats.order_by("position")]
        assert seated == [a.user, b.user, a.partner, b.partner]
    table = tables[0]
    with committed():
        game_services.resign(table.game_id, by_pk[table.seats[1]].partner)  # pair B gives up
    rows = {r.entry_id: r for r in pairing.current_standings(tournament)}
    assert rows[table.seats[0]].points == 1 and rows[table.seats[1]].points == 0
    assert Game.objects.get(pk=table.game_id).status == Game.Status.FINISHED


def test_a_pair_needs_a_partner_who_is_free_and_nobody_enters_twice(people):
    tournament = pairs_tournament(people[11])
    with pytest.raises(GameError, match="name your partner"):
        services.join(tournament.pk, people[0])
    with pytest.raises(GameError, match="name your partner"):
        services.join(tournament.pk, people[0], people[0])
    services.join(tournament.pk, people[0], people[1])
    with pytest.raises(GameError, match="already in this tournament"):
        services.join(tournament.pk, people[1], people[2])  # the partner, as a player of another pair
    with pytest.raises(GameError, match="Your partner is already in this tournament"):
        services.join(tournament.pk, people[2], people[0])
    assert Entry.objects.count() == 1


def test_a_partner_is_named_only_in_a_tournament_in_pairs(people):
    tournament = tournament_of(people[11])
    with pytest.raises(GameError, match="not played in pairs"):
        services.join(tournament.pk, people[0], people[1])
    assert not Entry.objects.exists()


def test_either_partner_leaving_withdraws_the_pair_and_its_game_is_forfeited(people):
    tournament = pairs_tournament(people[11])
    entries = _enter_pairs(tournament, people, 4)
    start(tournament.pk, people[11])
    table = round_tables(tournament, 1)[0]
    leaving = next(e for e in entries if e.pk == table.seats[0])
    services.leave(tournament.pk, leaving.partner)
    leaving.refresh_from_db()
    assert leaving.withdrawn_at is not None
    assert Game.objects.get(pk=table.game_id).status == Game.Status.FINISHED
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_the_page_enters_a_pair_by_the_partners_user_name(client, people):
    tournament = pairs_tournament(people[11])
    client.force_login(people[0])
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert 'name="partner"' in page
    response = client.post(f"/tournaments/{tournament.slug}/join/", {"partner": "nobody-here"}, follow=True)
    assert "There is no player called nobody-here." in response.content.decode()
    client.post(f"/tournaments/{tournament.slug}/join/", {"partner": people[1].username})
    assert Entry.objects.get().partner == people[1]


@pytest.mark.parametrize("language,phrase", [("en", "fixed pairs"), ("ru", "постоянными парами")])
def test_the_rules_page_says_pairs_are_fixed(client, language, phrase):
    page = client.get("/tournaments/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert phrase in page
