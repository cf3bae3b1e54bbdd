"""My games as the list shows them: each row's texts and small pieces of
HTML (the players, whose move it is, the time left, the dates in the
reader's time zone) made once in Python, in the active language.

The list is the page that grows with a player's games (a page of 20 games
in play and 20 finished ones): drawn by the template tag by tag, a row took
the engine dozens of nodes, a filter call per clock and date re-reading the
language and the time zone, and a loop per cell over the other players. Here
the words of the active language and the time zone are looked up once per
list (`Words`), each duration is worded once, and each row is a dict of
finished strings, so that the template only puts a row's cells in place
(bench/pages.py: the page at 200 games against the page at 5). What the
page shows is exactly what the tag-by-tag template showed.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.dates import MONTHS_3, WEEKDAYS_ABBR
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from correspondence.selectors import FINISHED, MY_MOVE, OPEN, WAITING, Clock, MyGame, Player
from correspondence.templatetags.correspondence import duration


class Words:
    """The list's words, durations and dates in the active language and time
    zone, looked up once per list (and each duration worded once)."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self.zone = timezone.get_current_timezone()
        self.weekdays = [str(WEEKDAYS_ABBR[day]) for day in range(7)]
        self.months = {number: str(name).title() for number, name in MONTHS_3.items()}
        # As {% translate %} puts them: escaped.
        self.reserve = conditional_escape(gettext("reserve"))
        self.partner = conditional_escape(gettext("partner"))
        self.rating_title = conditional_escape(gettext("Rating in this game"))
        self.runs_out = conditional_escape(gettext("Move time runs out"))
        self.your_move = conditional_escape(gettext("Your move"))
        self.waiting_for_others = conditional_escape(gettext("Waiting for others"))
        self.play = conditional_escape(gettext("Play"))
        self.open = conditional_escape(gettext("Open"))
        self.won = conditional_escape(gettext("won"))
        self.aborted = conditional_escape(gettext("aborted"))
        # As {% blocktranslate %} puts them: the sentence as translated, its values escaped.
        self.waiting_for_players = gettext("Waiting for players (%(n)s seats)")
        self.place = gettext("place %(place)s of %(n)s")
        self.league = gettext("%(league)s, season %(season)s, round %(n)s")
        self._durations: dict[int, str] = {}

    def duration(self, seconds: int) -> str:
        """As the `duration` filter says it ("1 d 2 h")."""
        seconds = int(seconds)
        worded = self._durations.get(seconds)
        if worded is None:
            worded = self._durations[seconds] = conditional_escape(duration(seconds))
        return worded

    def left_until(self, moment: datetime) -> str:
        """As the `left_until` filter says it, from the list's `now`."""
        return self.duration(max(0, int((moment - self.now).total_seconds())))

    def date(self, moment: datetime | None) -> str:
        """As the `date` filter writes "D j M, H:i" in the current time zone ("Tue 5 Mar, 14:00")."""
        if moment is None:
            return ""
        local = moment.astimezone(self.zone) if timezone.is_aware(moment) else moment
        return conditional_escape(f"{self.weekdays[local.weekday()]} {local.day} {self.months[local.month]}, "
                                  f"{local.hour:02d}:{local.minute:02d}")


def list_rows(rows: list[MyGame], now: datetime) -> dict[str, list[dict]]:
    """The rows as the list shows them: {"in_play": [...], "finished": [...]}, each row a dict of its cells."""
    words = Words(now)
    return {"in_play": [_in_play(row, words) for row in rows if row.group != FINISHED],
            "finished": [_finished(row, words) for row in rows if row.group == FINISHED]}


def _in_play(row: MyGame, words: Words) -> dict:
    return {
        "game_id": row.game_id, "url": row.url, "engine_name": row.engine_name, "variant": row.variant,
        "classes": f"game-row {row.group} my-turn" if row.group == MY_MOVE else f"game-row {row.group}",
        "league": _league(row, words),
        "players": _players(row.others, words),
        "turn": _turn(row, words),
        "my_time": _my_time(row, words),
        "their_time": mark_safe("".join(_their_clock(player, words) for player in row.others if player.clock.deadline)),
        "last_move": words.date(row.last_move_at),
        "action": words.play if row.group == MY_MOVE else words.open,
    }


def _finished(row: MyGame, words: Words) -> dict:
    return {
        "game_id": row.game_id, "url": row.url, "engine_name": row.engine_name, "variant": row.variant,
        "players": mark_safe(", ".join(_name_link(player, words) + _partner_mark(player, words)
                                       for player in row.others)),
        "result": _result(row, words),
        "finished_at": words.date(row.finished_at),
        "open": words.open,
    }


def _league(row: MyGame, words: Words) -> SafeString | str:
    if not row.league:
        return ""
    league = row.league
    text = words.league % {"league": conditional_escape(league["name"]), "season": league["season"],
                           "n": league["round"]}
    return format_html(' <a class="league-mark" href="{}">{}</a>', league["url"], mark_safe(text))


def _name_link(player: Player, words: Words) -> str:
    if player.url:
        return format_html('<a href="{}">{}</a>', player.url, player.name)
    return conditional_escape(player.name)


def _partner_mark(player: Player, words: Words) -> str:
    return f' <small class="partner-mark">({words.partner})</small>' if player.is_partner else ""


def _players(others: list[Player], words: Words) -> SafeString:
    if not others:
        return mark_safe('<span class="muted">—</span>')
    cells = []
    for player in others:
        rating = ""
        if player.rating is not None:
            mark = "?" if player.provisional else ""
            rating = f' <span class="rating muted" title="{words.rating_title}">{player.rating}{mark}</span>'
        css = "player on-move" if player.on_move else "player"
        cells.append(f'<span class="{css}">{_name_link(player, words)}{rating}{_partner_mark(player, words)}</span>')
    return mark_safe(", ".join(cells))


def _turn(row: MyGame, words: Words) -> SafeString | str:
    if row.group == MY_MOVE:
        return mark_safe(f"<strong>{words.your_move}</strong>")
    if row.group == WAITING:
        names = [conditional_escape(player.name) for player in row.on_move]
        return mark_safe(", ".join(names)) if names else words.waiting_for_others
    return mark_safe(words.waiting_for_players % {"n": row.seats_count})


def _time_left(clock: Clock, words: Words) -> str:
    """The move time left then "+ the reserve", or "reserve" and the reserve time left."""
    left = words.left_until(clock.deadline)
    if clock.in_reserve:
        return f"{words.reserve} {left}"
    return f"{left} + {words.duration(clock.reserve_seconds)}" if clock.reserve_seconds else left


def _clock_class(clock: Clock) -> str:
    return "clock in-reserve" if clock.in_reserve else "clock"


def _my_time(row: MyGame, words: Words) -> SafeString | str:
    clock = row.me.clock
    if clock.deadline:
        return mark_safe(f'<span class="{_clock_class(clock)}" title="{words.runs_out}">{_time_left(clock, words)}'
                         f'</span> <small class="muted deadline-at">{words.date(clock.final_deadline)}</small>')
    if row.group != OPEN:
        return mark_safe(f'<span class="muted">{words.reserve} {words.duration(clock.reserve_seconds)}</span>')
    return ""


def _their_clock(player: Player, words: Words) -> str:
    clock = player.clock
    return (f'<span class="their-clock">{conditional_escape(player.name)}: <span class="{_clock_class(clock)}">'
            f'{_time_left(clock, words)}</span> <small class="muted deadline-at">{words.date(clock.final_deadline)}'
            f'</small></span>')


def _result(row: MyGame, words: Words) -> SafeString | str:
    result = row.result or {}
    if result.get("aborted"):
        return words.aborted
    if result.get("place") == 1:
        return mark_safe(f"<strong>{words.won}</strong>")
    if result.get("place"):
        return mark_safe(words.place % {"place": result["place"], "n": row.seats_count})
    return ""
