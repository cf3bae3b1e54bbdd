from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from notifications import preferences
from notifications.forms import PreferencesForm


@login_required
def preferences_page(request: HttpRequest) -> HttpResponse:
    """The grid: every destination of the player (email, each push device, Telegram) × every kind of notice."""
    form = PreferencesForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            preferences.save_preferences(request.user, form.cells())
        except ValueError:
            messages.error(request, _("Your devices changed meanwhile: check the table and save again."))
        else:
            messages.success(request, _("Your notification settings are saved."))
            return redirect("notification_preferences")
    return render(request, "notifications/preferences.html", {"form": form})
