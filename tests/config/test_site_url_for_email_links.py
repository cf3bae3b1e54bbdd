"""Every link in an email leads to SITE_URL (the site's public address), not
to the host a request named; `make run` sets SITE_URL from the address
daphne listens on (WEB_HOST, WEB_PORT) unless it is in the environment or
.env. The Makefile is never run here: its `run` recipe's shell is, up to the
line that would start supervisord."""

import os
import re
import subprocess
from pathlib import Path

import pytest
from django.core import mail
from django.urls import reverse

from notifications import emails as notifications
from gameplay.models import Game, Seat

BASE_DIR = Path(__file__).resolve().parents[2]
SUPERVISORD = re.compile(r"^PATH=.*exec .*supervisord.*$", re.M)


def run_recipe_site_url(tmp_path: Path, env: dict, dot_env: str | None = None) -> str:
    """SITE_URL as `make run` would hand it to supervisord, in a directory with that .env."""
    makefile = (BASE_DIR / "Makefile").read_text()
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    lines = [line[1:] for line in recipe.splitlines() if "create_demo_accounts" not in line]
    shell = "\n".join(lines).lstrip("@").replace("$$", "$")
    assert SUPERVISORD.search(shell), "the recipe ends by starting supervisord"
    shell = SUPERVISORD.sub('printf "SITE_URL=%s\\n" "$SITE_URL"', shell)
    if dot_env is not None:
        (tmp_path / ".env").write_text(dot_env)
    clean = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "WEB_HOST", "WEB_PORT", "REDIS_URL")}
    done = subprocess.run(["sh", "-c", shell], cwd=tmp_path, env={**clean, **env}, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return re.search(r"^SITE_URL=(.*)$", done.stdout, re.M).group(1)


def test_make_run_links_emails_to_the_port_daphne_listens_on(tmp_path):
    assert run_recipe_site_url(tmp_path, {"WEB_PORT": "8123"}) == "http://127.0.0.1:8123"
    assert run_recipe_site_url(tmp_path, {}) == "http://127.0.0.1:8000"


def test_make_run_links_emails_to_the_host_daphne_listens_on(tmp_path):
    assert run_recipe_site_url(tmp_path, {"WEB_HOST": "192.168.1.20", "WEB_PORT": "9000"}) == "http://192.168.1.20:9000"
    assert run_recipe_site_url(tmp_path, {"WEB_HOST": "0.0.0.0"}) == "http://127.0.0.1:8000"


def test_make_run_keeps_a_site_url_given_in_the_environment_or_in_dot_env(tmp_path):
    given = {"SITE_URL": "https://games.example.org", "WEB_PORT": "8123"}
    assert run_recipe_site_url(tmp_path, given) == "https://games.example.org"
    assert run_recipe_site_url(tmp_path, {"WEB_PORT": "8123"}, dot_env="SITE_URL=https://games.example.org\n") == ""


@pytest.mark.django_db
def test_the_password_reset_link_leads_to_site_url_whatever_host_the_request_named(client, settings,
                                                                                    django_user_model):
    settings.SITE_URL = "https://games.example.org:8443/"
    settings.ALLOWED_HOSTS = ["*"]
    django_user_model.objects.create_user("anna", "anna@example.com", "pw-not-used-1")
    client.post(reverse("password_reset"), {"email": "anna@example.com"}, HTTP_HOST="evil.example.com")
    [email] = mail.outbox
    assert re.search(r"^https://games\.example\.org:8443/accounts/password/reset/\S+/\S+/$", email.body, re.M)
    assert "evil.example.com" not in email.body


@pytest.mark.django_db
def test_every_notification_link_leads_to_site_url(settings, django_user_model):
    settings.SITE_URL = "http://127.0.0.1:8123"
    user = django_user_model.objects.create_user("anna", "anna@example.com", "pw-not-used-1", language="en",
                                                 time_zone="UTC")
    game = Game.objects.create(engine="joker", seats_count=4, created_by=user, status=Game.Status.FINISHED)
    Seat.objects.create(game=game, position=0, user=user, place=1, points=100.0)
    notifications.game_over(game.pk)
    [email] = mail.outbox
    links = re.findall(r"https?://\S+", email.body)
    assert len(links) >= 2  # the score sheet, the notification settings
    assert all(link.startswith("http://127.0.0.1:8123/") for link in links), links
