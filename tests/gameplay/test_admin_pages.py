"""Every admin page of every registered model opens for a superuser: its
list, its add page (or a plain refusal where rows are made only by the site),
and the change page of a row."""

from datetime import timedelta

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from accounts.models import Vacation
from gameplay import services

from .conftest import a_legal_action, acting_player, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def every_kind_of_row(joker_game, players, client):
    """At least one row of every model the admin shows."""
    Group.objects.get_or_create(name="moderators")  # the moderation app's migration makes it
    client.post(reverse("login"), {"username": "player1", "password": "wrong"})  # axes' attempt and failure
    position, user = acting_player(joker_game, players)
    services.submit_move(joker_game.pk, user, a_legal_action(joker_game, position), joker_game.version)
    services.post_chat(joker_game.pk, players[0], "Удачи!")
    now = timezone.now()
    Vacation.objects.create(user=players[1], starts_at=now + timedelta(days=1), ends_at=now + timedelta(days=3))


def admin_pages():
    for model in admin.site._registry:
        meta = model._meta
        yield pytest.param(model, id=f"{meta.app_label}.{meta.model_name}")


@pytest.mark.parametrize("model", list(admin_pages()))
def test_every_admin_page_of_every_model_opens_for_a_superuser(django_user_model, every_kind_of_row, model):
    boss = django_user_model.objects.create_superuser("boss", password="pw", email="boss@example.com")
    client = client_for(boss)
    meta = model._meta
    name = f"admin:{meta.app_label}_{meta.model_name}"

    assert client.get(reverse(f"{name}_changelist")).status_code == 200
    assert client.get(reverse(f"{name}_add")).status_code in (200, 403)  # 403: made only by the site
    row = model.objects.order_by("pk").first()
    if meta.app_label in ("gameplay", "accounts", "auth"):
        assert row is not None, f"no {meta.model_name} to open"
    if row is not None:  # (axes writes its failure log only when told to)
        assert client.get(reverse(f"{name}_change", args=[row.pk])).status_code == 200


def test_games_are_not_added_in_the_admin_but_on_the_site(django_user_model):
    boss = django_user_model.objects.create_superuser("boss", password="pw", email="boss@example.com")
    assert client_for(boss).get(reverse("admin:gameplay_game_add")).status_code == 403
