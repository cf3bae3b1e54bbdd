"""Challenges: named players, each accepts or declines, the table starts when
every seat is accepted (computer players in the others if asked), expiry,
friends-only, the rate limit; live, by email and to the signal."""

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from correspondence import services
from correspondence.models import Challenge, Follow, Invitation
from correspondence.signals import challenge_received
from gameplay.badge import user_group
from gameplay.models import Game
from moderation.services import people

from .conftest import client_for

pytestmark = pytest.mark.django_db

TABLE = {"time_preset": "correspondence"}


def challenge(by, *names, **kwargs) -> Challenge:
    return services.create_challenge(by, list(names), kwargs.pop("game_kind", "durak"), {}, TABLE, **kwargs)


def test_a_challenge_names_its_players_in_seat_order_and_waits_for_their_answers(players):
    me, a, b, *_ = players
    sent = challenge(me, "player1", "player2", game_kind="durak")
    assert sent.status == Challenge.Status.PENDING and sent.seats_count == 3
    assert [(i.user, i.position, i.answer) for i in sent.invitations.all()] == [(a, 1, "waiting"), (b, 2, "waiting")]
    assert sent.expires_at - timezone.now() == pytest.approx(timedelta(days=3), abs=timedelta(seconds=5))


def test_the_table_starts_when_the_last_player_accepts_with_the_chosen_options(players):
    me, a, b, *_ = players
    sent = challenge(me, "player1", "player2", rated=True)
    assert services.answer_challenge(sent.pk, a, True).status == Challenge.Status.PENDING
    assert not Game.objects.exists()
    done = services.answer_challenge(sent.pk, b, True)
    assert done.status == Challenge.Status.STARTED
    game = done.game
    assert game.status == Game.Status.ACTIVE and game.rated and game.time_preset == "correspondence"
    assert [s.user for s in game.seats.order_by("position")] == [me, a, b]


def test_computer_players_fill_the_seats_nobody_was_named_for_when_asked(players):
    me, a, *_ = players
    sent = challenge(me, "player1", fill_with_bots=True, players=4, game_kind="joker")
    game = services.answer_challenge(sent.pk, a, True).game
    assert game.status == Game.Status.ACTIVE
    assert [(s.user, s.is_bot) for s in game.seats.order_by("position")] == [(me, False), (a, False), (None, True), (None, True)]


def test_seats_left_empty_without_computer_players_are_refused(players):
    with pytest.raises(services.CorrespondenceError, match="Name a player for every seat"):
        challenge(players[0], "player1", players=4, game_kind="joker")


def test_a_decline_with_its_reason_ends_the_challenge(players):
    me, a, b, *_ = players
    sent = challenge(me, "player1", "player2")
    services.answer_challenge(sent.pk, a, True)
    closed = services.answer_challenge(sent.pk, b, False, "Too busy this week")
    assert closed.status == Challenge.Status.DECLINED
    assert Invitation.objects.get(challenge=sent, user=b).reason == "Too busy this week"
    with pytest.raises(services.CorrespondenceError, match="closed"):
        services.answer_challenge(sent.pk, a, True)
    assert not Game.objects.exists()


def test_only_a_challenged_player_answers_and_only_once(players):
    me, a, _, c, _ = players
    sent = challenge(me, "player1", "player2")
    with pytest.raises(services.CorrespondenceError, match="not for you"):
        services.answer_challenge(sent.pk, c, True)
    services.answer_challenge(sent.pk, a, True)
    with pytest.raises(services.CorrespondenceError, match="answered"):
        services.answer_challenge(sent.pk, a, False)


def test_an_expired_challenge_cannot_be_accepted(players):
    me, a, *_ = players
    sent = challenge(me, "player1")
    Challenge.objects.filter(pk=sent.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert services.answer_challenge(sent.pk, a, True).status == Challenge.Status.EXPIRED
    assert not Game.objects.exists()


def test_the_challenger_may_withdraw_a_waiting_challenge(players):
    me, a, *_ = players
    sent = challenge(me, "player1")
    with pytest.raises(services.CorrespondenceError):
        services.withdraw_challenge(sent.pk, a)
    assert services.withdraw_challenge(sent.pk, me).status == Challenge.Status.WITHDRAWN


def test_a_player_who_takes_challenges_from_friends_only_refuses_strangers(players):
    me, a, *_ = players
    a.challenges_from_friends_only = True
    a.save()
    with pytest.raises(services.CorrespondenceError, match="friends only"):
        challenge(me, "player1")
    assert not Challenge.objects.exists()
    Follow.objects.create(follower=a, followed=me)  # a follows me: I am his friend
    assert challenge(me, "player1").status == Challenge.Status.PENDING


@pytest.mark.parametrize("names,game_kind,message", [
    (["nobody"], "durak", "There is no player nobody"),
    (["player0"], "durak", "cannot challenge yourself"),
    (["player1", "player1"], "durak", "named twice"),
    ([], "durak", "at least one player"),
    (["player1"], "chess", "Unknown game"),
    (["player1", "player2", "player3", "player4"], "joker", "exactly 4 players"),
])
def test_bad_challenges_are_refused_with_a_clear_message_and_change_nothing(players, names, game_kind, message):
    with pytest.raises(services.CorrespondenceError, match=message):
        services.create_challenge(players[0], names, game_kind, {}, TABLE)
    assert not Challenge.objects.exists()


def test_a_bad_time_control_or_expiry_is_refused(players):
    with pytest.raises(services.CorrespondenceError):
        services.create_challenge(players[0], ["player1"], "durak", {}, {"move_seconds": 10 ** 9})
    with pytest.raises(services.CorrespondenceError):
        services.create_challenge(players[0], ["player1"], "durak", {}, {"bogus": 1})
    with pytest.raises(services.CorrespondenceError):
        services.create_challenge(players[0], ["player1"], "durak", {}, TABLE, expires_in=60)
    assert not Challenge.objects.exists()


def test_the_challenged_hear_of_it_live_by_email_and_through_the_signal(players, django_capture_on_commit_callbacks):
    me, a, b, *_ = players
    b.email_notifications = False
    b.save()
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(a.pk), channel)
    heard = []
    receiver = lambda sender, challenge, user, **kw: heard.append((challenge.pk, user.username))  # noqa: E731
    challenge_received.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            sent = challenge(me, "player1", "player2")
    finally:
        challenge_received.disconnect(receiver)
    notice = async_to_sync(layer.receive)(channel)
    assert notice == {"type": "user.notice", "for_watchers": False,
                      "notice": {"type": "notice", "kind": "challenge", "challenge": sent.pk, "by": me.name,
                                 "engine": "durak", "engine_name": "Durak",
                                 "terms": notice["notice"]["terms"]}}
    assert notice["notice"]["terms"][0] == "podkidnoy, 3 players"
    assert [m.to for m in mail.outbox] == [[a.email]]  # b takes no emails
    assert "player0 challenges you to Durak" in mail.outbox[0].subject
    assert reverse("challenges") in mail.outbox[0].body
    assert sorted(heard) == [(sent.pk, "player1"), (sent.pk, "player2")]


def test_the_email_is_in_the_players_language(players, django_capture_on_commit_callbacks):
    me, a, *_ = players
    a.language = "ru"
    a.save()
    with django_capture_on_commit_callbacks(execute=True):
        challenge(me, "player1")
    assert "вызывает" in mail.outbox[0].subject


def test_the_challenge_form_sends_a_challenge_and_the_page_lets_the_other_accept(players):
    me, a, *_ = players
    response = client_for(me).post(reverse("new_challenge"), {
        "usernames": "player1", "engine": "durak", "players": "2", "time_preset": "correspondence",
        "on_timeout": "autoplay", "night_pause": "on", "expires_in": str(24 * 3600), "series_length": "1",
        "durak_variant": "podkidnoy", "durak_deck": "36",
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    sent = Challenge.objects.get()
    page = client_for(a).get(reverse("challenges")).content.decode()
    assert reverse("answer_challenge", args=[sent.pk]) in page
    answered = client_for(a).post(reverse("answer_challenge", args=[sent.pk]), {"accept": "1"})
    sent.refresh_from_db()
    assert answered["Location"] == reverse("game", args=[sent.game_id])


def test_the_form_refuses_bad_input_without_a_server_error(players):
    client = client_for(players[0])
    assert client.post(reverse("new_challenge"), {"usernames": "nobody", "engine": "durak"}).status_code == 400
    assert client.post(reverse("answer_challenge", args=[999]), {"accept": "1"}).status_code == 302
    assert client.post(reverse("answer_challenge", args=[999]), {"accept": "x"}).status_code == 302
    assert client.post(reverse("withdraw_challenge", args=[999])).status_code == 302
    assert not Challenge.objects.exists()


def test_challenges_per_account_are_rate_limited(players, settings):
    settings.CHALLENGES_PER_USER = "2/h"
    client = client_for(players[0])
    form = {"usernames": "player1", "engine": "durak", "players": "2", "time_preset": "correspondence",
            "on_timeout": "autoplay", "expires_in": str(24 * 3600), "series_length": "1"}
    assert [client.post(reverse("new_challenge"), form).status_code for _ in range(3)] == [302, 302, 429]
    assert Challenge.objects.count() == 2
    # Another account has its own counter.
    assert client_for(players[2]).post(reverse("new_challenge"), form).status_code == 302


def test_the_player_search_finds_names_for_the_form(players):
    client = client_for(players[0])
    found = client.get(reverse("search_players") + "?q=play").json()["players"]
    assert [p["username"] for p in found] == ["player1", "player2", "player3", "player4"]
    assert client.get(reverse("search_players") + "?q=p").json() == {"players": []}


def test_a_suspended_account_neither_challenges_nor_accepts(players):
    me, a, *_ = players
    sent = challenge(me, "player1")
    a.suspended_at, a.suspended_until = timezone.now(), timezone.now() + timedelta(days=1)
    a.save()
    with pytest.raises(services.CorrespondenceError, match="suspended"):
        services.answer_challenge(sent.pk, a, True)
    with pytest.raises(services.CorrespondenceError, match="suspended"):
        challenge(a, "player0")
    assert services.answer_challenge(sent.pk, a, False).status == Challenge.Status.DECLINED  # declining is fine


def test_a_suspended_account_cannot_be_challenged_and_the_refusal_does_not_say_why(players, django_user_model):
    people.suspend(players[1].pk, django_user_model.objects.create_superuser("root", "root@example.org", "pw"), "spam")

    with pytest.raises(services.CorrespondenceError) as refused:
        services.create_challenge(players[0], [players[1].username], "durak")

    assert refused.value.code == "refused"
    assert refused.value.message == f"{players[1].name} cannot take challenges now."
    assert not Challenge.objects.exists()
