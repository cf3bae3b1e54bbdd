"""The installable app (manifest, service worker, offline page) and the
endpoints that turn web push on and off for a device."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from notifications.push import devices

THEME_COLOR = "#1f5c3a"  # the site header's felt green (static/css/site.css --felt)
BACKGROUND_COLOR = "#fbfaf6"  # the page's paper
ICONS = [
    {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {"src": "icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
]
# Where the service worker keeps the last My games list a page fetched (its Cache Storage key).
LAST_GAMES_KEY = "/offline/last-games"


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the visitor's language."""
    data = {
        "id": "/",
        "name": _("Kitchen table"),
        "short_name": _("Kitchen table"),
        "description": _("Card and domino games with friends, move by move, over minutes or days."),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("my_games"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [{**icon, "src": static(icon["src"])} for icon in ICONS],
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


def _shell() -> list[str]:
    """What the worker keeps for offline use when it installs."""
    return [reverse("offline"), static("css/site.css"), static("js/site.js"), static("js/offline.js"),
            static("js/pwa.js"), static("favicon.svg")] + [static(icon["src"]) for icon in ICONS]


@require_GET
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js, at the site's root so that its scope is the whole site. Never
    cached (the browser checks it for updates; a new one installs itself)."""
    context = {
        "shell": json.dumps(_shell()),
        "games_lists": json.dumps([reverse("my_games"), reverse("my_games_fragment")]),
        "offline_url": json.dumps(reverse("offline")),
        "last_games_key": json.dumps(LAST_GAMES_KEY),
        "logout_url": json.dumps(reverse("logout")),
        "start_url": json.dumps(reverse("my_games")),
        "icon": json.dumps(static("icons/icon-192.png")),
        "default_title": json.dumps(_("Kitchen table")),
    }
    return render(request, "notifications/push/sw.js", context, content_type="text/javascript; charset=utf-8")


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the worker shows for a page it cannot fetch. It is kept in
    the worker's cache, so it holds nothing of the visitor: the games last
    seen are filled in by its script from the worker's cache."""
    return render(request, "notifications/push/offline.html", {"last_games_key": LAST_GAMES_KEY})


@login_required
@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    """Turn push on for this browser: a JSON POST of its push subscription
    (PushSubscription.toJSON()). 201 with the device's name, or 400 and why."""
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return JsonResponse({"error": _("Send the browser's push subscription as a JSON object.")}, status=400)
    try:
        device = devices.add_device(request.user, devices.parse_subscription(data),
                                    request.headers.get("User-Agent", ""))
    except devices.InvalidSubscription as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    return JsonResponse({"id": device.pk, "label": device.label}, status=201)


@login_required
@require_POST
def remove(request: HttpRequest, device_id: int) -> HttpResponse:
    """Turn push off for one of the player's devices (the profile's button)."""
    if devices.remove_device(request.user, device_id):
        messages.success(request, _("That device will get no more notifications."))
    return redirect(reverse("profile") + "#app-and-push")
