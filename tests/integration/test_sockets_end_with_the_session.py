"""A game socket served by one process closes when its session ends in
another (issue 24): real daphne, real Redis; the session is flushed, or the
account's password changed, by a separate process (as a logout or a
password change served by another daphne would), and the socket is closed
with 4401 within a second; nothing is answered to it after that."""

import pytest
from websockets.exceptions import ConnectionClosed

from tests.integration.conftest import game_socket, migrated_stack, receive, redis_database

pytestmark = pytest.mark.slow

SESSION_REDIS_DB = 8  # a Redis database of the module's own, emptied first
DAY = 24 * 3600
CLOSE_SIGNED_OUT = 4401


@pytest.fixture(scope="module")
def web_stack(tmp_path_factory, redis_url):
    stack = migrated_stack(tmp_path_factory.mktemp("session-stack"), redis_database(redis_url, SESSION_REDIS_DB))
    try:
        stack.daphne_port = stack.start_daphne()[1]
        yield stack
    finally:
        stack.stop_all()


def closed_within_a_second(ws) -> int | None:
    """The close code once the socket closes; fails if it sends a view first or is open a second later."""
    try:
        while True:
            frame = ws.recv(timeout=1.0)
            assert '"hand"' not in frame, f"the closed session's socket still got a view: {frame[:200]}"
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    except TimeoutError:
        pytest.fail("the socket of an ended session was still open a second later")


@pytest.mark.parametrize("ending", ["end_session", "change_password"])
def test_a_socket_closes_within_a_second_when_its_session_ends_in_another_process(web_stack, ending):
    stack = web_stack
    game = stack.helper("new_game", f"ends-{ending}", DAY, DAY)
    player = game["seats"][1]["username"]
    cookie = stack.helper("sessions", [player])[player]
    with game_socket(stack.daphne_port, game["game"], cookie) as ws:
        assert receive(ws, "state")["seat"] == 1
        receive(ws, "chat_history")
        stack.helper(ending, cookie if ending == "end_session" else player)
        code = closed_within_a_second(ws)
    assert code == CLOSE_SIGNED_OUT, stack.logs()


def test_a_token_s_socket_and_stream_end_within_a_second_when_another_process_revokes_it(web_stack):
    """Issue 38: the same for an API token's socket and NDJSON stream."""
    import http.client
    import time

    from websockets.sync.client import connect

    stack = web_stack
    game = stack.helper("new_game", "ends-token", DAY, DAY)
    player = game["seats"][1]["username"]
    token = stack.helper("new_token", player)["token"]
    stream = http.client.HTTPConnection("127.0.0.1", stack.daphne_port, timeout=10)
    stream.request("GET", f"/api/v1/games/{game['game']}/stream", headers={"Authorization": f"Bearer {token}"})
    response = stream.getresponse()
    assert response.status == 200
    assert b'"state"' in response.readline()
    with connect(f"ws://127.0.0.1:{stack.daphne_port}/ws/games/{game['game']}/",
                 additional_headers={"Authorization": f"Bearer {token}"}, open_timeout=10, close_timeout=2,
                 ping_interval=None) as ws:
        assert receive(ws, "state")["seat"] == 1
        receive(ws, "chat_history")
        stack.helper("revoke_token", token)
        revoked_at = time.monotonic()
        code = closed_within_a_second(ws)
        assert response.read() in (b"", b"\n")  # the stream ends: nothing but a keep-alive before its end
        stream_ended_after = time.monotonic() - revoked_at
    assert code == CLOSE_SIGNED_OUT, stack.logs()
    assert stream_ended_after < 1.5
