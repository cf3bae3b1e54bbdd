import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

LANGUAGE_CHOICES = [("ru", "Русский"), ("en", "English")]
TIME_ZONE_CHOICES = [(tz, tz) for tz in sorted(zoneinfo.available_timezones()) if "/" in tz or tz == "UTC"]


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES, default="ru")
    time_zone = models.CharField(_("time zone"), max_length=64, choices=TIME_ZONE_CHOICES, default="Europe/Moscow")
    email_notifications = models.BooleanField(_("email notifications"), default=True)

    @property
    def name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.name
