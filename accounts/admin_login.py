"""The admin's login page asks for no second factor: an account that has
one is handed over to the site's login, which does (allauth's stage).
Wrong passwords, the limits and a suspension are answered by the admin's
page as before (accounts.limits, accounts.standing)."""

from __future__ import annotations

from typing import Callable
from urllib.parse import urlencode

from allauth.mfa.utils import is_mfa_enabled
from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _


def second_factor_login(admin_login: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    def login(request: HttpRequest, extra_context=None) -> HttpResponse:
        response = admin_login(request, extra_context)
        user = request.user
        if request.method == "POST" and user.is_authenticated and is_mfa_enabled(user):
            logout(request)
            messages.info(request, _("Log in here: your account asks for its second factor."))
            next_url = request.POST.get("next") or reverse("admin:index")
            return HttpResponseRedirect(reverse("login") + "?" + urlencode({"next": next_url}))
        return response
    return login
