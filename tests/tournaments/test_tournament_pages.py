"""The tournaments' pages: the list by status with a filter by game, the
tournament's page (standings, pairings per round, join and leave, the
organizer's buttons), the standings CSV, the rules page in Russian and
English (its worked examples are tests/tournaments/test_swiss_standings.py's)."""

import csv
import io

import pytest
from django.urls import reverse

from tests.tournaments.conftest import entered, play_round, start, tournament_of

from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def test_the_list_shows_tournaments_by_status_and_filters_by_game(client, people):
    tournament_of(people[0], name="Durak open")
    tournament_of(people[0], name="Joker open", engine="joker", players=4)
    page = client.get(reverse("tournaments")).content.decode()
    assert "Durak open" in page and "Joker open" in page and "Open for entry" in page
    page = client.get(reverse("tournaments"), {"game": "joker"}).content.decode()
    assert "Joker open" in page and "Durak open" not in page


def test_a_player_joins_and_leaves_from_the_page(client, people):
    tournament = tournament_of(people[0])
    client.force_login(people[1])
    response = client.post(reverse("tournament_join", args=[tournament.slug]), follow=True)
    assert "You have joined." in response.content.decode()
    response = client.post(reverse("tournament_join", args=[tournament.slug]), follow=True)
    assert "You are already in this tournament." in response.content.decode()
    assert Entry.objects.count() == 1
    client.post(reverse("tournament_leave", args=[tournament.slug]))
    assert not Entry.objects.exists()


def test_the_page_shows_the_standings_and_every_rounds_pairings(client, people):
    tournament = entered(tournament_of(people[0]), people[1:6])
    start(tournament.pk, people[0])
    play_round(tournament, 1)
    page = client.get(reverse("tournament", args=[tournament.slug])).content.decode()
    assert "Round 1" in page and "Round 2" in page and "Buchholz" in page
    for user in people[1:6]:
        assert user.name in page
    assert "bye" in page


def test_the_organizer_starts_the_tournament_from_its_page_and_nobody_else_can(client, people):
    tournament = entered(tournament_of(people[0]), people[1:5])
    client.force_login(people[1])
    response = client.post(reverse("tournament_start", args=[tournament.slug]), follow=True)
    assert "Only the tournament&#x27;s organizer" in response.content.decode()
    client.force_login(people[0])
    client.post(reverse("tournament_start", args=[tournament.slug]))
    assert Tournament.objects.get().status == Tournament.Status.RUNNING


def test_the_standings_csv_has_a_row_per_player_with_the_tie_breaks(client, people):
    tournament = entered(tournament_of(people[0]), people[1:5])
    start(tournament.pk, people[0])
    play_round(tournament, 1)
    response = client.get(reverse("tournament_standings_csv", args=[tournament.slug]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:5] == ["rank", "entry", "player", "points", "buchholz"]
    assert len(rows) == 5
    assert sorted(float(r[3]) for r in rows[1:]) == [0, 0, 1, 1]


def test_creating_a_tournament_through_the_form(client, people):
    client.force_login(people[0])
    response = client.post(reverse("new_tournament"), {
        "name": "Winter Swiss", "engine": "durak", "players": 2, "format": "swiss", "advance": 1, "rounds": 5, "round_days": 3,
        "next_round": "finished", "forfeits_to_withdraw": 2, "rated": "on"})
    tournament = Tournament.objects.get()
    assert response.url == tournament.get_absolute_url()
    assert (tournament.rounds, tournament.round_days, tournament.rated) == (5, 3, True)


@pytest.mark.parametrize("language,phrases", [
    ("en", ["FIDE Dutch system", "py4swiss", "virtual opponent", "1½ + 3 + ½ = 5", "1½ + 1 + 2 = 4½",
            "¾ + 0 + ½ = 1¼", "¾ + 1 + 0 = 1¾", "A D B and E C F", "half the rounds", "half-point bye",
            "two forfeits"]),
    ("ru", ["голландской системе ФИДЕ", "py4swiss", "виртуальным соперником", "1½ + 3 + ½ = 5",
            "1½ + 1 + 2 = 4½", "¾ + 0 + ½ = 1¼", "¾ + 1 + 0 = 1¾", "A D B и E C F", "половина туров",
            "пропуск в пол-очка", "двумя неявками"]),
])
def test_the_rules_page_says_the_worked_examples_in_both_languages(client, language, phrases):
    page = client.get(reverse("tournament_rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for phrase in phrases:
        assert phrase in page


def test_the_pages_and_the_messages_speak_russian(client, people):
    tournament = tournament_of(people[0])
    people[1].language = "ru"
    people[1].save()
    client.force_login(people[1])
    page = client.get(reverse("tournaments"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Турниры" in page and "Идёт запись" in page
    client.post(reverse("tournament_join", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="ru")
    response = client.post(reverse("tournament_join", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="ru", follow=True)
    assert "Вы уже участвуете в этом турнире." in response.content.decode()


@pytest.mark.parametrize("language,phrases", [
    ("en", ["Knockout cup", "seeds 1 and 2 have byes, 3 meets 6 and 4 meets 5", "1 4 5 8 and 2 3 6 7",
            "the better seed goes on"]),
    ("ru", ["Кубок на выбывание", "у первого и второго номеров пропуски, 3 играет с 6, 4 — с 5",
            "1 4 5 8 и 2 3 6 7", "проходит лучший посеянный"]),
])
def test_the_rules_page_says_the_cups_worked_examples(client, language, phrases):
    # the same examples as tests/tournaments/test_knockout_cup.py's first two tests
    page = client.get(reverse("tournament_rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for phrase in phrases:
        assert phrase in page


def test_a_cups_page_says_who_went_out_in_which_round(client, people):
    cup = entered(tournament_of(people[0], format=Tournament.Format.KNOCKOUT), people[1:5])
    start(cup.pk, people[0])
    play_round(cup, 1)
    page = client.get(reverse("tournament", args=[cup.slug])).content.decode()
    assert "Knockout cup" in page and "Went out in round" in page
