from datetime import time

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Vacation

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(django_user_model):
    user = django_user_model.objects.create_user("member", email="m@example.com", language="en")
    client = Client()
    client.force_login(user)
    return user, client


def test_a_player_takes_a_vacation_from_his_profile_and_ends_it(member):
    user, client = member
    page = client.post(reverse("take_vacation"), {"days": 3}, follow=True).content.decode()
    assert "Your vacation has begun" in page and "You are on vacation until" in page
    vacation = Vacation.objects.get(user=user)
    assert round(vacation.days) == 3
    client.post(reverse("end_vacation"))
    vacation.refresh_from_db()
    assert vacation.days < 0.01


def test_a_vacation_longer_than_the_yearly_allowance_is_refused(member, settings):
    settings.VACATION_DAYS_PER_YEAR = 5
    user, client = member
    page = client.post(reverse("take_vacation"), {"days": 6}, follow=True).content.decode()
    assert "5 vacation days" in page
    assert not Vacation.objects.exists()


def test_the_profile_form_sets_turn_emails_and_the_night_pause(member):
    user, client = member
    data = {"display_name": "M", "language": "en", "time_zone": "Europe/Moscow", "email_notifications": "on",
            "turn_emails": "daily", "night_pause_start": "23:00", "night_pause_end": "08:00"}
    assert client.post(reverse("profile_edit"), data).status_code == 302
    user.refresh_from_db()
    assert (user.turn_emails, user.night_pause_start, user.night_pause_end) == ("daily", time(23), time(8))


@pytest.mark.parametrize("start, end", [("23:00", ""), ("08:00", "08:00"), ("08:00", "23:00")])
def test_a_bad_night_pause_is_explained(member, start, end):
    user, client = member
    data = {"display_name": "M", "language": "en", "time_zone": "UTC", "turn_emails": "now",
            "night_pause_start": start, "night_pause_end": end}
    response = client.post(reverse("profile_edit"), data)
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
