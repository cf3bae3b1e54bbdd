"""Moderators work here: every model with useful lists, filters and search;
a game can be aborted, adjudicated or have a seat given to someone else, and
chat messages hidden, each with a recorded reason (`gameplay.services`,
audited in `moderation`); the move log is read-only.

Who may moderate (`moderation.permissions`): the moderators group and
superusers, every game; a league organizer who is staff, the games of their
own leagues (they see only those here). Other staff see the lists their
permissions allow, without any moderator action.

Every list and change page runs the same few queries however large the
tables grow: related rows come in the same query (select_related, with the
game's `state` left out: lists never need it) or in one prefetch, the default
orders follow an index, filters offer values the code knows instead of
selecting the distinct ones from the table, no list counts the whole table a
second time (show_full_result_count), and a game's page shows its last moves
and links to the full move list instead of a form row per move.
"""

import copy
import json

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ORDER_VAR, PAGE_VAR, ChangeList
from django.core.exceptions import EmptyResultSet, PermissionDenied
from django.db.models import Prefetch, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.formats import localize
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.text import capfirst
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from gameplay.clocks import PRESETS, format_duration
from gameplay.engine import ENGINES
from gameplay.i18n import engine_name
from gameplay.models import ChatMessage, Game, Move, Seat
from gameplay.movelog import move_log
from gameplay.records import SUBSTITUTE
from gameplay.paging import EstimatedCountPaginator
from gameplay.services.base import GameError
from moderation.forms import AbortForm, AdjudicateForm, ReasonForm, SubstituteForm
from moderation.models import AuditEntry
from moderation.services import games as actions
from moderation.permissions import can_moderate, is_moderator, moderated_games, organizes_a_league, plays_in

RECENT_MOVES = 20  # the moves a game's admin page shows; the move list has them all


class SafeChangeList(ChangeList):
    """A date out of the calendar in a changelist's query string is an invalid
    filter, answered as Django answers the others (a redirect to `?e=1`), not
    a server error. Django 5.2 lets two kinds through:

    - date_hierarchy: `?created_at__year=99999999999999` (OverflowError) and
      `?created_at__year=9999` (year 10000, outside its try): Django ticket
      #37357, fixed after 5.2;
    - any date field's lookup: `?deadline__year=1` or `?started_at__year=
      99999999999999` pass the filter step and fail only when the query is
      compiled, while the page renders; so does an integer no database
      column holds (`?id__in=111111111111111111111`).
    """

    def get_filters(self, request):
        try:
            return super().get_filters(request)
        except (ValueError, OverflowError) as exc:
            raise IncorrectLookupParameters(exc) from exc

    def get_queryset(self, request, exclude_parameters=None):
        queryset = super().get_queryset(request, exclude_parameters)
        try:
            _, params = queryset.query.sql_with_params()  # compiled now, inside the changelist's error handling
        except EmptyResultSet:
            return queryset  # nothing matches: an empty list
        except (ValueError, OverflowError) as exc:
            raise IncorrectLookupParameters(exc) from exc
        if any(isinstance(param, int) and not -(2**63) <= param < 2**63 for param in params):
            raise IncorrectLookupParameters("an integer beyond 64 bits")
        return queryset


class ModeratorAdmin(admin.ModelAdmin):
    # The filtered count is enough: no second count of the whole table.
    show_full_result_count = False
    # The whole table's count from PostgreSQL's statistics once it is big (gameplay.paging).
    paginator = EstimatedCountPaginator

    def get_paginator(self, request, queryset, per_page, orphans=0, allow_empty_first_page=True):
        """Without a search or filter of the reader's own, the list is the whole table as he may see it."""
        whole_table = set(request.GET) <= {PAGE_VAR, ORDER_VAR}
        return self.paginator(queryset, per_page, orphans, allow_empty_first_page, whole_table=whole_table)

    def get_changelist(self, request, **kwargs):
        return SafeChangeList

    # Titles that are the model's names alone ("Партии", "Партия" and the row below it): Django's
    # "Select %s to change" / "Change %s" put a noun into a sentence, which Russian would decline.
    def changelist_view(self, request, extra_context=None):
        title = capfirst(self.model._meta.verbose_name_plural)
        return super().changelist_view(request, {"title": title, **(extra_context or {})})

    def change_view(self, request, object_id, form_url="", extra_context=None):
        title = capfirst(self.model._meta.verbose_name)
        return super().change_view(request, object_id, form_url, {"title": title, **(extra_context or {})})


def known_values_filter(values):
    """A list filter offering the values the code knows (`values()`: pairs
    of value and label) for a field without choices: Django's default for
    such a field (AllValuesFieldListFilter) selects the distinct values from
    the whole table on every page of the list."""

    class KnownValuesFilter(admin.ChoicesFieldListFilter):
        def __init__(self, field, request, params, model, model_admin, field_path):
            field = copy.copy(field)
            field.choices = list(values())
            super().__init__(field, request, params, model, model_admin, field_path)

    return KnownValuesFilter


EngineFilter = known_values_filter(lambda: [(slug, engine_name(engine)) for slug, engine in ENGINES.items()])
TimePresetFilter = known_values_filter(lambda: [(slug, preset.label) for slug, preset in PRESETS.items()])


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "user", "is_bot", "team", "reserve_left", "deadline", "auto_streak", "place", "points"]
    readonly_fields = fields
    can_delete = False

    @admin.display(description=_("reserve left"))
    def reserve_left(self, seat: Seat) -> str:
        """In days, hours and minutes ("2 d 3 h"), as the table shows it, not in seconds."""
        return format_duration(seat.reserve_seconds_left)

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")


class OrganizerAccess:
    """A league organizer who is staff but holds no permission on a model
    sees the rows of their own leagues' games (`moderated_rows`), read-only."""

    def has_module_permission(self, request):
        return super().has_module_permission(request) or organizes_a_league(request.user)

    def has_view_permission(self, request, obj=None):
        if super().has_view_permission(request, obj):
            return True
        if not organizes_a_league(request.user):
            return False
        return obj is None or can_moderate(request.user, self.game_of(obj))

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if super().has_view_permission(request):
            return queryset
        return self.moderated_rows(request, queryset)

    def has_moderate_permission(self, request):
        """Admin actions marked `allowed_permissions=["moderate"]`."""
        return is_moderator(request.user) or organizes_a_league(request.user)


@admin.register(Game)
class GameAdmin(OrganizerAccess, ModeratorAdmin):
    list_display = ["id", "game_kind", "status", "players", "is_private", "version", "created_by", "created_at", "finished_at"]
    list_filter = ["status", ("engine", EngineFilter), "is_private", ("time_preset", TimePresetFilter), "created_at"]
    search_fields = ["id", "seats__user__username", "seats__user__display_name", "created_by__username"]
    readonly_fields = ["game_kind", "options", "seats_count", "status", "version", "seed_sha256", "created_by",
                       "created_at", "started_at", "finished_at", "abort_reason", "aborted_by", "moderation_records",
                       "recent_moves"]
    fields = readonly_fields + ["is_private"]
    inlines = [SeatInline]
    ordering = ["-id"]  # the newest first, along the primary key (as -created_at, which has no index)
    change_form_template = "admin/gameplay/game/change_form.html"

    def has_delete_permission(self, request, obj=None):
        # A game's moves are append-only: deleting it could only end in "cannot delete". A moderator
        # aborts a game instead.
        return False

    def game_of(self, game: Game) -> Game:
        return game

    def moderated_rows(self, request, queryset):
        return moderated_games(request.user, queryset)

    @admin.display(description=_("game kind"), ordering="engine")
    def game_kind(self, game: Game) -> str:
        return engine_name(ENGINES[game.engine]) if game.engine in ENGINES else game.engine

    @admin.display(description=_("players"))
    def players(self, game: Game) -> str:
        return ", ".join(str(s.player_name) for s in game.seats.all() if s.is_taken)

    @admin.display(description=_("moderation log"))
    def moderation_records(self, game: Game) -> str:
        """What moderators did to this game (one query)."""
        entries = AuditEntry.objects.filter(game_id=game.pk).select_related("moderator").order_by("at", "pk")
        rows = format_html_join("", "<li>{}: {} ({}) — {}</li>", (
            (localize(localtime(e.at)), e.get_action_display(), e.moderator, e.reason) for e in entries))
        return format_html("<ul>{}</ul>", rows) if rows else "—"

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and not reads_secret_moves(request.user, obj):
            fields[fields.index("recent_moves")] = "moves_for_spectators"
        return fields

    def get_fields(self, request, obj=None):
        return self.get_readonly_fields(request, obj) + ["is_private"]

    @admin.display(description=_("moves"))
    def moves_for_spectators(self, game: Game) -> str:
        """A running game's last moves as its move log words them for a spectator
        (no hidden stake, count or choice), for whoever may not read them raw."""
        seats = list(game.seats.select_related("user"))
        lines = move_log(game, seats, None, list(game.moves.order_by("seq")))[-RECENT_MOVES:]
        rows = format_html_join("", "<li>{}. {}{}</li>", (
            (line.seq, line.text, f" ({line.by})" if line.by else "") for line in lines))
        note = format_html("<p>{}</p>", _("As a spectator reads them: the game is in play."))
        return format_html("{}<ol>{}</ol>", note, rows) if lines else note

    @admin.display(description=_("moves"))
    def recent_moves(self, game: Game) -> str:
        """The game's last moves (one query) and a link to all of them in the move list."""
        moves = list(game.moves.select_related("user").order_by("-seq")[:RECENT_MOVES])[::-1]
        url = reverse("admin:gameplay_move_changelist") + "?" + urlencode({"game__id__exact": game.pk})
        link = format_html('<p><a href="{}">{}</a></p>', url, _("All the moves of this game"))
        if not moves:
            return link
        head = format_html("<tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
                           _("seat"), _("action"), _("by"), _("player"), _("time"))
        rows = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", (
            (m.seq, "—" if m.position is None else m.position, json.dumps(m.action, ensure_ascii=False),
             m.get_by_display(), m.user or "—", localize(localtime(m.created_at))) for m in moves
        ))
        caption = ngettext("The last %(n)s move", "The last %(n)s moves", len(moves)) % {"n": len(moves)}
        return format_html("{}<table><caption>{}</caption><thead>{}</thead><tbody>{}</tbody></table>",
                           link, caption, head, rows)

    def get_queryset(self, request):
        return (
            super().get_queryset(request)
            .defer("state", "history")
            .select_related("created_by", "aborted_by")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        )

    def has_add_permission(self, request):
        return False  # a table is opened on the site (the new-table form), which deals and seats it

    def save_model(self, request, obj, form, change):
        # Only the fields the form changed: saving the whole row loaded with the
        # page would put back an older state, version and status over any move
        # or start that happened meanwhile.
        if form.changed_data:
            obj.save(update_fields=form.changed_data)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        game = Game.objects.defer("state", "history").filter(pk=object_id).first() if str(object_id).isdigit() else None
        links = []
        if game is not None and not game.is_over and can_moderate(request.user, game):
            links.append((reverse("admin:gameplay_game_abort", args=[game.pk]), _("Abort this game…")))
            if game.status == Game.Status.ACTIVE:
                links.append((reverse("admin:gameplay_game_adjudicate", args=[game.pk]), _("Adjudicate…")))
                links.append((reverse("admin:gameplay_game_substitute", args=[game.pk]), _("Substitute a seat…")))
        extra_context = {**(extra_context or {}), "moderation_links": links}
        return super().change_view(request, object_id, form_url, extra_context)

    def get_urls(self):
        views = [("abort", self.abort_view), ("adjudicate", self.adjudicate_view), ("substitute", self.substitute_view)]
        return [path(f"<int:game_id>/{name}/", self.admin_site.admin_view(view), name=f"gameplay_game_{name}")
                for name, view in views] + super().get_urls()

    def moderated_game(self, request, game_id: int, *, state: bool = False) -> Game:
        """The game, if the user may moderate it; else 404 or 403."""
        games = Game.objects.all() if state else Game.objects.defer("state", "history")
        game = get_object_or_404(games, pk=game_id)
        if not can_moderate(request.user, game):
            raise PermissionDenied
        return game

    def moderation_form(self, request, game: Game, form, act, done: str, title: str, template: str):
        """Show `form`; once it is valid, `act(form)` (a service call) and back
        to the game's page; a refusal is shown on the form, nothing changed."""
        if request.method == "POST" and form.is_valid():
            try:
                act(form)
            except GameError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, done)
                return redirect("admin:gameplay_game_change", game.pk)
        context = {**self.admin_site.each_context(request), "game": game, "form": form, "opts": self.model._meta,
                   "title": title}
        return render(request, template, context)

    def abort_view(self, request, game_id: int):
        game = self.moderated_game(request, game_id)
        return self.moderation_form(
            request, game, AbortForm(request.POST or None),
            lambda form: actions.abort_game(game.pk, request.user, form.cleaned_data["reason"]),
            _("Game aborted."), _("Abort game #%(id)s") % {"id": game.pk}, "admin/gameplay/game/abort.html")

    def adjudicate_view(self, request, game_id: int):
        game = self.moderated_game(request, game_id, state=True)
        seats = list(game.seats.select_related("user"))
        form = AdjudicateForm(game, seats, request.POST or None)
        return self.moderation_form(
            request, game, form,
            lambda form: actions.adjudicate_game(game.pk, request.user, form.cleaned_data["reason"], form.result()),
            _("Game adjudicated."), _("Adjudicate game #%(id)s") % {"id": game.pk},
            "admin/gameplay/game/adjudicate.html")

    def substitute_view(self, request, game_id: int):
        game = self.moderated_game(request, game_id)
        seats = list(game.seats.select_related("user"))
        form = SubstituteForm(seats, request.POST or None)
        return self.moderation_form(
            request, game, form,
            lambda form: actions.substitute_seat(game.pk, form.cleaned_data["position"], request.user,
                                                  form.cleaned_data["reason"], user=form.cleaned_data["user"],
                                                  computer_level=form.cleaned_data["computer_level"]),
            _("The seat has a new player."), _("Substitute a seat of game #%(id)s") % {"id": game.pk},
            "admin/gameplay/game/substitute.html")


class GameRowsAdmin(ModeratorAdmin):
    """The lists of rows that belong to a game: each row's game and user come
    in the same query, the game without its state."""

    list_select_related = ["game", "user"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*self.list_select_related).defer("game__state", "game__history")


@admin.register(Seat)
class SeatAdmin(GameRowsAdmin):
    list_display = ["game", "position", "user", "is_bot", "deadline", "place", "points"]
    list_filter = ["is_bot", ("game__engine", EngineFilter), "game__status"]
    search_fields = ["user__username", "user__display_name", "game__id"]
    raw_id_fields = ["game", "user"]
    ordering = ["-game_id", "position"]  # the newest game first, along the (game, position) index

    # Read-only: a seat changes through the services only (taken, left, filled
    # with a computer player), which lock the game and tell its players.
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def reads_secret_moves(user, game: Game) -> bool:
    """Whether `user` may read the game's moves as they are stored (hidden
    stakes and choices included): anybody once it is over; while it runs, a
    moderator who does not play in it (issue 24)."""
    return game.is_over or (is_moderator(user) and not plays_in(user, game))


@admin.register(Move)
class MoveAdmin(GameRowsAdmin):
    list_display = ["game", "seq", "position", "action", "by", "user", "time_used_ms", "created_at"]
    list_filter = ["by", ("game__engine", EngineFilter)]
    search_fields = ["game__id", "user__username"]
    readonly_fields = [f.name for f in Move._meta.fields]
    ordering = ["-game_id", "seq"]  # the newest game first, its moves in order, along the (game, seq) index

    def get_queryset(self, request):
        """The moves of games in play only for a moderator who does not play in them (`reads_secret_moves`)."""
        queryset = super().get_queryset(request)
        running = [Game.Status.OPEN, Game.Status.ACTIVE]
        if not is_moderator(request.user):
            return queryset.exclude(game__status__in=running)
        seated = Seat.objects.filter(user_id=request.user.pk).values("game_id")
        replaced = Move.objects.filter(action__type=SUBSTITUTE, user_id=request.user.pk).values("game_id")
        return queryset.exclude(Q(game__status__in=running) & (Q(game_id__in=seated) | Q(game_id__in=replaced)))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(OrganizerAccess, GameRowsAdmin):
    list_display = ["game", "user", "text", "hidden", "created_at"]
    list_filter = ["hidden"]
    search_fields = ["text", "user__username", "game__id"]
    ordering = ["-id"]  # the newest first
    readonly_fields = ["game", "user", "text", "created_at", "hidden"]
    fields = readonly_fields
    actions = ["hide", "show"]

    def game_of(self, message: ChatMessage) -> Game:
        return message.game

    def moderated_rows(self, request, queryset):
        return queryset.filter(game__in=moderated_games(request.user, Game.objects.all()))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # hidden or shown through the actions, with a reason

    def has_delete_permission(self, request, obj=None):
        return False  # nothing is deleted: a moderator hides a message

    @admin.action(description=_("Hide the selected messages…"), permissions=["moderate"])
    def hide(self, request, queryset):
        return self.set_hidden(request, queryset, True)

    @admin.action(description=_("Show the selected messages again…"), permissions=["moderate"])
    def show(self, request, queryset):
        return self.set_hidden(request, queryset, False)

    def set_hidden(self, request, queryset, hidden: bool):
        """Asks for the reason first (a page of its own), then hides or shows
        each message the user may moderate: one audit record for each."""
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            context = {**self.admin_site.each_context(request), "opts": self.model._meta, "form": form,
                       "messages_to_change": queryset.select_related("user"), "hidden": hidden,
                       "action": "hide" if hidden else "show", "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                       "title": _("Hide chat messages") if hidden else _("Show chat messages again")}
            return render(request, "admin/gameplay/chatmessage/set_hidden.html", context)
        done = 0
        for message in queryset.select_related("game"):
            if not can_moderate(request.user, message.game):
                continue
            try:
                actions.set_chat_hidden(message.pk, request.user, form.cleaned_data["reason"], hidden)
            except GameError as exc:
                messages.warning(request, exc.message)
            else:
                done += 1
        text = (ngettext("%(n)s message hidden.", "%(n)s messages hidden.", done) if hidden
                else ngettext("%(n)s message shown again.", "%(n)s messages shown again.", done))
        messages.success(request, text % {"n": done})
        return None
