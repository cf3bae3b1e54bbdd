"""My games as the list shows them: each row drawn once in Python, in the
active language and the reader's time zone (the players, whose move it is,
the time left, the dates), from the rows of correspondence.selectors.

The list is what grows with a player's games (a page of 20 games in play and
20 finished ones; bench/pages.py holds the page at 200 games to 1.5x the
page at 5). Drawn by the template tag by tag, a row took dozens of nodes, a
filter call per clock and per date (each re-reading the language and the
time zone) and a loop per cell over the other players. Here the words of the
active language and the time zone are looked up once per list (`Words`),
each duration, name and link is made once, and a row is one format of
escaped pieces; the template (_my_games_list.html) keeps the tables around
them. What the page shows is what the tag-by-tag template showed.
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
        self.players = conditional_escape(gettext("Players"))
        self.turn = conditional_escape(gettext("Turn"))
        self.my_time = conditional_escape(gettext("My time"))
        self.their_time = conditional_escape(gettext("Their time"))
        self.last_move = conditional_escape(gettext("Last move"))
        self.result = conditional_escape(gettext("Result"))
        self.finished = conditional_escape(gettext("Finished"))
        # As {% blocktranslate %} puts them: the sentence as translated, its values escaped.
        self.waiting_for_players = gettext("Waiting for players (%(n)s seats)")
        self.place = gettext("place %(place)s of %(n)s")
        self.league = gettext("%(league)s, season %(season)s, round %(n)s")
        self.tournament = gettext("%(tournament)s, round %(n)s")
        self._durations: dict[int, str] = {}
        self._escaped: dict[str, str] = {}
        self._links: dict[tuple[str, str], str] = {}

    def duration(self, seconds: int) -> str:
        """As the `duration` filter says it ("1 d 2 h")."""
        seconds = int(seconds)
        worded = self._durations.get(seconds)
        if worded is None:
            worded = self._durations[seconds] = conditional_escape(duration(seconds))
        return worded

    def escaped(self, text: str) -> str:
        """A text that repeats down the list (a name, a game's kind), escaped once."""
        escaped = self._escaped.get(text)
        if escaped is None:
            escaped = self._escaped[text] = conditional_escape(text)
        return escaped

    def name_link(self, player: Player) -> str:
        """A player's name, as a link to his page when he has one (once per player)."""
        if not player.url:
            return self.escaped(player.name)
        key = (player.url, player.name)
        link = self._links.get(key)
        if link is None:
            link = self._links[key] = format_html('<a href="{}">{}</a>', player.url, player.name)
        return link

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


# A row of each table, its pieces escaped (and the whitespace of the template they replace).
IN_PLAY_ROW = """
    <tr class="{classes}" data-game="{game_id}">
      <td class="game-kind"><a href="{url}">#{game_id} {engine_name}</a> <small class="variant muted">{variant}</small>{league}</td>
      <td class="players" data-label="{w.players}">{players}</td>
      <td class="turn" data-label="{w.turn}">{turn}</td>
      <td class="my-time" data-label="{w.my_time}">{my_time}</td>
      <td class="their-time" data-label="{w.their_time}">{their_time}</td>
      <td class="last-move" data-label="{w.last_move}">{last_move}</td>
      <td><a class="button small" href="{url}">{action}</a></td>
    </tr>
  """
FINISHED_ROW = """
    <tr class="game-row finished" data-game="{game_id}">
      <td class="game-kind"><a href="{url}">#{game_id} {engine_name}</a> <small class="variant muted">{variant}</small></td>
      <td class="players" data-label="{w.players}">{players}</td>
      <td class="result" data-label="{w.result}">{result}</td>
      <td data-label="{w.finished}">{finished_at}</td>
      <td><a href="{url}">{w.open}</a></td>
    </tr>
  """


def list_rows(rows: list[MyGame], now: datetime) -> dict[str, list[SafeString]]:
    """The rows as the list shows them, each a piece of HTML: {"in_play": [...], "finished": [...]}."""
    words = Words(now)
    return {"in_play": [_in_play(row, words) for row in rows if row.group != FINISHED],
            "finished": [_finished(row, words) for row in rows if row.group == FINISHED]}


def _game(row: MyGame, words: Words) -> dict:
    """The cells every row has: the game's number, address, kind and variant."""
    return {"w": words, "game_id": row.game_id, "url": words.escaped(row.url),
            "engine_name": words.escaped(row.engine_name), "variant": words.escaped(row.variant)}


def _in_play(row: MyGame, words: Words) -> SafeString:
    return mark_safe(IN_PLAY_ROW.format(
        **_game(row, words),
        classes=f"game-row {row.group} my-turn" if row.group == MY_MOVE else f"game-row {row.group}",
        league=_league(row, words),
        players=_players(row.others, words),
        turn=_turn(row, words),
        my_time=_my_time(row, words),
        their_time="".join(_their_clock(player, words) for player in row.others if player.clock.deadline),
        last_move=words.date(row.last_move_at),
        action=words.play if row.group == MY_MOVE else words.open,
    ))


def _finished(row: MyGame, words: Words) -> SafeString:
    return mark_safe(FINISHED_ROW.format(
        **_game(row, words),
        players=", ".join(words.name_link(player) + _partner_mark(player, words) for player in row.others),
        result=_result(row, words),
        finished_at=words.date(row.finished_at),
    ))


def _league(row: MyGame, words: Words) -> SafeString | str:
    if not row.league:
        return ""
    league = row.league
    if league["season"] is None:  # a tournament's game
        text = words.tournament % {"tournament": conditional_escape(league["name"]), "n": league["round"]}
    else:
        text = words.league % {"league": conditional_escape(league["name"]), "season": league["season"],
                               "n": league["round"]}
    return format_html(' <a class="league-mark" href="{}">{}</a>', league["url"], mark_safe(text))


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
        cells.append(f'<span class="{css}">{words.name_link(player)}{rating}{_partner_mark(player, words)}</span>')
    return mark_safe(", ".join(cells))


def _turn(row: MyGame, words: Words) -> SafeString | str:
    if row.group == MY_MOVE:
        return mark_safe(f"<strong>{words.your_move}</strong>")
    if row.group == WAITING:
        names = [words.escaped(player.name) for player in row.on_move]
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
    return (f'<span class="their-clock">{words.escaped(player.name)}: <span class="{_clock_class(clock)}">'
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
