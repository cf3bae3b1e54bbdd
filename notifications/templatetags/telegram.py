"""`{% telegram_link %}`: the profile's Telegram section (nothing when the site has no bot)."""

from django import template

from notifications.telegram import is_configured
from notifications.telegram.models import TelegramLink

register = template.Library()


@register.inclusion_tag("notifications/telegram/_link.html", takes_context=True)
def telegram_link(context) -> dict:
    if not is_configured():
        return {"configured": False}
    user = context["request"].user
    return {"configured": True, "link": TelegramLink.objects.filter(user=user).first(),
            "csrf_token": context.get("csrf_token")}
