"""Engine messages in the player's language.

The engines under ``gameplay.engine`` import nothing from Django: they raise
``IllegalMove`` (and ``InvalidSetup``, a ``ValueError``) with an English
template marked ``N_`` and named parameters (see ``gameplay/engine/core.py``,
"Messages for players"). ``make messages`` collects the templates into
``locale/*/LC_MESSAGES/django.po``; the functions here translate them in the
active language when the message is shown.
"""

from __future__ import annotations

from django.utils.translation import gettext

from gameplay.engine.core import IllegalMove, fill


def engine_message_text(exc: Exception) -> str:
    """The engine's sentence for ``exc`` in the active language.

    ``gettext(exc.template) % exc.params``; an exception without a template
    (or a translation that does not fit its parameters) falls back to the
    English ``exc.message``, or ``str(exc)``.
    """
    english = getattr(exc, "message", None) or str(exc)
    template = getattr(exc, "template", None)
    if not template:
        return english
    try:
        return fill(gettext(template), getattr(exc, "params", None) or {})
    except (KeyError, ValueError, TypeError):  # a broken translation must not hide the refusal
        return english


def illegal_move_text(exc: IllegalMove) -> str:
    """Why the move was refused, in the active language (``gettext(exc.template) % exc.params``)."""
    return engine_message_text(exc)


def engine_name(engine) -> str:
    """A game's name (``Engine.name``, marked ``N_``) in the active language: "Джокер" for Joker in Russian."""
    return gettext(engine.name)


def socket_language(scope: dict) -> str:
    """The language of a WebSocket connection, chosen as for a page: the
    signed-in user's own, else the language cookie, else Accept-Language,
    else the site's default (Django's LocaleMiddleware does not run on sockets)."""
    from django.http import HttpRequest
    from django.utils import translation

    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False) and getattr(user, "language", None):
        return user.language
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or []:
        if name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)
