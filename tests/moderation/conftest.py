import pytest
from django.contrib.auth.models import Group, Permission

from moderation.permissions import MODERATORS_GROUP


def moderators_group() -> Group:
    """The group the migration made (a transactional test's flush empties the
    tables, so it is made again here as the migration made it)."""
    from importlib import import_module

    group, created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    if created:
        migration = import_module("moderation.migrations.0002_moderators_group")
        for app, codename in [*migration.PERMISSIONS, ("moderation", "view_pairreview"),  # and 0004's,
                              ("moderation", "warn_player")]:  # and 0005's
            group.permissions.add(Permission.objects.get(content_type__app_label=app, codename=codename))
    return group


@pytest.fixture
def moderator(django_user_model):
    """A staff member of the moderators group (not a superuser)."""
    user = django_user_model.objects.create_user("moderator", password="pw-not-used-1", language="en", is_staff=True)
    user.groups.add(moderators_group())
    return user


@pytest.fixture
def staff_user(django_user_model):
    """Staff with every gameplay permission, but not a moderator."""
    user = django_user_model.objects.create_user("staffer", password="pw-not-used-1", language="en", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="gameplay"))
    return user


@pytest.fixture
def plain_user(django_user_model):
    return django_user_model.objects.create_user("plain", password="pw-not-used-1", language="en")


# The gameplay tests' players, tables and helpers.
from tests.gameplay.conftest import joker_game, players, started_game  # noqa: E402,F401


@pytest.fixture
def durak_game(players):
    """A started Durak game of three people."""
    return started_game("durak", players[:3])


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    """`with run_on_commit():` runs the on-commit hooks of what happens inside, as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)
