"""Every moderator action leaves exactly one audit row, through its service
and through the admin; aborting and hiding included; nothing is deleted."""

import pytest
from django.urls import reverse

from gameplay import services
from gameplay.models import ChatMessage, Game, Move
from moderation.models import AuditEntry
from tests.gameplay.conftest import a_legal_action, acting_player, client_for
from moderation.services import games as moderation_actions

pytestmark = pytest.mark.django_db


def play_one_move(game: Game, players) -> None:
    position, user = acting_player(game, players)
    services.submit_move(game.pk, user, a_legal_action(game, position), game.version)


ACTIONS = {
    "abort": lambda game, moderator, message: moderation_actions.abort_game(game.pk, moderator, "Why"),
    "adjudicate": lambda game, moderator, message: moderation_actions.adjudicate_game(game.pk, moderator, "Why",
                                                                              {"places": [1, 2, 3, 4]}),
    "substitute": lambda game, moderator, message: moderation_actions.substitute_seat(game.pk, 3, moderator, "Why"),
    "hide_chat": lambda game, moderator, message: moderation_actions.set_chat_hidden(message.pk, moderator, "Why", True),
}


@pytest.mark.parametrize("action", list(ACTIONS))
def test_each_action_through_its_service_leaves_one_audit_row_and_every_move(action, joker_game, players, moderator):
    play_one_move(joker_game, players)
    message = services.post_chat(joker_game.pk, players[0], "hello")
    moves = list(Move.objects.filter(game=joker_game).values_list("pk", flat=True))
    ACTIONS[action](joker_game, moderator, message)
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.moderator, entry.reason, entry.game_id) == (action, moderator, "Why", joker_game.pk)
    assert set(moves) <= set(Move.objects.filter(game=joker_game).values_list("pk", flat=True))


def test_showing_a_message_again_is_one_more_row_and_repeating_either_is_refused(joker_game, players, moderator):
    message = services.post_chat(joker_game.pk, players[0], "rude words")
    moderation_actions.set_chat_hidden(message.pk, moderator, "Insults", True)
    with pytest.raises(services.GameError):
        moderation_actions.set_chat_hidden(message.pk, moderator, "Again", True)
    moderation_actions.set_chat_hidden(message.pk, moderator, "It was a quote", False)
    with pytest.raises(services.GameError):
        moderation_actions.set_chat_hidden(message.pk, moderator, "Again", False)
    rows = list(AuditEntry.objects.order_by("pk").values_list("action", "chat_message", "target_user", "before", "after"))
    assert rows == [("hide_chat", message.pk, players[0].pk, {"hidden": False}, {"hidden": True}),
                    ("unhide_chat", message.pk, players[0].pk, {"hidden": True}, {"hidden": False})]


def test_a_message_is_not_hidden_without_a_reason(joker_game, players, moderator):
    message = services.post_chat(joker_game.pk, players[0], "rude words")
    with pytest.raises(services.GameError):
        moderation_actions.set_chat_hidden(message.pk, moderator, "  ", True)
    assert not ChatMessage.objects.get(pk=message.pk).hidden and not AuditEntry.objects.exists()


def test_a_moderator_aborts_in_the_admin_and_the_audit_has_it(joker_game, players, moderator):
    play_one_move(joker_game, players)
    client = client_for(moderator)
    url = reverse("admin:gameplay_game_abort", args=[joker_game.pk])
    assert client.post(url, {"reason": ""}).status_code == 200
    assert client.post(url, {"reason": "Cheating reported"}).status_code == 302
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.before["status"], entry.after["status"]) == ("abort", "active", "aborted")
    assert Move.objects.filter(game=joker_game).count() == 1
    page = client.get(reverse("admin:gameplay_game_change", args=[joker_game.pk])).content.decode()
    assert "Cheating reported" in page  # the game's moderation log


def test_a_moderator_hides_and_shows_messages_in_the_admin_with_one_reason_for_all(joker_game, players, moderator):
    first = services.post_chat(joker_game.pk, players[0], "rude words")
    second = services.post_chat(joker_game.pk, players[1], "more rude words")
    client = client_for(moderator)
    url = reverse("admin:gameplay_chatmessage_changelist")
    chosen = {"_selected_action": [first.pk, second.pk]}
    asked = client.post(url, {"action": "hide", **chosen})
    assert asked.status_code == 200 and 'name="reason"' in asked.content.decode()
    assert not AuditEntry.objects.exists()
    client.post(url, {"action": "hide", "apply": "1", "reason": "Insults", **chosen})
    assert list(ChatMessage.objects.order_by("pk").values_list("hidden", flat=True)) == [True, True]
    client.post(url, {"action": "show", "apply": "1", "reason": "Misread", "_selected_action": [first.pk]})
    assert ChatMessage.objects.get(pk=first.pk).hidden is False
    assert sorted(AuditEntry.objects.values_list("action", flat=True)) == ["hide_chat", "hide_chat", "unhide_chat"]


def test_the_audit_list_filters_by_action_and_opens_read_only(joker_game, moderator):
    moderation_actions.abort_game(joker_game.pk, moderator, "Broken")
    client = client_for(moderator)
    listed = client.get(reverse("admin:moderation_auditentry_changelist"), {"action__exact": "abort"})
    assert listed.status_code == 200 and "Broken" in listed.content.decode()
    entry = AuditEntry.objects.get()
    page = client.get(reverse("admin:moderation_auditentry_change", args=[entry.pk]))
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.post(reverse("admin:moderation_auditentry_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.count() == 1
