"""What the organizer, a moderator or the admin does to a running
tournament, each in one transaction and written to the moderation audit
(`moderation.AuditEntry`, as leagues' substitutions are), with a reason:

- withdraw a player (`tournaments.services.withdraw`, audited there: the
  game in play is resigned, a forfeit; the player is not paired again);
- adjudicate a table's game in play (`moderation.services.games.adjudicate_game`:
  the result is given, the round goes on as after any result);
- restart the latest round: its games in play are aborted (each audited as
  an abort), its tables and pairing byes dropped, and it is paired again
  from the entries as they are now, with a fresh deadline. Only a round
  with no result yet (a finished game keeps its result and its rating), and
  only once: a second restart is refused.

Impartiality: an organizer (or moderator) who has an entry in the
tournament may not adjudicate or restart in it (that would let him, say,
pair himself out of a bye); another organizer or a moderator must. Nobody
adjudicates a game he plays in (moderation's own rule).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import services as game_services
from gameplay.models import Game
from gameplay.services.base import GameError
from moderation.audit import record_action
from moderation.models import AuditEntry
from moderation.services import games as moderation
from tournaments import rounds, services
from tournaments.models import Bye, Entry, Round, Table, Tournament


def _must_be_impartial(tournament: Tournament, by) -> None:
    services.must_run(tournament, by)
    if Entry.objects.filter(tournament=tournament, user_id=by.pk).exists() \
            or Entry.objects.filter(tournament=tournament, partner_id=by.pk).exists():
        raise GameError(_("You play in this tournament: another organizer or a moderator must do this."),
                        code="forbidden")


def adjudicate_table(table_id: int, by, reason: str, places: list[int]) -> Game:
    """End a table's game in play with the places given (1 = best, per seat); audited as an adjudication."""
    table = Table.objects.select_related("round__tournament").filter(pk=table_id).first()
    if table is None or table.game_id is None:
        raise GameError(_("There is no such table."), code="not_found")
    _must_be_impartial(table.round.tournament, by)
    return moderation.adjudicate_game(table.game_id, by, reason, {"places": places})


@transaction.atomic
def restart_round(tournament_id: int, by, number: int, reason: str) -> Round:
    """Restart round `number`, the latest, once (see the module)."""
    round_ = Round.objects.filter(tournament_id=tournament_id, number=number).first()
    if round_ is None:
        raise GameError(_("There is no round %(n)s.") % {"n": number}, code="not_found")
    live = list(rounds.live_tables(round_).order_by("game_id").values_list("game_id", flat=True))
    for game_id in live:  # the games first, then the tournament: the order a game's end locks in
        game_services.locked_game(game_id)
    tournament = rounds.locked(tournament_id)
    _must_be_impartial(tournament, by)
    round_.refresh_from_db()
    _check_restartable(tournament, round_)
    reason = moderation.required_reason(reason, _("Give a reason for restarting the round."))
    tables = list(round_.tables.order_by("board"))
    before = {"tournament": tournament.pk, "round": number, "tables": [t.seats for t in tables],
              "byes": list(round_.byes.filter(kind=Bye.Kind.PAIRING).values_list("entry_id", flat=True))}
    round_.tables.all().delete()  # before the aborts: a game of no table ends no round
    round_.byes.filter(kind=Bye.Kind.PAIRING).delete()
    for game_id in live:
        moderation.abort_game(game_id, by, reason)
    now = timezone.now()
    round_.started_at, round_.deadline = now, now + timedelta(days=tournament.round_days)
    round_.window_ends = rounds.window_end(tournament, now)
    round_.finished_at = round_.warned_at = round_.window_closed_at = None
    round_.restarted_at = now
    round_.save(update_fields=["started_at", "deadline", "window_ends", "finished_at", "warned_at",
                               "window_closed_at", "restarted_at"])
    rounds.pair_round(tournament, round_, now)
    record_action(by, AuditEntry.Action.RESTART_ROUND, reason, before=before,
                  after={"tournament": tournament.pk, "round": number,
                         "tables": list(round_.tables.order_by("board").values_list("seats", flat=True)),
                         "byes": list(round_.byes.filter(kind=Bye.Kind.PAIRING).values_list("entry_id", flat=True))})
    return round_


def _check_restartable(tournament: Tournament, round_: Round) -> None:
    if tournament.status != Tournament.Status.RUNNING:
        raise GameError(_("The tournament is not in progress."), code="not_running")
    if round_.restarted_at is not None:
        raise GameError(_("Round %(n)s has already been restarted once.") % {"n": round_.number}, code="restarted")
    if tournament.round_set.filter(number__gt=round_.number).exists():
        raise GameError(_("Only the latest round can be restarted."), code="bad_request")
    if round_.tables.filter(game__status=Game.Status.FINISHED).exists():
        raise GameError(_("Round %(n)s has results already: it cannot be restarted.") % {"n": round_.number},
                        code="has_results")
