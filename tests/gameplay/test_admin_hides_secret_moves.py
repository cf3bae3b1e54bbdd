"""Nobody seated at a game reads its hidden moves in the admin while it runs
(issue 24): the admin's game page words a running game's moves as the move
log words them for a spectator, unless the viewer is a moderator who does not
play in it; the move list leaves out the moves of games in play for the
others. Once the game is over, its record is public anyway."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from gameplay import services
from gameplay.engine import get_engine
from gameplay.models import Game
from tests.gameplay.conftest import client_for, started_game
from tests.moderation.conftest import moderators_group

pytestmark = pytest.mark.django_db
IPUKER = get_engine("ipuker")
SECRET = 23


@pytest.fixture
def people(django_user_model):
    """A staff player with every gameplay permission (an organizer who plays, say), three others."""
    staff = django_user_model.objects.create_user("staffplayer", password="pw-not-used-1", language="en",
                                                  is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(content_type__app_label="gameplay"))
    return [staff] + [django_user_model.objects.create_user(f"p{i}", password="pw-not-used-1", language="en")
                      for i in range(3)]


@pytest.fixture
def staked(people) -> Game:
    """An Ipuker game in which a seat other than the staff player's has staked in secret."""
    game = started_game("ipuker", people)
    staker = next(p for p in IPUKER.actors(game.state) if p != 0)
    services.submit_move(game.pk, people[staker], {"type": "stake", "tokens": SECRET}, 0)
    return game


def shows_stake(page: str) -> bool:
    """The stake's value as stored ({"type": "stake", "tokens": 23}), however the page escapes it."""
    return any(f"{quote}tokens{quote}: {SECRET}" in page for quote in ('"', "&quot;", "&#x27;", "'"))


def admin_page(user, game: Game) -> str:
    response = client_for(user).get(reverse("admin:gameplay_game_change", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_seated_staff_member_reads_the_secret_stake_nowhere_in_the_admin(people, staked):
    page = admin_page(people[0], staked)
    assert not shows_stake(page) and "stakes in secret" in page
    moves = client_for(people[0]).get(reverse("admin:gameplay_move_changelist") + f"?game__id__exact={staked.pk}")
    assert moves.status_code == 200 and not shows_stake(moves.content.decode())


def test_a_seated_moderator_reads_it_nowhere_either(people, staked):
    people[0].groups.add(moderators_group())
    assert not shows_stake(admin_page(people[0], staked))


def test_a_moderator_who_does_not_play_reads_the_moves_as_stored(people, staked, django_user_model):
    moderator = django_user_model.objects.create_user("mod", password="pw-not-used-1", language="en", is_staff=True)
    moderator.groups.add(moderators_group())
    assert shows_stake(admin_page(moderator, staked))


def test_once_the_game_is_over_its_moves_are_shown_as_stored(people, staked):
    services.resign(staked.pk, people[1])
    assert shows_stake(admin_page(people[0], Game.objects.get(pk=staked.pk)))
