"""Ratings with substitutes: the replaced player is rated as the one who left
(last), so a computer replacing a leaver keeps the game rated; a substitute
who joined a game in play is not rated for it."""

import pytest

from gameplay import services
from ratings.models import RatingChange
from ratings.services import recompute
from moderation.services import games as moderation_actions

pytestmark = pytest.mark.django_db


def changes(game) -> dict[int, float]:
    return {c.user_id: c.mu - c.mu_before for c in RatingChange.objects.filter(game=game)}


def test_a_computer_replacing_a_leaver_keeps_the_game_rated_and_the_leaver_takes_the_loss(joker_game, players,
                                                                                            moderator):
    moderation_actions.substitute_seat(joker_game.pk, 3, moderator, "Left the game")
    moderation_actions.adjudicate_game(joker_game.pk, moderator, "Agreed", {"places": [2, 3, 4, 1]})  # the computer did best
    gains = changes(joker_game)
    assert set(gains) == {p.pk for p in players}
    assert sorted(gains, key=gains.get) == [players[3].pk, players[2].pk, players[1].pk, players[0].pk]


def test_a_human_substitute_is_not_rated_and_the_replaced_player_is_rated_last(joker_game, players, moderator,
                                                                               django_user_model):
    newcomer = django_user_model.objects.create_user("newcomer", password="pw-not-used-1")
    moderation_actions.substitute_seat(joker_game.pk, 0, moderator, "Left the game", user=newcomer)
    moderation_actions.adjudicate_game(joker_game.pk, moderator, "Agreed", {"places": [1, 2, 3, 4]})
    gains = changes(joker_game)
    assert newcomer.pk not in gains and set(gains) == {p.pk for p in players}
    assert min(gains, key=gains.get) == players[0].pk


def test_recomputing_the_ratings_gives_the_same_numbers_with_substitutes(joker_game, players, moderator):
    moderation_actions.substitute_seat(joker_game.pk, 1, moderator, "Left the game")
    moderation_actions.adjudicate_game(joker_game.pk, moderator, "Agreed", {"places": [1, 2, 3, 4]})
    live = changes(joker_game)
    assert recompute() == 1
    assert changes(joker_game) == pytest.approx(live)
