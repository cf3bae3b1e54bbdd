"""A moderator gives a seat to a computer of a chosen level (issue 43); a level that does not
exist is refused with the game unchanged."""

import pytest
from django.urls import reverse

from gameplay.models import Move, Seat
from gameplay.services.base import GameError
from moderation.models import AuditEntry
from moderation.services import games as moderation_actions
from tests.gameplay.conftest import client_for

pytestmark = pytest.mark.django_db


def test_the_moderators_page_gives_a_seat_to_a_computer_of_the_level_chosen(durak_game, moderator):
    page = client_for(moderator).post(reverse("moderation_game", args=[durak_game.pk]), {
        "action": "substitute", "substitute-position": "1", "substitute-computer": "on",
        "substitute-computer_level": "3", "substitute-reason": "Left the site"})
    assert page.status_code in (200, 302)
    seat = Seat.objects.get(game=durak_game, position=1)
    assert (seat.is_bot, seat.user, seat.computer_level) == (True, None, 3)
    assert Move.objects.get(game=durak_game, action__type="substitute").action["level"] == 3
    assert AuditEntry.objects.get(action=AuditEntry.Action.SUBSTITUTE).after["level"] == 3


@pytest.mark.parametrize("level", [0, 4, "2"])
def test_a_level_that_does_not_exist_is_refused_and_the_seat_is_unchanged(durak_game, moderator, players, level):
    with pytest.raises(GameError, match="There is no computer level"):
        moderation_actions.substitute_seat(durak_game.pk, 1, moderator, "Left", computer_level=level)
    seat = Seat.objects.get(game=durak_game, position=1)
    assert (seat.is_bot, seat.user) == (False, players[1]) and not AuditEntry.objects.exists()
