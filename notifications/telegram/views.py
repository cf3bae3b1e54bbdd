"""The profile's "Link Telegram" and "unlink", and the webhook route.

Link: a GET link (not a form: the site's CSP allows forms to post only to
itself, and a form's redirect to t.me would be blocked) that makes a
one-time token and sends the player to the bot's deep link.

Webhook (TELEGRAM_WEBHOOK_URL set): Telegram posts each update here with
TELEGRAM_WEBHOOK_SECRET in X-Telegram-Bot-Api-Secret-Token; the update goes
to the same Dispatcher as in polling, answered from this request.
"""

from __future__ import annotations

import json
import logging
import secrets

from asgiref.sync import async_to_sync
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseForbidden
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from notifications.telegram import bot_module, is_configured, links

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


@require_GET
@login_required
def link(request: HttpRequest) -> HttpResponse:
    if not is_configured():
        raise Http404
    bot = bot_module()
    try:
        return redirect(bot.deep_link(links.new_token(request.user)))
    except bot.TelegramAPIError:
        log.exception("asking the Bot API for the bot's name failed")
        messages.error(request, _("Telegram cannot be reached right now. Please try again later."))
        return redirect("profile")


@require_POST
@login_required
def unlink(request: HttpRequest) -> HttpResponse:
    if links.unlink(request.user):
        messages.success(request, _("Telegram is unlinked: the bot will send you nothing more."))
    return redirect("profile")


@csrf_exempt
@require_POST
def webhook(request: HttpRequest) -> HttpResponse:
    if not (is_configured() and settings.TELEGRAM_WEBHOOK_URL):
        raise Http404
    given = request.headers.get(SECRET_HEADER, "")
    if not secrets.compare_digest(given.encode(), settings.TELEGRAM_WEBHOOK_SECRET.encode()):
        return HttpResponseForbidden()
    try:
        update = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return HttpResponseBadRequest()
    if not isinstance(update, dict) or not isinstance(update.get("update_id"), int):
        return HttpResponseBadRequest()
    async_to_sync(_feed)(update)
    return HttpResponse(status=200)


async def _feed(update: dict) -> None:
    """Handle one update; a failure is logged and the update acknowledged (Telegram would resend it forever)."""
    bot = bot_module()
    async with bot.new_bot() as telegram:
        try:
            await bot.new_dispatcher().feed_raw_update(telegram, update)
        except Exception:
            log.exception("Telegram update %s failed", update.get("update_id"))
