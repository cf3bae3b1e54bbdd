"""A player links his account to Telegram from the profile by a one-time deep link
(/start <token>); a used or expired link is refused; without a bot token the
profile does not offer Telegram at all."""

from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from notifications.telegram import links
from notifications.telegram.models import TelegramLink, TelegramLinkToken

from .conftest import bot_hears
from .telegram_stand_in import BOT_USERNAME

pytestmark = pytest.mark.django_db
CHAT = 5550001


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("anna", password="pw-not-used-1", language="en", time_zone="UTC")


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def deep_link_token(client: Client) -> str:
    response = client.get("/telegram/link/")
    assert response.status_code == 302
    url = urlsplit(response["Location"])
    assert (url.scheme, url.netloc, url.path) == ("https", "t.me", f"/{BOT_USERNAME}")
    return parse_qs(url.query)["start"][0]


def test_without_a_bot_token_the_profile_does_not_offer_telegram(settings, player):
    settings.TELEGRAM_BOT_TOKEN = ""
    client = signed_in(player)

    page = client.get("/accounts/profile/").content.decode()

    assert "Link Telegram" not in page and 'id="telegram"' not in page
    assert client.get("/telegram/link/").status_code == 404


def test_the_profile_offers_a_deep_link_that_start_turns_into_a_linked_chat(telegram, player):
    client = signed_in(player)
    assert "Link Telegram" in client.get("/accounts/profile/").content.decode()

    token = deep_link_token(client)
    [reply] = bot_hears(telegram, CHAT, f"/start {token}")

    link = TelegramLink.objects.get(user=player)
    assert (link.chat_id, link.stopped, link.muted_until) == (CHAT, False, None)
    assert reply["text"].startswith("Linked: you are anna on ")
    assert "/games" in reply["text"]
    assert TelegramLinkToken.objects.get(user=player).digest != token  # only its hash is kept
    page = client.get("/accounts/profile/").content.decode()
    assert "Linked: your notifications come to Telegram." in page and "Unlink Telegram" in page


def test_the_bot_asks_getme_for_its_name_once(telegram, player):
    client = signed_in(player)
    deep_link_token(client)
    deep_link_token(client)

    assert telegram.calls.count("getme") == 1


def test_a_used_link_is_refused_and_links_nobody_else(telegram, player):
    token = links.new_token(player)
    bot_hears(telegram, CHAT, f"/start {token}")

    [reply] = bot_hears(telegram, CHAT + 1, f"/start {token}")

    assert "expired or was already used" in reply["text"]
    assert list(TelegramLink.objects.values_list("chat_id", flat=True)) == [CHAT]


def test_an_expired_link_is_refused(telegram, player):
    token = links.new_token(player)
    TelegramLinkToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    [reply] = bot_hears(telegram, CHAT, f"/start {token}")

    assert "expired or was already used" in reply["text"]
    assert not TelegramLink.objects.exists()


def test_a_made_up_token_is_refused_in_the_language_of_the_telegram_app(telegram):
    [reply] = bot_hears(telegram, CHAT, "/start not-a-token", language="ru")

    assert "Ссылка устарела или уже использована" in reply["text"]


def test_the_bot_answers_a_linked_player_in_his_own_language(telegram, django_user_model):
    boris = django_user_model.objects.create_user("boris", password="pw-not-used-1", language="ru")

    [reply] = bot_hears(telegram, CHAT, f"/start {links.new_token(boris)}", language="en")

    assert reply["text"].startswith("Готово: вы boris на ")


def test_a_new_link_replaces_the_players_older_one(telegram, player):
    bot_hears(telegram, CHAT, f"/start {links.new_token(player)}")
    bot_hears(telegram, CHAT + 1, f"/start {links.new_token(player)}")

    assert list(TelegramLink.objects.values_list("user_id", "chat_id")) == [(player.pk, CHAT + 1)]


def test_unlink_on_the_profile_drops_the_link(telegram, player):
    bot_hears(telegram, CHAT, f"/start {links.new_token(player)}")
    client = signed_in(player)

    response = client.post("/telegram/unlink/")

    assert response.status_code == 302
    assert not TelegramLink.objects.exists()
    assert "Link Telegram" in client.get("/accounts/profile/").content.decode()
