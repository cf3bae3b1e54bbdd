"""What a league's and a tournament's pages and admin share when they run a
service for someone: the service's refusal (`GameError`) becomes a message
to the person, its success another; nothing else is said."""

from __future__ import annotations

from typing import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from gameplay.services.base import GameError


def act_and_report(request: HttpRequest, back_to, action: Callable[[], object], done: str) -> HttpResponse:
    """Run `action` (a page's POST); say `done`, or why it was refused; back to the page of `back_to`."""
    try:
        action()
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect(back_to)


def run_on_each(modeladmin, request: HttpRequest, queryset, action: Callable[[int, object], object],
                done: str) -> None:
    """An admin action: run a service on every selected row; say what went through and what was refused."""
    for obj in queryset:
        try:
            action(obj.pk, request.user)
        except GameError as exc:
            modeladmin.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{obj}: {done}", messages.SUCCESS)
