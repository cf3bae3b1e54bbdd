"""Live standings: the division page's socket, driven through the real ASGI
application (session auth, origin check, routing) with Channels'
communicator; a league game ending (real commits, Celery eager) pushes the
new standings, in each socket's language, to whoever may see the league."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from gameplay import services as game_services
from leagues import live, services
from leagues.models import Division, Entry, Fixture
from tests.gameplay.test_consumer import ORIGIN, headers_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"lv{i}", password=None, language="en", display_name=f"Live {i}")
            for i in range(4)]


def running_division(people, *, private: bool = False) -> Division:
    """A started two-player Durak league of three (its drawing ran after the start's commit)."""
    league = services.create_league(people[0], name="Live Durak", engine="durak", players=2, is_private=private)
    season = league.seasons.get()
    for user in people[:3]:
        services.register(season.pk, user)
    services.start_season(season.pk, people[0])
    return Division.objects.get(season=season)


def socket(division: Division, headers: list) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/leagues/divisions/{division.pk}/", headers=headers)


def lose_a_game(division: Division):
    """The first scheduled game: its second player resigns. Returns the winner."""
    fixture = Fixture.objects.filter(division=division).order_by("round", "pk").first()
    entries = {e.pk: e for e in Entry.objects.filter(division=division).select_related("user")}
    winner, loser = (entries[pk].user for pk in fixture.seats)
    game_services.resign(fixture.game_id, loser)
    return winner


def test_a_finished_league_game_pushes_the_new_standings_to_the_open_page(people):
    division = running_division(people)
    assert Fixture.objects.filter(division=division).exclude(game=None).count() == 3  # drawn after the commit
    spectator = headers_for(people[3])

    async def scenario():
        ws = socket(division, spectator)
        assert (await ws.connect())[0]
        assert await ws.receive_nothing(timeout=0.2)  # nothing is sent until something changes
        winner = await database_sync_to_async(lose_a_game)(division)
        message = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return winner, message

    winner, message = async_to_sync(scenario)()
    assert message["type"] == "standings" and message["stamp"] > 0
    html = message["html"]
    assert "Cross-table" in html and "Points" in html
    first_row = html[html.index("<tbody>"):]
    assert first_row.index(winner.name) < min(first_row.index(p.name) for p in people[:3] if p != winner)


def test_each_socket_gets_the_standings_in_its_own_language(people):
    division = running_division(people)
    people[3].language = "ru"
    people[3].save(update_fields=["language"])
    russian, english = headers_for(people[3]), headers_for(people[1])

    async def scenario():
        sockets = [socket(division, russian), socket(division, english)]
        for ws in sockets:
            assert (await ws.connect())[0]
        await database_sync_to_async(lose_a_game)(division)
        messages = [await ws.receive_json_from(timeout=5) for ws in sockets]
        for ws in sockets:
            await ws.disconnect()
        return messages

    in_russian, in_english = async_to_sync(scenario)()
    assert "Очки" in in_russian["html"] and "Points" not in in_russian["html"]
    assert "Points" in in_english["html"] and "Очки" not in in_english["html"]


def test_an_invite_only_league_is_followed_by_its_members_only(people, django_user_model):
    division = running_division(people, private=True)
    stranger = headers_for(django_user_model.objects.create_user("stranger", password=None, language="en"))
    member_headers = headers_for(people[2])

    async def scenario():
        outsider = socket(division, stranger)
        connected, code = await outsider.connect()
        anonymous = socket(division, [ORIGIN])
        anonymous_result = await anonymous.connect()
        member = socket(division, member_headers)
        member_connected, _ = await member.connect()
        await member.disconnect()
        return (connected, code), anonymous_result, member_connected

    outsider, anonymous, member = async_to_sync(scenario)()
    assert outsider == (False, 4403) and anonymous == (False, 4403) and member is True


def test_a_public_league_is_followed_by_anyone_and_an_unknown_division_by_nobody(people):
    division = running_division(people)

    async def scenario():
        anonymous = socket(division, [ORIGIN])
        connected, _ = await anonymous.connect()
        await anonymous.disconnect()
        missing = WebsocketCommunicator(application, "/ws/leagues/divisions/999999/", headers=[ORIGIN])
        return connected, await missing.connect()

    assert async_to_sync(scenario)() == (True, (False, 4403))


def test_a_resync_answers_the_current_standings_once_and_bad_frames_change_nothing(people):
    division = running_division(people)
    lose_a_game(division)
    headers = headers_for(people[1])

    async def scenario():
        ws = socket(division, headers)
        assert (await ws.connect())[0]
        await ws.send_json_to({"type": "sync"})
        first = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "sync"})  # within SYNC_SECONDS: ignored
        ignored = await ws.receive_nothing(timeout=0.3)
        await ws.send_json_to({"type": "move", "action": {}})
        error = await ws.receive_json_from(timeout=5)
        await ws.send_to(text_data="[[[[[[[[[[[[not json")
        refused = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return first, ignored, error, refused

    first, ignored, error, refused = async_to_sync(scenario)()
    assert first["type"] == "standings" and "Live 0" in first["html"]
    assert ignored
    assert error == {"type": "error", "code": "bad_request", "message": "Unknown message type."}
    assert refused["type"] == "error" and refused["code"] == "bad_request"


def test_changes_in_one_commit_share_one_push(monkeypatch):
    """Several results committed together (a withdrawal resigning several games) queue one push."""
    pushed = []
    monkeypatch.setattr("leagues.live.queue_push", pushed.append)
    from django.db import transaction

    with transaction.atomic():
        for _ in range(3):
            live.standings_changed(42)
    assert pushed == [42]
    live.push_standings(42)  # the task starts (nothing to push: no such division) and frees the key
    with transaction.atomic():
        live.standings_changed(42)
    assert pushed == [42, 42]


def test_a_withdrawal_pushes_the_standings(people, monkeypatch):
    division = running_division(people)
    pushed = []
    monkeypatch.setattr("leagues.live.queue_push", pushed.append)
    services.withdraw(Entry.objects.get(division=division, user=people[2]).pk, people[2])
    assert pushed == [division.pk]


def test_a_push_reads_a_constant_number_of_queries(people, django_assert_max_num_queries):
    division = running_division(people)
    with django_assert_max_num_queries(10) as few:
        live.push_standings(division.pk)
    users = {e.pk: e.user for e in Entry.objects.filter(division=division)}
    for fixture in Fixture.objects.filter(division=division):
        game_services.resign(fixture.game_id, users[fixture.seats[1]])
    with django_assert_max_num_queries(len(few.captured_queries) + 1):  # + the finished games' seats
        live.push_standings(division.pk)
