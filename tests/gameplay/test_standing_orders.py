"""Standing orders on the platform (gameplay/services/orders.py): set and cancelled through the
page's endpoint and the API, shown to their seat alone, applied by the server at the player's turn
at a secret moment, as his own move; lapsing with a notice; never for a substitute or a computer;
racing the player's own move, the deadline and a moderator, exactly one moves."""

import json
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from gameplay import clocks, services
from gameplay.broadcast import FanOut, game_payload
from gameplay.engine import get_engine
from gameplay.models import Game, Move, Seat, StandingOrder
from gameplay.movelog import move_log
from gameplay.services import interventions
from tests.engine.durak_helpers import scripted

from .conftest import client_for, started_game

pytestmark = pytest.mark.django_db

JOKER = get_engine("joker")
DURAK = get_engine("durak")
START = timezone.now().replace(microsecond=0) + timedelta(days=1)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def post_orders(user, game, body) -> tuple[int, dict]:
    data = body if isinstance(body, str) else json.dumps(body)
    response = client_for(user).post(reverse("game_orders", args=[game.pk]), data=data,
                                     content_type="application/json")
    return response.status_code, response.json()


def joker_at_bids(players) -> Game:
    """A Joker table at the bids of its first deal (the trump is turned up)."""
    game = started_game("joker", players)
    assert game.state["phase"] == "bid"
    return game


def next_bidder(game: Game) -> int:
    return (game.state["turn"] + 1) % 4


def bid_by_hand(game: Game, players) -> Game:
    seat = game.state["turn"]
    services.submit_move(game.pk, players[seat], JOKER.legal_actions(game.state, seat)[0], game.version)
    return fresh(game)


@pytest.fixture
def durak_table(players):
    """Makes a two-player Durak game in play with scripted hands (`tests.engine.durak_helpers.scripted`:
    seat 0 attacks, seat 1 defends, trump ♥ unless said), its clocks started now."""
    def make(hands: list[list[str]], **script) -> Game:
        game = started_game("durak", players[:2])
        Game.objects.filter(pk=game.pk).update(state=scripted(hands, **script))
        game = fresh(game)
        services.update_clocks(game, DURAK, timezone.now(), mover=None)
        return game
    return make


def without_time(payload: dict) -> dict:
    payload = dict(payload)
    payload.pop("server_time", None)
    return payload


# -- set, see, cancel ---------------------------------------------------------------------------------


def test_a_player_sets_an_order_on_the_page_and_only_his_own_state_lists_it(players):
    game = joker_at_bids(players)
    seat = next_bidder(game)
    before = {p: without_time(game_payload(fresh(game), p)) for p in (None, *range(4)) if p != seat}
    status, answer = post_orders(players[seat], game, {"set": {"kind": "bid", "params": {"tricks": 0}}})
    assert status == 200 and answer["type"] == "orders_ack"
    mine = game_payload(fresh(game), seat)["orders"]
    assert [(o["kind"], o["params"], o["status"]) for o in mine["list"]] == [("bid", {"tricks": 0}, "pending")]
    assert {"kind": "bid", "params": {"tricks": list(range(game.state["cards"] + 1))}} in mine["kinds"]
    after = {p: without_time(game_payload(fresh(game), p)) for p in before}
    assert after == before  # nobody else is told anything
    assert fresh(game).version == game.version


def test_a_player_cancels_his_order_in_one_click(players):
    game = joker_at_bids(players)
    seat = next_bidder(game)
    _, answer = post_orders(players[seat], game, {"set": {"kind": "forced", "params": {}}})
    assert post_orders(players[seat], game, {"cancel": answer["id"]}) == (200, {"type": "orders_ack"})
    assert StandingOrder.objects.get(pk=answer["id"]).status == "cancelled"
    assert game_payload(fresh(game), seat)["orders"]["list"] == []
    assert not Seat.objects.get(game=game, position=seat).has_orders


def test_setting_an_order_of_a_kind_again_replaces_the_pending_one(players):
    game = joker_at_bids(players)
    seat = next_bidder(game)
    services.set_order(game.pk, players[seat], "bid", {"tricks": 0})
    services.set_order(game.pk, players[seat], "bid", {"tricks": 1})
    assert list(StandingOrder.objects.filter(game=game, status="pending").values_list("params", flat=True)) == [
        {"tricks": 1}]


@pytest.mark.parametrize("body, status, message", [
    ({"set": {"kind": "take", "params": {}}}, 422, "You cannot set the order 'take' now in this game."),
    ({"set": {"kind": "bid", "params": {"tricks": 42}}}, 422, "The value 42 is not allowed for tricks now."),
    ({"set": {"kind": "bid", "params": "two"}}, 422, "The parameters of an order must be an object."),
    ({"set": {"kind": 5}}, 422, "An order must name its kind."),
    ({"cancel": "x"}, 400, "Say which order to cancel."),
    ({"cancel": 999999}, 404, "You have no such pending order."),
    ({"what": 1}, 400, None),
    ("not json", 400, None),
])
def test_bad_orders_get_a_clear_error_and_the_game_is_unharmed(players, body, status, message):
    game = joker_at_bids(players)
    seat = next_bidder(game)
    got, answer = post_orders(players[seat], game, body)
    assert got == status
    if message:
        assert answer["message"] == message
    assert fresh(game).state == game.state and fresh(game).version == game.version
    assert not StandingOrder.objects.exists()


def test_an_order_at_a_seat_that_is_not_yours_is_refused(players, django_user_model):
    game = joker_at_bids(players)
    outsider = django_user_model.objects.create_user("outsider", password="pw-not-used-1")
    got, answer = post_orders(outsider, game, {"set": {"kind": "forced", "params": {}}})
    assert got == 403 and answer["code"] == "not_seated"
    assert not StandingOrder.objects.exists()


def test_the_orders_answer_in_russian(players):
    game = joker_at_bids(players)
    players[0].language = "ru"
    players[0].save()
    client = client_for(players[0])
    response = client.post(reverse("game_orders", args=[game.pk]), data=json.dumps(
        {"set": {"kind": "take", "params": {}}}), content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru")
    assert "нельзя" in response.json()["message"].lower() or "приказ" in response.json()["message"].lower()


# -- applied at the player's turn, as his move ----------------------------------------------------------


def test_an_order_applies_at_its_release_time_as_the_players_own_move(players):
    with time_machine.travel(START, tick=False):
        game = joker_at_bids(players)
        seat = next_bidder(game)
        services.set_order(game.pk, players[seat], "bid", {"tricks": 0})
        game = bid_by_hand(game, players)
        waiting = Seat.objects.get(game=game, position=seat)
        assert waiting.order_at is not None and waiting.clock_started_at == START
        delay = clocks.release_delay(settings.SECRET_KEY, game.pk, game.version, seat, waiting.clock_seconds,
                                     settings.ORDER_RELEASE_MAX_SECONDS)
        assert waiting.order_at == START + timedelta(seconds=delay) < waiting.deadline
        assert services.release_orders(game.pk) == 0  # not yet
    with time_machine.travel(waiting.order_at, tick=False):
        assert services.release_orders(game.pk) == 1
    move = Move.objects.get(game=game, seq=game.version + 1)
    assert (move.position, move.action, move.by, move.user_id) == (seat, {"type": "bid", "tricks": 0}, "player",
                                                                   players[seat].pk)
    order = StandingOrder.objects.get(game=game)
    assert (order.status, order.move_seq) == ("applied", move.seq)
    game = fresh(game)
    seats = list(game.seats.all())
    assert move_log(game, seats, seat)[-1].by == "by your order"
    for other in (None, *[p for p in range(4) if p != seat]):
        assert move_log(game, seats, other)[-1].by == ""


def test_the_sweep_releases_due_orders(players):
    from gameplay.tasks import sweep

    with time_machine.travel(START, tick=False):
        game = joker_at_bids(players)
        seat = next_bidder(game)
        services.set_order(game.pk, players[seat], "bid", {"tricks": 1})
        game = bid_by_hand(game, players)
    with time_machine.travel(Seat.objects.get(game=game, position=seat).order_at, tick=False):
        assert sweep()["released"] == 1
    assert Move.objects.filter(game=game, action={"type": "bid", "tricks": 1}, position=seat).exists()


def test_an_order_that_does_not_apply_waits_and_the_player_moves_himself(players):
    with time_machine.travel(START, tick=False):
        game = joker_at_bids(players)
        seat = next_bidder(game)
        services.set_order(game.pk, players[seat], "duck", {})  # only in play, not at the bids
        game = bid_by_hand(game, players)
    with time_machine.travel(Seat.objects.get(game=game, position=seat).order_at, tick=False):
        assert services.release_orders(game.pk) == 0
    assert fresh(game).version == game.version
    assert StandingOrder.objects.get(game=game).status == "pending"


def test_a_lapsed_order_is_marked_and_its_player_told_why(players):
    with time_machine.travel(START, tick=False):
        game = joker_at_bids(players)
        seat = next_bidder(game)
        services.set_order(game.pk, players[seat], "bid", {"tricks": 0})
        StandingOrder.objects.filter(game=game).update(scope=99)  # as if set at another deal
        game = bid_by_hand(game, players)
    with time_machine.travel(Seat.objects.get(game=game, position=seat).order_at, tick=False):
        assert services.release_orders(game.pk) == 0
    order = StandingOrder.objects.get(game=game)
    assert order.status == "lapsed"
    shown = game_payload(fresh(game), seat)["orders"]["list"]
    assert shown[0]["reason"] == "The deal ended before your order could apply."
    services.dismiss_orders(game.pk, players[seat])
    assert game_payload(fresh(game), seat)["orders"]["list"] == []


def test_an_order_never_applies_to_a_seat_taken_over_by_a_substitute(players, django_user_model):
    with time_machine.travel(START, tick=False):
        game = joker_at_bids(players)
        seat = next_bidder(game)
        services.set_order(game.pk, players[seat], "bid", {"tricks": 0})
        substitute = django_user_model.objects.create_user("substitute", password="pw-not-used-1")
        with transaction.atomic():
            locked = services.locked_game(game.pk, seats=True)
            held = next(s for s in locked.seats.all() if s.position == seat)
            interventions.replace_seat(locked, held, substitute, reason="test")
        game = bid_by_hand(fresh(game), players)
        assert Seat.objects.get(game=game, position=seat).order_at is None
    assert StandingOrder.objects.get(game=game).status == "cancelled"
    with time_machine.travel(START + timedelta(days=3), tick=False):
        services.release_orders(game.pk)
    assert not Move.objects.filter(game=game, position=seat, action={"type": "bid", "tricks": 0}).exists()


def test_a_computer_seat_never_gets_a_release_time(players):
    game = joker_at_bids(players)
    seat = next_bidder(game)
    services.set_order(game.pk, players[seat], "forced", {})
    Seat.objects.filter(game=game, position=seat).update(is_bot=True)
    game = bid_by_hand(game, players)
    assert Seat.objects.get(game=game, position=seat).order_at is None


def test_a_durak_defender_orders_take_and_the_server_takes_for_him(players, durak_table):
    with time_machine.travel(START, tick=False):
        game = durak_table([["7S", "KC", "AD"], ["8S", "9D", "TD", "JD"]])
        services.set_order(game.pk, players[1], "take", {})
        services.submit_move(game.pk, players[0], {"type": "attack", "cards": ["7S"]}, game.version)
    with time_machine.travel(Seat.objects.get(game=game, position=1).order_at, tick=False):
        assert services.release_orders(game.pk) == 1
    assert Move.objects.filter(game=game, position=1, action={"type": "take"}, by="player").exists()


# -- the table learns nothing ----------------------------------------------------------------------------


def one_run(players, swap: bool) -> tuple:
    """Seat `seat` ordered a bid; the deal's hidden hands of two other seats swapped or not.
    What the other seats (and spectators) are sent after the order's move, and when it appears."""
    with transaction.atomic():
        with time_machine.travel(START, tick=False):
            game = fresh(Game.objects.get(pk=GAME_ID[0]))
            seat = next_bidder(game)
            others = [p for p in range(4) if p != seat]
            if swap:
                state = game.state
                hands = state["hands"]
                hands[seat], hands[others[1]] = hands[others[1]], hands[seat]
                state["held_joker"] = [any(c.startswith("X") for c in h) for h in hands]
                Game.objects.filter(pk=game.pk).update(state=state)
                game = fresh(game)
            services.set_order(game.pk, players[seat], "bid", {"tricks": 0})
            game = bid_by_hand(game, players)
            release_at = Seat.objects.get(game=game, position=seat).order_at
        with time_machine.travel(release_at, tick=False):
            services.release_orders(game.pk)
            game = fresh(game)
            move = Move.objects.get(game=game, seq=game.version)
            watchers = [None, others[0], others[2]]  # neither swapped hand
            sent = {p: without_time(game_payload(game, p)) for p in watchers}
            fan_out = FanOut(game, [])
            fanned = {p: without_time(fan_out.message(p)["payload"]) for p in watchers}
            log = {p: [(line.text, line.by) for line in move_log(game, list(game.seats.all()), p)] for p in watchers}
        transaction.set_rollback(True)
    return release_at, move.created_at, move.by, sent, fanned, log


GAME_ID: list[int] = []


def test_an_orders_move_shows_the_others_the_same_thing_at_the_same_moment_whatever_the_hidden_cards(players):
    game = joker_at_bids(players)
    GAME_ID[:] = [game.pk]
    plain, swapped = one_run(players, swap=False), one_run(players, swap=True)
    assert plain[0] == swapped[0]  # the move appears at the same moment
    assert plain[1] == swapped[1]
    assert plain[2:] == swapped[2:]  # and every payload the others get is the same


# -- races ------------------------------------------------------------------------------------------------


def moderator_aborts(game_id: int, moderator) -> None:
    with transaction.atomic():
        interventions.abort(services.locked_game(game_id, seats=True), "test", moderator)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("with_moderator", [False, True])
def test_the_players_own_move_the_order_the_deadline_and_a_moderator_racing_exactly_one_acts(
        players, django_user_model, with_moderator):
    from .test_concurrency import run_in_threads

    game = joker_at_bids(players)
    seat = next_bidder(game)
    services.set_order(game.pk, players[seat], "bid", {"tricks": 0})
    game = bid_by_hand(game, players)
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(game=game, position=seat).update(order_at=past, deadline=past, reserve_seconds_left=0)
    by_hand = next(a for a in JOKER.legal_actions(game.state, seat) if a != {"type": "bid", "tricks": 0})
    moderator = django_user_model.objects.create_user("moderator", password="pw-not-used-1", is_staff=True)
    jobs = [lambda: services.release_orders(game.pk),
            lambda: services.submit_move(game.pk, players[seat], by_hand, game.version),
            lambda: services.expire_deadlines(game.pk)]
    if with_moderator:
        jobs.append(lambda: moderator_aborts(game.pk, moderator))
    results = run_in_threads(jobs)
    assert not [r for r in results if isinstance(r, Exception) and not isinstance(r, services.GameError)], results
    game = fresh(game)
    acted = list(Move.objects.filter(game=game, seq__gt=1).values_list("position", "by"))
    turn_moves = [m for m in acted if m[0] == seat]
    if game.status == Game.Status.ABORTED and not turn_moves:
        return  # the moderator came first: nobody moved for the seat
    assert len(turn_moves) == 1, acted
    order = StandingOrder.objects.get(game=game)
    assert (order.status == "applied") == (Move.objects.filter(
        game=game, position=seat, action={"type": "bid", "tricks": 0}).exists() and order.move_seq is not None)


# -- the rules pages ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("slug, kinds", [
    ("joker", {"forced", "bid", "trump", "duck"}), ("durak", {"forced", "take", "cheapest", "no_trump_throws"}),
    ("odessa", {"forced", "bid", "duck"}), ("domino_poker", {"forced", "bid"}), ("ipuker", {"forced", "leader_stake", "pass"}),
])
def test_each_order_of_a_game_has_a_sentence_on_its_rules_page(client, slug, kinds, language):
    from gameplay.engine.orders import RESOLVERS

    assert kinds == {"forced"} | {kind for game, kind in RESOLVERS if game == slug}
    client.cookies["django_language"] = language
    text = client.get(reverse("rules_game", args=[slug]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'id="orders"' in text
    assert {kind for kind in kinds if f'data-order="{kind}"' in text} == kinds
    assert ("Приказы" in text) == (language == "ru")


# -- the API ---------------------------------------------------------------------------------------------------


def test_a_program_sets_and_cancels_an_order_through_the_api_and_bad_ones_are_refused(players):
    from tests.api.conftest import api_for

    game = joker_at_bids(players)
    seat = next_bidder(game)
    api = api_for(players[seat])
    answer = api.post(f"/api/v1/games/{game.pk}/orders", {"kind": "bid", "params": {"tricks": 1}})
    assert answer.status_code == 200, answer.content
    order_id = answer.json()["id"]
    state = api.get(f"/api/v1/games/{game.pk}").json()
    assert [(o["id"], o["status"]) for o in state["orders"]["list"]] == [(order_id, "pending")]
    other = api_for(players[(seat + 1) % 4]).get(f"/api/v1/games/{game.pk}").json()
    assert other["orders"]["list"] == []
    refused = api.post(f"/api/v1/games/{game.pk}/orders", {"kind": "cheapest"})
    assert refused.status_code == 422 and "cannot set the order 'cheapest'" in refused.json()["message"]
    malformed = api.post(f"/api/v1/games/{game.pk}/orders", {"kind": "bid", "params": 3, "what": 1})
    assert malformed.status_code in (400, 422)
    not_mine = api_for(players[(seat + 1) % 4]).client.delete(
        f"/api/v1/games/{game.pk}/orders/{order_id}", headers=api_for(players[(seat + 1) % 4]).headers)
    assert not_mine.status_code == 404
    cancelled = api.client.delete(f"/api/v1/games/{game.pk}/orders/{order_id}", headers=api.headers)
    assert cancelled.status_code == 200
    assert StandingOrder.objects.get(pk=order_id).status == "cancelled"
    assert fresh(game).state == game.state


def test_a_standing_order_stays_for_the_next_fitting_turn_and_each_of_its_moves_is_marked(players, durak_table):
    with time_machine.travel(START, tick=False):
        game = durak_table([["7S", "7D", "KC"], ["8S", "9D", "TD", "JD"]])
        services.set_order(game.pk, players[1], "cheapest", {})
        services.submit_move(game.pk, players[0], {"type": "attack", "cards": ["7S"]}, game.version)
    with time_machine.travel(Seat.objects.get(game=game, position=1).order_at, tick=False):
        assert services.release_orders(game.pk) == 1
        game = fresh(game)
        services.submit_move(game.pk, players[0], {"type": "throw", "cards": ["7D"]}, game.version)
        again = Seat.objects.get(game=game, position=1).order_at
    with time_machine.travel(again, tick=False):
        assert services.release_orders(game.pk) == 1
    beats = list(Move.objects.filter(game=game, position=1).values_list("action", flat=True))
    assert beats == [{"type": "beat", "attack": "7S", "card": "8S"}, {"type": "beat", "attack": "7D", "card": "9D"}]
    game = fresh(game)
    marked = [line.seq for line in move_log(game, list(game.seats.all()), 1) if line.by == "by your order"]
    assert len(marked) == 2
    assert StandingOrder.objects.filter(game=game, status="pending", kind="cheapest").count() == 1


# -- Durak: never throw in trumps ---------------------------------------------------------------------------


def window_opened_by_a_beat(game: Game, players) -> Game:
    """Seat 0 attacks 7♠, seat 1 beats it with 8♠ by hand: the throwers' window waits for seat 0."""
    services.submit_move(game.pk, players[0], {"type": "attack", "cards": ["7S"]}, game.version)
    game = fresh(game)
    services.submit_move(game.pk, players[1], {"type": "beat", "attack": "7S", "card": "8S"}, game.version)
    game = fresh(game)
    assert game.state["phase"] == "window" and DURAK.actors(game.state) == [0]
    return game


def test_never_throw_in_trumps_says_done_for_a_thrower_who_holds_only_trumps_that_fit(players, durak_table):
    with time_machine.travel(START, tick=False):
        game = durak_table([["7S", "7H", "KC"], ["8S", "9D", "TD", "JD"]])
        services.set_order(game.pk, players[0], "no_trump_throws", {})
        game = window_opened_by_a_beat(game, players)
    with time_machine.travel(Seat.objects.get(game=game, position=0).order_at, tick=False):
        assert services.release_orders(game.pk) == 1
    move = Move.objects.get(game=game, seq=game.version + 1)
    assert (move.position, move.action, move.by) == (0, {"type": "done"}, "player")
    assert StandingOrder.objects.filter(game=game, kind="no_trump_throws", status="pending").count() == 1


def test_never_throw_in_trumps_leaves_the_choice_to_a_thrower_with_a_plain_card_that_fits(players, durak_table):
    with time_machine.travel(START, tick=False):
        game = durak_table([["7S", "8D", "KC"], ["8S", "9D", "TD", "JD"]])
        services.set_order(game.pk, players[0], "no_trump_throws", {})
        game = window_opened_by_a_beat(game, players)
    with time_machine.travel(Seat.objects.get(game=game, position=0).order_at, tick=False):
        assert services.release_orders(game.pk) == 0
    assert fresh(game).version == game.version


def durak_run(game_id: int, players, thrower_hand: list[str]) -> tuple:
    """Seat 0 of the game ordered "never throw in trumps" and holds `thrower_hand` in the window (rolled
    back after): when his "done" appears, and what the defender and a spectator are sent."""
    with transaction.atomic():
        with time_machine.travel(START, tick=False):
            Game.objects.filter(pk=game_id).update(state=scripted([["7S", *thrower_hand], ["8S", "9D", "TD", "JD"]]))
            game = Game.objects.get(pk=game_id)
            services.update_clocks(game, DURAK, timezone.now(), mover=None)
            services.set_order(game.pk, players[0], "no_trump_throws", {})
            game = window_opened_by_a_beat(fresh(game), players)
            release_at = Seat.objects.get(game=game, position=0).order_at
        with time_machine.travel(release_at, tick=False):
            services.release_orders(game.pk)
            game = fresh(game)
            move = Move.objects.get(game=game, seq=game.version)
            sent = {p: without_time(game_payload(game, p)) for p in (None, 1)}
            fanned = {p: without_time(FanOut(game, []).message(p)["payload"]) for p in (None, 1)}
            log = {p: [(line.text, line.by) for line in move_log(game, list(game.seats.all()), p)] for p in (None, 1)}
        transaction.set_rollback(True)
    return release_at, move.created_at, move.action, move.by, sent, fanned, log


def test_never_throw_in_trumps_shows_the_table_the_same_done_at_the_same_moment_whatever_the_hand(
        players, durak_table):
    game = durak_table([["7S", "AD", "KC"], ["8S", "9D", "TD", "JD"]])
    trumps_fit = durak_run(game.pk, players, ["7H", "KC"])
    nothing_fits = durak_run(game.pk, players, ["AD", "KC"])
    assert trumps_fit[2] == {"type": "done"}
    assert trumps_fit[:2] == nothing_fits[:2]  # the same moment
    assert trumps_fit[2:] == nothing_fits[2:]  # the same move and every payload the others get
