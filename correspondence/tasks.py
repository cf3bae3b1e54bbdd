"""Challenge expiry: one task per challenge, queued after the commit that
made it with its expiry as ETA (when that is within the broker's
visibility horizon), and beat's sweep (`sweep_challenges`), which closes
every pending challenge past its time that a lost or far task left open.
Both call `services.expire_challenge`, which locks the challenge and
re-checks: running twice, early or late changes nothing more."""

import logging

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from correspondence import services
from correspondence.models import Challenge

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def expire_challenge(challenge_id: int) -> bool:
    return services.expire_challenge(challenge_id)


@shared_task(ignore_result=True)
def sweep_challenges() -> int:
    return services.expire_overdue_challenges()


def queue_expiry(challenge: Challenge) -> None:
    """After the commit of a new challenge (services.set_expiry_scheduler)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # an eager "queue" cannot wait: the sweep (or a test) expires it
    if (challenge.expires_at - timezone.now()).total_seconds() > settings.DEADLINE_TASK_HORIZON:
        return  # beyond the broker's visibility timeout: the sweep closes it
    try:
        expire_challenge.apply_async((challenge.pk,), eta=challenge.expires_at)
    except Exception:
        log.exception("could not queue the expiry of challenge %s (the sweep will close it)", challenge.pk)


services.set_expiry_scheduler(queue_expiry)
