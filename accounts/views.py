import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import limits
from accounts.forms import LoginForm, ProfileForm, SignupForm

logger = logging.getLogger(__name__)

# With django-axes first in AUTHENTICATION_BACKENDS, login() must be told
# which backend vouched for a user that was not authenticate()d.
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    signup_limits = [(limits.SIGNUP_FROM_IP, limits.IP)]
    refusal = limits.check(request, signup_limits)
    if refusal:
        return limits.too_many(request, refusal)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save(commit=False)
        user.language = _supported_language(translation.get_language())
        user.save()
        limits.count(request, signup_limits)  # accounts created, not forms sent
        login(request, user, backend=MODEL_BACKEND)
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.name})
        return redirect("lobby")
    return render(request, "accounts/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    """Django's login, refused with a page that says why while the visitor's
    network address or the username is past its limit of failed logins
    (accounts.limits; django-axes has its own page)."""

    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

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


def _supported_language(language: str | None) -> str:
    codes = dict(settings.LANGUAGES)
    return language if language in codes else settings.LANGUAGE_CODE
