"""A game's final result (gameplay/results.py): one source for the game-over
box, the score sheet, the profile and the game-over emails, saying how the
game ended: played to the end, lost on time, resigned, aborted with a reason."""

import random
import re

import pytest
from django.core import mail
from django.db import transaction
from django.urls import reverse

from gameplay import bots, services
from gameplay.broadcast import game_payload
from gameplay.engine import get_engine
from gameplay.models import ChatMessage, Game, Seat, seed_hash
from gameplay.results import (
    ABORTED,
    FINISHED,
    IN_PLAY,
    LOST_ON_TIME,
    RESIGNED,
    game_result,
    points_label,
)
from gameplay.services.base import locked_game
from gameplay.services.clocks import expire_seat

from .conftest import client_for
from moderation.services import games as moderation_actions

pytestmark = pytest.mark.django_db
ENGINES = {"joker": 4, "durak": 3, "ipuker": 4, "odessa": 4, "domino_poker": 3}
SEED = "8"  # dealt so that by its totals alone the sheet would rank the late player first


@pytest.fixture
def emailed_players(django_user_model):
    return [django_user_model.objects.create_user(f"p{i}", email=f"p{i}@example.com", password="pw-not-used-1",
                                                  display_name=f"Player {i}", language="en") for i in range(4)]


def new_game(slug: str, players, seed: str | None = None) -> Game:
    """A started game; with `seed`, dealt from it (the same game on every run)."""
    seated = players[:ENGINES[slug]]
    game = services.create_game(seated[0], slug, players=len(seated))
    if seed is not None:
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
    for user in seated[1:]:
        services.join_game(game.pk, user)
    game.refresh_from_db()
    return game


def other_actor_moves(game: Game, players, skip: int) -> None:
    """A seat other than `skip` that the game waits for makes its first legal move."""
    engine = get_engine(game.engine)
    position = next(p for p in engine.actors(game.state) if p != skip)
    services.submit_move(game.pk, players[position], engine.legal_actions(game.state, position)[0], game.version)


def run_out_of_time(game: Game, players, late: int) -> Game:
    """The seat `late` lets every clock of his run out (automatic moves, then
    the loss of the game, or the loss at once where the engine says so);
    the others move when it is theirs."""
    engine = get_engine(game.engine)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        if late in engine.actors(game.state):
            with transaction.atomic():
                locked = locked_game(game.pk, seats=True)
                seat = next(s for s in locked.seats.all() if s.position == late)
                timer = next(t for t in engine.timers(locked.state) if t["seat"] == late)
                expire_seat(locked, engine, seat, timer)
        else:
            other_actor_moves(game, players, late)
    raise AssertionError("the game did not end")


def play_to_the_end(game: Game, players) -> Game:
    """Computer choices up to the last move (written as the state), the last
    move by its player through the service that ends games."""
    engine = get_engine(game.engine)
    state, rng = game.state, random.Random(7)
    while True:
        position = engine.actors(state)[0]
        action = bots.choose_action(engine, state, position, rng)
        after, _events = engine.apply(state, position, action)
        if engine.is_over(after):
            break
        state = after
    Game.objects.filter(pk=game.pk).update(state=state)
    services.submit_move(game.pk, players[position], action, game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def ranking_in(html: str) -> list[str]:
    """The player names of a "Final ranking" list, best first."""
    ranking = html[html.index("Final ranking"):]
    ranking = ranking[:ranking.index("</ol>")]
    return re.findall(r"\d+\. (Player \d)", ranking)


@pytest.mark.parametrize("slug", ENGINES)
def test_a_game_lost_on_time_places_the_late_player_last_and_says_who_lost_on_time(slug, emailed_players):
    game = new_game(slug, emailed_players)
    result = game_result(run_out_of_time(game, emailed_players, late=1))
    assert (result.ending, result.seat, result.is_forfeit) == (LOST_ON_TIME, 1, True)
    last = max(s.place for s in result.standings)
    assert result.standing_of(1).place == last
    assert [s.place for s in result.standings] == sorted(s.place for s in result.standings)
    assert result.describe() == "Player 1 lost on time; the game ended."


@pytest.mark.parametrize("slug", ENGINES)
def test_a_resignation_places_the_player_last_and_says_who_resigned(slug, emailed_players):
    game = new_game(slug, emailed_players)
    services.resign(game.pk, emailed_players[2])
    game.refresh_from_db()
    result = game_result(game)
    assert (result.ending, result.seat) == (RESIGNED, 2)
    assert result.standing_of(2).place == max(s.place for s in result.standings)
    assert result.describe() == "Player 2 resigned; the game ended."


@pytest.mark.parametrize("slug", ENGINES)
def test_an_aborted_game_has_no_places_and_gives_the_moderators_reason(slug, emailed_players, django_user_model):
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    game = new_game(slug, emailed_players)
    moderation_actions.abort_game(game.pk, moderator, "Two accounts of one player")
    game.refresh_from_db()
    result = game_result(game)
    assert (result.ending, result.reason, result.standings) == (ABORTED, "Two accounts of one player", [])
    assert result.describe() == "Aborted by a moderator: Two accounts of one player"


@pytest.mark.parametrize("slug", ENGINES)
def test_a_game_played_to_the_end_has_the_engines_places_and_scores(slug, emailed_players):
    game = play_to_the_end(new_game(slug, emailed_players), emailed_players)
    engine = get_engine(slug)
    outcome = engine.outcome(game.state)
    result = game_result(game)
    assert result.ending == FINISHED and result.seat is None
    assert {s.position: s.place for s in result.standings} == dict(enumerate(outcome["places"]))
    assert {s.position: s.points_label for s in result.standings} == {
        p: points_label(slug, score) for p, score in enumerate(outcome["scores"])}
    # The seats hold the same places (the profile and the lists read them without the state).
    assert {s.position: s.place for s in Seat.objects.filter(game=game)} == dict(enumerate(outcome["places"]))


def test_a_game_in_play_has_no_result_yet(emailed_players):
    assert game_result(new_game("joker", emailed_players)).ending == IN_PLAY


def test_points_are_written_in_the_sheets_units():
    assert points_label("joker", 1450) == "14.5"
    assert points_label("joker", -200) == "-2.0"
    assert points_label("durak", 0.5) == "0.5"
    assert points_label("durak", 1.0) == "1"
    assert points_label("ipuker", -12) == "-12"
    assert points_label("ipuker", None) == "–"
    assert points_label("odessa", -35) == "-35"


@pytest.mark.django_db(transaction=True)
def test_box_sheet_profile_and_email_rank_a_joker_game_lost_on_time_alike(emailed_players, django_capture_on_commit_callbacks):
    game = new_game("joker", emailed_players, seed=SEED)
    late = game.state["order"][0]  # first in the sheet's order: with equal totals the sheet once ranked him first
    with django_capture_on_commit_callbacks(execute=True):
        game = run_out_of_time(game, emailed_players, late=late)
    result = game_result(game)
    names = [s.name for s in result.standings]
    assert names[-1] == f"Player {late}"
    joker = get_engine("joker")
    assert joker.ranking(joker.totals(game.state), game.state["order"])[0] == late  # by the totals alone: first
    assert joker.sheet(game.state)["ranking"] == [s.position for s in result.standings]

    box = game_payload(game, 0)["result"]
    assert box["ending"] == LOST_ON_TIME and box["seat"] == late
    assert [f"Player {s['position']}" for s in sorted(box["standings"], key=lambda s: s["place"])] == names

    sheet = client_for(emailed_players[0]).get(reverse("sheet", args=[game.pk])).content.decode()
    assert ranking_in(sheet) == names
    assert f"Player {late} lost on time; the game ended." in sheet

    page = client_for(emailed_players[0]).get(reverse("game", args=[game.pk])).content.decode()
    assert ranking_in(page) == names
    assert f"Player {late} lost on time; the game ended." in page

    for user in emailed_players:
        profile = client_for(user).get(reverse("profile")).content.decode()
        row = profile[profile.index(f'data-game="{game.pk}"'):]
        row = row[:row.index("</tr>")]
        assert f'<td class="place" data-label="Place">{names.index(user.name) + 1}</td>' in row
        assert f"Player {late} lost on time; the game ended." in row

    emails = [m for m in mail.outbox if "is over" in m.subject]
    assert len(emails) == 4
    for message in emails:
        ranking = message.body[message.body.index("Final ranking:"):]
        assert re.findall(r"^\d+\. (Player \d)", ranking, flags=re.M) == names
        assert "lost on time" in message.body


def test_the_sheet_of_an_aborted_game_gives_the_reason_and_no_ranking(emailed_players, django_user_model):
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    game = new_game("durak", emailed_players)
    moderation_actions.abort_game(game.pk, moderator, "Server trouble")
    html = client_for(emailed_players[0]).get(reverse("sheet", args=[game.pk])).content.decode()
    assert "Aborted by a moderator: Server trouble" in html
    assert "Final ranking" not in html


def test_the_abort_is_sent_to_the_open_pages_with_its_reason(emailed_players, django_user_model, monkeypatch,
                                                             django_capture_on_commit_callbacks):
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    game = new_game("joker", emailed_players)
    sent = []
    monkeypatch.setattr("gameplay.broadcast._send_all",
                        lambda layer, messages: sent.extend((group, build()) for group, build in messages))
    monkeypatch.setattr("gameplay.broadcast.async_to_sync", lambda func: func)
    with django_capture_on_commit_callbacks(execute=True):
        moderation_actions.abort_game(game.pk, moderator, "Cheating reported")
    payloads = [message["payload"] for _group, message in sent]
    assert len(payloads) == 5  # every seat and the spectators
    for payload in payloads:
        assert payload["status"] == "aborted"
        assert payload["result"] == {"ending": ABORTED, "seat": None, "reason": "Cheating reported", "standings": []}


def test_a_finished_games_page_shows_its_chat_read_only(emailed_players):
    game = new_game("joker", emailed_players)
    services.post_chat(game.pk, emailed_players[1], "good luck all")
    services.resign(game.pk, emailed_players[3])
    html = client_for(emailed_players[0]).get(reverse("game", args=[game.pk])).content.decode()
    chat = html[html.index('id="chat"'):]
    assert "good luck all" in chat
    assert "The game is over: its chat is read-only." in chat
    assert re.search(r'<form class="chat-form"[^>]* hidden', chat)


def test_writing_in_the_chat_of_a_finished_game_is_refused_with_a_clear_message(emailed_players):
    game = new_game("durak", emailed_players)
    services.resign(game.pk, emailed_players[0])
    with pytest.raises(services.GameError, match="The game is over: its chat is read-only.") as refused:
        services.post_chat(game.pk, emailed_players[1], "gg")
    assert refused.value.code == "not_active"
    assert not ChatMessage.objects.filter(game=game).exists()
