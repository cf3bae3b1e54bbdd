"""What the bot answers, worded in the linked player's language (else the
language his Telegram app reports, else the site's).

Plain functions over the database, called by the bot's handlers through
asgiref's sync_to_async (`notifications.telegram.bot`); each returns a `Reply`:
the text and its URL buttons. They never change anything but through
`notifications.telegram.links`.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass, field

from django.conf import settings
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gameplay import badge, clocks, services
from gameplay.engine import get_engine
from gameplay.i18n import engine_name
from gameplay.models import Game, Seat
from notifications.telegram import links
from notifications.telegram.links import Linked
from notifications.telegram.models import TelegramLink

SHOWN_GAMES = 20  # /games lists at most this many (a message has room for them, a keyboard for as many buttons)


@dataclass(frozen=True)
class Reply:
    text: str
    buttons: list[tuple[str, str]] = field(default_factory=list)  # (words, absolute URL), one per row


def language_of(link: TelegramLink | None, telegram_language: str | None) -> str:
    if link is not None and link.user.language:
        return link.user.language
    code = (telegram_language or "").split("-")[0].lower()
    return code if code in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _zone(user) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _site() -> str:
    return settings.SITE_URL.rstrip("/")


def _in_language(link: TelegramLink | None, telegram_language: str | None, words):
    with translation.override(language_of(link, telegram_language)):
        if link is None:
            return words()
        with timezone.override(_zone(link.user)):
            return words()


def _not_linked() -> Reply:
    return Reply(_("This chat is not linked to an account yet. Open your profile on %(site)s and press "
                   "“Link Telegram”.") % {"site": _site()})


def _commands() -> str:
    return "\n".join([
        _("/games: the games waiting for your move"),
        _("/mute 3: no messages for 3 hours (/mute 0: messages on again)"),
        _("/stop: no more messages (/start turns them on again)"),
        _("/help: this list"),
    ])


# --- /start -----------------------------------------------------------------------------


def start(chat_id: int, token: str, telegram_language: str | None = None) -> Reply:
    """/start <token> links the chat; /start alone in a linked chat turns messages on again."""
    if token:
        outcome, link = links.link_chat(token, chat_id)
        if outcome is Linked.INVALID:
            return _in_language(links.link_of_chat(chat_id), telegram_language, lambda: Reply(_(
                "This link has expired or was already used. Press “Link Telegram” on your profile page "
                "again for a new one.")))
        link = links.link_of_chat(chat_id)
        return _in_language(link, telegram_language, lambda: Reply(
            _("Linked: you are %(name)s on %(site)s. Your notifications will come here.")
            % {"name": link.user.name, "site": _site()} + "\n\n" + _commands()))
    link = links.link_of_chat(chat_id)
    if link is None:
        return _in_language(None, telegram_language, _not_linked)
    was_off = link.stopped or link.is_muted()
    links.resume(link)
    if was_off:
        return _in_language(link, telegram_language, lambda: Reply(_("Messages are on again.") + "\n\n" + _commands()))
    return _in_language(link, telegram_language, lambda: Reply(
        _("You are linked as %(name)s.") % {"name": link.user.name} + "\n\n" + _commands()))


# --- /games -----------------------------------------------------------------------------------


def _label(game: Game, seats: list[Seat], position: int) -> str:
    others = [str(s.player_name) for s in sorted(seats, key=lambda s: s.position) if s.position != position]
    name = engine_name(get_engine(game.engine))
    return _("%(game)s with %(players)s") % {"game": name, "players": ", ".join(others)} if others else name


def _time_left(seat: Seat, game: Game) -> str:
    runs_out = services.runs_out_at(seat, game)
    seconds = max(0, int((runs_out - timezone.now()).total_seconds())) if runs_out else 0
    if seconds >= 120:  # whole minutes: "2 h 10 min", not "2 h 9 min 59 s"
        seconds = -(-seconds // 60) * 60
    return clocks.format_duration(seconds)


def _waiting_games(link: TelegramLink) -> Reply:
    waiting = badge.waiting_seats(link.user)
    if not waiting:
        return Reply(_("No game is waiting for your move."))
    shown = waiting[:SHOWN_GAMES]
    table: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game_id__in=[s.game_id for s in shown]).select_related("user"):
        table.setdefault(seat.game_id, []).append(seat)
    lines, buttons = [_("Games waiting for your move:")], []
    for number, seat in enumerate(shown, start=1):
        label = _label(seat.game, table.get(seat.game_id, [seat]), seat.position)
        lines.append(_("%(number)s. %(game)s: %(left)s left") % {
            "number": number, "game": label, "left": _time_left(seat, seat.game)})
        buttons.append((_("Open %(number)s. %(game)s") % {"number": number, "game": label},
                        _site() + seat.game.get_absolute_url()))
    if len(waiting) > len(shown):
        more = len(waiting) - len(shown)
        lines.append(ngettext("…and %(count)s more game on My games.", "…and %(count)s more games on My games.",
                              more) % {"count": more})
    return Reply("\n".join(lines), buttons)


def games(chat_id: int, telegram_language: str | None = None) -> Reply:
    link = links.link_of_chat(chat_id)
    if link is None:
        return _in_language(None, telegram_language, _not_linked)
    return _in_language(link, telegram_language, lambda: _waiting_games(link))


# --- /mute, /stop, /help ------------------------------------------------------------------------


def _mute_usage() -> Reply:
    return Reply(_("Usage: /mute HOURS, a whole number from 1 to %(most)s, e.g. /mute 3. /mute 0 turns messages "
                   "on again.") % {"most": links.MAX_MUTE_HOURS})


def _muted(until) -> Reply:
    if until is None:
        return Reply(_("Messages are on again."))
    return Reply(_("No messages until %(until)s. /mute 0 turns them on earlier.") % {
        "until": formats.date_format(timezone.localtime(until), "DATETIME_FORMAT")})


def mute(chat_id: int, argument: str, telegram_language: str | None = None) -> Reply:
    link = links.link_of_chat(chat_id)
    if link is None:
        return _in_language(None, telegram_language, _not_linked)
    text = (argument or "").strip()
    if not text.isdigit() or int(text) > links.MAX_MUTE_HOURS:
        return _in_language(link, telegram_language, _mute_usage)
    until = links.mute(link, int(text))
    return _in_language(link, telegram_language, lambda: _muted(until))


def stop(chat_id: int, telegram_language: str | None = None) -> Reply:
    link = links.link_of_chat(chat_id)
    if link is None:
        return _in_language(None, telegram_language, _not_linked)
    links.stop(link)
    return _in_language(link, telegram_language, lambda: Reply(
        _("Stopped: no more messages from me. /start turns them on again.")))


def help_text(chat_id: int, telegram_language: str | None = None) -> Reply:
    link = links.link_of_chat(chat_id)
    if link is None:
        return _in_language(None, telegram_language, lambda: Reply(_not_linked().text + "\n\n" + _commands()))
    return _in_language(link, telegram_language, lambda: Reply(_commands()))
