"""The per-address limits hold behind the documented proxy (issue 24): a
visitor who sends a made-up `X-Forwarded-For` on every request is still
counted at the address the proxy saw.

daphne is started with the options `config/supervisor-production.conf`
gives it (`--proxy-headers`), and each request reaches it as the README's
nginx configuration passes it on: the `X-Forwarded-For` line of its
`location /` block is read from the README and applied as nginx applies it
(`$remote_addr`: the address nginx saw, overwriting the visitor's header;
`$proxy_add_x_forwarded_for`: the visitor's header with that address
appended). 22 failed logins under different usernames, each with a fresh
made-up address, then a correct one: past LOGIN_FAILURES_PER_IP (20 in 15
minutes) the correct one is refused too."""

import http.client
import re
import shlex
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.integration.conftest import migrated_stack, redis_database

pytestmark = pytest.mark.slow

BASE_DIR = Path(__file__).resolve().parents[2]
PROXY_REDIS_DB = 9  # a Redis database of the module's own, emptied first
VISITOR = "198.51.100.7"  # the address nginx sees the visitor's requests come from
PASSWORD = "the-right-password-1"


def production_daphne_options() -> tuple[str, ...]:
    """daphne's options in the production supervisord file, without its address, port and application."""
    text = (BASE_DIR / "config/supervisor-production.conf").read_text()
    command = next(line.split("=", 1)[1] for line in text.splitlines()
                   if line.startswith("command=") and "daphne" in line)
    words = shlex.split(command)
    words = words[next(i for i, w in enumerate(words) if w.endswith("daphne")) + 1:]
    options, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in ("-b", "-p", "--bind", "--port"):
            skip = True
        elif not word.endswith(":application"):
            options.append(word)
    assert "--proxy-headers" in options
    return tuple(options)


def documented_forwarded_for() -> str:
    """The value the README's nginx configuration gives X-Forwarded-For."""
    readme = (BASE_DIR / "README.md").read_text()
    found = re.search(r"proxy_set_header\s+X-Forwarded-For\s+(\S+);", readme)
    assert found, "the README's nginx configuration sets no X-Forwarded-For"
    return found.group(1)


def as_nginx_passes_it(visitors_header: str) -> str:
    value = documented_forwarded_for()
    if value == "$remote_addr":
        return VISITOR
    if value == "$proxy_add_x_forwarded_for":
        return f"{visitors_header}, {VISITOR}" if visitors_header else VISITOR
    pytest.fail(f"the test does not know nginx's {value}")


def login(port: int, username: str, password: str, made_up_address: str) -> int:
    """A login through the proxy (page, then form, as a browser): the status of the form's answer."""
    headers = {"X-Forwarded-For": as_nginx_passes_it(made_up_address), "X-Forwarded-Proto": "http"}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/accounts/login/", headers=headers)
        page = connection.getresponse()
        body = page.read().decode()
        cookie = next(c.split(";")[0] for c in page.headers.get_all("Set-Cookie") if c.startswith("csrftoken="))
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
        form = urlencode({"csrfmiddlewaretoken": token, "username": username, "password": password})
        connection.request("POST", "/accounts/login/", body=form, headers={
            **headers, "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


@pytest.fixture(scope="module")
def proxied_stack(tmp_path_factory, redis_url):
    stack = migrated_stack(tmp_path_factory.mktemp("proxy-stack"), redis_database(redis_url, PROXY_REDIS_DB))
    try:
        stack.port = stack.start_daphne(production_daphne_options())[1]
        yield stack
    finally:
        stack.stop_all()


def test_made_up_forwarded_addresses_do_not_dodge_the_failed_login_limit(proxied_stack):
    stack = proxied_stack
    stack.helper("new_user", "rightful", PASSWORD)
    for attempt in range(22):
        status = login(stack.port, f"nobody-{attempt}", "wrong", f"203.0.113.{attempt + 1}")
        assert status in (200, 429), status  # the form again with its error, or refused
    assert login(stack.port, "rightful", PASSWORD, "192.0.2.200") == 429, stack.logs()
