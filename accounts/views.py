import logging

from allauth.account import views as allauth_views
from allauth.core import ratelimit
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import devices, limits, places
from accounts.forms import LoginForm, ProfileForm, SignupForm
from accounts.verification import pending_address

logger = logging.getLogger(__name__)


class SignupView(allauth_views.SignupView):
    """allauth's sign-up (a confirmation link to the address, the account
    logged in at once), held back while the visitor's network address is past
    its limit of accounts created (accounts.limits)."""

    template_name = "accounts/signup.html"
    form_class = SignupForm
    LIMITS = [(limits.SIGNUP_FROM_IP, limits.IP)]

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            refusal = limits.check(request, self.LIMITS)
            if refusal:
                return limits.too_many(request, refusal)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form) -> HttpResponse:
        response = super().form_valid(form)
        if getattr(self, "user", None) is not None:
            limits.count(self.request, self.LIMITS)  # accounts created, not forms sent
            messages.success(self.request, _("Welcome, %(name)s!") % {"name": self.user.name})
        return response


class LoginView(allauth_views.LoginView):
    """allauth's login by username or address (then the second factor, when
    the account has one), refused with a page that says why while the
    visitor's network address or the name typed is past its limit of failed
    logins (accounts.limits; django-axes has its own page)."""

    template_name = "accounts/login.html"
    form_class = LoginForm

    def post(self, request, *args, **kwargs):
        refusal = limits.check(request, limits.login_limits(request.POST.get("username")))
        if refusal:
            return limits.too_many(request, refusal)
        return super().post(request, *args, **kwargs)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset; each request counts against the limits of
    its email address and of the visitor's network address (accounts.limits).
    Its link leads to SITE_URL, like every link in an email, never to the
    host the request named."""

    @property
    def extra_email_context(self) -> dict:
        return {"site_url": settings.SITE_URL.rstrip("/")}

    def post(self, request, *args, **kwargs):
        refusal = limits.count(request, [(limits.RESET_FROM_IP, limits.IP),
                                         (limits.RESET_FOR_ADDRESS, limits.value(request.POST.get("email", "")))])
        if refusal:
            return limits.too_many(request, refusal)
        return super().post(request, *args, **kwargs)


@login_required
def profile_edit(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        translation.activate(user.language)
        messages.success(request, _("Your profile has been saved."))
        return set_language_cookie(redirect("profile"), user.language)
    return render(request, "accounts/profile_edit.html", {"form": form})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    next_url = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}, require_https=request.is_secure()):
        next_url = reverse("lobby")
    response = HttpResponseRedirect(next_url)
    language = request.POST.get("language", "")
    if language in dict(settings.LANGUAGES):
        if request.user.is_authenticated:
            request.user.language = language
            request.user.save(update_fields=["language"])
        set_language_cookie(response, language)
    return response


def set_language_cookie(response: HttpResponse, language: str) -> HttpResponse:
    """Remember the language for the browser too, so it outlives the session."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


@login_required
@require_POST
def resend_confirmation(request: HttpRequest) -> HttpResponse:
    """Send the link that confirms the account's address again: at most once
    per EMAIL_CONFIRMATION_COOLDOWN_SECONDS for one address (allauth's limit
    "confirm_email", which sign-up's own link counts against too)."""
    address = pending_address(request.user)
    if address is None:
        messages.info(request, _("Your email address is confirmed already."))
    elif not ratelimit.consume(request, action="confirm_email", key=address.email.lower()):
        messages.error(request, _("A link was sent to %(address)s a few minutes ago: look for it in your mailbox "
                                  "(and in its spam folder), or ask again later.") % {"address": address.email})
    else:
        address.send_confirmation(request)
        messages.success(request, _("We have sent a new link to %(address)s.") % {"address": address.email})
    return redirect(_safe_next(request, reverse("profile")))


def _safe_next(request: HttpRequest, default: str) -> str:
    next_url = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(next_url, {request.get_host()}, require_https=request.is_secure()):
        return next_url
    return default


@login_required
def my_sessions(request: HttpRequest) -> HttpResponse:
    """The devices logged in to the account; POST `session` ends one of them (and its sockets)."""
    if request.method == "POST":
        ended = devices.end_session(request.user, request.POST.get("session"))
        if ended is None:
            messages.error(request, _("There is no such session."))
        elif ended.session_key == request.session.session_key:
            logout(request)
            return redirect("login")
        else:
            messages.success(request, _("That session is ended: its open pages are closed and it must log in "
                                        "again."))
        return redirect("my_sessions")
    rows = [{"id": s.pk, "device": devices.device_name(s.user_agent), "ip": s.ip, "place": places.place_of(s.ip),
             "last_seen": s.last_seen_at,
             "since": s.created_at, "current": s.session_key == request.session.session_key}
            for s in devices.sessions_of(request.user)]
    return render(request, "accounts/sessions.html", {"sessions": rows})
