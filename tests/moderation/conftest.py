import pytest
from django.contrib.auth.models import Group, Permission

from moderation.permissions import MODERATORS_GROUP


@pytest.fixture
def moderator(django_user_model):
    """A staff member of the moderators group (not a superuser)."""
    user = django_user_model.objects.create_user("moderator", password="pw-not-used-1", language="en", is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
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
