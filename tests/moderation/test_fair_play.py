"""Fair play among strangers (issue 44): every finished rated game adds its
evidence to the pair reviews of its players, off the move path; a pair whose
figures say so waits in the moderators' queue with the games behind it; a
false alarm is dismissed for good, the ratings of the pair's games can be
annulled; and players see none of it."""

import random

import pytest
from django.core import mail

from bench.fair_play import booster, durak_spare, joker_gift, play
from gameplay import services as game_services
from moderation.fairplay import evidence, reviews
from moderation.models import AuditEntry, PairReview
from ratings.models import Rating, RatingChange
from tests.gameplay.conftest import client_for
from tests.moderation.conftest import started_game

pytestmark = pytest.mark.django_db


def figures_over(games: int, game: str, players: int, policies, seed: int = 7) -> tuple[dict, dict]:
    """Seat 0's figures towards seat 1 and back, added over `games` games among computer players."""
    rng = random.Random(seed)
    forward, backward = {}, {}
    for _ in range(games):
        record = play(game, players, policies, rng)
        figures = evidence.game_figures(record, range(players))
        forward = evidence.added(forward, figures.get(evidence.pair_key(0, 1), {}))
        backward = evidence.added(backward, figures.get(evidence.pair_key(1, 0), {}))
    return forward, backward


# -- the evidence, from records alone ----------------------------------------------------


def test_a_durak_thrower_who_never_throws_in_on_his_friend_is_flagged_for_sparing():
    forward, _back = figures_over(30, "durak", 3, {0: durak_spare(1)})
    assert forward["throws_on_partner"] == 0 and forward["throws_on_others"] > 0
    assert "sparing" in evidence.assess(forward)


def test_honest_durak_throwers_are_not_flagged():
    forward, backward = figures_over(30, "durak", 3, {})
    assert forward["throw_chances_on_partner"] >= evidence.MIN_THROW_CHANCES
    assert evidence.assess(forward) == [] and evidence.assess(backward) == []


def test_a_joker_player_who_leaves_his_friend_the_tricks_he_needs_is_flagged_for_gifts():
    forward, _back = figures_over(8, "joker", 4, {0: joker_gift(1)})
    assert forward["gifts_to_partner"] > forward["gifts_to_others"]
    assert "gifts" in evidence.assess(forward)


def test_spoiling_third_players_exact_bids_at_his_own_cost_and_never_the_friends_is_flagged():
    spoiler = {"spoil_chances_on_others": 10, "spoils_on_others": 8, "spoil_chances_on_partner": 5,
               "spoils_on_partner": 0}
    honest = {"spoil_chances_on_others": 10, "spoils_on_others": 2, "spoil_chances_on_partner": 5,
              "spoils_on_partner": 1}
    assert "spoiling" in evidence.assess(spoiler) and evidence.assess(honest) == []
    assert evidence.assess({**spoiler, "spoil_chances_on_others": 4, "spoils_on_others": 4}) == []  # too little


def test_a_booster_who_resigns_to_his_friend_is_flagged_and_his_friend_is_the_one_who_gains():
    forward, backward = figures_over(20, "durak", 2, {0: booster(1)}, seed=11)
    assert "boosting" in evidence.assess(backward)  # seat 1 won what seat 0 handed him
    assert "boosting" not in evidence.assess(forward)


def test_the_evidence_reads_only_the_record():
    """The figures come from the published record (seed and moves): the
    final state's hidden values swapped, nothing changes."""
    record = play("durak", 3, {}, random.Random(3))
    figures = evidence.game_figures(record, range(3))
    tampered = {**record, "final_state": {**record["final_state"], "hands": [[], [], []], "talon": []}}
    assert evidence.game_figures(tampered, range(3)) == figures


# -- through the site ----------------------------------------------------------------


def finish_two_player_games(players, count: int, run_on_commit) -> list:
    games = []
    for _ in range(count):
        game = started_game("durak", players[:2])
        with run_on_commit():
            game_services.resign(game.pk, players[0])  # at once: a short game, conceded
        games.append(game)
    return games


def test_a_finished_rated_game_adds_its_evidence_to_the_pairs_review_after_the_commit(players, run_on_commit):
    finish_two_player_games(players, 1, run_on_commit)
    review = PairReview.objects.get()
    assert {review.first, review.second} == set(players[:2]) and review.engine == "durak"
    assert review.status == PairReview.Status.CLEAR
    winner_side = "first>second" if review.first == players[1] else "second>first"
    assert review.figures[winner_side]["won"] == 1 and review.figures[winner_side]["conceded"] == 1


def test_a_game_is_counted_once_however_often_its_review_runs(players, run_on_commit):
    game = finish_two_player_games(players, 1, run_on_commit)[0]
    reviews.review_game(game.pk)
    assert PairReview.objects.get().games == [game.pk]


def test_an_unrated_game_adds_no_evidence(players, run_on_commit):
    game = started_game("durak", players[:2], rated=False)
    with run_on_commit():
        game_services.resign(game.pk, players[0])
    assert not PairReview.objects.exists()


def test_a_pair_handing_wins_over_waits_in_the_queue_with_its_games(players, run_on_commit, moderator):
    games = finish_two_player_games(players, 6, run_on_commit)
    review = PairReview.objects.get()
    assert review.status == PairReview.Status.OPEN and review.flagged_at is not None
    assert any(reason.startswith("boosting") for reason in review.reasons)
    admin = client_for(moderator)
    queue = admin.get("/admin/moderation/pairreview/?status__exact=open").content.decode()
    assert players[0].username in queue and players[1].username in queue
    page = admin.get(f"/admin/moderation/pairreview/{review.pk}/change/").content.decode()
    assert "hands the other rated wins" in page
    assert all(f"/sheets/{game.pk}/replay/" in page for game in games)  # every hand shown: the games are over
    assert "two-player games between them" in page and "rated games together" in page


def test_a_dismissed_alert_is_not_raised_again_by_the_same_games_but_by_new_ones(players, run_on_commit, moderator):
    finish_two_player_games(players, 6, run_on_commit)
    review = PairReview.objects.get()
    response = client_for(moderator).post(f"/admin/moderation/pairreview/{review.pk}/dismiss/",
                                          {"reason": "friends who play a lot, checked"})
    assert response.status_code == 302
    review.refresh_from_db()
    assert review.status == PairReview.Status.DISMISSED
    assert AuditEntry.objects.filter(action=AuditEntry.Action.DISMISS_PAIR).count() == 1
    reviews.review_game(review.games[0])  # the same games again: nothing
    review.refresh_from_db()
    assert review.status == PairReview.Status.DISMISSED
    finish_two_player_games(players, 6, run_on_commit)  # new evidence
    review.refresh_from_db()
    assert review.status == PairReview.Status.OPEN


def test_annulling_the_ratings_of_a_pairs_games_rebuilds_the_ratings_and_keeps_the_results(
        players, run_on_commit, moderator):
    other = started_game("durak", [players[2], players[1]])
    with run_on_commit():
        game_services.resign(other.pk, players[2])  # an honest game of player 1, before
    before_pair = Rating.objects.get(user=players[1], engine="durak")
    games = finish_two_player_games(players, 6, run_on_commit)
    review = PairReview.objects.get(first__in=players[:2], second__in=players[:2])
    response = client_for(moderator).post(f"/admin/moderation/pairreview/{review.pk}/annul/",
                                          {"reason": "boosting"})
    assert response.status_code == 302
    assert not RatingChange.objects.filter(game__in=games).exists()
    assert not Rating.objects.filter(user=players[0], engine="durak").exists()
    after = Rating.objects.get(user=players[1], engine="durak")
    assert (after.mu, after.sigma, after.games) == (before_pair.mu, before_pair.sigma, 1)
    assert all(game.seats.get(user=players[1]).place == 1 for game in games)
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ANNUL_RATINGS)
    assert sorted(entry.after["games"]) == sorted(g.pk for g in games)


def test_players_see_nothing_of_the_evidence_nor_of_an_alert(players, run_on_commit, plain_user, staff_user):
    finish_two_player_games(players, 6, run_on_commit)
    review = PairReview.objects.get()
    assert review.status == PairReview.Status.OPEN
    for user in (players[0], players[1], plain_user, staff_user):
        client = client_for(user)
        assert client.get(f"/admin/moderation/pairreview/{review.pk}/change/").status_code in (302, 403)
        for url in (f"/players/{players[0].username}/", f"/players/{players[1].username}/", "/profile/", "/"):
            page = client.get(url).content.decode().lower()
            assert not any(word in page for word in ("fair-play", "fair play", "boosting", "sparing", "pairreview"))
    assert all("fair" not in message.body.lower() for message in mail.outbox)
