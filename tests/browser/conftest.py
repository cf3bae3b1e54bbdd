"""The browser tests' real parts: the site served by daphne, and Debian's Chromium.

The server is the Procfile's `daphne config.asgi:application`, started as a
child process on a free loopback port, against its own throwaway SQLite file
(a freshly migrated database: a copy of the test process's migrated template,
tests/migrated_database.py). Without REDIS_URL that process uses the in-memory
channel layer and runs Celery eagerly, so computer players move right after the
human's move and every move reaches the page over the WebSocket. The test
process never touches that database: scenario set-ups run
`python -m tests.browser.scenario` with the same environment.

Playwright cannot download browsers here; it drives /usr/bin/chromium. When
that is missing the tests are skipped, or fail when CI=true.
"""

import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.migrated_database import migrate_sqlite

BASE_DIR = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_SECONDS = 40
SETUP_SECONDS = 120


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LiveServer:
    url: str
    env: dict
    log_path: Path
    proc: subprocess.Popen = field(repr=False)
    runner: subprocess.Popen | None = field(default=None, repr=False)

    def log_tail(self, chars: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def run_scenario(self, name: str, *args: str) -> dict:
        """Scenario `name` of tests/browser/scenario.py against the server's database; its JSON output."""
        return self.run_scenario_of("tests.browser.scenario", name, *args)

    def run_scenario_of(self, module: str, name: str, *args: str, timeout: float = SETUP_SECONDS) -> dict:
        """`python -m MODULE NAME ARGS...` against the server's database, run by the scenario runner
        (tests/browser/scenario_runner.py, started at the first call); the JSON line it printed."""
        runner = self._scenario_runner()
        runner.stdin.write(json.dumps({"module": module, "argv": [name, *args]}) + "\n")
        runner.stdin.flush()
        if not select.select([runner.stdout], [], [], timeout)[0]:
            self.stop_scenario_runner()
            raise AssertionError(f"scenario {name} did not finish within {timeout}s")
        line = runner.stdout.readline()
        if not line:
            self.stop_scenario_runner()
            raise AssertionError(f"the scenario runner died in scenario {name}:\n{self._runner_log()}")
        answer = json.loads(line)
        if not answer["ok"]:
            raise AssertionError(f"scenario {name} failed:\n{answer['error']}")
        return json.loads(answer["output"].strip().splitlines()[-1])

    def _scenario_runner(self) -> subprocess.Popen:
        if self.runner is None or self.runner.poll() is not None:
            with open(self.log_path.parent / "scenarios.log", "ab") as log:
                self.runner = subprocess.Popen(
                    [sys.executable, "-m", "tests.browser.scenario_runner"], cwd=BASE_DIR, env=self.env,
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True)
        return self.runner

    def _runner_log(self) -> str:
        try:
            return (self.log_path.parent / "scenarios.log").read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def stop_scenario_runner(self) -> None:
        if self.runner is not None and self.runner.poll() is None:
            self.runner.kill()
            self.runner.wait(timeout=10)
        self.runner = None


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    if Path(CHROMIUM).exists() or shutil.which(CHROMIUM):
        return CHROMIUM
    message = f"Chromium is not installed at {CHROMIUM} (Debian package `chromium`); the browser tests need it."
    if os.environ.get("CI") == "true":
        pytest.fail(message + " CI=true: install it (see .ci/run) rather than skip.", pytrace=False)
    pytest.skip(message)


def server_env(workdir: Path) -> dict:
    env = dict(os.environ)
    env.pop("EMBEDDED_REDIS", None)
    env.update({
        # Empty rather than unset, so that a REDIS_URL in .env cannot win either.
        "REDIS_URL": "",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "DATABASE_CONN_MAX_AGE": "0",
        "DEBUG": "true",  # static files straight from static/ (WhiteNoise uses the finders)
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "BOT_MOVE_DELAY": "0",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "LOG_LEVEL": "WARNING",
        # A fast hasher: each login and each scenario's player would spend ~0.25 s of CPU on PBKDF2.
        "PASSWORD_HASHERS": "django.contrib.auth.hashers.MD5PasswordHasher",
        "PYTHONUNBUFFERED": "1",
        # Web push off (set, so var/vapid.env of a developer's `make run` is not read) unless a test module sets keys.
        "VAPID_PUBLIC_KEY": os.environ.get("VAPID_PUBLIC_KEY", ""),
        "VAPID_PRIVATE_KEY": os.environ.get("VAPID_PRIVATE_KEY", ""),
    })
    return env


def _wait_until_serving(url: str, proc: subprocess.Popen, log_path: Path) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited with {proc.returncode}:\n{log_path.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url + "/", timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"daphne did not answer within {SERVER_START_SECONDS}s:\n"
                               f"{log_path.read_text(errors='replace')}")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def live_site(tmp_path_factory, chromium_executable):
    """The whole site (HTTP + WebSocket) served by daphne in a child process."""
    workdir = tmp_path_factory.mktemp("browser-site")
    env = server_env(workdir)
    migrate_sqlite(env, workdir / "db.sqlite3")

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = workdir / "daphne.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "--access-log", str(workdir / "access.log"), "config.asgi:application"],
            cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    server = LiveServer(url=url, env=env, log_path=log_path, proc=proc)
    try:
        _wait_until_serving(url, proc, log_path)
        yield server
    finally:
        server.stop_scenario_runner()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        # Shown by pytest only when something in this module failed.
        print("---- daphne log (tail) ----\n" + server.log_tail())


@pytest.fixture(scope="module")
def browser(chromium_executable):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_executable, args=CHROMIUM_ARGS,
                                              headless=True, timeout=60_000)
        try:
            yield chromium
        finally:
            chromium.close()


def collect_console_error(page, message) -> None:
    # The site has no favicon; Chromium asks for one anyway.
    if message.type == "error" and not (message.location or {}).get("url", "").endswith("/favicon.ico"):
        page.js_errors.append(f"console: {message.text} ({(message.location or {}).get('url')})")


def new_page(browser, live_site, **context_options):
    """A fresh English-speaking visitor's page (closed with its context by
    the caller). Page errors and console errors are collected in
    `page.js_errors` for the test to check."""
    options = {"locale": "en-US", "viewport": {"width": 1280, "height": 900}, **context_options}
    context = browser.new_context(base_url=live_site.url, **options)
    context.set_default_timeout(15_000)
    context.set_default_navigation_timeout(20_000)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: collect_console_error(page, msg))
    return page


@pytest.fixture
def page(browser, live_site):
    page = new_page(browser, live_site)
    try:
        yield page
    finally:
        page.context.close()


# The authenticator app (TOTP) of the moderators the scenarios make (scenario._moderator): the
# admin opens only for staff with a second factor (issue 40), and the login asks for its code.
MODERATOR_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


def log_in_to_the_admin(page, username: str, password: str, url: str) -> None:
    """A scenario's moderator logs in with his password and his authenticator's code, and lands on `url`."""
    from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value

    page.goto("/accounts/login/?next=" + url)
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/2fa/authenticate/"))
    page.fill("#id_code", format_hotp_value(hotp_value(MODERATOR_TOTP_SECRET, int(time.time()) // 30)))
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(re.escape(url) + "$"))


def log_in(page, username: str, password: str, url: str) -> None:
    """Log in through the login form, which leads on to `url`."""
    page.goto("/accounts/login/?next=" + url)
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(re.escape(url) + "$"))


def sign_up(page, username: str, name: str, password: str) -> None:
    """Through the lobby's "Sign up" button and the form; lands on the lobby."""
    import re

    from playwright.sync_api import expect

    page.goto("/")
    page.locator(".intro a.button", has_text="Sign up").click()
    page.wait_for_url(re.compile(r"/accounts/signup/$"))
    page.fill("#id_username", username)
    page.fill("#id_display_name", name)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))
    expect(page.locator(".messages")).to_contain_text(f"Welcome, {name}!")


def watch_for_server_errors(page) -> list[str]:
    """The responses of 500 and above the page gets from now on ("status url"), for the test to check."""
    failed: list[str] = []
    page.on("response", lambda response: failed.append(f"{response.status} {response.url}")
            if response.status >= 500 else None)
    return failed


def table_version(page) -> int:
    """The version of the game the table shows."""
    return int(page.locator("#table").get_attribute("data-version"))


def deal_number(page, of: int | None = None) -> int:
    """The deal the table's "Deal N of M" line shows (and M is `of`, when given)."""
    text = page.locator("#table .deal-info > span").first.inner_text()
    total = str(of) if of is not None else r"\d+"
    match = re.match(rf"Deal (\d+) of {total}\b", text)
    assert match, f"unexpected deal line {text!r}"
    return int(match.group(1))


def wait_for_sheet_of_current_version(page, timeout_ms: int = 20_000) -> None:
    """Until the score sheet shows the same version of the game as the table."""
    page.wait_for_function(
        "() => document.getElementById('sheet').dataset.version === document.getElementById('table').dataset.version",
        timeout=timeout_ms,
    )


def received_frames(page) -> list[str]:
    """The messages the page's sockets receive from now on (register before the page opens)."""
    frames: list[str] = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda frame: frames.append(str(frame))))
    return frames


def wait_for_frame(page, frames: list[str], kind: str) -> None:
    """Until the page's socket has received a message of this type (a game page's socket sends its
    state, then "chat_history", when it opens: after that, a state it sends is news)."""
    deadline = time.monotonic() + 15
    while not any(f'"type":"{kind}"' in frame.replace(" ", "") for frame in frames):
        assert time.monotonic() < deadline, f"no {kind} message came: {frames}"
        page.wait_for_timeout(50)  # Playwright's own timer, not the page's (a test may install a clock)


def wait_for_version_above(page, version: int, timeout_ms: int = 20_000) -> None:
    """Until the game table shows a version above `version` (a move arrived)."""
    try:
        page.wait_for_function("(v) => Number(document.getElementById('table').dataset.version) > v",
                               arg=version, timeout=timeout_ms)
    except Exception as exc:
        error = page.locator("#move-error").inner_text() if page.locator("#move-error").count() else ""
        raise AssertionError(f"the table stayed at version {version}; error shown: {error!r}") from exc
