"""End to end: a real move in a real game -> the game event -> the dispatcher -> the
Telegram channel -> the local Bot API stand-in receives "Your move" for the next
player, in his language, with the button that opens the game."""

import pytest

from gameplay import services
from notifications.models import Delivery
from notifications.telegram import links

from .conftest import a_legal_action, acting_player, bot_hears, started_game

pytestmark = pytest.mark.django_db(transaction=True)
FIRST_CHAT = 5550500


def test_a_move_sends_the_next_player_your_move_with_the_games_button(settings, telegram, players):
    chats = {}
    for number, player in enumerate(players):
        chats[player.pk] = FIRST_CHAT + number
        bot_hears(telegram, chats[player.pk], f"/start {links.new_token(player)}")
    type(players[0]).objects.filter(pk__in=[p.pk for p in players]).update(language="ru")
    game = started_game("joker", players)
    position, mover = acting_player(game, players)
    telegram.messages.clear()

    services.submit_move(game.pk, mover, a_legal_action(game, position), expected_version=game.version)

    game.refresh_from_db()
    next_position, next_player = acting_player(game, players)
    [message] = telegram.wait_for_messages(chats[next_player.pk], 1)
    assert message["text"].startswith("<b>Ваш ход</b>\nДжокер: ") and "осталось" in message["text"]
    [[button]] = message["reply_markup"]["inline_keyboard"]
    assert button == {"text": "Открыть партию", "url": f"{settings.SITE_URL.rstrip('/')}/games/{game.pk}/"}
    assert {m["chat_id"] for m in telegram.messages} == {chats[next_player.pk]}
    assert Delivery.objects.filter(user=next_player, destination="telegram", state=Delivery.State.SENT).exists()
