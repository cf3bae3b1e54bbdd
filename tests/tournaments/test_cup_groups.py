"""Round-robin groups before a knockout cup (ICCF style): snake-dealt groups,
every pair of a group meeting once, group standings, the cup seeded by the
group results (tournaments/groups.py and its worked example), the page, and
bad settings refused."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from gameplay import services as game_services
from gameplay.models import Game
from gameplay.services.base import GameError
from tests.tournaments.conftest import committed, entered, play_round, round_tables, start, tournament_of
from tournaments import groups, services
from tournaments.models import Entry, Tournament


def test_groups_are_dealt_snake_wise_from_the_seeding():
    assert groups.deal(list(range(1, 9)), 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert groups.deal(list(range(1, 11)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]


def test_every_pair_of_a_group_meets_once_and_each_sits_first_about_half_the_time():
    for size in (4, 5, 6):
        members = list(range(1, size + 1))
        tables = [t for n in range(1, groups.rounds_of(size, 2) + 1) for t in groups.schedule(members, n, 2)]
        assert sorted(tuple(sorted(t)) for t in tables) == [(a, b) for a in members for b in members if a < b]
        firsts = [t[0] for t in tables]
        assert all(abs(2 * firsts.count(p) - (size - 1)) <= 1 for p in members)
    assert groups.rounds_of(5, 2) == 5 and groups.schedule([1, 2, 3, 4], 4, 2) == []


def test_a_group_at_a_table_of_four_plays_four_games_each_player_sitting_first_once():
    games = [groups.schedule([1, 2, 3, 4], n, 4) for n in range(1, 5)]
    assert [g[0][0] for g in games] == [1, 2, 3, 4] and groups.rounds_of(4, 4) == 4


@pytest.mark.parametrize("entrants,size,advance,table_size,fits", [
    (8, 4, 2, 2, True), (10, 4, 2, 2, True), (10, 4, 3, 2, False), (5, 4, 1, 2, True), (4, 4, 4, 2, False),
    (8, 4, 1, 4, True), (9, 4, 1, 4, False), (8, 3, 1, 4, False)])
def test_which_entrants_make_groups(entrants, size, advance, table_size, fits):
    assert groups.fits(entrants, size, advance, table_size) is fits


def test_the_worked_example_seeds_the_cup_by_the_group_results():
    share = {1: 1.0, 5: 2 / 3, 4: 1 / 3, 8: 0.0, 6: 1.0, 2: 2 / 3, 3: 1 / 3, 7: 0.0}
    seeds = groups.cup_seeding([[1, 5, 4, 8], [6, 2, 3, 7]], share, {n: n for n in range(1, 9)}, 2)
    assert seeds == [1, 6, 5, 2]


# The worked example's results: in each group, the higher in this order wins every game.
STRONGER_FIRST = [1, 5, 4, 8, 6, 2, 3, 7]


def _play_group_round(cup, number: int, seed: dict[int, int]) -> None:
    rank = {seed[n]: i for i, n in enumerate(STRONGER_FIRST)}
    for table in round_tables(cup, number):
        loser = max(table.seats, key=rank.__getitem__)
        with committed():
            game_services.resign(table.game_id, Entry.objects.get(pk=loser).user)


@pytest.mark.django_db
def test_the_worked_example_two_groups_of_four_send_their_top_two_to_the_cup(people, client):
    cup = entered(tournament_of(people[0], format=Tournament.Format.KNOCKOUT, group_size=4, group_advance=2),
                  people[1:9])
    start(cup.pk, people[0])
    cup.refresh_from_db()
    assert (cup.group_rounds, cup.rounds) == (3, 5)
    seed = {e.number: e.pk for e in Entry.objects.filter(tournament=cup)}
    group_of = {e.number: e.group for e in Entry.objects.filter(tournament=cup)}
    assert [n for n in range(1, 9) if group_of[n] == 1] == [1, 4, 5, 8]
    for number in (1, 2, 3):
        assert all(Entry.objects.get(pk=pk).group == Entry.objects.get(pk=t.seats[1]).group
                   for t in round_tables(cup, number) for pk in t.seats)
        _play_group_round(cup, number, seed)
    number_of = {pk: n for n, pk in seed.items()}
    assert [[number_of[pk] for pk in t.seats] for t in round_tables(cup, 4)] == [[1, 2], [6, 5]]
    assert sorted(number_of[e.pk] for e in Entry.objects.filter(tournament=cup, out_in_round=3)) == [3, 4, 7, 8]
    page = client.get(reverse("tournament", args=[cup.slug])).content.decode()
    assert "Group 2" in page and "The top 2 players of each group go on to the cup." in page
    group_one = page[page.index("Group 1"):page.index("Group 2")]
    assert [group_one.index(f"tp{n}<") for n in (1, 5, 4, 8)] == sorted(group_one.index(f"tp{n}<") for n in (1, 5, 4, 8))


@pytest.mark.django_db
def test_groups_that_do_not_fit_are_refused_and_nothing_starts(people):
    with pytest.raises(GameError, match="1 to 3 players go on"):
        tournament_of(people[0], format=Tournament.Format.KNOCKOUT, group_size=4, group_advance=4)
    with pytest.raises(GameError, match="before a knockout cup"):
        tournament_of(people[0], group_size=4)
    with pytest.raises(GameError, match="a group is one table"):
        tournament_of(people[0], engine="joker", players=4, format=Tournament.Format.KNOCKOUT, group_size=5)
    cup = entered(tournament_of(people[0], format=Tournament.Format.KNOCKOUT, group_size=4, group_advance=3),
                  people[1:6])  # 5 players: groups of 3 and 2, too small for 3 to go on
    with pytest.raises(GameError, match="do not make groups"):
        services.start(cup.pk, people[0])
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.OPEN and not Entry.objects.exclude(group=None).exists()
    assert not Game.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("language,phrases", [
    ("en", ["Groups before the cup", "seeds 1 4 5 8", "1 against 2 and 6 against 5", "Berger"]),
    ("ru", ["Группы перед кубком", "номера 1 4 5 8", "1 против 2 и 6 против 5", "Бергера"]),
])
def test_the_rules_page_gives_the_groups_worked_example(client, language, phrases):
    page = client.get(reverse("tournament_rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert all(phrase in page for phrase in phrases)


@pytest.mark.django_db
def test_joker_groups_are_tables_of_four_playing_four_games_then_the_top_two_of_each_meet_in_the_final(people):
    cup = entered(tournament_of(people[0], engine="joker", players=4, format=Tournament.Format.KNOCKOUT,
                                advance=2, group_size=4, group_advance=2), people[1:9])
    start(cup.pk, people[0])
    cup.refresh_from_db()
    assert (cup.group_rounds, cup.rounds) == (4, 5)
    firsts = []
    for number in range(1, 5):
        tables = round_tables(cup, number)
        assert [sorted(t.seats) for t in tables] == [sorted(t.seats) for t in round_tables(cup, 1)]
        firsts += [t.seats[0] for t in tables]
        for table in tables:
            game = Game.objects.get(pk=table.game_id)
            with committed():  # a Joker game ends: places for all
                game_services.resign(game.pk, game.seats.get(position=3).user)
    assert sorted(firsts) == sorted(Entry.objects.filter(tournament=cup).values_list("pk", flat=True))
    (final,) = round_tables(cup, 5)
    assert Entry.objects.filter(tournament=cup, out_in_round=4).count() == 4
    assert {Entry.objects.get(pk=pk).group for pk in final.seats} == {1, 2}


@pytest.mark.django_db
def test_the_form_refuses_as_many_going_on_as_a_group_holds_with_a_clear_error(client, people):
    client.force_login(people[0])
    response = client.post(reverse("new_tournament"), {
        "name": "Cup with groups", "engine": "durak", "players": 2, "format": "knockout", "advance": 1, "rounds": 0,
        "round_days": 3, "next_round": "finished", "forfeits_to_withdraw": 2, "group_size": 4, "group_advance": 4})
    assert response.status_code == 400 and "From a group of 4, 1 to 3 players go on." in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_the_groups_refresh_live_on_the_page_like_the_standings_while_the_cup_runs(people, client):
    cup = entered(tournament_of(people[0], format=Tournament.Format.KNOCKOUT, group_size=3, group_advance=1),
                  people[1:6])  # groups of 3 and 2
    start(cup.pk, people[0])
    part_url = reverse("tournament_groups_part", args=[cup.slug])
    page = client.get(reverse("tournament", args=[cup.slug])).content.decode()
    groups_box = page[page.index('id="live-tournament-groups"'):page.index("</section>", page.index('id="groups"'))]
    assert f'data-refresh="{part_url}"' in groups_box and "Group 2" in groups_box
    assert 'class="live-tournament-part"' in groups_box
    (pair,) = [t for t in round_tables(cup, 1) if Entry.objects.get(pk=t.seats[0]).group == 2]
    winner = str(Entry.objects.get(pk=pair.seats[0]))
    before = client.get(part_url).content.decode()
    assert "<html" not in before and "Group 1" in before and f"<td>{winner}</td>\n      <td>0</td>" in before
    play_round(cup, 1, loser_seat=1)
    after = client.get(part_url).content.decode()
    group_two = after[after.index("Group 2"):]
    assert f"<td>{winner}</td>\n      <td>1</td>" in group_two  # the game's winner has its point


@pytest.mark.django_db
def test_a_cup_without_groups_has_no_live_groups_and_its_groups_part_is_empty(people, client):
    cup = entered(tournament_of(people[0], format=Tournament.Format.KNOCKOUT), people[1:3])
    page = client.get(reverse("tournament", args=[cup.slug])).content.decode()
    assert "live-tournament-groups" not in page
    assert "<table" not in client.get(reverse("tournament_groups_part", args=[cup.slug])).content.decode()


LIVE_SCRIPT_RUN = """
const boxes = [{dataset: {refresh: "/t/cup/standings/?page=1"}, innerHTML: "old"},
               {dataset: {refresh: "/t/cup/groups/"}, innerHTML: "old"}];
let tick = null;
global.window = {fetch: true};
global.document = {visibilityState: "visible", querySelectorAll: () => boxes, addEventListener() {}};
global.setInterval = (f) => { tick = f; };
global.fetch = async (url) => ({ok: true, text: async () => "new " + url});
require(process.argv[1]);
tick();
setTimeout(() => console.log(JSON.stringify(boxes.map((b) => b.innerHTML))), 0);
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the page's script")
def test_the_pages_script_refreshes_every_live_part_the_standings_and_the_groups():
    script = Path(__file__).resolve().parents[2] / "static" / "js" / "tournament-live.js"
    out = subprocess.run(["node", "-e", LIVE_SCRIPT_RUN, str(script)], capture_output=True, text=True, timeout=30)
    assert json.loads(out.stdout) == ["new /t/cup/standings/?page=1", "new /t/cup/groups/"]
