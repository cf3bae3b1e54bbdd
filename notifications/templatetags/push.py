"""`{% push_devices %}`: the profile's "App and notifications" section (install
the app, turn web push on for this device, the devices that have it)."""

from django import template
from django.conf import settings

from notifications import channels
from notifications.push.models import PushSubscription

register = template.Library()


@register.inclusion_tag("notifications/push/_devices.html", takes_context=True)
def push_devices(context) -> dict:
    user = context["request"].user
    configured = channels.get("push").is_configured()
    return {
        "push_configured": configured,
        "vapid_public_key": settings.VAPID_PUBLIC_KEY if configured else "",
        "devices": list(PushSubscription.objects.filter(user=user)) if configured else [],
        "csrf_token": context.get("csrf_token"),
    }
