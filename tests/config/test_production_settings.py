"""Production settings fail fast and pass Django's deployment check.

Each test loads the settings in a fresh process (they are read once, at
import), with a production-like environment built from scratch: nothing
from the developer's shell, and every variable that a `.env` file could
supply set explicitly (an empty value counts as missing, and `.env` never
overrides a variable that is present).
"""

import os
import secrets
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def production_env(tmp_path: Path, **overrides: str) -> dict:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "PYTHONDONTWRITEBYTECODE": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "SITE_URL": "https://games.example.org",
        "ALLOWED_HOSTS": "games.example.org",
        "CSRF_TRUSTED_ORIGINS": "https://games.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "TEST_DB_NAME": str(tmp_path / "test-db.sqlite3"),
        "REDIS_URL": "",
        "LOG_LEVEL": "WARNING",
    }
    env.update(overrides)
    return env


def manage(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_deployment_check_passes_without_a_single_warning_in_production(tmp_path):
    done = manage(production_env(tmp_path), "check", "--deploy", "--fail-level", "WARNING")

    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_https_redirect_and_hsts_can_be_turned_off_from_the_environment(tmp_path):
    env = production_env(tmp_path, SECURE_SSL_REDIRECT="false", SECURE_HSTS_SECONDS="0")

    done = manage(env, "check", "--deploy")

    assert done.returncode == 0, done.stdout + done.stderr
    assert "security.W008" in done.stderr + done.stdout  # no redirect to HTTPS
    assert "security.W004" in done.stderr + done.stdout  # no HSTS


def test_settings_refuse_to_load_in_production_without_a_secret_key(tmp_path):
    done = manage(production_env(tmp_path, SECRET_KEY=""), "check")

    assert done.returncode != 0
    assert "SECRET_KEY is required when DEBUG=false" in done.stderr


def test_settings_refuse_to_load_in_production_without_the_site_url(tmp_path):
    done = manage(production_env(tmp_path, SITE_URL=""), "check")

    assert done.returncode != 0
    assert "SITE_URL is required when DEBUG=false" in done.stderr


def test_a_site_url_that_is_not_an_absolute_http_address_is_refused(tmp_path):
    done = manage(production_env(tmp_path, SITE_URL="games.example.org"), "check")

    assert done.returncode != 0
    assert "SITE_URL must be an absolute http(s) address" in done.stderr


def test_development_needs_neither_a_secret_key_nor_a_site_url(tmp_path):
    done = manage(production_env(tmp_path, DEBUG="true", SECRET_KEY="", SITE_URL=""), "check")

    assert done.returncode == 0, done.stdout + done.stderr


def test_behind_a_tls_proxy_its_https_header_is_trusted_only_when_configured(tmp_path):
    code = ("from django.conf import settings; "
            "print(repr(settings.SECURE_PROXY_SSL_HEADER))")
    without = subprocess.run([sys.executable, "-c", "import django; django.setup(); " + code], cwd=BASE_DIR,
                             env=production_env(tmp_path), capture_output=True, text=True, timeout=120)
    behind = subprocess.run([sys.executable, "-c", "import django; django.setup(); " + code], cwd=BASE_DIR,
                            env=production_env(tmp_path, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto"),
                            capture_output=True, text=True, timeout=120)

    assert without.stdout.strip() == "None", without.stderr
    assert behind.stdout.strip() == "('HTTP_X_FORWARDED_PROTO', 'https')", behind.stderr
