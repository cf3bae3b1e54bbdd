"""Domino Poker on the platform: the new-table form and its deal-schedule
preview, moves through the services, HTTP and the WebSocket, the score sheet,
and secrecy: the blind stage's tiles stay face down until every bid is in,
and the stage-5 choices to show or hide stay secret until the last is in
(payloads, pages, the move log and the clocks)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from gameplay import services
from gameplay.broadcast import game_payload
from gameplay.engine import get_engine
from gameplay.engine.domino_poker_rules import deal_schedule
from gameplay.models import Game, seed_hash
from gameplay.movelog import move_log
from gameplay.schedules.domino_poker import schedule_lines
from gameplay.services import after_commit

from .conftest import client_for
from .test_move_queries import count_move, queued, request_queries  # noqa: F401 (queued: a fixture)

pytestmark = pytest.mark.django_db
DOMINO = get_engine("domino_poker")
# The shortest game that still has every kind of deal: stage 1's 12 deals, one blind deal, stage 5.
SHORT = {"sevens": 0, "blind_deals": 1, "grab_deals": 0, "misere_deals": 0, "final_stage": True}
SHORT_FORM = {"domino_sevens": "0", "domino_blind_deals": "1", "domino_grab_deals": "0",
              "domino_misere_deals": "0", "domino_final_stage": "on"}


def new_table_form(**fields) -> dict:
    return {"engine": "domino_poker", "players": "2", "time_preset": "live", "on_timeout": "autoplay", **fields}


def two_player_game(players, options: dict | None = None, seed: str = "11") -> Game:
    game = services.create_game(players[0], "domino_poker", SHORT if options is None else options, players=2)
    Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
    services.join_game(game.pk, players[1])
    game.refresh_from_db()
    return game


def play_until(game: Game, players, wanted, limit: int = 400) -> Game:
    """Each awaited player makes the automatic move through the services until `wanted(state)` holds."""
    for _ in range(limit):
        game.refresh_from_db()
        if wanted(game.state) or game.status != Game.Status.ACTIVE:
            return game
        seat = DOMINO.actors(game.state)[0]
        services.submit_move(game.pk, players[seat], DOMINO.auto_action(game.state, seat), game.version)
    raise AssertionError("the wanted moment never came")


def initial_state(page: str) -> dict:
    return json.loads(page.split('id="initial-state" type="application/json">')[1].split("</script>")[0])


# -- the new-table form ------------------------------------------------------------------


def test_a_table_created_through_the_form_keeps_the_chosen_stages_and_starts_with_computers(players):
    response = client_for(players[0]).post(reverse("new_game"), new_table_form(fill_with_bots="on", **SHORT_FORM))
    assert response.status_code == 302
    game = Game.objects.get(engine="domino_poker")
    assert game.options == SHORT
    assert game.status == Game.Status.ACTIVE and game.seats_count == 2
    assert len(DOMINO.view(game.state, 0)["schedule"]) == 14


def test_empty_counts_take_the_rules_defaults(players):
    client_for(players[0]).post(reverse("new_game"), new_table_form())
    assert Game.objects.get(engine="domino_poker").options == {
        "sevens": 4, "blind_deals": 1, "grab_deals": 1, "misere_deals": 1, "final_stage": False}


@pytest.mark.parametrize("language, message", [
    ("en", "Enter a whole number of deals from 0 to 10."),
    ("ru", "Введите целое число раздач от 0 до 10."),
])
def test_a_count_out_of_bounds_is_refused_with_a_clear_message_in_the_players_language(players, language, message):
    players[0].language = language
    players[0].save(update_fields=["language"])
    response = client_for(players[0]).post(reverse("new_game"), new_table_form(domino_sevens="11"))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_five_players_are_refused_with_the_games_own_bounds(players):
    response = client_for(players[0]).post(reverse("new_game"), new_table_form(players="5"))
    assert "This game is for 2 to 4 players." in response.content.decode()
    assert not Game.objects.exists()


def test_the_form_previews_the_deal_schedule(players):
    page = client_for(players[0]).get(reverse("new_game")).content.decode()
    assert 'data-preview-url="/games/new/domino-schedule/"' in page
    assert "1, 2, 3, 4, 5, 6, 7 ×4, 6, 5, 4, 3, 2, 1 tiles each (16 deals)" in page
    assert "In all: 19 deals" in page


def test_the_schedule_preview_follows_the_options_and_the_engines_schedule():
    reply = Client().get(reverse("domino_schedule"), {**SHORT_FORM, "players": "3"})
    assert reply.status_code == 200
    data = reply.json()
    assert data["ok"] and data["deals"] == 14
    assert data["schedule"] == deal_schedule(3, SHORT)
    assert data["lines"] == schedule_lines(SHORT) and data["lines"][-1] == "In all: 14 deals"
    assert "Stage 5: show or hide — one tile each from the row of 28" in data["lines"]
    assert not any("blind" in line and "grab" in line for line in data["lines"])


def test_the_schedule_preview_refuses_bad_counts_in_words():
    reply = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("domino_schedule"), {"domino_grab_deals": "9"})
    assert reply.status_code == 200 and reply.json()["ok"] is False
    assert reply.json()["errors"]["domino_grab_deals"] == ["Введите целое число раздач от 0 до 4."]


def test_the_lobby_and_my_games_show_the_chosen_options(players):
    services.create_game(players[0], "domino_poker", {**SHORT, "blind_deals": 2}, players=3)
    for page in (client_for(players[0]).get(reverse("lobby")), client_for(players[1]).get(reverse("lobby"))):
        assert "3 players, 15 deals: 7×0, blind 2, grab 0, misère 0, stage 5" in page.content.decode()
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("lobby")).content.decode()
    assert "3 игрока, 15 раздач: 7×0, «Вслепую» 2, «Хапок» 0, «Мизер» 0, этап 5" in russian


# -- playing -------------------------------------------------------------------------------


def test_the_game_page_draws_with_the_domino_renderer_and_shows_the_draw(players):
    game = two_player_game(players)
    page = client_for(players[0]).get(game.get_absolute_url()).content.decode()
    assert 'data-engine="domino_poker"' in page and "js/games/domino_poker.js" in page
    view = initial_state(page)["view"]
    assert view["draw"] and view["first_starter"] == game.state["first_starter"]
    assert sorted(view["hand"]) == sorted(game.state["hands"][0])


def test_moves_through_the_service_and_http_and_the_state_api(players):
    game = two_player_game(players)
    seat = DOMINO.actors(game.state)[0]
    services.submit_move(game.pk, players[seat], {"type": "bid", "tricks": 1}, 0)
    game.refresh_from_db()
    other = DOMINO.actors(game.state)[0]
    response = client_for(players[other]).post(reverse("game_move", args=[game.pk]), content_type="application/json",
                                               data=json.dumps({"action": {"type": "bid", "tricks": 0}, "version": 1,
                                                                "move_id": "d1"}))
    assert response.json() == {"type": "ack", "move_id": "d1", "version": 2, "duplicate": False}
    state = client_for(players[0]).get(reverse("game_state", args=[game.pk])).json()
    assert state["view"]["bids"][seat] == 1 and state["view"]["bids"][other] == 0
    assert state["view"]["phase"] == "play"


def test_an_illegal_move_gets_the_engines_reason_and_changes_nothing(players):
    game = two_player_game(players)
    seat = DOMINO.actors(game.state)[0]
    response = client_for(players[seat]).post(reverse("game_move", args=[game.pk]), content_type="application/json",
                                              data=json.dumps({"action": {"type": "bid", "tricks": 5}, "version": 0}))
    assert response.status_code == 422 and response.json()["message"] == "Bid from 0 to 1 tricks."
    game.refresh_from_db()
    assert game.version == 0


def test_a_tile_that_may_not_be_played_says_why(players):
    game = play_until(two_player_game(players), players, lambda s: s["phase"] == "play" and s["trick"]
                      and DOMINO.legal_actions(s, s["turn"]) and len(DOMINO.legal_actions(s, s["turn"]))
                      < len(s["hands"][s["turn"]]))
    seat = game.state["turn"]
    payload = game_payload(game, seat)
    assert payload["blocked"] and all("trump" in reason for reason in payload["blocked"].values())
    assert set(payload["blocked"]) == set(game.state["hands"][seat]) - {a["tile"] for a in payload["legal"]}


@pytest.mark.django_db(transaction=True)
def test_a_move_over_the_websocket_reaches_both_seats(players):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    from .test_consumer import headers_for

    game = two_player_game(players)
    seat = DOMINO.actors(game.state)[0]
    headers = [headers_for(players[p]) for p in range(2)]

    async def scenario():
        sockets = [WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers[p]) for p in range(2)]
        for ws in sockets:
            assert (await ws.connect())[0]
            await ws.receive_json_from(timeout=5)
            await ws.receive_json_from(timeout=5)  # the chat history
        await sockets[seat].send_json_to({"type": "move", "action": {"type": "bid", "tricks": 0}, "version": 0,
                                          "move_id": "w1"})
        received = {}
        for p, ws in enumerate(sockets):
            for _ in range(3):
                message = await ws.receive_json_from(timeout=5)
                if message["type"] == "state":
                    received[p] = message
                    break
        for ws in sockets:
            await ws.disconnect()
        return received

    received = async_to_sync(scenario)()
    assert {p: m["version"] for p, m in received.items()} == {0: 1, 1: 1}
    assert all(m["view"]["bids"][seat] == 0 for m in received.values())
    assert any(e["type"] == "bid" for e in received[1 - seat]["events"])


# -- secrecy -------------------------------------------------------------------------------


def in_blind_bidding(state: dict) -> bool:
    return state["kind"] == "blind" and state["phase"] == "bid"


def test_in_the_blind_stage_nobody_sees_their_tiles_until_every_bid_is_in(players):
    game = play_until(two_player_game(players), players, in_blind_bidding)
    starter = game.state["turn"]
    for seat in (0, 1):
        view = game_payload(game, seat)["view"]
        assert view["hand"] == [] and view["hand_face_down"] and view["hand_sizes"][seat] == 7
        page = client_for(players[seat]).get(game.get_absolute_url()).content.decode()
        shown = initial_state(page)
        assert shown["view"]["hand"] == [] and shown["blocked"] == {}
        assert {a["type"] for a in shown["legal"]} <= {"bid"}
    services.submit_move(game.pk, players[starter], {"type": "bid", "tricks": 2}, game.version)
    game.refresh_from_db()
    assert game_payload(game, starter)["view"]["hand"] == []  # still face down: the other bid is awaited
    other = 1 - starter
    services.submit_move(game.pk, players[other], {"type": "bid", "tricks": 3}, game.version)
    game.refresh_from_db()
    for seat in (0, 1):
        assert sorted(game_payload(game, seat)["view"]["hand"]) == sorted(game.state["hands"][seat])


def in_reveal(state: dict) -> bool:
    return state["phase"] == "reveal"


def test_the_stage_5_choices_stay_secret_until_the_last_is_in(players):
    game = play_until(two_player_game(players), players, in_reveal)
    chooser, other = 0, 1
    on_clock = set(game.seats.filter(deadline__isnull=False).values_list("position", flat=True))
    assert on_clock == {0, 1}
    services.submit_move(game.pk, players[chooser], {"type": "reveal", "show": True}, game.version)
    game.refresh_from_db()
    # Only the player who has not chosen is on the clock now.
    assert set(game.seats.filter(deadline__isnull=False).values_list("position", flat=True)) == {other}
    for viewer, client in ((other, client_for(players[other])), (None, Client())):
        view = game_payload(game, viewer)["view"]
        assert view["choices"][chooser] is None and view["final_tiles"][chooser] is None
        assert view["committed"][chooser] is True
        log = [line.text for line in move_log(game, list(game.seats.all()), viewer)]
        assert log[-1].endswith("chooses in secret whether to show")
        sheet = client.get(reverse("sheet", args=[game.pk])).content.decode()
        assert "shows" not in sheet and game.state["hands"][chooser][0] not in sheet.split("domino-sheet")[1]
    mine = game_payload(game, chooser)["view"]
    assert mine["choices"][chooser] == "show"
    assert move_log(game, list(game.seats.all()), chooser)[-1].text.endswith("shows the tile")
    services.submit_move(game.pk, players[other], {"type": "reveal", "show": False}, game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    log = [line.text for line in move_log(game, list(game.seats.all()), other)]
    assert log[-2].endswith("shows the tile") and log[-1].endswith("hides the tile")
    sheet = Client().get(reverse("sheet", args=[game.pk])).content.decode()
    assert game.state["history"][-1]["shown"][chooser] in sheet


def test_a_secret_choice_looks_the_same_to_the_others_whichever_it_was(players):
    seen = []
    for show in (True, False):
        game = play_until(two_player_game(players), players, in_reveal)
        services.submit_move(game.pk, players[0], {"type": "reveal", "show": show}, game.version)
        game.refresh_from_db()
        payload = game_payload(game, 1)
        del payload["server_time"]
        payload["game"] = None
        for player in payload["players"]:  # each game's clock started at its own moment
            player["clock"]["deadline"] = player["clock"]["deadline"] and "running"
        log = [line.text for line in move_log(game, list(game.seats.all()), 1)]
        seen.append((json.dumps(payload, sort_keys=True), log))
        Game.objects.filter(pk=game.pk).delete()
    assert seen[0] == seen[1]


# -- the sheet, the record, a whole game ------------------------------------------------------


def test_the_sheet_has_stage_headings_running_totals_and_bids(players):
    game = play_until(two_player_game(players), players, lambda s: s["deal"] >= 3)
    page = Client().get(reverse("sheet", args=[game.pk])).content.decode()
    assert "domino-sheet" in page and "Stage 1" in page and "Stage 2: blind" in page and "Stage 5: show or hide" in page
    first = game.state["history"][0]
    assert f'<span class="total">{first["points"][0]}</span>' in page
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("sheet", args=[game.pk])).content.decode()
    assert "«Вслепую»" in russian


def test_a_whole_game_with_a_computer_ends_ranks_replays_and_exports(players, django_capture_on_commit_callbacks,
                                                                      tmp_path):
    from django.core.management import call_command

    game = services.create_game(players[0], "domino_poker", SHORT, players=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.fill_with_bots(game.pk, players[0])
    for _ in range(200):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        if 0 in DOMINO.actors(game.state):
            with django_capture_on_commit_callbacks(execute=True):
                services.submit_move(game.pk, players[0], DOMINO.auto_action(game.state, 0), game.version)
        else:
            with django_capture_on_commit_callbacks(execute=True):
                services.play_bot_move(game.pk, game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    seats = {s.position: s for s in game.seats.all()}
    assert [seats[p].points for p in (0, 1)] == DOMINO.outcome(game.state)["scores"]
    call_command("replay_games", game.pk)
    page = Client().get(reverse("sheet", args=[game.pk])).content.decode()
    assert "Final ranking" in page
    record = client_for(players[0]).get(f"/sheets/{game.pk}/record.json").json()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    call_command("verify_record", str(path))
    replay = client_for(players[0]).get(f"/sheets/{game.pk}/replay/5.json?seat=1").json()
    assert replay["type"] == "state" and replay["hands"][1] is not None
    record_page = client_for(players[0]).get(f"/sheets/{game.pk}/record/").content.decode()
    assert "Deal 1: 1 tile each" in record_page


def test_a_bad_count_left_in_the_hidden_domino_options_does_not_block_another_game(players):
    response = client_for(players[0]).post(reverse("new_game"), {**new_table_form(domino_sevens="99"),
                                                                 "engine": "durak"})
    assert response.status_code == 302 and Game.objects.get().engine == "durak"


def test_a_secret_choice_costs_a_move_its_usual_queries_and_stops_only_its_makers_clock(
        players, django_capture_on_commit_callbacks, queued):
    game = play_until(two_player_game(players), players, in_reveal)
    after_commit.wait_until_queued(timeout=10)  # the earlier moves' tasks, queued by a thread of its own
    queued.clear()
    counts = count_move(game, players[1], {"type": "reveal", "show": True}, django_capture_on_commit_callbacks, queued)
    assert counts[:2] == (request_queries(), 0)
    assert not queued[0]["clock_started"]  # the other clock runs on; nobody's starts


def test_the_start_sends_the_draw_for_the_first_player_as_events(players, django_capture_on_commit_callbacks,
                                                                 monkeypatch):
    sent = []
    monkeypatch.setattr("gameplay.broadcast.send_game", lambda game, events=None: sent.append(events))
    game = services.create_game(players[0], "domino_poker", SHORT, players=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.join_game(game.pk, players[1])
    game.refresh_from_db()
    assert sent[-1] == DOMINO.opening_events(game.state)
    assert sent[-1][-1] == {"type": "first_starter", "seat": game.state["first_starter"]}


def test_the_lobby_words_the_domino_options_without_a_query_per_table_or_a_games_state(players):
    from .test_page_queries import STATE_COLUMN, captured

    def add_tables(count: int) -> None:
        for _ in range(count):
            services.create_game(players[1], "domino_poker", SHORT, players=3)  # open: in the lobby's list
            two_player_game(players)  # in play: in "my games" and "games in play"

    client = client_for(players[0])
    add_tables(2)
    captured(client, reverse("lobby"))
    few = captured(client, reverse("lobby"))
    add_tables(10)
    many = captured(client, reverse("lobby"))
    assert len(few) == len(many)
    assert not [sql for sql in many if STATE_COLUMN.search(sql)]
    assert "2 players, 14 deals" in client.get(reverse("lobby")).content.decode()


def test_two_choices_made_on_the_same_version_are_both_taken_and_a_choice_is_final(players):
    game = play_until(two_player_game(players), players, in_reveal)
    seen = game.version
    services.submit_move(game.pk, players[0], {"type": "reveal", "show": False}, seen)
    with pytest.raises(services.GameError) as refused:
        services.submit_move(game.pk, players[0], {"type": "reveal", "show": True}, seen + 1)
    assert refused.value.code == "illegal" and "final" in refused.value.message
    result = services.submit_move(game.pk, players[1], {"type": "reveal", "show": True}, seen)  # made on `seen`
    assert result.version == seen + 2


def test_a_choice_left_to_the_clock_hides_the_tile_and_tells_nobody_before_the_reveal(players):
    from django.db import transaction

    from gameplay.services.base import locked_game
    from gameplay.services.clocks import expire_seat

    game = play_until(two_player_game(players), players, in_reveal)
    with transaction.atomic():
        locked = locked_game(game.pk, seats=True)
        seat = next(s for s in locked.seats.all() if s.position == 1)
        expire_seat(locked, DOMINO, seat, next(t for t in DOMINO.timers(locked.state) if t["seat"] == 1))
    game.refresh_from_db()
    assert game.state["choices"][1] is False
    assert game_payload(game, 0)["view"]["choices"][1] is None
    assert move_log(game, list(game.seats.all()), 0)[-1].by == ""  # no "(timeout)" mark before the reveal
    assert set(game.seats.filter(deadline__isnull=False).values_list("position", flat=True)) == {0}


def test_the_record_groups_the_later_deals_under_their_stage(players):
    game = play_until(two_player_game(players), players, lambda s: s["phase"] == "reveal")
    page = client_for(players[0]).get(f"/sheets/{game.pk}/record/").content.decode()
    assert "Deal 12: 1 tile each" in page and "Deal 13: Stage 2: blind" in page
    assert "Deal 14: Stage 5: show or hide" in page


def test_the_schedule_preview_reads_nothing_from_the_database(django_assert_num_queries):
    client = Client()
    client.get(reverse("domino_schedule"))
    with django_assert_num_queries(0):
        assert client.get(reverse("domino_schedule"), SHORT_FORM).json()["ok"]


def test_a_refused_form_previews_the_schedule_of_the_options_as_filled_in(players):
    response = client_for(players[0]).post(reverse("new_game"), new_table_form(players="7", **SHORT_FORM))
    page = response.content.decode()
    assert response.status_code == 200 and "In all: 14 deals" in page and "In all: 19 deals" not in page
