import pytest
from django.urls import reverse


@pytest.fixture
def admin_client(client, django_user_model):
    admin = django_user_model.objects.create_superuser("admin", "admin@example.com", "admin password")
    client.force_login(admin)
    return client


def test_user_changelist_loads_for_a_superuser(admin_client, user):
    response = admin_client.get(reverse("admin:accounts_user_changelist"))

    assert response.status_code == 200
    assert "anna" in response.text


def test_users_are_searchable_by_display_name(admin_client, user, django_user_model):
    django_user_model.objects.create_user("boris", display_name="Borya")

    response = admin_client.get(reverse("admin:accounts_user_changelist"), {"q": "borya"})

    assert list(response.context["cl"].result_list) == [django_user_model.objects.get(username="boris")]


def test_user_change_page_shows_the_preferences(admin_client, user):
    response = admin_client.get(reverse("admin:accounts_user_change", args=[user.pk]))

    assert response.status_code == 200
    assert 'name="email_notifications"' in response.text


def test_user_add_page_loads(admin_client):
    assert admin_client.get(reverse("admin:accounts_user_add")).status_code == 200


def test_players_cannot_open_the_admin(signed_in):
    response = signed_in.get(reverse("admin:accounts_user_changelist"))
    assert response.status_code == 302


def test_moderators_see_vacations_but_change_them_only_through_the_site(admin_client, user):
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import Vacation

    Vacation.objects.create(user=user, starts_at=timezone.now(), ends_at=timezone.now() + timedelta(days=2))
    response = admin_client.get(reverse("admin:accounts_vacation_changelist"))
    assert response.status_code == 200 and user.name in response.text
    assert admin_client.get(reverse("admin:accounts_vacation_add")).status_code == 403
