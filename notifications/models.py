"""The notifications app's models (the Telegram links live in `notifications.telegram`)."""

from notifications.telegram.models import TelegramLink, TelegramLinkToken

__all__ = ["TelegramLink", "TelegramLinkToken"]
