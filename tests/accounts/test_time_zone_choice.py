"""The time zone is chosen from a searchable list of the current zones (one
per place, as tzdata's zone.tab names them, and UTC), never from legacy
aliases; a zone the site does not know is refused with a clear message, and
a legacy alias stands for the current zone it links to."""

import re
import zoneinfo

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.timezones import canonical_zone, current_zones

from .test_profile_edit import PROFILE
from .test_signup import SIGNUP

LEGACY = ["US/Eastern", "Etc/GMT+3", "Cuba", "Europe/Kiev", "Asia/Calcutta", "GB", "Etc/UTC"]


def offered(html: str) -> list[str]:
    datalist = re.search(r'<datalist id="id_time_zone-zones">(.*?)</datalist>', html, re.S).group(1)
    return re.findall(r'<option value="([^"]+)"', datalist)


def test_the_list_holds_current_zones_and_utc_only():
    zones = current_zones()
    assert {"Europe/Moscow", "Asia/Tbilisi", "Europe/Kyiv", "Asia/Kolkata", "America/New_York", "UTC"} <= set(zones)
    assert not set(LEGACY) & set(zones)
    assert all("/" in zone and not zone.startswith("Etc/") for zone in zones if zone != "UTC")
    assert len(zones) < len(zoneinfo.available_timezones()) - 150  # the aliases are gone
    assert all(zone in zoneinfo.available_timezones() for zone in zones)


def test_a_legacy_alias_stands_for_the_current_zone_it_links_to():
    assert canonical_zone("US/Eastern") == "America/New_York"
    assert canonical_zone("Europe/Kiev") == "Europe/Kyiv"
    assert canonical_zone("Cuba") == "America/Havana"
    assert canonical_zone("Etc/UTC") == "UTC"
    assert canonical_zone("Mars/Olympus") is None
    assert canonical_zone("Etc/GMT+3") is None  # a fixed offset, no place: not a zone a player lives in


def test_the_profile_form_offers_the_current_zones_in_a_searchable_list(signed_in):
    html = signed_in.get(reverse("profile_edit")).text
    assert re.search(r'<input type="text" name="time_zone" value="Europe/Moscow"[^>]*list="id_time_zone-zones"', html)
    assert offered(html) == list(current_zones())
    assert not set(LEGACY) & set(offered(html))


def test_the_list_names_each_zone_by_its_city_and_country_in_the_page_language(signed_in, user):
    html = signed_in.get(reverse("profile_edit"), HTTP_ACCEPT_LANGUAGE="ru").text
    assert '<option value="Asia/Tbilisi">Тбилиси, Грузия</option>' in html
    user.language = "en"
    user.save()
    html = signed_in.get(reverse("profile_edit")).text
    assert '<option value="Asia/Tbilisi">Tbilisi, Georgia</option>' in html


def test_an_account_on_the_default_zone_lets_the_browser_fill_in_its_zone(signed_in, user):
    assert 'data-browser-zone="fill"' in signed_in.get(reverse("profile_edit")).text
    user.time_zone = "Asia/Tbilisi"
    user.save()
    assert "data-browser-zone" not in signed_in.get(reverse("profile_edit")).text


def test_an_unknown_zone_is_refused_with_a_message_that_says_what_to_do(signed_in, user):
    response = signed_in.post(reverse("profile_edit"), {**PROFILE, "time_zone": "Mars/Olympus"})
    assert response.status_code == 200
    # He reads Russian.
    assert "Место «Mars/Olympus» нам неизвестно: введите крупный город вашего часового пояса" in response.text
    user.refresh_from_db()
    assert user.time_zone == "Europe/Moscow"
    user.language = "en"
    user.save()
    response = signed_in.post(reverse("profile_edit"), {**PROFILE, "time_zone": "Mars/Olympus"})
    assert "We do not know the place “Mars/Olympus”: type a larger city in your time zone" in response.text


def test_a_legacy_alias_typed_in_is_saved_as_its_current_zone(signed_in, user):
    signed_in.post(reverse("profile_edit"), {**PROFILE, "time_zone": "US/Eastern"})
    user.refresh_from_db()
    assert user.time_zone == "America/New_York"


@pytest.mark.django_db
def test_signup_keeps_the_zone_the_browser_filled_in(client):
    html = client.get(reverse("signup")).text
    assert 'data-browser-zone="fill"' in html and offered(html) == list(current_zones())
    client.post(reverse("signup"), {**SIGNUP, "time_zone": "Asia/Tbilisi"})
    assert get_user_model().objects.get(username="boris").time_zone == "Asia/Tbilisi"


@pytest.mark.django_db
def test_signup_without_a_zone_keeps_the_default_and_refuses_an_unknown_one(client):
    client.post(reverse("signup"), {**SIGNUP, "time_zone": ""})
    assert get_user_model().objects.get(username="boris").time_zone == "Europe/Moscow"
    client.logout()
    response = client.post(reverse("signup"), {**SIGNUP, "username": "vera", "time_zone": "Cuba/Havana"})
    assert response.status_code == 200 and "We do not know the place" in response.text
    assert not get_user_model().objects.filter(username="vera").exists()


@pytest.mark.parametrize("typed, zone", [
    ("Тбилиси", "Asia/Tbilisi"), ("тбилиси ", "Asia/Tbilisi"), ("Tbilisi", "Asia/Tbilisi"),
    ("Тбилиси, Грузия", "Asia/Tbilisi"), ("Грузия", "Asia/Tbilisi"), ("Москва", "Europe/Moscow"),
    ("Питер", "Europe/Moscow"), ("Санкт-Петербург", "Europe/Moscow"), ("г. Казань", "Europe/Moscow"),
    ("Киев", "Europe/Kyiv"), ("Київ", "Europe/Kyiv"), ("Kiev", "Europe/Kyiv"), ("Алматы", "Asia/Almaty"),
    ("Алма-Ата", "Asia/Almaty"), ("Екатеринбург", "Asia/Yekaterinburg"), ("Нью-Йорк", "America/New_York"),
    ("new york", "America/New_York"), ("Минск", "Europe/Minsk"),
])
def test_a_city_or_a_one_zone_country_typed_in_either_language_stands_for_its_zone(typed, zone):
    assert canonical_zone(typed) == zone


def test_a_place_we_cannot_place_is_no_zone():
    assert canonical_zone("Xyzzy") is None and canonical_zone("Mars/Olympus") is None


def test_a_city_typed_in_russian_is_saved_as_its_zone(signed_in, user):
    response = signed_in.post(reverse("profile_edit"), {**PROFILE, "time_zone": "Тбилиси"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.time_zone == "Asia/Tbilisi"
