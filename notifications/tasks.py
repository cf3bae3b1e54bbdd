"""Celery tasks of the notifications (beat's schedule: config/settings.py)."""

from celery import shared_task

from notifications import emails


@shared_task(ignore_result=True)
def send_daily_digests() -> int:
    return emails.send_daily_digests()
