"""A standing order that lapses is told to the player who set it, by email and push as his
notification preferences say ("A standing order lapsed"), in his language; never to anybody else."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from gameplay import services
from gameplay.models import Game, Seat, StandingOrder
from notifications import preferences
from notifications.channels import ORDER_LAPSED
from notifications.models import Delivery, Mode

from .conftest import JOKER, started_game

pytestmark = pytest.mark.django_db(transaction=True)

START = timezone.now().replace(microsecond=0) + timedelta(days=1)
LAPSED = "The deal ended before your order could apply."


def lapse_an_order(players) -> tuple[Game, int]:
    """The next bidder of a Joker deal orders a bid for another deal; at his release time it lapses."""
    with time_machine.travel(START, tick=False):
        game = started_game("joker", players)
        seat = (game.state["turn"] + 1) % 4
        services.set_order(game.pk, players[seat], "bid", {"tricks": 0})
        StandingOrder.objects.filter(game=game).update(scope=99)  # as if set at another deal
        bidder = game.state["turn"]
        services.submit_move(game.pk, players[bidder], JOKER.legal_actions(game.state, bidder)[0], game.version)
    with time_machine.travel(Seat.objects.get(game=game, position=seat).order_at, tick=False):
        assert services.release_orders(game.pk) == 0
    assert StandingOrder.objects.get(game=game).status == "lapsed"
    return game, seat


def lapse_notices(channel, user) -> list:
    return [n for n in channel.notices_to(user) if n.kind == ORDER_LAPSED]


def test_the_player_whose_order_lapsed_is_told_why_by_push_and_email_and_nobody_else_is(fake, players):
    game, seat = lapse_an_order(players)

    [notice] = lapse_notices(fake, players[seat])
    assert notice.title == "Your standing order lapsed"
    assert notice.body.startswith("Joker with ") and notice.body.endswith(LAPSED)
    assert notice.url.endswith(f"/games/{game.pk}/")
    assert [n for p in players if p != players[seat] for n in lapse_notices(fake, p)] == []
    assert set(Delivery.objects.filter(kind=ORDER_LAPSED).values_list("user_id", "destination")) == {
        (players[seat].pk, f"fake:{players[seat].pk}"), (players[seat].pk, "email")}
    lapse_mails = [m for m in mail.outbox if m.subject == "Your standing order lapsed"]
    assert [m.to for m in lapse_mails] == [[players[seat].email]]
    assert LAPSED in lapse_mails[0].body


def test_a_player_who_turned_these_notices_off_gets_none(fake, players):
    for player in players:
        preferences.save_preferences(player, {("email", ORDER_LAPSED): Mode.OFF,
                                              (f"fake:{player.pk}", ORDER_LAPSED): Mode.OFF})
    lapse_an_order(players)

    assert not Delivery.objects.filter(kind=ORDER_LAPSED).exists()
    assert not [m for m in mail.outbox if m.subject == "Your standing order lapsed"]


def test_the_notice_of_a_lapsed_order_is_in_the_players_language(fake, players):
    for player in players:
        player.language = "ru"
        player.save()
    game, seat = lapse_an_order(players)

    [notice] = lapse_notices(fake, players[seat])
    assert notice.title == "Ваш приказ истёк"
    assert LAPSED not in notice.body


def test_a_seat_taken_over_since_is_not_told_about_its_former_players_orders(fake, players, django_user_model):
    from notifications import subscribers

    game, seat = lapse_an_order(players)
    fake.sent.clear()
    substitute = django_user_model.objects.create_user("substitute", password="pw-not-used-1", language="en")
    Seat.objects.filter(game=game, position=seat).update(user=substitute)  # no longer his
    subscribers.orders_lapsed(game.pk, game.version + 1, seat, user_id=players[seat].pk, reasons=[LAPSED])

    assert fake.sent == []
