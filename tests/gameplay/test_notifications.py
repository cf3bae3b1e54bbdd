"""Emails: "your turn", the 20% time warning, game over, the daily digest.

Celery runs eagerly in tests (the "your turn" task's countdown is ignored);
on-commit hooks run through `django_capture_on_commit_callbacks(execute=True)`,
as they would after a real commit.
"""

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.utils import timezone, translation

from gameplay import presence, services
from gameplay.models import Game, Seat
from notifications import emails as notifications

from .conftest import JOKER, a_legal_action, acting_player, started_game
from moderation.services import games as moderation_actions

pytestmark = pytest.mark.django_db


def outsider():
    """A moderator who does not play at the table (nobody ends a game he plays in)."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get_or_create(username="outsider", defaults={"language": "en"})[0]


@pytest.fixture
def players(players):
    """The four players, each with an email address, English and UTC unless a test says otherwise."""
    for user in players:
        user.email = f"{user.username}@example.org"
        user.language = "en"
        user.time_zone = "UTC"
        user.save()
    return players


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    """`with run_on_commit():` runs the on-commit hooks of what happens inside, as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def seat_of(game: Game, position: int) -> Seat:
    return Seat.objects.get(game=game, position=position)


def emails_to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email]]


def make_a_move(game: Game, players, run_on_commit) -> tuple[int, object]:
    """The acting player moves; returns the seat and player whose turn it is now."""
    position, user = acting_player(game, players)
    with run_on_commit():
        services.submit_move(game.pk, user, a_legal_action(game, position), game.version)
    game.refresh_from_db()
    return acting_player(game, players)


def game_url(game: Game) -> str:
    return settings.SITE_URL.rstrip("/") + game.get_absolute_url()


# --- "your turn" -------------------------------------------------------------------


def test_a_player_away_from_the_game_page_is_emailed_when_his_turn_starts(joker_game, players, run_on_commit):
    position, user = make_a_move(joker_game, players, run_on_commit)

    [email] = mail.outbox
    assert email.to == [user.email]
    assert email.from_email == settings.DEFAULT_FROM_EMAIL
    assert email.subject == f"Your move in game #{joker_game.pk} (Joker)"
    assert game_url(joker_game) in email.body
    assert "\n" not in email.subject
    assert seat_of(joker_game, position).turn_notified


def test_the_turn_email_waits_turn_email_delay_seconds_before_it_is_sent(joker_game, players, monkeypatch):
    queued = []
    monkeypatch.setattr(notifications.send_turn_email, "apply_async",
                        lambda args, countdown: queued.append((args, countdown)))
    position, _ = acting_player(joker_game, players)

    notifications.turn_started(joker_game.pk, joker_game.version, [position])

    assert queued == [((joker_game.pk, joker_game.version, position), settings.TURN_EMAIL_DELAY)]
    assert mail.outbox == []


def test_a_player_on_the_game_page_is_not_emailed(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    presence.mark(joker_game.pk, position, user.pk)  # as his game page's socket does

    with run_on_commit():
        sent = notifications.send_turn_email(joker_game.pk, joker_game.version, position)

    assert sent is False
    assert mail.outbox == []
    assert not seat_of(joker_game, position).turn_notified


def test_a_player_who_left_the_game_page_a_while_ago_is_emailed(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    long_ago = timezone.now() - timedelta(seconds=settings.PRESENCE_SECONDS + 5)
    Seat.objects.filter(game=joker_game, position=position).update(seen_at=long_ago)

    with run_on_commit():
        notifications.send_turn_email(joker_game.pk, joker_game.version, position)

    assert [m.to for m in mail.outbox] == [[user.email]]


def test_a_player_gets_at_most_one_turn_email_per_turn(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)

    with run_on_commit():
        notifications.turn_started(joker_game.pk, joker_game.version, [position])
        notifications.turn_started(joker_game.pk, joker_game.version, [position])
        notifications.send_turn_email(joker_game.pk, joker_game.version, position)

    assert len(emails_to(user)) == 1


def test_no_turn_email_once_the_game_has_moved_on(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    old_version = joker_game.version
    make_a_move(joker_game, players, run_on_commit)
    mail.outbox.clear()

    with run_on_commit():
        notifications.send_turn_email(joker_game.pk, old_version, position)

    assert emails_to(user) == []


def test_a_player_who_turned_turn_emails_off_gets_none(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    user.turn_emails = "off"
    user.save()

    with run_on_commit():
        notifications.turn_started(joker_game.pk, joker_game.version, [position])
        notifications.send_turn_email(joker_game.pk, joker_game.version, position)

    assert mail.outbox == []


def test_a_daily_digest_player_gets_no_email_when_his_turn_starts(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    user.turn_emails = "daily"
    user.save()

    with run_on_commit():
        notifications.turn_started(joker_game.pk, joker_game.version, [position])
        notifications.send_turn_email(joker_game.pk, joker_game.version, position)

    assert mail.outbox == []


def test_a_player_without_an_email_address_gets_no_turn_email(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    user.email = ""
    user.save()

    with run_on_commit():
        notifications.send_turn_email(joker_game.pk, joker_game.version, position)

    assert mail.outbox == []


def test_the_turn_email_shows_the_deadline_in_the_players_time_zone(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    user.time_zone = "Asia/Tokyo"
    user.save()
    Seat.objects.filter(game=joker_game, position=position).update(deadline=datetime(2030, 3, 15, 9, 30, tzinfo=UTC))

    with run_on_commit():
        notifications.send_turn_email(joker_game.pk, joker_game.version, position)

    [email] = mail.outbox
    assert "18:30 on March 15, 2030 (Asia/Tokyo)" in email.body


def test_emails_are_written_in_the_players_language(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    user.language = "ru"
    user.time_zone = "Europe/Moscow"
    user.save()
    Seat.objects.filter(game=joker_game, position=position).update(deadline=datetime(2030, 3, 15, 9, 30, tzinfo=UTC))
    translation.activate("en")

    with run_on_commit():
        notifications.send_turn_email(joker_game.pk, joker_game.version, position)

    [email] = mail.outbox
    assert f"#{joker_game.pk}" in email.subject
    assert "12:30" in email.body and "15 марта 2030" in email.body  # Django's own Russian date format
    assert game_url(joker_game) in email.body
    assert translation.get_language() == "en"  # the override did not leak


# --- the time warning -----------------------------------------------------------------


def test_the_time_warning_is_sent_once_a_turn(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    seat = seat_of(joker_game, position)

    with time_machine.travel(seat.warn_at + timedelta(seconds=1), tick=False), run_on_commit():
        first = services.send_time_warnings()
        second = services.send_time_warnings()

    assert (first, second) == (1, 0)
    [email] = mail.outbox
    assert email.to == [user.email]
    assert email.subject == f"Less than 20% of your time left in game #{joker_game.pk}"
    assert game_url(joker_game) in email.body
    assert seat_of(joker_game, position).warned


def test_the_time_warning_is_not_sent_before_it_is_due(joker_game, players, run_on_commit):
    position, _ = acting_player(joker_game, players)
    seat = seat_of(joker_game, position)

    with time_machine.travel(seat.warn_at - timedelta(seconds=1), tick=False), run_on_commit():
        assert services.send_time_warnings(game_id=joker_game.pk) == 0

    assert mail.outbox == []


def test_the_time_warning_says_when_the_time_runs_out_in_local_time(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    user.time_zone = "Asia/Tokyo"
    user.save()
    seat = seat_of(joker_game, position)
    # Warned in the move time: the time runs out when the reserve after it is spent too.
    runs_out = seat.deadline + timedelta(seconds=seat.reserve_seconds_left)
    local = timezone.localtime(runs_out, timezone=zoneinfo.ZoneInfo("Asia/Tokyo"))

    with time_machine.travel(seat.warn_at + timedelta(seconds=1), tick=False), run_on_commit():
        services.send_time_warnings(game_id=joker_game.pk)

    [email] = mail.outbox
    assert f"Deadline: {local:%H:%M} on " in email.body
    assert "(Asia/Tokyo)" in email.body


def test_the_time_warning_respects_email_notifications_off(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    user.email_notifications = False
    user.save()
    seat = seat_of(joker_game, position)

    with time_machine.travel(seat.warn_at + timedelta(seconds=1), tick=False), run_on_commit():
        assert services.send_time_warnings() == 1

    assert mail.outbox == []
    assert seat_of(joker_game, position).warned


def test_turns_starting_close_together_make_one_email_listing_the_games(players, run_on_commit):
    games = [started_game("joker", players) for _ in range(3)]
    player = players[1]
    Seat.objects.filter(game__in=games, user=player).update(deadline=timezone.now() + timedelta(days=1),
                                                           turn_notified=False)
    positions = {game.pk: Seat.objects.get(game=game, user=player).position for game in games}
    mail.outbox.clear()

    with run_on_commit():
        sent = [notifications.send_turn_email(game.pk, game.version, positions[game.pk]) for game in games]

    assert sent == [True, False, False]  # the first task's email told him of all three
    [email] = emails_to(player)
    assert email.subject == "3 games are waiting for your move"
    assert all(game_url(game) in email.body for game in games)
    assert settings.SITE_URL.rstrip("/") + "/my-games/" in email.body
    assert not Seat.objects.filter(game__in=games, user=player, turn_notified=False).exists()


def test_a_game_whose_page_he_is_on_is_left_out_of_the_burst_email(players, run_on_commit):
    games = [started_game("joker", players) for _ in range(2)]
    player = players[1]
    Seat.objects.filter(game__in=games, user=player).update(deadline=timezone.now() + timedelta(days=1),
                                                           turn_notified=False)
    presence.mark(games[1].pk, Seat.objects.get(game=games[1], user=player).position, player.pk)  # on its page
    mail.outbox.clear()
    position = Seat.objects.get(game=games[0], user=player).position

    with run_on_commit():
        assert notifications.send_turn_email(games[0].pk, games[0].version, position) is True

    [email] = emails_to(player)
    assert email.subject == f"Your move in game #{games[0].pk} (Joker)"


def a_night_around(user, moment) -> None:
    """The player's night window (UTC: the fixture's time zone) runs from an hour before `moment` to two after."""
    user.night_pause_start = (moment - timedelta(hours=1)).time()
    user.night_pause_end = (moment + timedelta(hours=2)).time()
    user.save()


def test_a_turn_email_due_in_the_players_night_waits_for_the_morning(joker_game, players, run_on_commit, monkeypatch):
    position, user = acting_player(joker_game, players)
    now = timezone.now()
    a_night_around(user, now)
    held = []
    monkeypatch.setattr(notifications.send_turn_email, "apply_async", lambda args, eta: held.append((args, eta)))

    with run_on_commit():
        assert notifications.send_turn_email(joker_game.pk, joker_game.version, position) is False

    assert mail.outbox == []
    assert not seat_of(joker_game, position).turn_notified
    [(args, morning)] = held
    assert args == (joker_game.pk, joker_game.version, position)
    assert now + timedelta(hours=1, minutes=59) < morning <= now + timedelta(hours=2)

    with time_machine.travel(morning + timedelta(seconds=1), tick=False), run_on_commit():
        assert notifications.send_turn_email(*args) is True
    [email] = mail.outbox
    assert email.to == [user.email]


def test_a_time_warning_due_in_the_players_night_waits_for_the_morning(joker_game, players, run_on_commit,
                                                                       monkeypatch):
    position, user = acting_player(joker_game, players)
    warned_at = seat_of(joker_game, position).warn_at + timedelta(seconds=1)
    a_night_around(user, warned_at)
    held = []
    monkeypatch.setattr(notifications.send_held_time_warning, "apply_async",
                        lambda args, eta: held.append((args, eta)))

    with time_machine.travel(warned_at, tick=False), run_on_commit():
        assert services.send_time_warnings(game_id=joker_game.pk) == 1

    assert mail.outbox == []
    [(args, morning)] = held
    with time_machine.travel(morning + timedelta(seconds=1), tick=False):
        notifications.send_held_time_warning(*args)
    [email] = mail.outbox
    assert email.subject == f"Less than 20% of your time left in game #{joker_game.pk}"


def test_a_held_time_warning_is_not_sent_once_the_turn_is_over(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    version = joker_game.version
    make_a_move(joker_game, players, run_on_commit)
    mail.outbox.clear()

    notifications.send_held_time_warning(joker_game.pk, version, position)

    assert mail.outbox == []


# --- game over -------------------------------------------------------------------------


def test_every_player_is_emailed_his_place_and_the_final_ranking_when_the_game_ends(joker_game, players, run_on_commit):
    position, quitter = acting_player(joker_game, players)

    with run_on_commit():
        services.resign(joker_game.pk, quitter)

    joker_game.refresh_from_db()
    assert joker_game.status == Game.Status.FINISHED
    seats = {s.user_id: s for s in joker_game.seats.all()}
    sheet_url = f"{settings.SITE_URL.rstrip('/')}/sheets/{joker_game.pk}/"
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in players)
    for user in players:
        [email] = emails_to(user)
        assert email.subject == f"Game #{joker_game.pk} is over: you placed {seats[user.pk].place}"
        assert sheet_url in email.body
        for seat in seats.values():
            assert f"{seat.place}. {seat.player_name}" in email.body
        assert f"{seats[user.pk].place}. {user.name} (you): {seats[user.pk].points / 100:.1f}" in email.body
    assert "You resigned." in emails_to(quitter)[0].body
    other = next(u for u in players if u != quitter)
    assert f"{quitter.name} resigned." in emails_to(other)[0].body


def test_players_who_turned_email_notifications_off_get_no_game_over_email(joker_game, players, run_on_commit):
    position, quitter = acting_player(joker_game, players)
    for user in players[1:]:
        user.email_notifications = False
        user.save()

    with run_on_commit():
        services.resign(joker_game.pk, quitter)

    assert [m.to for m in mail.outbox] == [[players[0].email]]


def test_an_aborted_game_sends_no_game_over_email(joker_game, players, run_on_commit):
    with run_on_commit():
        moderation_actions.abort_game(joker_game.pk, outsider(), "testing")
        notifications.game_over(joker_game.pk)

    # Issue 26: a moderator's abort is told (notifications.dispatch, the "moderator's decision"
    # notice, by email too), but it is no game-over email.
    assert {m.subject for m in mail.outbox} == {"Game aborted"}
    assert all("aborted by a moderator: testing" in m.body for m in mail.outbox)


def test_a_game_lost_on_time_says_who_lost_and_who_won_on_time(joker_game, players, run_on_commit):
    Game.objects.filter(pk=joker_game.pk).update(on_timeout=Game.OnTimeout.FORFEIT)
    position, loser = acting_player(joker_game, players)
    seat = seat_of(joker_game, position)
    move_deadline = seat.deadline
    final_deadline = move_deadline + timedelta(seconds=seat.reserve_seconds_left)

    with run_on_commit():
        with time_machine.travel(move_deadline + timedelta(seconds=1), tick=False):
            assert services.expire_deadlines(joker_game.pk) == 0  # the reserve starts
        with time_machine.travel(final_deadline + timedelta(seconds=1), tick=False):
            assert services.expire_deadlines(joker_game.pk) == 1  # out of reserve: lost on time

    joker_game.refresh_from_db()
    assert joker_game.status == Game.Status.FINISHED
    places = {s.user_id: s.place for s in joker_game.seats.all()}
    winner = next(u for u in players if places[u.pk] == 1)
    n = joker_game.pk
    assert emails_to(loser)[0].subject == f"Game #{n} is over: you lost on time"
    assert "You lost on time." in emails_to(loser)[0].body
    assert emails_to(winner)[0].subject == f"Game #{n} is over: you won on time"
    for user in players:
        if user not in (loser, winner):
            [email] = emails_to(user)
            assert email.subject == f"Game #{n} is over: {loser.name} lost on time, you placed {places[user.pk]}"
            assert f"{loser.name} lost on time." in email.body


def test_a_timeout_by_automatic_move_is_not_called_a_loss_on_time(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    seat = seat_of(joker_game, position)
    final_deadline = seat.deadline + timedelta(seconds=seat.reserve_seconds_left)

    with time_machine.travel(final_deadline + timedelta(seconds=1), tick=False), run_on_commit():
        assert services.expire_deadlines(joker_game.pk) == 1  # an automatic move, the game goes on

    joker_game.refresh_from_db()
    assert joker_game.status == Game.Status.ACTIVE
    assert not any("on time" in m.subject for m in mail.outbox)


# --- the daily digest ----------------------------------------------------------------------


def test_the_daily_digest_lists_the_games_waiting_for_the_players_move(joker_game, players):
    position, user = acting_player(joker_game, players)
    other_game = services.create_game(players[0], "joker")
    for other in players[1:]:
        services.join_game(other_game.pk, other)
    other_game.refresh_from_db()
    waiting_in_other = players[JOKER.actors(other_game.state)[0]] == user
    for u in players:
        u.turn_emails = "daily"
        u.save()

    sent = notifications.send_daily_digests()

    # One email per player with at least one game waiting for him.
    expected = {players[JOKER.actors(g.state)[0]].pk for g in (joker_game, other_game)}
    assert sent == len(expected) == len(mail.outbox)
    [email] = emails_to(user)
    assert game_url(joker_game) in email.body
    assert (game_url(other_game) in email.body) == waiting_in_other
    count = 2 if waiting_in_other else 1
    assert email.subject == ("2 games are waiting for your move" if count == 2 else "A game is waiting for your move")


def test_no_digest_for_players_with_nothing_waiting_or_who_did_not_choose_it(joker_game, players):
    position, user = acting_player(joker_game, players)
    for u in players:
        u.turn_emails = "daily" if u != user else "now"
        u.save()

    assert notifications.send_daily_digests() == 0
    assert mail.outbox == []


def test_the_daily_digest_skips_finished_games(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    user.turn_emails = "daily"
    user.save()
    with run_on_commit():
        moderation_actions.abort_game(joker_game.pk, outsider(), "testing")

    assert notifications.send_daily_digests() == 0


# --- robustness ------------------------------------------------------------------------------


def test_a_failing_mail_server_does_not_break_the_move(joker_game, players, run_on_commit, monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionRefusedError("smtp down")

    monkeypatch.setattr(notifications, "send_mail", broken)

    position, user = make_a_move(joker_game, players, run_on_commit)  # does not raise

    assert joker_game.version == 1
    assert seat_of(joker_game, position).turn_notified  # at most once: not retried


def test_the_time_warning_says_what_happens_when_the_time_runs_out(joker_game, players, run_on_commit):
    position, user = acting_player(joker_game, players)
    seat = seat_of(joker_game, position)

    with time_machine.travel(seat.warn_at + timedelta(seconds=1), tick=False), run_on_commit():
        services.send_time_warnings(game_id=joker_game.pk)

    [email] = mail.outbox
    assert "a move is made for you automatically" in email.body  # the table's default: automatic moves
