"""A visitor who is not signed in reads the whole table in his browser's
language: the page, the engine's name, the score sheet and the WebSocket's
messages; a signed-in player reads his profile's language everywhere."""

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application

from .conftest import started_game
from .test_consumer import ORIGIN, headers_for


def ask_unknown(game_id: int, headers: list) -> dict:
    """The socket's answer to a frame of an unknown type."""
    async def scenario():
        ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
        connected, _ = await ws.connect()
        assert connected
        await ws.receive_json_from(timeout=5)  # state
        await ws.receive_json_from(timeout=5)  # chat history
        await ws.send_json_to({"type": "dance"})
        answer = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return answer

    return async_to_sync(scenario)()


@pytest.mark.django_db
@pytest.mark.parametrize("engine, players_count", [("durak", 2), ("joker", 4), ("ipuker", 4),
                                                          ("odessa", 3)])
def test_a_logged_out_russian_visitor_reads_the_engine_name_and_the_sheet_in_russian(players, engine, players_count):
    game = started_game(engine, players[:players_count])
    page = Client().get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    russian_name = {"durak": "Дурак", "joker": "Джокер", "ipuker": "Ипукер", "odessa": "Одесский покер"}[engine]
    assert f"<title>{russian_name} #{game.pk}" in page
    assert "Лист счёта" in page and "Score sheet" not in page
    sheet = Client().get(f"/sheets/{game.pk}/fragment/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    english = Client().get(f"/sheets/{game.pk}/fragment/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert sheet != english  # the sheet's words follow the request's language


@pytest.mark.django_db
def test_a_logged_out_english_visitor_of_a_russian_site_reads_english(players, settings):
    settings.LANGUAGE_CODE = "ru"
    game = started_game("durak", players[:2])
    page = Client().get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<title>Durak #" in page and "Score sheet" in page and "Лист счёта" not in page


@pytest.mark.django_db(transaction=True)
def test_a_logged_out_spectators_socket_answers_in_his_accept_language(players):
    game = started_game("durak", players[:2])
    russian = ask_unknown(game.pk, [ORIGIN, (b"accept-language", b"ru-RU,ru;q=0.9,en;q=0.5")])
    english = ask_unknown(game.pk, [ORIGIN, (b"accept-language", b"en-GB,en;q=0.9")])
    assert russian["type"] == "error" and russian["message"] == "Неизвестный тип сообщения."
    assert english["message"] == "Unknown message type."


@pytest.mark.django_db(transaction=True)
def test_the_language_cookie_wins_over_accept_language_on_the_socket(players):
    game = started_game("durak", players[:2])
    cookie = f"{settings.LANGUAGE_COOKIE_NAME}=ru".encode()
    answer = ask_unknown(game.pk, [ORIGIN, (b"accept-language", b"en"), (b"cookie", cookie)])
    assert answer["message"] == "Неизвестный тип сообщения."


@pytest.mark.django_db(transaction=True)
def test_a_signed_in_players_socket_answers_in_his_profiles_language_whatever_his_browser_says(players):
    game = started_game("durak", players[:2])
    players[1].language = "ru"
    players[1].save()
    answer = ask_unknown(game.pk, headers_for(players[1]) + [(b"accept-language", b"en")])
    assert answer["message"] == "Неизвестный тип сообщения."
