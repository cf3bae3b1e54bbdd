"""Private notes: saved as typed, kept after the game, read back only by
their writer. Swap test: changing one player's notes changes nothing any
other seat, a spectator or a moderator is sent (state messages, the game
page and its state, sheets, record, export, replay, the admin's pages)."""

import json

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from correspondence import services
from correspondence.models import Note
from gameplay import services as game_services
from gameplay.broadcast import game_payload
from tests.gameplay.test_secrecy_payloads import page_differences, without_per_request_parts

from .conftest import client_for

pytestmark = pytest.mark.django_db

SECRET_A = "Plan: lead the ace of spades, she holds the queen"
SECRET_B = "Something else entirely, thirteen words of nothing in particular here"


@pytest.fixture
def joker(players):
    return game_services.create_seated_game(players[:4], "joker", {})


def save(client, game, text):
    return client.post(reverse("game_notes", args=[game.pk]), json.dumps({"text": text}),
                       content_type="application/json")


def test_notes_are_saved_and_read_back_by_their_writer_only(players, joker):
    writer, other = client_for(players[0]), client_for(players[1])
    assert save(writer, joker, SECRET_A).json()["saved"] is True
    assert writer.get(reverse("game_notes", args=[joker.pk])).json() == {"text": SECRET_A}
    assert other.get(reverse("game_notes", args=[joker.pk])).json() == {"text": ""}
    assert save(other, joker, "mine").status_code == 200
    assert writer.get(reverse("game_notes", args=[joker.pk])).json() == {"text": SECRET_A}


def test_notes_are_kept_and_still_editable_after_the_game_ends(players, joker):
    writer = client_for(players[0])
    save(writer, joker, SECRET_A)
    game_services.resign(joker.pk, players[0])
    assert writer.get(reverse("game_notes", args=[joker.pk])).json() == {"text": SECRET_A}
    assert save(writer, joker, SECRET_B).status_code == 200
    assert Note.objects.get().text == SECRET_B


def test_only_the_players_of_a_game_keep_notes_on_it(players, joker):
    stranger = client_for(players[4])
    response = save(stranger, joker, "hello")
    assert response.status_code == 400 and "Only the players" in response.json()["error"]
    assert Client().get(reverse("game_notes", args=[joker.pk])).status_code == 302  # to log in
    assert not Note.objects.exists()


@pytest.mark.parametrize("body", [b"not json", b"[1]", json.dumps({"text": 5}).encode(),
                                  json.dumps({"text": "x" * 10_001}).encode(), json.dumps({"text": "a\x00b"}).encode(),
                                  json.dumps({"text": "\ud800"}).encode()])
def test_bad_notes_are_refused_with_a_message_and_nothing_saved(players, joker, body):
    response = client_for(players[0]).post(reverse("game_notes", args=[joker.pk]), body,
                                           content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]
    assert not Note.objects.exists()


def test_notes_on_a_game_that_does_not_exist_are_refused(players):
    assert save(client_for(players[0]), type("G", (), {"pk": 9999})(), "x").status_code == 404


def test_notes_are_not_in_the_admin(joker):
    assert Note not in admin.site._registry


PAGES = [("game", True), ("game_state", True), ("sheet", True), ("sheet_fragment", True), ("game_record", True),
         ("record_export", True), ("replay", True)]


def _everything_sent(game, clients: dict, moderator) -> dict:
    game.refresh_from_db()
    seats = list(game.seats.select_related("user"))
    shown = {}
    for position in [None, *range(1, game.seats_count)]:
        payload = game_payload(game, position, seats)
        del payload["server_time"]
        shown[position, "payload"] = json.dumps(payload, sort_keys=True, default=str)
    for who, client in clients.items():
        for page, _ in PAGES:
            response = client.get(reverse(page, args=[game.pk]))
            if response.status_code == 404:  # a page only a finished game has
                continue
            shown[who, page] = without_per_request_parts(response.content.decode())
        shown[who, "notes"] = client.get(reverse("game_notes", args=[game.pk])).content.decode() \
            if who not in ("spectator", "moderator") else ""
    admin_client = client_for(moderator)
    for name in ("admin:gameplay_game_change", ):
        shown["moderator", name] = without_per_request_parts(
            admin_client.get(reverse(name, args=[game.pk])).content.decode())
    shown["moderator", "seats"] = without_per_request_parts(
        admin_client.get(reverse("admin:gameplay_seat_changelist") + f"?game__id__exact={game.pk}").content.decode())
    return shown


@pytest.mark.parametrize("finished", [False, True])
def test_swapping_a_players_notes_changes_nothing_another_seat_a_spectator_or_a_moderator_is_sent(
        players, joker, django_user_model, finished):
    moderator = django_user_model.objects.create_superuser("moderator", password="pw", email="m@example.com",
                                                           language="en")
    if finished:
        game_services.resign(joker.pk, players[3])
    writer = client_for(players[0])
    others = {position: client_for(players[position]) for position in (1, 2, 3)}
    clients = {**others, "spectator": Client(), "moderator": client_for(moderator)}
    save(writer, joker, SECRET_A)
    first = _everything_sent(joker, clients, moderator)
    save(writer, joker, SECRET_B)
    second = _everything_sent(joker, clients, moderator)
    assert page_differences(first, second) == []
    assert not any(SECRET_A in text or SECRET_B in text for text in [*first.values(), *second.values()])


def test_the_writers_own_pages_carry_the_notes_only_through_the_notes_address(players, joker):
    writer = client_for(players[0])
    save(writer, joker, SECRET_A)
    html = writer.get(reverse("game", args=[joker.pk])).content.decode()
    assert SECRET_A not in html
    assert f'data-url="{reverse("game_notes", args=[joker.pk])}"' in html


def test_the_service_never_reads_another_players_notes(players, joker):
    services.save_note(joker.pk, players[0], SECRET_A)
    assert services.note_text(joker.pk, players[1]) == ""
    assert services.note_text(joker.pk, players[0]) == SECRET_A
