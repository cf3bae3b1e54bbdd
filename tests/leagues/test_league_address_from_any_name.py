"""A league's address is its name transliterated (issue 39, item 10): a
Russian or Georgian name gets a readable address, not "league"."""

import pytest

from leagues import services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name, slug", [("Пятничный дурак", "piatnichnyi-durak"), ("ჯოკერი", "jokeri"),
                                        ("Friday Durak", "friday-durak"), ("!!!", "league")])
def test_a_league_named_in_any_script_gets_a_readable_address(django_user_model, name, slug):
    organizer = django_user_model.objects.create_user("org", password="pw-not-used-1", is_staff=True)
    assert services.create_league(organizer, name=name, engine="durak", players=2).slug == slug


def test_two_leagues_of_one_russian_name_get_two_addresses(django_user_model):
    organizer = django_user_model.objects.create_user("org", password="pw-not-used-1", is_staff=True)
    first = services.create_league(organizer, name="Пятничный дурак", engine="durak", players=2)
    second = services.create_league(organizer, name="Пятничный  дурак!", engine="durak", players=2)
    assert (first.slug, second.slug) == ("piatnichnyi-durak", "piatnichnyi-durak-2")
