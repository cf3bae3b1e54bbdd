"""One's own data (issue 40, part 3): "Download my data" gathers everything
the site holds about an account into a zip of JSON files, one per subject.

- profile.json: the account, its settings, addresses, vacations, second
  factors (their kinds and names, never their secrets), sessions;
- games.json: every game he sat at: a game that is over with its published
  record (scoresheets.export), a game still running with his seat's view
  only (gameplay.broadcast.game_payload: never another seat's hidden cards);
- ratings.json, leagues.json, challenges.json, friends.json (follows and
  blocks), notes.json, chat.json (the lines he wrote), notifications.json
  (settings; devices by their names, not their keys; the Telegram link's
  date), moderation.json (the decisions about him and the reports he made,
  never who reported him);
- what a higher app holds (the API tokens: names and scopes, never the
  secrets) comes from the sections it registers (`register_section`).

`build` runs in the Celery task `pages.tasks.build_data_export`; the file
is kept in the database (accounts.models.DataExport) and expires after
DATA_EXPORT_DAYS.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable, Iterable
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.usersessions.models import UserSession
from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import Block, DataExport, Vacation
from correspondence.models import Challenge, Follow, Invitation as ChallengeInvitation, Note
from gameplay.broadcast import game_payload
from gameplay.models import ChatMessage, Game, Seat
from leagues.models import Entry, Invitation as LeagueInvitation
from moderation.models import AuditEntry, Report
from notifications.models import Preference
from notifications.push.models import PushSubscription
from notifications.telegram.models import TelegramLink
from ratings.models import Rating, RatingChange
from scoresheets.export import game_export

Section = Callable[[Any], Any]
_sections: dict[str, Section] = {}


def register_section(name: str, section: Section) -> None:
    """A higher app's own file in the export (`name`.json): `section(user)` returns it (JSON-able)."""
    _sections[name] = section


def plain(value: Any) -> Any:
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, (timedelta,)):
        return value.total_seconds()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (bytes, memoryview)):
        return None
    return value


def rows(queryset: Iterable[models.Model], fields: list[str]) -> list[dict]:
    """The rows' named fields (a foreign key as its id), JSON-able."""
    return [{name: plain(getattr(row, name)) for name in fields} for row in queryset]


PROFILE_FIELDS = ["id", "username", "display_name", "email", "language", "time_zone", "email_notifications",
                  "turn_emails", "night_pause_start", "night_pause_end", "challenges_from_friends_only",
                  "next_game_after_move", "is_bot", "bot_since", "date_joined", "last_login", "address_confirmed",
                  "suspended_at", "suspended_until", "chat_muted_until"]


def profile(user) -> dict:
    return {
        "account": rows([user], PROFILE_FIELDS)[0],
        "addresses": rows(EmailAddress.objects.filter(user=user), ["email", "verified", "primary"]),
        "vacations": rows(Vacation.objects.filter(user=user), ["starts_at", "ends_at", "created_at"]),
        "second_factors": [{"type": a.type, "created_at": plain(a.created_at), "last_used_at": plain(a.last_used_at)}
                           for a in Authenticator.objects.filter(user=user)],
        "sessions": rows(UserSession.objects.filter(user=user), ["created_at", "last_seen_at", "ip", "user_agent"]),
    }


def games(user) -> list[dict]:
    seats = Seat.objects.filter(user=user).select_related("game").prefetch_related("game__seats").order_by("game_id")
    result = []
    for seat in seats:
        game = seat.game
        entry = {"game": game.pk, "engine": game.engine, "status": game.status, "rated": game.rated,
                 "created_at": plain(game.created_at), "finished_at": plain(game.finished_at),
                 "seat": seat.position, "place": seat.place, "points": plain(seat.points),
                 "computer_seats": [{"seat": s.position, "level": s.computer_level}
                                    for s in sorted(game.seats.all(), key=lambda s: s.position) if s.is_bot]}
        if game.is_over:
            entry["record"] = game_export(game)
        elif game.status == Game.Status.ACTIVE:
            entry["my_view"] = game_payload(game, seat.position)
        result.append(entry)
    return result


def ratings(user) -> dict:
    return {
        "ratings": rows(Rating.objects.filter(user=user), ["engine", "mu", "sigma", "games"]),
        "history": rows(RatingChange.objects.filter(user=user).order_by("at"),
                        ["game_id", "engine", "mu_before", "sigma_before", "mu", "sigma", "games", "at"]),
    }


def leagues(user) -> dict:
    entries = Entry.objects.filter(Q(user=user) | Q(partner=user)).select_related("season__league")
    return {
        "entries": [{"league": e.season.league.name, "season": e.season.number, "division_id": e.division_id,
                     "withdrawn_at": plain(e.withdrawn_at), "final_rank": e.final_rank} for e in entries],
        "invitations": rows(LeagueInvitation.objects.filter(Q(user=user) | Q(partner=user)),
                            ["season_id", "status"]),
    }


def challenges(user) -> dict:
    return {
        "sent": rows(Challenge.objects.filter(created_by=user),
                     ["id", "engine", "status", "rated", "created_at", "expires_at", "game_id"]),
        "received": rows(ChallengeInvitation.objects.filter(user=user).select_related("challenge"),
                         ["challenge_id", "position", "answer"]),
    }


def friends(user) -> dict:
    return {
        "i_follow": [f.followed.username for f in Follow.objects.filter(follower=user).select_related("followed")],
        "follow_me": [f.follower.username for f in Follow.objects.filter(followed=user).select_related("follower")],
        "i_block": [b.blocked.username for b in Block.objects.filter(blocker=user).select_related("blocked")],
    }


def notes(user) -> list[dict]:
    return rows(Note.objects.filter(user=user), ["game_id", "text", "updated_at"])


def chat(user) -> list[dict]:
    return rows(ChatMessage.objects.filter(user=user).order_by("created_at"),
                ["game_id", "text", "created_at", "hidden"])


def notifications(user) -> dict:
    link = TelegramLink.objects.filter(user=user).first()
    return {
        "preferences": rows(Preference.objects.filter(user=user), ["destination", "kind", "mode"]),
        "push_devices": rows(PushSubscription.objects.filter(user=user), ["label", "created", "last_success"]),
        "telegram": {"linked": link is not None, "since": plain(getattr(link, "linked_at", None))},
    }


def moderation(user) -> dict:
    return {
        "decisions_about_me": rows(AuditEntry.objects.filter(target_user=user).order_by("at"),
                                   ["at", "action", "reason", "game_id", "after"]),
        "my_reports": rows(Report.objects.filter(reporter=user), ["created_at", "subject", "reason", "text", "status"]),
    }


SECTIONS: dict[str, Section] = {
    "profile": profile, "games": games, "ratings": ratings, "leagues": leagues, "challenges": challenges,
    "friends": friends, "notes": notes, "chat": chat, "notifications": notifications, "moderation": moderation,
}


def export_files(user) -> dict[str, Any]:
    """Every section: its file name and its JSON-able content."""
    return {f"{name}.json": section(user) for name, section in {**SECTIONS, **_sections}.items()}


def zip_of(files: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, json.dumps(content, ensure_ascii=False, indent=1, default=plain))
    return buffer.getvalue()


def build(export_id: int) -> DataExport | None:
    """Build an asked-for export (running it twice builds it once)."""
    with transaction.atomic():
        export = DataExport.objects.select_for_update().select_related("user").filter(pk=export_id).first()
        if export is None or export.ready_at is not None:
            return None
        export.content = zip_of(export_files(export.user))
        export.ready_at = timezone.now()
        export.expires_at = export.ready_at + timedelta(days=settings.DATA_EXPORT_DAYS)
        export.save(update_fields=["content", "ready_at", "expires_at"])
    return export


def forget_expired() -> int:
    deleted, _rows = DataExport.objects.filter(expires_at__lt=timezone.now()).delete()
    return deleted
