"""A finished game's points are written in the units of its score sheet
everywhere: the Joker sheet counts in hundreds (-210 is written -2.1), so the
profile, the player page and the game-over email do too; the other games'
points stay as they are."""

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from notifications import emails as notifications
from gameplay.models import Game, Seat
from gameplay.points import format_points
from tests.gameplay.conftest import as_finished
from scoresheets.templatetags.sheets import hundreds

pytestmark = pytest.mark.django_db


def finished_game(user, engine: str, points: float) -> Game:
    game = Game.objects.create(engine=engine, seats_count=2, created_by=user, status=Game.Status.FINISHED,
                               finished_at=timezone.now())
    Seat.objects.create(game=game, position=0, user=user, place=2, points=points)
    return as_finished(game)


def points_cells(html: str) -> list[str]:
    import re

    table = html[html.index('class="list finished-games"'):]
    table = table[table.index("<tbody>"):table.index("</tbody>")]
    return [cell.strip() for cell in re.findall(r'<td class="points"[^>]*>(.*?)</td>', table, re.S)]


def test_joker_points_are_written_in_hundreds_as_on_the_score_sheet():
    assert format_points("joker", -210) == "-2.1" == hundreds(-210)
    assert format_points("joker", 1450) == "14.5"


def test_other_games_points_are_written_as_they_are():
    assert format_points("durak", 3.0) == "3"
    assert format_points("ipuker", -12.5) == "-12.5"
    assert format_points("odessa", -35) == "-35"


def test_no_points_are_written_as_nothing():
    assert format_points("joker", None) == ""


def test_the_profile_writes_joker_points_as_the_sheet_does(client, user):
    finished_game(user, "durak", 1.0)
    finished_game(user, "joker", -210.0)
    client.force_login(user)
    assert points_cells(client.get(reverse("profile")).text) == ["-2.1", "1"]


def test_the_player_page_writes_joker_points_as_the_sheet_does(client, user):
    finished_game(user, "joker", 1450.0)
    client.force_login(user)
    assert points_cells(client.get(reverse("player", args=[user.username])).text) == ["14.5"]


def test_the_game_over_email_writes_joker_points_as_the_sheet_does(user):
    user.language, user.time_zone = "en", "UTC"
    user.save()
    game = finished_game(user, "joker", -210.0)
    notifications.game_over(game.pk)
    [email] = mail.outbox
    assert f"2. {user.name} (you): -2.1\n" in email.body
    assert "-210" not in email.body
