"""The words of every notice, per player, in his language and time zone.

Only what his seat may know: the game's name, the other players' names, his
own time left, the result once the game is over, a moderator's reason. Never
a card, a tile, a stake, a hand size or anything read from the game's state
(`Game.state` is not even read here).
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gameplay import clocks
from gameplay.engine import get_engine
from gameplay.i18n import engine_name
from gameplay.models import Game, Seat
from gameplay.results import ADJUDICATED, LOST_ON_TIME, RESIGNED, GameResult
from notifications.channels import Notice


@dataclass(frozen=True)
class Words:
    title: str
    body: str
    url: str
    button: str


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def my_games_url() -> str:
    return absolute(reverse("my_games"))


def game_url(game_id: int) -> str:
    return absolute(reverse("game", args=[game_id]))


def zone_of(user) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def in_language(user, compose, *args) -> Words:
    """`compose(*args)` with the player's language and time zone active."""
    with translation.override(user.language or settings.LANGUAGE_CODE), timezone.override(zone_of(user)):
        return compose(*args)


def notice(kind: str, user, key: str, words: Words) -> Notice:
    return Notice(kind=kind, user_id=user.pk, title=words.title, body=words.body, url=words.url, key=key,
                  button=words.button)


def game_label(game: Game, seats: list[Seat], position: int | None) -> str:
    """ "Joker with Anna, Boris, Vera": the game's name and the other players."""
    others = [str(s.player_name) for s in sorted(seats, key=lambda s: s.position) if s.position != position]
    name = engine_name(get_engine(game.engine))
    if not others:
        return name
    return _("%(game)s with %(players)s") % {"game": name, "players": ", ".join(others)}


def _time_left(runs_out_at) -> str:
    if runs_out_at is None:
        return ""
    seconds = max(0, int((runs_out_at - timezone.now()).total_seconds()))
    if seconds >= 120:  # whole minutes: "2 h 10 min", not "2 h 9 min 59 s"
        seconds = -(-seconds // 60) * 60
    return clocks.format_duration(seconds) if seconds else _("no time")


def _open_game() -> str:
    return _("Open the game")


# --- the game events ------------------------------------------------------------------


def your_move(game: Game, seats: list[Seat], position: int, runs_out_at) -> Words:
    label = game_label(game, seats, position)
    left = _time_left(runs_out_at)
    body = _("%(game)s: %(left)s left") % {"game": label, "left": left} if left else label
    return Words(_("Your move"), body, game_url(game.pk), _open_game())


def games_waiting(labels: list[str]) -> Words:
    """Several games wait for his move: one notice, opening My games."""
    count = len(labels)
    title = ngettext("%(count)d game waits for your move", "%(count)d games wait for your move",
                     count) % {"count": count}
    shown = "; ".join(labels[:3])
    if count > 3:
        shown += " …"
    return Words(title, shown, my_games_url(), _("Open My games"))


def time_warning(game: Game, seats: list[Seat], position: int, runs_out_at, forfeits: bool) -> Words:
    label = game_label(game, seats, position)
    left = _time_left(runs_out_at)
    if forfeits:
        body = _("%(game)s: %(left)s left, then the game is lost") % {"game": label, "left": left}
    else:
        body = _("%(game)s: %(left)s left, then a move is made for you") % {"game": label, "left": left}
    return Words(_("Time is running out"), body, game_url(game.pk), _open_game())


def game_over(game: Game, seats: list[Seat], position: int, result: GameResult) -> Words:
    label = game_label(game, seats, position)
    mine = result.standing_of(position)
    count = len(result.standings)
    if result.ending == LOST_ON_TIME:
        how = _("%(who)s lost on time.") % {"who": result.seat_name}
    elif result.ending == RESIGNED:
        how = _("%(who)s resigned.") % {"who": result.seat_name}
    elif result.ending == ADJUDICATED:
        how = _("A moderator decided the result: %(reason)s") % {"reason": result.reason}
    else:
        how = ""
    place = ""
    if mine is not None and mine.place is not None:
        place = _("Your place: %(place)s of %(count)s (%(points)s).") % {
            "place": mine.place, "count": count, "points": mine.points_label}
    body = " ".join(part for part in (label + ".", how, place) if part)
    title = _("A moderator decided your game") if result.ending == ADJUDICATED else _("Game over")
    return Words(title, body, game_url(game.pk), _open_game())


def game_aborted(game: Game, seats: list[Seat], position: int, result: GameResult) -> Words:
    label = game_label(game, seats, position)
    if result.by_moderator:
        body = _("%(game)s was aborted by a moderator: %(reason)s") % {"game": label, "reason": result.reason}
    else:
        body = _("%(game)s was aborted: %(reason)s") % {"game": label, "reason": result.reason}
    return Words(_("Game aborted"), body, game_url(game.pk), _open_game())


def seat_replaced(game: Game, seats: list[Seat], reason: str) -> Words:
    label = game_label(game, seats, None)
    body = _("A moderator gave your seat in %(game)s to another player: %(reason)s") % {
        "game": label, "reason": reason}
    return Words(_("A moderator decided your game"), body, game_url(game.pk), _open_game())


def orders_lapsed(game: Game, seats: list[Seat], position: int, reasons: list[str]) -> Words:
    """His standing orders at this seat lapsed: the engine's reasons, in his language (nothing else)."""
    label = game_label(game, seats, position)
    body = "%s: %s" % (label, " ".join(_(reason) for reason in reasons))
    title = ngettext("Your standing order lapsed", "Your standing orders lapsed", len(reasons))
    return Words(title, body, game_url(game.pk), _open_game())


# --- what the apps above announce -------------------------------------------------------


def challenge(challenger: str, engine: str, terms: list[str], url_path: str) -> Words:
    """The challenge's game and every term of its table, as its email and the challenges page word them."""
    title = _("%(who)s challenges you") % {"who": challenger}
    body = _("A game of %(game)s. The table: %(terms)s. Accept or decline it on the challenges page.") % {
        "game": engine_name(get_engine(engine)), "terms": ", ".join(terms)}
    return Words(title, body, absolute(url_path), _("Open the challenges"))


def league_round(league: str, round_number: int | None, game: Game, seats: list[Seat], position: int) -> Words:
    if round_number:
        title = _("%(league)s: round %(round)s") % {"league": league, "round": round_number}
    else:
        title = _("%(league)s: a new game") % {"league": league}
    body = _("Your game: %(game)s") % {"game": game_label(game, seats, position)}
    return Words(title, body, game_url(game.pk), _open_game())


def tournament_bye(tournament: str, round_number: int, points: str, url_path: str) -> Words:
    title = _("%(league)s: round %(round)s") % {"league": tournament, "round": round_number}
    body = _("No table for you this round: a bye, worth %(points)s.") % {"points": points}
    return Words(title, body, absolute(url_path), _("Open the tournament"))


def tournament_forfeit_warning(tournament: str, game: Game, seats: list[Seat], position: int, deadline) -> Words:
    title = _("%(tournament)s: the round ends soon") % {"tournament": tournament}
    body = _("%(game)s: %(left)s left until the round's deadline; the player whose clock is running then loses "
               "the game.") % {
        "game": game_label(game, seats, position), "left": _time_left(deadline)}
    return Words(title, body, game_url(game.pk), _open_game())


def tournament_result(tournament: str, rank: int, entrants: int, url_path: str) -> Words:
    title = _("%(tournament)s is over") % {"tournament": tournament}
    body = _("Your place: %(place)s of %(count)s.") % {"place": rank, "count": entrants}
    return Words(title, body, absolute(url_path), _("Open the tournament"))
