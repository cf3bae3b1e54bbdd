"""A process that never talks to Telegram does not import aiogram (about three
seconds of every daphne's, Celery worker's and test process' start-up)."""

import subprocess
import sys

from django.conf import settings

PROGRAM = """
import sys
import django
django.setup()
from django.urls import get_resolver
get_resolver().url_patterns  # the URL conf, the webhook's route among them
import config.asgi  # the ASGI application daphne serves
from django.template.loader import get_template
get_template("pages/profile.html")  # the profile, with its Telegram section's tag library
print(sorted(name for name in sys.modules if name.split(".")[0] == "aiogram"))
"""


def run(token: str) -> str:
    env = {"DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "start-up-test", "TELEGRAM_BOT_TOKEN": token,
           "PATH": "/usr/bin:/bin", "HOME": "/tmp"}
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=settings.BASE_DIR, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_starting_the_site_imports_no_aiogram_with_or_without_a_bot():
    assert run("") == "[]"
    assert run("123:abc") == "[]"
