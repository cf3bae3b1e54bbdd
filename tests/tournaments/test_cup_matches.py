"""Knockout cup matches of several games at two-player tables: who sits first
alternates, a forfeit is a lost game, a level match plays a decider (then the
better seed), a withdrawn player loses the match, and the round waits until
every match is decided (tournaments/matches.py, its worked example)."""

from datetime import timedelta
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import timezone

from gameplay import services as game_services
from gameplay.models import Game
from gameplay.services.base import GameError
from tests.tournaments.conftest import committed, entered, round_tables, start, tournament_of
from tournaments import matches, services, sweep
from tournaments.crosstable import cross_table
from tournaments.matches import Decision, MatchGame
from tournaments.models import Entry, Tournament

A, B = 11, 18  # seeds 1 and 8
SEEDS = {A: 1, B: 8}


def won_by(winner: int, forfeit: bool = False, decider: bool = False) -> MatchGame:
    loser = B if winner == A else A
    return MatchGame({winner: 1, loser: 2}, frozenset({loser}) if forfeit else frozenset(), decider)


DRAWN = MatchGame({A: 1, B: 1})


def test_who_sits_first_alternates_and_the_lower_seed_sits_first_in_the_decider():
    assert [matches.seats_of_game(A, B, n, 3) for n in (1, 2, 3, 4)] == [[A, B], [B, A], [A, B], [B, A]]
    assert matches.seats_of_game(A, B, 3, 2) == [B, A]


def test_the_worked_example_one_game_each_plays_a_decider_whose_winner_goes_on():
    games = [won_by(A), won_by(B)]
    assert matches.decide([A, B], games, SEEDS) == Decision(None, needs_decider=True)
    assert matches.decide([A, B], games + [won_by(B, decider=True)], SEEDS) == Decision(B)


def test_a_forfeit_is_a_lost_game_and_a_withdrawn_player_loses_the_match():
    games = [won_by(A), won_by(B, forfeit=True)]
    assert matches.match_points([A, B], games) == {A: 1, B: 1}
    assert matches.decide([A, B], games, SEEDS).needs_decider
    assert matches.decide([A, B], games, SEEDS, withdrawn=frozenset({A})) == Decision(B)
    assert matches.decide([A, B], games, SEEDS, withdrawn=frozenset({A, B})) == Decision(None)


def test_the_most_points_over_the_games_go_on_a_draw_worth_a_half():
    assert matches.match_points([A, B], [DRAWN, won_by(B)]) == {A: Fraction(1, 2), B: Fraction(3, 2)}
    assert matches.decide([A, B], [DRAWN, won_by(B)], SEEDS) == Decision(B)
    assert matches.decide([A, B], [won_by(B), won_by(A), won_by(A)], SEEDS) == Decision(A)


def test_a_drawn_or_void_decider_and_a_drawn_one_game_match_send_on_the_better_seed():
    level = [won_by(A), won_by(B)]
    assert matches.decide([A, B], level + [MatchGame({A: 1, B: 1}, decider=True)], SEEDS) == Decision(A)
    assert matches.decide([A, B], level + [MatchGame(None, decider=True)], SEEDS) == Decision(A)
    assert matches.decide([B, A], [DRAWN], SEEDS) == Decision(A)





def _cup(people, games: int = 2) -> Tournament:
    cup = entered(tournament_of(people[0], format=Tournament.Format.KNOCKOUT, games_per_match=games), people[1:3])
    start(cup.pk, people[0])
    return cup


def _loses(table, entry_id: int) -> None:
    game = Game.objects.get(pk=table.game_id)
    with committed():
        game_services.resign(game.pk, Entry.objects.get(pk=entry_id).user)


@pytest.mark.django_db
def test_a_two_game_match_level_after_its_games_is_decided_by_a_decider(people, client):
    cup = _cup(people)
    better, worse = (Entry.objects.get(tournament=cup, number=n).pk for n in (1, 2))
    first, second = round_tables(cup, 1)
    assert (first.seats, first.match_game, second.seats, second.match_game) == ([better, worse], 1, [worse, better], 2)
    _loses(first, worse)
    _loses(second, better)  # 1–1
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING and cup.round_set.get().finished_at is None
    decider = round_tables(cup, 1)[2]
    assert (decider.seats, decider.match_game) == ([worse, better], 3)
    assert cup.round_set.get().deadline > timezone.now() + timedelta(days=cup.round_days - 1)  # its own days
    page = client.get(reverse("tournament_round", args=[cup.slug, 1])).content.decode()
    assert "game 2 of the match" in page and "decider" in page
    _loses(decider, better)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert Entry.objects.get(final_rank=1).pk == worse
    assert Entry.objects.get(pk=better).out_in_round == 1
    _rows, lines, _numbers = cross_table(cup)
    assert [(line.row.entry_id, line.cells[0].points, line.cells[0].game_id) for line in lines] == \
        [(worse, 2.0, first.game_id), (better, 1.0, first.game_id)]


@pytest.mark.django_db
def test_a_game_lost_on_time_counts_as_a_lost_game_of_the_match(people):
    cup = _cup(people, games=2)
    first, second = round_tables(cup, 1)
    sweep._time_out(first.pk)  # whoever's clock runs in game 1 forfeits it
    first.refresh_from_db()
    (forfeiter,) = first.forfeits
    other = next(pk for pk in first.seats if pk != forfeiter)
    _loses(second, other)  # 1–1 with the forfeit: a decider
    assert len(round_tables(cup, 1)) == 3
    _loses(round_tables(cup, 1)[2], other)
    assert Entry.objects.get(tournament=cup, final_rank=1).pk == forfeiter


@pytest.mark.django_db
def test_leaving_in_the_middle_of_a_match_loses_it_at_once(people):
    cup = _cup(people, games=3)
    first = round_tables(cup, 1)[0]
    worse = Entry.objects.get(tournament=cup, number=2)
    _loses(first, Entry.objects.get(tournament=cup, number=1).pk)  # the lower seed leads 1–0
    with committed():
        services.leave(cup.pk, worse.user)  # ... and leaves: the other two games are resigned, forfeits
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert Entry.objects.get(tournament=cup, final_rank=1).number == 1


@pytest.mark.django_db
def test_several_games_a_match_only_in_two_player_cups(people):
    with pytest.raises(GameError, match="two-player tables"):
        tournament_of(people[0], games_per_match=2)
    with pytest.raises(GameError, match="two-player tables"):
        tournament_of(people[0], engine="joker", players=4, format=Tournament.Format.KNOCKOUT, games_per_match=2)
    with pytest.raises(GameError, match="1 to 9 games"):
        tournament_of(people[0], format=Tournament.Format.KNOCKOUT, games_per_match=0)
    assert not Tournament.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("language,phrases", [
    ("en", ["Matches of several games", "games 1, 3, 5", "one decider game", "the better seed goes on", "1–1"]),
    ("ru", ["Матчи из нескольких партий", "партиях 1, 3, 5", "одна решающая партия", "проходит лучший посеянный",
            "1–1"]),
])
def test_the_rules_page_says_how_a_match_is_decided(client, language, phrases):
    page = client.get(reverse("tournament_rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert all(phrase in page for phrase in phrases)


@pytest.mark.django_db
def test_the_next_round_waits_for_a_decider_of_another_match(people):
    cup = entered(tournament_of(people[0], format=Tournament.Format.KNOCKOUT, games_per_match=2), people[1:5])
    start(cup.pk, people[0])
    seed = {e.number: e.pk for e in Entry.objects.filter(tournament=cup)}
    one_four = [t for t in round_tables(cup, 1) if seed[1] in t.seats]
    two_three = [t for t in round_tables(cup, 1) if seed[2] in t.seats]
    for table in one_four:
        _loses(table, seed[4])  # 2–0
    _loses(two_three[0], seed[3])
    _loses(two_three[1], seed[2])  # 1–1: a decider
    assert not cup.round_set.filter(number=2).exists()
    (decider,) = [t for t in round_tables(cup, 1) if t.match_game == 3]
    _loses(decider, seed[3])
    assert sorted(round_tables(cup, 2)[0].seats) == sorted([seed[1], seed[2]])
