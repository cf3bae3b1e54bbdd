"""The notifications app's models (the push devices live in `notifications.push`)."""

from notifications.push.models import PushSubscription

__all__ = ["PushSubscription"]
