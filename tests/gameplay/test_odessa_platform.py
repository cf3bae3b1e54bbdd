"""Odessa poker on the platform: the new-table form with every option and its deal schedule,
computer players, moves through the services, HTTP and the WebSocket, the score sheet, the
clocks, and the blind deal's secrecy (nobody sees a card of it until every bid is in)."""

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from gameplay import services
from gameplay.broadcast import game_payload
from gameplay.engine import get_engine
from gameplay.labels import variant_words
from gameplay.models import Game, Move

from .conftest import client_for, started_game

pytestmark = pytest.mark.django_db
ODESSA = get_engine("odessa")
CSRF_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')

# Every option away from its default: 3 players, 52 cards, hands up to 4, hearts fixed, the
# dealer must overbid, the demand on the first trick only, miser then blind, once each, ×3.
CHOSEN = {"engine": "odessa", "players": "3", "time_preset": "correspondence", "on_timeout": "autoplay",
          "series_length": "1", "odessa_deck": "52", "odessa_max_hand": "4", "odessa_trump": "H",
          "odessa_dealer_rule": "over", "odessa_joker_demand": "first_trick_only",
          "odessa_special_1": "miser", "odessa_special_2": "blind", "odessa_special_3": "", "odessa_special_4": "",
          "odessa_specials_mode": "once", "odessa_special_multiplier": "3", "fill_with_bots": "on"}
CHOSEN_OPTIONS = {"deck": 52, "max_hand": 4, "trump": "H", "dealer_rule": "over", "joker_demand": "first_trick_only",
                  "specials": ["miser", "blind"], "specials_mode": "once", "special_multiplier": 3}


def play_until(game: Game, players, done, limit: int = 400) -> Game:
    """Automatic moves for the people at the table (the computers answer by themselves) until `done(game)`."""
    by_position = {seat.position: seat.user for seat in game.seats.select_related("user")}
    for _ in range(limit):
        game.refresh_from_db()
        if done(game) or game.status != Game.Status.ACTIVE:
            return game
        position = ODESSA.actors(game.state)[0]
        services.submit_move(game.pk, by_position[position], ODESSA.auto_action(game.state, position), game.version)
    raise AssertionError("the game never got there")


def assert_no_cards_of(message: dict, cards: list[str], public: tuple[str, ...] = ("last_trick",)) -> None:
    """None of `cards` is in `message`, but in its view's `public` keys (the previous deal's last trick
    holds the same card codes) and as the name of the card that plays as the joker."""
    view = {key: value for key, value in message["view"].items() if key not in ("joker_card", *public)}
    text = json.dumps({**message, "view": view})
    leaked = [card for card in cards if f'"{card}"' in text]
    assert not leaked


def blind_table(players) -> Game:
    """Two people, hands of 2, only the blind special: deals 1, 2, 2, 1, then blind 2 twice."""
    return started_game("odessa", players[:2], {"max_hand": 2, "specials": ["blind"]})


# -- the new-table form ----------------------------------------------------------------------


def test_a_table_with_every_option_changed_is_made_through_the_form_and_filled_with_computers(players):
    response = client_for(players[0]).post(reverse("new_game"), CHOSEN)
    game = Game.objects.get(engine="odessa")
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.status == Game.Status.ACTIVE and game.seats_count == 3
    assert {k: game.options[k] for k in CHOSEN_OPTIONS} == CHOSEN_OPTIONS
    assert [seat.is_bot for seat in game.seats.order_by("position")] == [False, True, True]
    assert game.state["trump"] == "H" and game.state["max_hand"] == 4


def test_an_untouched_odessa_form_gives_the_usual_game_for_four(players):
    data = {"engine": "odessa", "time_preset": "correspondence", "on_timeout": "autoplay"}
    client_for(players[0]).post(reverse("new_game"), data)
    game = Game.objects.get(engine="odessa")
    assert game.seats_count == 4
    assert game.options["specials"] == ["blind", "golden", "miser", "no_trump"]
    assert (game.options["deck"], game.options["specials_mode"], game.options["special_multiplier"]) == (36, "round", 2)


@pytest.mark.parametrize("language, changes, message", [
    ("en", {"players": "6", "odessa_max_hand": "7", "odessa_deck": "36"},
     "With 6 players and a 36-card deck a hand holds at most 6 cards"),
    ("ru", {"players": "6", "odessa_max_hand": "7", "odessa_deck": "36"}, "не больше 6 карт"),
    ("en", {"odessa_special_2": "miser"}, "Each special deal may be chosen only once."),
    ("ru", {"odessa_special_2": "miser"}, "Каждую специальную игру можно выбрать только один раз."),
    ("en", {"odessa_deck": "40"}, "Select a valid choice."),
    ("en", {"odessa_max_hand": "13"}, "Ensure this value is less than or equal to 12."),
])
def test_options_that_do_not_fit_are_refused_with_a_clear_message_and_nothing_is_made(players, language, changes,
                                                                                       message):
    players[0].language = language
    players[0].save()
    response = client_for(players[0]).post(reverse("new_game"), {**CHOSEN, **changes})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_the_form_shows_each_option_with_its_explanation_and_the_schedule_box(players):
    page = client_for(players[0]).get(reverse("new_game")).content.decode()
    assert 'data-for-engine="odessa"' in page and "data-odessa-schedule" in page
    assert "Empty: as many as the deck allows" in page
    assert len(re.findall(r'name="odessa_special_\d"', page)) == 4
    # The preview is written with the page, before its script asks for the options chosen since.
    assert "1–8, 9 ×4, 8–1, blind 9 ×4, golden 9 ×4, miser 9 ×4, no trump 9 ×4 — 36 deals" in page


def test_the_schedule_preview_follows_the_options(players):
    client = client_for(players[0])
    usual = client.get(reverse("odessa_schedule"), {"players": "4"}).json()
    assert [deal["cards"] for deal in usual["deals"][:10]] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 9]
    assert len(usual["deals"]) == 8 + 4 + 8 + 4 * 4 and usual["error"] == ""
    assert usual["summary"] == "1–8, 9 ×4, 8–1, blind 9 ×4, golden 9 ×4, miser 9 ×4, no trump 9 ×4 — 36 deals"
    chosen = client.get(reverse("odessa_schedule"), {k: v for k, v in CHOSEN.items() if k != "engine"}).json()
    assert chosen["summary"] == "1–3, 4 ×3, 3–1, miser 4, blind 4 — 11 deals"
    bad = client.get(reverse("odessa_schedule"), {"players": "6", "odessa_max_hand": "9"}).json()
    assert bad["deals"] == [] and "at most 6 cards" in bad["error"]
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("odessa_schedule"), {
        "players": "2", "odessa_special_1": "miser", "odessa_specials_mode": "once"}).json()
    assert russian["summary"] == "1–11, 12 ×2, 11–1, мизер 12 — 25 раздач"


def test_the_lobby_and_my_games_show_the_chosen_options(players):
    client = client_for(players[0])
    client.post(reverse("new_game"), {**CHOSEN, "fill_with_bots": ""})
    game = Game.objects.get(engine="odessa")
    with translation.override("en"):
        label = variant_words("odessa", game.options, game.seats_count)
    assert label == ("3 players, 52 cards, up to 4 in a hand, trump ♥, dealer: must make the bids add up to more "
                     "than the cards, joker's demand: on the first trick of a deal only, specials: miser, blind (×3), "
                     "each special once")
    assert label in Client().get(reverse("lobby")).content.decode().replace("&#x27;", "'")


# -- playing ------------------------------------------------------------------------------------


def test_moves_through_the_services_and_http_and_an_illegal_one_changes_nothing(players):
    game = started_game("odessa", players, {"trump": "S"})
    position = ODESSA.actors(game.state)[0]
    client = client_for(players[position])
    url = reverse("game_move", args=[game.pk])
    refused = client.post(url, {"action": {"type": "bid", "tricks": 5}, "version": 0, "move_id": "a"},
                          content_type="application/json")
    assert refused.status_code == 422 and "Bid from 0 to 1" in refused.json()["message"]
    answer = client.post(url, {"action": {"type": "bid", "tricks": 0}, "version": 0, "move_id": "b"},
                         content_type="application/json")
    assert answer.status_code == 200 and answer.json()["version"] == 1
    nxt = ODESSA.actors(Game.objects.get(pk=game.pk).state)[0]
    services.submit_move(game.pk, players[nxt], {"type": "bid", "tricks": 1}, 1)
    game.refresh_from_db()
    assert game.state["bids"][position] == 0 and game.state["bids"][nxt] == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_over_the_websocket_reaches_every_seat_with_its_own_view(players):
    from .test_consumer import communicator, headers_for

    game = started_game("odessa", players[:2], {"max_hand": 2})
    position = ODESSA.actors(game.state)[0]
    headers = [headers_for(players[p]) for p in range(2)]
    action = ODESSA.legal_actions(game.state, position)[0]

    async def scenario():
        sockets = [communicator(game.pk, headers[p]) for p in range(2)]
        for ws in sockets:
            assert (await ws.connect())[0]
            await ws.receive_json_from(timeout=5)
            await ws.receive_json_from(timeout=5)
        await sockets[position].send_json_to({"type": "move", "action": action, "version": 0, "move_id": "w1"})
        received = {}
        for p, ws in enumerate(sockets):
            messages = [await ws.receive_json_from(timeout=5)]
            if p == position:
                messages.append(await ws.receive_json_from(timeout=5))
            received[p] = messages
        for ws in sockets:
            await ws.disconnect()
        return received

    received = async_to_sync(scenario)()
    game.refresh_from_db()
    for p, messages in received.items():
        state = next(m for m in messages if m["type"] == "state")
        assert state["version"] == 1 and state["view"]["game"] == "odessa"
        assert_no_cards_of(state, game.state["hands"][1 - p] + game.state["rest"][1:],
                           public=("trick", "last_trick", "trump_card"))


def test_a_whole_game_with_computers_ends_with_shared_places_and_replays(players, django_capture_on_commit_callbacks):
    game = services.create_game(players[0], "odessa", {"max_hand": 3, "specials": ["golden", "miser"],
                                                        "specials_mode": "once"}, players=3)
    with django_capture_on_commit_callbacks(execute=True):
        services.fill_with_bots(game.pk, players[0])
    for _ in range(200):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_move(game.pk, players[0], ODESSA.auto_action(game.state, 0), game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    outcome = ODESSA.outcome(game.state)
    seats = {seat.position: seat for seat in game.seats.all()}
    assert [seats[p].place for p in range(3)] == outcome["places"]
    assert [seats[p].points for p in range(3)] == outcome["scores"]
    call_command("replay_games", game.pk)
    sheet = Client().get(reverse("sheet", args=[game.pk])).content.decode()
    assert "Final ranking" in sheet and sheet.count('class="special-heading"') == 2


def test_equal_totals_share_the_place_in_the_final_ranking(players):
    game = play_until(started_game("odessa", players[:2], {"max_hand": 2, "specials": []}), players, lambda g: False)
    state = game.state
    for record in state["history"]:  # the same points for both: equal totals
        record["points"][1] = record["points"][0]
    Game.objects.filter(pk=game.pk).update(state=state)
    assert ODESSA.outcome(state)["places"] == [1, 1]
    page = Client().get(reverse("sheet", args=[game.pk])).content.decode()
    assert page.count('data-place="1"') == 2


# -- the sheet ------------------------------------------------------------------------------------


def test_the_sheet_has_the_bid_and_the_running_total_per_player_and_heads_the_specials(players):
    game = started_game("odessa", players, {"max_hand": 2, "specials": ["golden", "no_trump"],
                                            "specials_mode": "once", "special_multiplier": 3})
    game = play_until(game, players, lambda g: g.state["special"] == "no_trump")
    response = Client().get(reverse("sheet", args=[game.pk]))
    page = response.content.decode()
    assert response.status_code == 200 and "odessa-sheet" in page
    assert page.count('class="sub">bid<') == 4 and page.count('class="sub">total<') == 4
    assert 'data-special="golden"' in page and 'data-special="no_trump"' in page and "points ×3" in page
    totals = ODESSA.sheet(game.state)["totals"]
    for total in totals:
        assert f">{total}<" in page
    fragment = Client().get(reverse("sheet_fragment", args=[game.pk])).content.decode()
    assert "odessa-sheet" in fragment and "<html" not in fragment


def test_the_sheet_in_russian_names_the_specials(players):
    game = started_game("odessa", players[:2], {"max_hand": 2, "specials": ["golden"]})
    game = play_until(game, players, lambda g: g.state["special"] == "golden")
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("sheet", args=[game.pk])).content.decode()
    assert "золотая" in page and "заказ" in page


# -- the blind deal -------------------------------------------------------------------------------


def test_in_the_blind_deal_nobody_sees_a_card_until_every_bid_is_in(players):
    game = play_until(blind_table(players), players, lambda g: g.state["special"] == "blind")
    assert game.state["phase"] == "bid"
    first = ODESSA.actors(game.state)[0]
    for position in (0, 1, None):
        view = game_payload(game, position)["view"]
        assert view["hand"] in ([], None) and view["trump_card"] is None and view["hand_hidden"]
    page = client_for(players[first]).get(game.get_absolute_url()).content.decode()
    initial = json.loads(page.split('id="initial-state" type="application/json">')[1].split("</script>")[0])
    assert initial["view"]["hand"] == []
    assert_no_cards_of(initial, game.state["hands"][first] + game.state["hands"][1 - first] + game.state["rest"])
    legal = {a["tricks"] for a in ODESSA.legal_actions(game.state, first)}
    assert 0 not in legal  # no pass in the blind deal
    services.submit_move(game.pk, players[first], {"type": "bid", "tricks": 1}, game.version)
    game.refresh_from_db()
    assert game_payload(game, first)["view"]["hand"] == []
    second = ODESSA.actors(game.state)[0]
    services.submit_move(game.pk, players[second], ODESSA.auto_action(game.state, second), game.version)
    game.refresh_from_db()
    assert sorted(game_payload(game, first)["view"]["hand"]) == sorted(game.state["hands"][first])


def test_changing_the_blind_hands_and_turned_card_changes_nothing_any_seat_is_sent_or_shown(players):
    game = play_until(blind_table(players), players, lambda g: g.state["special"] == "blind")
    assert game.state["trump_card"] is not None  # a turned card, not shown yet

    def everything_shown(state: dict) -> list:
        game.state = state
        Game.objects.filter(pk=game.pk).update(state=state)
        sent = []
        for position in (0, 1, None):
            payload = game_payload(game, position)
            payload.pop("server_time")
            sent.append(payload)
        for url in (reverse("sheet", args=[game.pk]), reverse("sheet_fragment", args=[game.pk])):
            sent.append(CSRF_TOKEN.sub("", Client().get(url).content.decode()))
        return sent

    before = everything_shown(dict(game.state))
    changed = json.loads(json.dumps(game.state))
    changed["hands"] = [changed["hands"][1], changed["hands"][0]]
    other = next(card for card in changed["rest"][1:] if card[1] != changed["trump_card"][1] and card[0] != "X")
    changed["rest"][changed["rest"].index(other)] = changed["trump_card"]
    changed["rest"][0], changed["trump_card"], changed["trump"] = other, other, other[1]
    assert everything_shown(changed) == before


# -- clocks ------------------------------------------------------------------------------------------


@pytest.fixture
def traveller():
    with time_machine.travel(datetime(2026, 11, 20, 9, 0, tzinfo=UTC), tick=False) as traveller:
        yield traveller


def test_running_out_of_time_makes_the_automatic_move(players, traveller):
    game = started_game("odessa", players, move_seconds=60, reserve_seconds=0)
    late = ODESSA.actors(game.state)[0]
    expected = ODESSA.auto_action(game.state, late)
    traveller.shift(timedelta(seconds=61))
    assert services.expire_deadlines(game.pk) == 1
    move = game.moves.get()
    assert (move.by, move.position) == (Move.By.TIMEOUT, late)
    assert move.action == {**expected, "auto": True}


def test_at_a_forfeit_table_running_out_of_time_loses_the_game(players, traveller):
    game = started_game("odessa", players, move_seconds=60, reserve_seconds=0, on_timeout="forfeit")
    late = ODESSA.actors(game.state)[0]
    traveller.shift(timedelta(seconds=61))
    services.expire_deadlines(game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.seats.get(position=late).place == 4


# -- the record and the replay ---------------------------------------------------------------------


def test_a_finished_games_replay_shows_every_hand_but_none_of_a_blind_deal_before_its_bids(players):
    game = play_until(blind_table(players), players, lambda g: g.state["special"] == "blind")
    blind_start = game.version
    services.resign(game.pk, players[0])
    client = client_for(players[1])
    step = client.get(f"/sheets/{game.pk}/replay/{blind_start}.json").json()
    assert step["view"]["hand_hidden"] and step["hands"] == [[], []]
    before = client.get(f"/sheets/{game.pk}/replay/{blind_start - 1}.json").json()
    assert any(before["hands"])
    assert client.get(f"/sheets/{game.pk}/record/").status_code == 200


# -- queries ------------------------------------------------------------------------------------------


def queries_of(client: Client, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # the process' caches filled
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries.captured_queries)


def test_the_game_page_and_the_sheet_run_as_many_queries_late_in_the_game_as_early(players):
    game = started_game("odessa", players, {"max_hand": 3})
    client = client_for(players[0])
    urls = [game.get_absolute_url(), reverse("sheet", args=[game.pk]), reverse("sheet_fragment", args=[game.pk])]
    game = play_until(game, players, lambda g: g.version >= 2)
    early = [queries_of(client, url) for url in urls]
    game = play_until(game, players, lambda g: g.version >= 40)
    assert [queries_of(client, url) for url in urls] == early


def test_the_schedule_preview_reads_nothing_from_the_database(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert Client().get(reverse("odessa_schedule"), {"players": "5"}).json()["summary"]
