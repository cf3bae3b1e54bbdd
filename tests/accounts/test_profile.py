from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from gameplay.models import Game, Seat


def make_game(user, status: str, position: int = 0, state: dict | None = None, **seat) -> Game:
    game = Game.objects.create(engine="joker", seats_count=4, created_by=user, status=status, state=state)
    Seat.objects.create(game=game, position=position, user=user, **seat)
    return game






def test_anonymous_is_sent_to_login(client, db):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response.url == reverse("login") + "?next=" + reverse("profile")


def test_profile_shows_the_settings(signed_in):
    response = signed_in.get(reverse("profile"))

    assert response.status_code == 200
    assert "Anna" in response.text
    assert "Europe/Moscow" in response.text
    assert reverse("profile_edit") in response.text


def test_profile_lists_current_games_with_my_turn_first(signed_in, user, django_user_model,
                                                      django_capture_on_commit_callbacks):
    from gameplay import services
    from gameplay.engine import get_engine

    others = [django_user_model.objects.create_user(f"other{i}") for i in range(3)]
    open_table = services.create_game(user, "joker")
    waiting = services.create_game(others[0], "joker")
    for member in [user, others[1], others[2]]:
        services.join_game(waiting.pk, member)
    waiting.refresh_from_db()
    actor = get_engine("joker").actors(waiting.state)[0]
    mover = waiting.seats.get(position=actor).user
    if mover == user:  # make it someone else's turn
        action = get_engine("joker").legal_actions(waiting.state, actor)[0]
        services.submit_move(waiting.pk, user, action, 0)
    my_turn = services.create_game(user, "joker")
    with django_capture_on_commit_callbacks(execute=True):
        services.fill_with_bots(my_turn.pk, user)  # the computers move at once (eager tasks): then it is mine

    response = signed_in.get(reverse("profile"))

    rows = response.context["current"]
    assert [row["game"] for row in rows] == [my_turn, waiting, open_table]
    assert [row["my_turn"] for row in rows] == [True, False, False]
    for game in (waiting, open_table, my_turn):
        assert game.get_absolute_url() in response.text


def test_profile_lists_finished_games_with_place_and_points(signed_in, user):
    aborted = make_game(user, "aborted")
    finished = make_game(user, "finished", place=2, points=-137)
    Game.objects.filter(pk=finished.pk).update(finished_at=timezone.now())
    Game.objects.filter(pk=aborted.pk).update(finished_at=timezone.now() - timedelta(days=1))

    response = signed_in.get(reverse("profile"))

    assert list(response.context["past"]) == [finished.seats.get(), aborted.seats.get()]
    assert "-1.4" in response.text  # Joker points in the score sheet's hundreds
    assert finished.get_absolute_url() in response.text
    assert response.context["current"] == []


def test_profile_does_not_show_other_players_games(signed_in, django_user_model):
    boris = django_user_model.objects.create_user("boris")
    game = make_game(boris, "open")

    response = signed_in.get(reverse("profile"))

    assert game.get_absolute_url() not in response.text
