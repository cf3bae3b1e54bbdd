import pytest
from django.test import Client

from gameplay import services


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(f"player{i}", password="pw-not-used-1", language="en",
                                                  email=f"player{i}@example.com", time_zone="UTC")
            for i in range(5)]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def durak_between(first, second, **table):
    """A started two-player Durak table, `first` in seat 0."""
    return services.create_seated_game([first, second], "durak", {}, **table)
