"""The profile's API page: tokens (created, shown once, revoked) and the
account's bot mark."""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.views import defaults
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts import limits
from accounts.bots import BotRefused, make_bot
from api import tokens
from api.models import Scope
from gameplay.services import GameError

TOKENS_PER_USER = limits.Limit("api.tokens.user", "API_TOKENS_PER_USER",
                               gettext_lazy("You have created many tokens today; try again later."))


class TokenForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60,
                           help_text=gettext_lazy("What the token is for, e.g. \"my Durak bot\"."))
    scopes = forms.MultipleChoiceField(label=gettext_lazy("Scopes"), choices=Scope.choices,
                                       widget=forms.CheckboxSelectMultiple, initial=[Scope.READ, Scope.PLAY])
    days = forms.IntegerField(label=gettext_lazy("Valid for, days"), min_value=1, max_value=tokens.MAX_DAYS,
                              initial=90, required=False, help_text=gettext_lazy("Empty: until revoked."))


def _address(request: HttpRequest) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


@never_cache  # Cache-Control: no-store: the page shows a new token's secret, which no cache may keep
@login_required
def token_page(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    created = None
    if request.method == "POST" and form.is_valid():
        refusal = limits.count(request, [(TOKENS_PER_USER, limits.value(str(request.user.pk)))])
        if refusal:
            return limits.too_many(request, refusal)
        try:
            token, raw = tokens.create_token(request.user, form.cleaned_data["name"], form.cleaned_data["scopes"],
                                             form.cleaned_data["days"], address=_address(request))
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            created = {"token": token, "secret": raw}
            form = TokenForm()
    return render(request, "api/tokens.html", {
        "form": form, "created": created, "tokens": tokens.user_tokens(request.user),
        "docs_url": "/api/docs", "site_url": settings.SITE_URL.rstrip("/")})


@require_POST
@login_required
def revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        tokens.revoke_token(token_id, request.user, address=_address(request))
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The token is revoked: it no longer works."))
    return redirect("api_tokens")


@require_POST
@login_required
def become_bot(request: HttpRequest) -> HttpResponse:
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm: this cannot be undone."))
        return redirect("api_tokens")
    try:
        make_bot(request.user, by=request.user)
    except BotRefused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Your account is a bot account now."))
    return redirect("api_tokens")


@csrf_exempt  # a POST to an address that names nothing is a 404 too, not a CSRF page
def not_found(request: HttpRequest, path: str = "") -> HttpResponse:
    """Any address under /api/ that names nothing (a game id that is not a
    number, an unknown endpoint): the API's own JSON error, not the site's
    page. (A page's address without its final slash is still sent on to it.)"""
    if settings.APPEND_SLASH and not request.path.endswith("/") and _page_at(request.path + "/"):
        return redirect(request.path + "/")
    return JsonResponse({"code": "not_found", "message": _("Not found.")}, status=404)


def _page_at(path: str) -> bool:
    try:
        return resolve(path).func is not not_found
    except Resolver404:
        return False


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: under /api/ the API's JSON error, elsewhere the site's page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "server_error", "message": _("A server error occurred.")}, status=500)
    return defaults.server_error(request)
