"""The fair-play queue: every finished rated game adds its evidence
(`evidence.game_figures`) to the `PairReview` of each pair of people who sat
at it, in a Celery task of its own after the commit (never on the move
path: reading a Joker game's record costs a few hundred milliseconds), and a
pair whose figures give a reason (`evidence.assess`) waits for a moderator.

A moderator dismisses a false alarm (the figures it looked at are kept:
only what later games add can raise the pair again) or annuls the ratings
of the pair's games (`ratings.services.unrate_games`); to suspend either
account there is the player's page. Each is audited, with its reason.
Players see none of it: no page, message, email or API reads these rows.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay.models import Game
from gameplay.services.base import GameError
from moderation.audit import record_action
from moderation.fairplay.evidence import added, assess, game_figures, pair_key
from moderation.models import AuditEntry, PairReview
from ratings.services import is_rated, unrate_games
from scoresheets.export import game_export

log = logging.getLogger(__name__)


def game_finished(game_id: int, version: int | None = None, **_details) -> None:
    """The `game_finished` event, after the commit: the game's evidence is read off the move path."""
    try:
        review_game_task.delay(game_id)
    except Exception:
        log.exception("could not queue the fair-play review of game %s", game_id)


@shared_task(ignore_result=True, name="moderation.fairplay.review_game")
def review_game_task(game_id: int) -> None:
    review_game(game_id)


def review_game(game_id: int) -> list[PairReview]:
    """Add a finished rated game's evidence to its pairs' reviews (once: a game already counted is skipped)."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return []
    seats = list(game.seats.select_related("user"))
    if not game.rated or not is_rated(game, seats):
        return []
    people = {seat.position: seat.user for seat in seats if seat.user_id}  # a computer seat is nobody
    if len(people) < 2:
        return []
    figures = game_figures(game_export(game), people)
    reviews = []
    for a, first in people.items():
        for b, second in people.items():
            if first.pk < second.pk:
                reviews.append(_add(game, first, second, figures.get(pair_key(a, b), {}),
                                    figures.get(pair_key(b, a), {})))
    return [review for review in reviews if review is not None]


@transaction.atomic
def _add(game: Game, first, second, forward: dict, backward: dict) -> PairReview | None:
    review, _created = PairReview.objects.get_or_create(first=first, second=second, engine=game.engine)
    review = PairReview.objects.select_for_update().get(pk=review.pk)
    if game.pk in review.games:
        return None
    review.games = [*review.games, game.pk]
    review.figures = {"first>second": added(review.figures.get("first>second", {}), forward),
                      "second>first": added(review.figures.get("second>first", {}), backward)}
    review.reasons = reasons_of(review)
    if review.reasons and review.status != PairReview.Status.OPEN:
        review.status, review.flagged_at = PairReview.Status.OPEN, timezone.now()
    review.save()
    return review


def reasons_of(review: PairReview) -> list[str]:
    """Why the pair is queued, from the figures added since its last dismissal:
    "sparing", "gifts" or "boosting", with who did it ("first" or "second")."""
    reasons = []
    for direction, who in (("first>second", "first"), ("second>first", "second")):
        since = _since(review.figures.get(direction, {}), review.dismissed_figures.get(direction, {}))
        reasons += [f"{reason}:{who}" for reason in assess(since)]
    return reasons


def _since(total: dict, dismissed: dict) -> dict:
    return {key: value - dismissed.get(key, 0) for key, value in total.items()}


def _locked_open(review_id: int) -> PairReview:
    review = PairReview.objects.select_for_update().filter(pk=review_id).first()
    if review is None:
        raise GameError(_("There is no such alert."), code="not_found")
    if review.status != PairReview.Status.OPEN:
        raise GameError(_("This alert is not waiting for a moderator."), code="not_open")
    return review


@transaction.atomic
def dismiss(review_id: int, moderator, reason: str) -> PairReview:
    """A false alarm: the pair leaves the queue, and the games it was raised by never raise it again."""
    review = _locked_open(review_id)
    before = {"status": review.status, "reasons": review.reasons}
    review.dismissed_figures = review.figures
    review.status, review.reasons = PairReview.Status.DISMISSED, []
    review.save()
    record_action(moderator, AuditEntry.Action.DISMISS_PAIR, reason, target_user=review.first, before=before,
                  after={"status": review.status, "pair": [review.first_id, review.second_id],
                         "games": review.games})
    return review


@transaction.atomic
def annul_ratings(review_id: int, moderator, reason: str) -> list[int]:
    """The ratings of the pair's games are annulled (their results stay); the alert is closed."""
    review = _locked_open(review_id)
    annulled = unrate_games(review.games)
    before = {"status": review.status, "reasons": review.reasons}
    review.dismissed_figures = review.figures
    review.status, review.reasons = PairReview.Status.DISMISSED, []
    review.save()
    record_action(moderator, AuditEntry.Action.ANNUL_RATINGS, reason, target_user=review.first, before=before,
                  after={"pair": [review.first_id, review.second_id], "games": annulled})
    return annulled
