"""The installable app's server side: the manifest (in the visitor's
language, starting at My games), the service worker at the site's root,
never frozen by caches, the offline page with nothing of the visitor in it,
the Content-Security-Policy that lets them work, and `manage.py vapid_keys`."""

import base64
import struct

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse
from dotenv import dotenv_values

from notifications.push.views import ICONS

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_describes_a_standalone_app_that_opens_my_games(client):
    response = client.get("/manifest.webmanifest")

    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == manifest["short_name"] == "Kitchen table"
    assert manifest["start_url"] == reverse("my_games") == "/my-games/"
    assert (manifest["scope"], manifest["display"]) == ("/", "standalone")
    assert manifest["theme_color"] == "#1f5c3a" and manifest["background_color"] == "#fbfaf6"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes


@pytest.mark.parametrize("icon", ICONS + [{"src": "icons/apple-touch-icon.png", "sizes": "180x180"}])
def test_every_icon_is_a_png_of_the_size_it_claims(icon):
    width, height = png_size(finders.find(icon["src"]))
    assert f"{width}x{height}" == icon["sizes"]


def test_the_manifest_speaks_the_visitors_language(client):
    client.cookies["django_language"] = "ru"
    assert client.get("/manifest.webmanifest").json()["name"] == "Кухонный стол"


def test_every_page_links_the_manifest_the_theme_colour_and_the_touch_icon(client):
    for url in (reverse("lobby"), reverse("login")):
        page = client.get(url).content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page
        assert '<meta name="theme-color" content="#1f5c3a">' in page
        assert 'rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png"' in page
        assert 'src="/static/js/pwa.js" data-worker="/sw.js"' in page


def test_the_service_worker_is_served_from_the_root_and_never_cached(client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"] and "max-age=0" in response["Cache-Control"]
    script = response.content.decode()
    assert 'const OFFLINE_URL = "/offline/";' in script
    assert '"/my-games/list/"' in script
    for event in ("install", "fetch", "push", "notificationclick"):
        assert f'addEventListener("{event}"' in script


def test_the_policy_lets_the_manifest_and_the_worker_load_and_still_forbids_inline_script(client):
    policy = client.get(reverse("lobby"))["Content-Security-Policy"]

    assert "manifest-src 'self'" in policy and "worker-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_the_offline_page_holds_nothing_of_the_visitor(client):
    user = get_user_model().objects.create_user(username="anna", password="pw", display_name="Anna Karenina", language="en")
    client.force_login(user)

    page = client.get("/offline/").content.decode()

    assert "You are offline" in page
    assert 'data-games-key="/offline/last-games"' in page
    assert "Anna" not in page and "anna" not in page


def test_vapid_keys_makes_a_p256_pair_and_writes_it_once(tmp_path):
    target = tmp_path / "var" / "vapid.env"

    call_command("vapid_keys", write=str(target))
    first = dotenv_values(target)
    call_command("vapid_keys", write=str(target))

    assert dotenv_values(target) == first
    public = base64.urlsafe_b64decode(first["VAPID_PUBLIC_KEY"] + "==")
    private = base64.urlsafe_b64decode(first["VAPID_PRIVATE_KEY"] + "==")
    assert len(public) == 65 and public[0] == 4 and len(private) == 32
    assert target.stat().st_mode & 0o077 == 0
