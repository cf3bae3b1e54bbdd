"""Every page sends a Content-Security-Policy that forbids inline script, and
the pages themselves hold none: no <script> with code in it (JSON data
blocks are data, not code) and no on* event handler attributes."""

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from gameplay import services

pytestmark = pytest.mark.django_db

JS_TYPES = {"", "text/javascript", "application/javascript", "module"}


class InlineCodeFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.scripts_with_src = 0
        self._inline_script: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name, value in attrs.items():
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}={value!r}>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}={value!r}>")
        if tag == "script":
            if attrs.get("src"):
                self.scripts_with_src += 1
            elif (attrs.get("type") or "").strip().lower() in JS_TYPES:
                self._inline_script = []

    def handle_data(self, data):
        if self._inline_script is not None:
            self._inline_script.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._inline_script is not None:
            code = "".join(self._inline_script).strip()
            if code:
                self.problems.append(f"inline <script>: {code[:80]!r}")
            self._inline_script = None


def inline_code(html: str) -> InlineCodeFinder:
    finder = InlineCodeFinder()
    finder.feed(html)
    finder.close()
    return finder


def policy(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy", "")
    directives = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"csp{i}", f"csp{i}@example.com", "pw-not-used-1", language="en")
            for i in range(4)]


@pytest.fixture
def pages(people) -> dict[str, tuple[Client, str]]:
    """Every kind of page, each with the visitor who sees it."""
    anonymous = Client()
    host, guest = Client(), Client()
    host.force_login(people[0])
    guest.force_login(people[1])
    waiting = services.create_game(people[0], "joker", players=4)
    playing = services.create_game(people[0], "durak", players=2)
    services.join_game(playing.pk, people[1])
    return {
        "lobby, anonymous": (anonymous, reverse("lobby")),
        "lobby, signed in (new table form)": (host, reverse("lobby")),
        "new table": (host, reverse("new_game")),
        "login": (anonymous, reverse("login")),
        "signup": (anonymous, reverse("signup")),
        "password reset": (anonymous, reverse("password_reset")),
        "profile": (host, reverse("profile")),
        "profile edit": (host, reverse("profile_edit")),
        "game page, waiting table (invite link)": (host, waiting.get_absolute_url()),
        "game page, waiting table (take a seat)": (guest, waiting.get_absolute_url()),
        "game page, game in play (resign button)": (guest, playing.get_absolute_url()),
        "game page, watched": (anonymous, playing.get_absolute_url()),
        "score sheet (print link)": (guest, reverse("sheet", args=[playing.pk])),
    }


def test_every_page_sends_a_policy_that_allows_scripts_only_from_the_site_itself(pages):
    for name, (client, url) in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        directives = policy(response)
        assert directives.get("default-src") == ["'self'"], name
        assert directives.get("script-src") == ["'self'"], name
        assert directives.get("object-src") == ["'none'"], name
        assert directives.get("frame-ancestors") == ["'none'"], name
        assert "'unsafe-inline'" not in str(directives) and "'unsafe-eval'" not in str(directives), name


def test_no_page_holds_inline_script_or_event_handler_attributes(pages):
    for name, (client, url) in pages.items():
        found = inline_code(client.get(url).content.decode())
        assert found.problems == [], name


def test_the_game_page_still_loads_its_scripts_from_files(pages):
    client, url = pages["game page, game in play (resign button)"]
    html = client.get(url).content.decode()

    assert inline_code(html).scripts_with_src >= 3
    assert "js/game.js" in html
    assert 'id="initial-state" type="application/json"' in html


def test_the_resign_button_still_asks_first_and_the_language_menu_still_submits_itself(pages):
    client, url = pages["game page, game in play (resign button)"]
    html = client.get(url).content.decode()

    assert "data-confirm=" in html and "Resign this game? You will be ranked last." in html
    assert "data-autosubmit" in html
    assert "js/site.js" in html
