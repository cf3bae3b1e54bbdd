"""Fuzzing the forms: a new table, joining a seat, a chat line, the profile,
a vacation, a moderator's abort. Whatever is posted: no server error; a
refused form says why and changes nothing; an accepted one leaves a sane
table (bounded clocks, a full table that really starts)."""

import pytest
from django import forms
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gameplay import clocks, services
from gameplay.engine import ENGINES
from gameplay.forms import NewGameForm
from gameplay.models import ChatMessage, Game
from gameplay.services.tables import MAX_MOVE_SECONDS, MAX_RESERVE_SECONDS

from .conftest import client_for
from .test_fuzz_strategies import _form_safe, form_data, huge_text, odd_text

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))

SECONDS = st.one_of(st.integers(-10, 10**13), st.sampled_from([MAX_MOVE_SECONDS, MAX_MOVE_SECONDS + 1,
                                                               MAX_RESERVE_SECONDS, MAX_RESERVE_SECONDS + 1, 10**12]))
CHECKBOX = st.sampled_from(["on", "", "off", "true", "0"])
NEW_TABLE_FIELDS = {
    "engine": st.sampled_from([*ENGINES, "chess"]),
    "players": st.integers(-1, 10).map(str),
    "time_preset": st.sampled_from([*clocks.PRESETS, "bullet"]),
    "move_seconds": SECONDS.map(str), "reserve_seconds": SECONDS.map(str),
    "on_timeout": st.sampled_from([choice for choice, _ in Game.OnTimeout.choices] + ["never"]),
    "night_pause": CHECKBOX, "series_length": st.integers(-1, 25).map(str),
    "durak_mode": st.sampled_from(["podkidnoy", "perevodnoy", "x"]), "durak_teams": CHECKBOX,
    "attacker_seconds": SECONDS.map(str), "defender_seconds": SECONDS.map(str), "throwers_seconds": SECONDS.map(str),
    "ipuker_leader_order": st.sampled_from(["clockwise", "random", "x"]),
    "ipuker_min_stake": st.sampled_from(["1", "9", "5"]), "ipuker_max_stake": st.integers(0, 200).map(str),
    "ipuker_overflow": st.sampled_from(["basic", "kids", "cards", "x"]),
    "odessa_deck": st.sampled_from(["36", "52", "53", "40", ""]), "odessa_max_hand": st.integers(-1, 14).map(str),
    "odessa_trump": st.sampled_from(["turned", "S", "H", "X", ""]),
    "odessa_dealer_rule": st.sampled_from(["not_equal", "free", "over", "x"]),
    "odessa_joker_demand": st.sampled_from(["any_trick", "first_trick_only", "off", "x"]),
    **{f"odessa_special_{i}": st.sampled_from(["", "blind", "golden", "miser", "no_trump", "x"]) for i in range(1, 5)},
    "odessa_specials_mode": st.sampled_from(["round", "once", "x"]),
    "odessa_special_multiplier": st.sampled_from(["2", "3", "4"]),
    "is_private": CHECKBOX, "fill_with_bots": CHECKBOX,
}


def bounded(game: Game) -> bool:
    return (0 < game.move_seconds <= MAX_MOVE_SECONDS and 0 <= game.reserve_seconds <= MAX_RESERVE_SECONDS
            and all(0 < seconds <= MAX_MOVE_SECONDS for seconds in game.timer_seconds.values()))


@FUZZ
@given(form_data(NEW_TABLE_FIELDS))
@example({"engine": "durak", "players": "2", "time_preset": "live", "on_timeout": "autoplay",
          "attacker_seconds": str(10**12), "fill_with_bots": "on"})
@example({"engine": "durak", "players": "2", "time_preset": "slow", "on_timeout": "autoplay",
          "move_seconds": str(MAX_MOVE_SECONDS), "reserve_seconds": str(MAX_RESERVE_SECONDS),
          "attacker_seconds": str(MAX_MOVE_SECONDS), "defender_seconds": str(MAX_MOVE_SECONDS),
          "throwers_seconds": str(MAX_MOVE_SECONDS), "fill_with_bots": "on"})
def test_the_new_table_form_survives_anything_and_every_table_it_makes_can_start(players, data):
    before = set(Game.objects.values_list("pk", flat=True))
    response = client_for(players[0]).post(reverse("new_game"), data)
    created = Game.objects.exclude(pk__in=before)
    if response.status_code == 302:
        game = created.get()
        assert bounded(game)
        if data.get("fill_with_bots") == "on":
            assert game.status == Game.Status.ACTIVE  # its clocks could be set: it started
    else:
        assert response.status_code == 200
        assert not created.exists()
        form = response.context["form"]
        assert form.errors or not data  # an empty POST shows the empty form
        assert all(str(message).strip() for errors in form.errors.values() for message in errors)


def test_an_unbounded_durak_clock_is_a_clear_form_error():
    form = NewGameForm({"engine": "durak", "time_preset": "live", "on_timeout": "autoplay",
                        "attacker_seconds": 10**12, "defender_seconds": 0, "reserve_seconds": 10**9})
    assert not form.is_valid()
    assert form.errors["attacker_seconds"] == ["At most 30 days (2592000 seconds)."]
    assert form.errors["reserve_seconds"] == ["At most 60 days (5184000 seconds)."]
    assert form.errors["defender_seconds"] == ["Ensure this value is greater than or equal to 5."]


@pytest.mark.parametrize("times", [
    {"move_seconds": MAX_MOVE_SECONDS + 1}, {"move_seconds": -5}, {"move_seconds": "60"}, {"move_seconds": True},
    {"reserve_seconds": MAX_RESERVE_SECONDS + 1}, {"reserve_seconds": -1}, {"reserve_seconds": 1.5},
    {"timer_seconds": {"attacker": 10**12}}, {"timer_seconds": {"defender": -2}}, {"timer_seconds": {"x" * 40: 60}},
    {"timer_seconds": {"attacker": "60"}}, {"timer_seconds": ["attacker"]},
])
def test_create_game_refuses_time_out_of_bounds_from_any_caller(players, times):
    with pytest.raises(services.GameError) as refused:
        services.create_game(players[0], "durak", players=2, **times)
    assert refused.value.code == "bad_request" and refused.value.message
    assert not Game.objects.exists()


def test_the_longest_clocks_allowed_still_start_a_table(players):
    game = services.create_game(players[0], "durak", players=2, move_seconds=MAX_MOVE_SECONDS,
                                reserve_seconds=MAX_RESERVE_SECONDS,
                                timer_seconds={"attacker": MAX_MOVE_SECONDS, "defender": MAX_MOVE_SECONDS,
                                               "throwers": MAX_MOVE_SECONDS})
    services.fill_with_bots(game.pk, players[0])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.filter(deadline__isnull=False).exists()


@FUZZ
@given(st.one_of(odd_text(), st.integers(-5, 10**25).map(str), st.sampled_from(["²", "٣", "１", " 1 ", "1.0", "0x1",
                                                                               "+1", "-0", "1e1", "99999999999999999999"])))
@example("²")
def test_the_join_form_survives_any_seat_number(players, position):
    position = _form_safe(position)
    game = services.create_game(players[0], "joker")
    response = client_for(players[1]).post(reverse("join_game", args=[game.pk]), {"position": position}, follow=True)
    assert response.status_code == 200
    seat = game.seats.filter(user=players[1]).first()
    if seat is None:
        shown = [str(message) for message in response.context["messages"]]
        assert shown and all(text.strip() for text in shown)
    else:
        asked = forms.IntegerField(required=False).clean(position)  # a Django form's reading of it
        assert 1 <= seat.position < 4 and asked in (None, seat.position)


def test_a_superscript_seat_number_is_a_message_not_a_500(players):
    game = services.create_game(players[0], "joker")
    response = client_for(players[1]).post(reverse("join_game", args=[game.pk]), {"position": "²"}, follow=True)
    assert response.status_code == 200
    assert "There is no such seat." in response.content.decode()
    assert not game.seats.filter(user=players[1]).exists()


@pytest.mark.parametrize("position", [-1, 4, 10**30, "1", True])
def test_the_join_service_refuses_a_seat_that_does_not_exist(players, position):
    game = services.create_game(players[0], "joker")
    with pytest.raises(services.GameError) as refused:
        services.join_game(game.pk, players[1], position)
    assert refused.value.code == "bad_request"


@FUZZ
@given(st.one_of(odd_text(600), huge_text(), st.none(), st.integers(), st.lists(st.text(), max_size=2)))
@example("a\ud800b")
@example("nul\x00")
def test_a_chat_line_is_stored_as_written_or_refused_with_a_reason(joker_game, players, text):
    ChatMessage.objects.all().delete()  # stay clear of the chat's own rate limit
    try:
        message = services.post_chat(joker_game.pk, players[0], text)
    except services.GameError as refused:
        assert refused.message.strip()
        assert not ChatMessage.objects.exists()
    else:
        assert ChatMessage.objects.get().text == message.text == text.strip()
        message.text.encode("utf-8")


PROFILE_FIELDS = {
    "display_name": odd_text(60), "language": st.sampled_from(["ru", "en", "de"]),
    "time_zone": st.sampled_from(["UTC", "Europe/Moscow", "Asia/Tbilisi", "Mars/Olympus", "../etc"]),
    "email_notifications": CHECKBOX, "turn_emails": st.sampled_from(["now", "digest", "never", "x"]),
    "night_pause_start": st.sampled_from(["23:00", "00:00", "24:00", "7:00", "25:61", "12", "noon"]),
    "night_pause_end": st.sampled_from(["07:00", "23:00", "00:00", "-1:00"]),
}


@FUZZ
@given(form_data(PROFILE_FIELDS))
def test_the_profile_form_survives_anything(players, data):
    response = client_for(players[0]).post(reverse("profile_edit"), data)
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        assert response.context["form"].errors or not data  # an empty POST shows the form


@FUZZ
@given(form_data({"days": st.integers(-5, 400).map(str)}))
def test_the_vacation_form_survives_anything(players, data):
    response = client_for(players[0]).post(reverse("take_vacation"), data)
    assert response.status_code in (200, 302)


@FUZZ
@given(form_data({"reason": st.one_of(odd_text(), huge_text())}))
def test_the_abort_form_survives_anything(joker_game, django_user_model, data):
    moderator = django_user_model.objects.filter(username="moderator").first() or \
        django_user_model.objects.create_superuser("moderator", password="pw", email="m@example.com")
    before = Game.objects.get(pk=joker_game.pk).status
    response = client_for(moderator).post(reverse("admin:gameplay_game_abort", args=[joker_game.pk]), data)
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        assert Game.objects.get(pk=joker_game.pk).status == before
