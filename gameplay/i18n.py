"""Engine messages in the player's language.

The engines under ``gameplay.engine`` import nothing from Django: they raise
``IllegalMove`` (and ``InvalidSetup``, a ``ValueError``) with an English
template marked ``N_`` and named parameters (see ``gameplay/engine/core.py``,
"Messages for players"). ``make messages`` collects the templates into
``locale/*/LC_MESSAGES/django.po``; the functions here translate them in the
active language when the message is shown.
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext

from gameplay.engine.cards import SUIT_SYMBOLS
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


def variant_label(engine_slug: str, options: dict, players: int) -> str:
    """A table's variant in a few words, in the active language: Durak's mode
    and pairs ("подкидной, 2×2 парами"), else the number of players."""
    if engine_slug == "domino_poker":
        from gameplay.schedules.domino_poker import variant_words

        return variant_words(options, players)
    count = ngettext("%(n)s player", "%(n)s players", players) % {"n": players}
    if engine_slug == "odessa":
        return ", ".join([count, *odessa_variant(options or {})])
    if engine_slug == "ipuker":
        return ", ".join([count, *ipuker_variant(options or {})])
    if engine_slug != "durak":
        return count
    modes = {"podkidnoy": pgettext("durak variant", "podkidnoy"), "perevodnoy": pgettext("durak variant", "perevodnoy")}
    mode = modes.get((options or {}).get("mode"), modes["podkidnoy"])
    if (options or {}).get("teams"):
        return gettext("%(mode)s, 2×2 in pairs") % {"mode": mode}
    return f"{mode}, {count}"


def ipuker_variant(options: dict) -> list[str]:
    """Ipuker's options in a few words each, where they are not the usual ones."""
    from gameplay.forms import GameOptionsForm

    def choice(field: str, value) -> str:
        return str(dict(GameOptionsForm.base_fields[field].choices).get(value, value))

    words = []
    low, high = options.get("min_stake", 9), options.get("max_stake", 30)
    if (low, high) != (9, 30):
        words.append(gettext("stakes %(low)s to %(high)s") % {"low": low, "high": high})
    if options.get("leader_order", "clockwise") != "clockwise":
        words.append(gettext("leaders: %(order)s") % {"order": choice("ipuker_leader_order", options["leader_order"])})
    if options.get("overflow", "basic") != "basic":
        words.append(gettext("overflow: %(rule)s") % {"rule": choice("ipuker_overflow", options["overflow"])})
    return words


def odessa_variant(options: dict) -> list[str]:
    """Odessa poker's chosen options in a few words each: the deck and the longest hand always,
    the others where they are not the usual ones."""
    from gameplay.forms import ODESSA_SPECIALS, NewGameForm

    def choice(field: str, value) -> str:
        return str(dict(NewGameForm.base_fields[field].choices).get(value, value))

    deck = options.get("deck", "36")
    words = [ngettext("%(n)s card", "%(n)s cards", int(deck)) % {"n": deck}]
    if options.get("max_hand"):
        words.append(gettext("up to %(n)s in a hand") % {"n": options["max_hand"]})
    if options.get("trump", "turned") != "turned":
        words.append(gettext("trump %(suit)s") % {"suit": SUIT_SYMBOLS.get(options["trump"], options["trump"])})
    if options.get("dealer_rule", "not_equal") != "not_equal":
        words.append(gettext("dealer: %(rule)s") % {"rule": choice("odessa_dealer_rule", options["dealer_rule"])})
    if options.get("joker_demand", "any_trick") != "any_trick":
        words.append(gettext("joker's demand: %(rule)s") % {"rule": choice("odessa_joker_demand", options["joker_demand"])})
    specials = options.get("specials")
    if specials == []:
        words.append(gettext("no specials"))
    elif specials:
        names = ", ".join(str(ODESSA_SPECIALS.get(name, name)) for name in specials)
        words.append(gettext("specials: %(names)s (×%(times)s)") % {"names": names,
                                                                    "times": options.get("special_multiplier", 2)})
        if options.get("specials_mode") == "once":
            words.append(gettext("each special once"))
    return words
