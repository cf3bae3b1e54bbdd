"""A state message that never reaches the game page (Redis may lose one) is
repaired at the page's next heartbeat: the pong names the game's version and
the page, behind it, asks for the state again. Here the move is made by
another process whose messages reach no page: the page learns of it from
the heartbeat alone."""

import pytest

from tests.browser.conftest import log_in, received_frames, wait_for_frame

pytestmark = pytest.mark.browser

PASSWORD = "a long enough password 7"
HEARTBEAT_MS = 30_000


def shown_version(page) -> int:
    return int(page.locator("#table").get_attribute("data-version"))


def test_a_move_whose_message_was_lost_shows_after_the_next_heartbeat(page, live_site):
    setup = live_site.run_scenario("two_joker_tables", "tamar", PASSWORD)["first"]
    frames = received_frames(page)
    page.clock.install()  # the page's timers, the 30-second heartbeat among them, run when the test says
    log_in(page, "tamar", PASSWORD, setup["url"])
    # The socket has sent what it sends when it opens (the state, then the chat's lines): the move
    # below cannot reach the page in that opening state.
    wait_for_frame(page, frames, "chat_history")
    before = shown_version(page)

    after = live_site.run_scenario("move_for", "tamar", str(setup["game"]))["version"]
    assert after > before
    page.clock.run_for(HEARTBEAT_MS // 2)
    assert shown_version(page) == before  # nothing told the page

    page.clock.run_for(HEARTBEAT_MS)
    page.wait_for_function("(v) => Number(document.getElementById('table').dataset.version) === v", arg=after)
    assert page.js_errors == []
