import pytest

from moderation.services import people as services
from gameplay.models import Game
from tests.gameplay.conftest import client_for, joker_game, players, started_game  # noqa: F401 (fixtures)
from tests.moderation.conftest import moderator, plain_user, staff_user  # noqa: F401 (fixtures)


@pytest.fixture
def outsider(django_user_model):
    """A signed-in player with no seat at the test games."""
    return django_user_model.objects.create_user("outsider", password="pw-not-used-1", language="en")


@pytest.fixture
def boss(django_user_model):
    """A superuser: a moderator without the moderators group, which a
    transactional test's database no longer holds once an earlier one has
    flushed it (the group is made by a data migration)."""
    return django_user_model.objects.create_superuser("boss", password="pw-not-used-1", email="boss@example.com",
                                                      language="en")


def report_of(reporter, **subject):
    return services.send_report(reporter, "abuse", "rude", **subject)


def two_player_game(users, on_timeout=Game.OnTimeout.AUTOPLAY) -> Game:
    return started_game("durak", users, on_timeout=on_timeout)


__all__ = ["client_for", "report_of", "two_player_game"]
