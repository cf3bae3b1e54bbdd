"""daphne's access log keeps API tokens out (issue 38): a token put in the
address (`?access_token=kt_...`), which the API refuses, is written to the
log of the daphne the site runs (config/daphne.py) as `[filtered]`; the
rest of the request line stays as it was."""

import urllib.error
import urllib.request

import pytest

from tests.integration.conftest import migrated_stack, redis_database

pytestmark = pytest.mark.slow

LOG_REDIS_DB = 9


@pytest.fixture(scope="module")
def web_stack(tmp_path_factory, redis_url):
    stack = migrated_stack(tmp_path_factory.mktemp("access-log-stack"), redis_database(redis_url, LOG_REDIS_DB))
    try:
        stack.daphne, stack.daphne_port = stack.start_daphne()
        yield stack
    finally:
        stack.stop_all()


def test_a_token_in_the_address_is_refused_and_not_written_to_the_access_log(web_stack):
    secret = "kt_" + "s3cr3t" * 7
    url = f"http://127.0.0.1:{web_stack.daphne_port}/api/v1/account?access_token={secret}&version=12"

    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url, timeout=10)

    assert refused.value.code == 401
    log = web_stack.daphne.log()
    assert "/api/v1/account?access_token=[filtered]&version=12" in log, log[-2000:]
    assert secret not in log


def test_every_way_the_site_is_started_runs_that_daphne():
    from pathlib import Path

    base = Path(__file__).resolve().parents[2]
    for name in ("Procfile", "config/supervisord.conf", "config/supervisor-production.conf"):
        text = (base / name).read_text()
        assert "-m config.daphne" in text and "bin/daphne" not in text and "web: daphne" not in text, name
