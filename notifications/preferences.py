"""Which notices a player wants on which destination: one cell per
(destination, kind) of the preferences page, and the one service that saves them.

Defaults (no `Preference` row):
- push (every device) and Telegram: every kind at once;
- email: "your move" follows `User.turn_emails` (kept where it was, so the
  profile form and the daily digest keep working): "now" means *at once when
  nothing else of his is on for "your move"* (no push device, no Telegram
  that gets it), "daily" is the digest, "off" nothing; every other kind
  follows `User.email_notifications` until the player sets its cell.
The email "your move" cell is stored in `User.turn_emails` only (never as a
row), so there is one truth for it; the other email cells are rows that
override `email_notifications`.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from notifications import channels
from notifications.channels import YOUR_MOVE, Destination
from notifications.models import KIND_CHOICES, Mode, Preference

EMAIL = "email"

_TURN_EMAILS_TO_MODE = {"now": Mode.NOW, "daily": Mode.DIGEST, "off": Mode.OFF}
_MODE_TO_TURN_EMAILS = {mode: value for value, mode in _TURN_EMAILS_TO_MODE.items()}

Cells = dict[tuple[str, str], str]  # (destination key, kind) -> mode


def default_mode(user, destination_key: str, kind: str) -> str:
    if destination_key == EMAIL:
        if kind == YOUR_MOVE:
            return _TURN_EMAILS_TO_MODE.get(user.turn_emails, Mode.NOW)
        return Mode.NOW if user.email_notifications else Mode.OFF
    return Mode.NOW


def allowed_modes(destination_key: str, kind: str) -> tuple[str, ...]:
    """The digest exists for email's "your move" only (the daily digest email)."""
    if destination_key == EMAIL and kind == YOUR_MOVE:
        return (Mode.NOW, Mode.DIGEST, Mode.OFF)
    return (Mode.NOW, Mode.OFF)


def stored_cells(user_ids: Iterable[int]) -> dict[int, Cells]:
    """Every saved cell of these players, one query."""
    cells: dict[int, Cells] = {}
    for user_id, destination, kind, mode in Preference.objects.filter(user_id__in=list(user_ids)).values_list(
            "user_id", "destination", "kind", "mode"):
        cells.setdefault(user_id, {})[(destination, kind)] = mode
    return cells


def mode_of(user, destination_key: str, kind: str, cells: Cells | None = None) -> str:
    """The player's mode for this cell; `cells` from `stored_cells` saves the query."""
    if destination_key == EMAIL and kind == YOUR_MOVE:
        return default_mode(user, destination_key, kind)
    if cells is None:
        cells = stored_cells([user.pk]).get(user.pk, {})
    return cells.get((destination_key, kind)) or default_mode(user, destination_key, kind)


def destinations_of(user) -> list[Destination]:
    """Every destination of the player on every configured channel, in the channels' order."""
    found: list[Destination] = []
    for channel in channels.configured():
        found.extend(channel.destinations(user))
    return found


def other_channel_on(user, kind: str, destinations: list[Destination], cells: Cells) -> bool:
    """Whether a destination other than email gets this kind at once (email's "your move" then stays quiet)."""
    return any(d.key != EMAIL and mode_of(user, d.key, kind, cells) == Mode.NOW for d in destinations)


def email_wanted_now(user, kind: str) -> bool:
    """Whether the email of this kind goes out at once: for "your move" only when nothing else is on."""
    cells = stored_cells([user.pk]).get(user.pk, {})
    if mode_of(user, EMAIL, kind, cells) != Mode.NOW:
        return False
    if kind != YOUR_MOVE:
        return True
    return not other_channel_on(user, kind, [d for d in destinations_of(user) if d.channel != EMAIL], cells)


def grid(user) -> tuple[list[Destination], list[tuple[str, str]], Cells]:
    """(columns, rows, cells) of the preferences page: every destination × every kind, each cell's mode."""
    columns = destinations_of(user)
    cells = stored_cells([user.pk]).get(user.pk, {})
    values = {(d.key, kind): mode_of(user, d.key, kind, cells) for d in columns for kind, _ in KIND_CHOICES}
    return columns, [(kind, str(label)) for kind, label in KIND_CHOICES], values


@transaction.atomic
def save_preferences(user, chosen: Cells) -> None:
    """Save the player's grid: each (destination, kind) -> mode. Cells of
    destinations he no longer has, unknown kinds and modes a cell does not
    offer are refused (ValueError), nothing saved."""
    known = {d.key for d in destinations_of(user)}
    for (destination, kind), mode in chosen.items():
        if destination not in known or kind not in channels.KINDS or mode not in allowed_modes(destination, kind):
            raise ValueError(f"no such choice: {destination} {kind} {mode}")
    for (destination, kind), mode in chosen.items():
        if destination == EMAIL and kind == YOUR_MOVE:
            user.turn_emails = _MODE_TO_TURN_EMAILS[mode]
            user.save(update_fields=["turn_emails"])
            continue
        Preference.objects.update_or_create(user=user, destination=destination, kind=kind,
                                            defaults={"mode": mode})
