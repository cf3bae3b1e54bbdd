"""The profile's "Download my data" and "Delete my account" (issue 40;
the work: pages/personal_data.py, pages/account_deletion.py)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import DataExport
from accounts.passkeys import passkey_confirmed_recently
from pages import account_deletion, tasks
from pages.forms import DeleteAccountForm

# A new export may be asked for this long after the last one.
EXPORT_INTERVAL = timedelta(hours=1)


@login_required
def personal_data(request: HttpRequest) -> HttpResponse:
    exports = DataExport.objects.filter(user=request.user, expires_at__isnull=True) | DataExport.objects.filter(
        user=request.user, expires_at__gt=timezone.now())
    return render(request, "pages/personal_data.html", {
        "exports": exports.defer("content").order_by("-requested_at"),
        "delete_form": DeleteAccountForm(user=request.user, passkey_confirmed=passkey_confirmed_recently(request)),
    })


@login_required
@require_POST
def request_data_export(request: HttpRequest) -> HttpResponse:
    recent = DataExport.objects.filter(user=request.user, requested_at__gt=timezone.now() - EXPORT_INTERVAL)
    if recent.exists():
        messages.error(request, _("You asked for your data less than an hour ago: download that file, or ask again "
                                  "later."))
        return redirect("personal_data")
    with transaction.atomic():
        export = DataExport.objects.create(user=request.user)
        transaction.on_commit(lambda: tasks.build_data_export.delay(export.pk))
    messages.success(request, _("We are gathering your data: the file appears here, and we email you, when it is "
                                "ready."))
    return redirect("personal_data")


@login_required
def download_data_export(request: HttpRequest, key: str) -> HttpResponse:
    export = DataExport.objects.filter(user=request.user, key=key, ready_at__isnull=False,
                                       expires_at__gt=timezone.now()).first()
    if export is None:
        raise Http404(_("This file has expired or does not exist: ask for your data again."))
    response = HttpResponse(bytes(export.content), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="my-data-{export.ready_at:%Y-%m-%d}.zip"'
    return response


@login_required
@require_POST
def delete_account(request: HttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST, user=request.user, passkey_confirmed=passkey_confirmed_recently(request))
    if not form.is_valid():
        return render(request, "pages/personal_data.html", {
            "exports": DataExport.objects.none(), "delete_form": form}, status=400)
    user = request.user
    account_deletion.delete_account(user)
    logout(request)
    messages.success(request, _("Your account is deleted. Thank you for the games."))
    return redirect("lobby")
