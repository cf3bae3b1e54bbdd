import zoneinfo

from allauth.mfa.utils import is_mfa_enabled as has_second_factor
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _


class UserLanguageMiddleware:
    """A signed-in user's language and time zone from his profile win over the
    browser's Accept-Language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        response = self.get_response(request)
        timezone.deactivate()
        return response


class StaffSecondFactorMiddleware:
    """A staff account opens the admin only once it has a second factor (a
    TOTP app or a passkey, allauth.mfa): without one, every admin page sends
    it to the page that sets one up. Its login then asks for that factor
    (allauth's login stage; the admin's own login hands such an account over
    to the site's: `accounts.admin_login.second_factor_login`). One query, on
    the admin's pages only."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.admin_prefix = None

    def __call__(self, request):
        if self.admin_prefix is None:
            self.admin_prefix = reverse("admin:index")
        user = getattr(request, "user", None)
        if (request.path.startswith(self.admin_prefix) and user is not None and user.is_authenticated
                and user.is_staff and not has_second_factor(user)
                and request.path != reverse("admin:logout")):
            messages.warning(request, _("Set up a second factor (an authenticator app or a passkey) before "
                                        "opening the admin."))
            return redirect("mfa_index")
        return self.get_response(request)
