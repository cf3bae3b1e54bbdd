"""Issue 40, part 2: the sessions page gives each session's place by its
network address, read from the MaxMind-format database GEOIP_DATABASE names;
without one (or for an address it does not hold) it says "place unknown".
The databases here are tiny ones written by the test (mmdb-writer)."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts import places

mmdb_writer = pytest.importorskip("mmdb_writer")
netaddr = pytest.importorskip("netaddr")

PASSWORD = "an-old-password-1"
ODESSA = {"city": {"names": {"en": "Odessa", "ru": "Одесса"}},
          "country": {"iso_code": "UA", "names": {"en": "Ukraine", "ru": "Украина"}}}


def database(path, kind: str = "City") -> str:
    """A .mmdb of the GeoLite2 layout holding one network, 203.0.113.0/24, in Odessa."""
    writer = mmdb_writer.MMDBWriter(ip_version=4, database_type=f"GeoLite2-{kind}", languages=["en", "ru"],
                                    description={"en": "a test database", "ru": "база теста"})
    record = ODESSA if kind == "City" else {"country": ODESSA["country"]}
    writer.insert_network(netaddr.IPSet(["203.0.113.0/24"]), record)
    file = path / f"places-{kind}.mmdb"
    writer.to_db_file(str(file))
    return str(file)


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user("anna", "anna@example.com", PASSWORD, language="en")


def logged_in(address: str) -> Client:
    client = Client(REMOTE_ADDR=address)
    assert client.post(reverse("login"), {"username": "anna", "password": PASSWORD}).status_code == 302
    return client


def places_shown(client: Client) -> list[str]:
    page = client.get(reverse("my_sessions")).text
    return [cell.split(">", 1)[1].split("</td>")[0].replace('<span class="muted">', "").replace("</span>", "")
            for cell in page.split('<td class="place"')[1:]]


def test_a_session_s_place_is_read_from_the_database(anna, settings, tmp_path):
    settings.GEOIP_DATABASE = database(tmp_path)
    odessa = logged_in("203.0.113.9")
    logged_in("198.51.100.20")  # not in the database
    assert sorted(places_shown(odessa)) == ["Odessa, Ukraine", "place unknown"]


def test_the_place_is_named_in_the_readers_language(anna, settings, tmp_path):
    settings.GEOIP_DATABASE = database(tmp_path)
    anna.language = "ru"
    anna.save(update_fields=["language"])
    assert places_shown(logged_in("203.0.113.9")) == ["Одесса, Украина"]


def test_a_country_database_gives_the_country(anna, settings, tmp_path):
    settings.GEOIP_DATABASE = database(tmp_path, "Country")
    assert places_shown(logged_in("203.0.113.9")) == ["Ukraine"]


@pytest.mark.parametrize("configured", ["", "/nowhere/GeoLite2-City.mmdb", "not a database"])
def test_without_a_usable_database_the_address_is_shown_and_the_place_unknown(anna, settings, tmp_path, configured):
    if configured == "not a database":
        configured = str(tmp_path / "broken.mmdb")
        (tmp_path / "broken.mmdb").write_bytes(b"this is no database")
    settings.GEOIP_DATABASE = configured
    client = logged_in("203.0.113.9")
    assert places_shown(client) == ["place unknown"]
    assert "203.0.113.9" in client.get(reverse("my_sessions")).text


def test_an_address_that_is_not_one_has_no_place(settings, tmp_path):
    settings.GEOIP_DATABASE = database(tmp_path)
    assert places.place_of("203.0.113.9", "en") == "Odessa, Ukraine"
    assert places.place_of("somewhere.example", "en") is None and places.place_of(None) is None


def test_the_new_device_email_names_the_place_of_its_address(anna, settings, tmp_path, django_capture_on_commit_callbacks):
    from django.core import mail

    settings.GEOIP_DATABASE = database(tmp_path)
    Client(HTTP_USER_AGENT="Firefox", REMOTE_ADDR="198.51.100.20").post(
        reverse("login"), {"username": "anna", "password": PASSWORD})
    with django_capture_on_commit_callbacks(execute=True):
        Client(HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0", REMOTE_ADDR="203.0.113.9").post(
            reverse("login"), {"username": "anna", "password": PASSWORD})
    assert "The place of that address: Odessa, Ukraine." in mail.outbox[-1].body
