"""The fair-play queue in the admin: pairs of accounts whose games together
say they may be cheating (`moderation.fairplay`), with the figures behind
each reason, the games (each with its replay, every hand shown: the games
are over), the players' pages (to suspend), a warning to either player
(the players' page's own action), and two actions of its own:
dismiss a false alarm, annul the ratings of the pair's games. Moderators
only, as every page of this app."""

from django.contrib import admin
from django.db.models import Avg
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from gameplay.models import Game
from moderation.admin.people import ModeratorsOnly
from moderation.admin.games import ModeratorAdmin
from moderation.fairplay import reviews
from moderation.forms import PlayerReasonForm as ReasonForm
from moderation.models import PairReview
from ratings.models import Rating

REASONS = {
    "sparing": _("spares the other in Durak: throws in on the other's defence far less often than on the others'"),
    "gifts": _("hands the other tricks this player needed"),
    "spoiling": _("spoils the other players' exact bids at a cost to this player, never the other's"),
    "boosting": _("hands the other rated wins: resigned, lost on time or short games"),
}

# What each figure counts (moderation/fairplay/evidence.py), in the order the page lists them.
FIGURES = {
    "together": _("games together"),
    "throw_chances_on_partner": _("chances to throw in on the other's defence"),
    "throws_on_partner": _("throw-ins on the other's defence"),
    "throw_chances_on_others": _("chances to throw in on the others' defence"),
    "throws_on_others": _("throw-ins on the others' defence"),
    "bouts_led_on_partner": _("bouts led against the other"),
    "partner_beat_off": _("of those, beaten off by the other"),
    "bouts_defended_by_partner": _("bouts the other defended"),
    "partner_beat_off_all": _("of those, beaten off"),
    "gift_chances_to_partner": _("tricks needed and within reach, else the other's"),
    "gifts_to_partner": _("of those, left to the other"),
    "gift_chances_to_others": _("tricks needed and within reach, else a third player's"),
    "gifts_to_others": _("of those, left to the third player"),
    "spoil_chances_on_others": _("tricks not needed that would give a third player an exact bid"),
    "spoils_on_others": _("of those, taken (the bid spoilt)"),
    "spoil_chances_on_partner": _("tricks not needed that would give the other an exact bid"),
    "spoils_on_partner": _("of those, taken"),
    "head_to_head": _("two-player games between them"),
    "drawn": _("of those, drawn"),
    "won": _("won against the other"),
    "conceded": _("of those, the other resigned or lost on time"),
    "short": _("of those, shorter than a few moves"),
}


@admin.register(PairReview)
class PairReviewAdmin(ModeratorsOnly, ModeratorAdmin):
    list_display = ["first", "second", "engine", "status", "reasons_text", "game_count", "flagged_at"]
    list_filter = ["status", "engine"]
    list_select_related = ["first", "second"]
    search_fields = ["first__username", "second__username"]
    fields = ["first", "second", "engine", "status", "flagged_at", "reasons_text", "together_text", "figures_table",
              "games_list", "actions_box"]
    readonly_fields = fields
    ordering = ["-flagged_at", "-pk"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("first", "second")

    @admin.display(description=_("why"))
    def reasons_text(self, review: PairReview) -> str:
        lines = []
        for reason in review.reasons:
            kind, _sep, who = reason.partition(":")
            actor = review.first if who == "first" else review.second
            lines.append((actor, REASONS.get(kind, kind)))
        return format_html_join(mark_safe("<br>"), "{}: {}", lines) or "—"

    @admin.display(description=_("together"))
    def together_text(self, review: PairReview) -> str:
        """How often they sat together against what a random seating of the pool would give."""
        counts = dict(Rating.objects.filter(engine=review.engine, user_id__in=[review.first_id, review.second_id])
                      .values_list("user_id", "games"))
        pool = Rating.objects.filter(engine=review.engine).count()
        seats = Game.objects.filter(pk__in=review.games).aggregate(seats=Avg("seats_count"))["seats"] or 2
        fewer = min(counts.get(review.first_id, 0), counts.get(review.second_id, 0))
        expected = fewer * (seats - 1) / (pool - 1) if pool > 1 else 0
        return _("%(together)s rated games together, of %(first)s and %(second)s rated games of theirs; a random "
                 "seating of the %(pool)s rated players would give about %(expected).1f.") % {
            "together": len(review.games), "first": counts.get(review.first_id, 0),
            "second": counts.get(review.second_id, 0), "pool": pool, "expected": expected}

    @admin.display(description=_("games"))
    def game_count(self, review: PairReview) -> int:
        return len(review.games)

    @admin.display(description=_("figures"))
    def figures_table(self, review: PairReview) -> str:
        forward, backward = review.figures.get("first>second", {}), review.figures.get("second>first", {})
        rows = [(label, forward.get(key, 0), backward.get(key, 0)) for key, label in FIGURES.items()
                if forward.get(key) or backward.get(key)]
        return render_to_string("admin/moderation/_pair_figures.html",
                                {"rows": rows, "first": review.first, "second": review.second})

    @admin.display(description=_("the games"))
    def games_list(self, review: PairReview) -> str:
        games = Game.objects.filter(pk__in=review.games).only("id", "engine", "finished_at").order_by("-pk")[:200]
        return format_html_join(" ", '<a href="{}">#{}</a>', ((reverse("replay", args=[g.pk]), g.pk) for g in games))

    @admin.display(description=_("actions"))
    def actions_box(self, review: PairReview) -> str:
        links = []
        for user in (review.first, review.second):
            links += [(reverse("admin:moderation_player_change", args=[user.pk]), user),
                      (reverse("admin:moderation_player_warn", args=[user.pk]), _("Warn %(name)s…") % {"name": user})]
        players = format_html_join(" ", '<a class="button" href="{}">{}</a>', links)
        if review.status != PairReview.Status.OPEN:
            return players
        return format_html('{} <a class="button" href="{}">{}</a> <a class="button" href="{}">{}</a>', players,
                           reverse("admin:moderation_pairreview_dismiss", args=[review.pk]), _("Dismiss…"),
                           reverse("admin:moderation_pairreview_annul", args=[review.pk]),
                           _("Annul the ratings of their games…"))

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<int:object_id>/dismiss/", view(self.dismiss_view), name="moderation_pairreview_dismiss"),
            path("<int:object_id>/annul/", view(self.annul_view), name="moderation_pairreview_annul"),
        ] + super().get_urls()

    def dismiss_view(self, request, object_id: int):
        def run(review, data):
            reviews.dismiss(review.pk, request.user, data["reason"])

        return self.action_view(
            request, object_id, ReasonForm, run, done=_("The alert is dismissed."),
            title=_("Dismiss a fair-play alert"), button=_("Dismiss"),
            intro=_("A false alarm: the pair leaves the queue, and the games behind this alert never raise it again."),
            permission="moderation.view_pairreview", back="admin:moderation_pairreview_change")

    def annul_view(self, request, object_id: int):
        def run(review, data):
            games = reviews.annul_ratings(review.pk, request.user, data["reason"])
            return _("The ratings of %(n)s games are annulled; their results stay.") % {"n": len(games)}

        return self.action_view(
            request, object_id, ReasonForm, run, done="", title=_("Annul the ratings of their games"),
            button=_("Annul the ratings"),
            intro=_("Every rated game of this pair in this game kind stops counting for the ratings, which are "
                    "recomputed from the first of them on; the results stay."),
            permission="moderation.view_pairreview", back="admin:moderation_pairreview_change")
