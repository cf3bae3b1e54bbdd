"""Celery tasks of the pages: thin, taking ids and calling the work, each
harmless to run twice.
- `build_data_export`: a player's "Download my data", queued after the
  commit of his request; mails him the link when it is ready.
- `forget_data_exports` (beat, daily): exports past their 7 days go.
"""

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import verification
from pages import personal_data


@shared_task(ignore_result=True)
def build_data_export(export_id: int) -> None:
    export = personal_data.build(export_id)
    if export is None:
        return
    user = export.user
    if not user.email or not verification.may_mail(user.email):
        return
    link = settings.SITE_URL.rstrip("/") + reverse("personal_data")
    with translation.override(user.language or settings.LANGUAGE_CODE):
        subject = _("Your data is ready to download")
        body = _("The file with everything the site holds about your account is ready: download it from %(link)s "
                 "(after logging in). It is kept for %(days)s days.") % {"link": link,
                                                                         "days": settings.DATA_EXPORT_DAYS}
    send_mail(subject, body + "\n", settings.DEFAULT_FROM_EMAIL, [user.email])


@shared_task(ignore_result=True)
def forget_data_exports() -> int:
    return personal_data.forget_expired()
