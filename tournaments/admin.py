from django import forms
from django.contrib import admin
from django.contrib.admin import helpers
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from gameplay.competition_actions import run_on_each
from gameplay.engine import ENGINES
from gameplay.forms import TimeControlFields
from gameplay.i18n import engine_name
from moderation.admin.games import EngineFilter
from tournaments import actions, services
from tournaments.models import Bye, Entry, Round, Table, Tournament


class TournamentAdminForm(TimeControlFields, forms.ModelForm):
    """A tournament's tables' time in days, hours and minutes (the rows keep seconds)."""

    class Meta:
        model = Tournament
        fields = "__all__"


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=1000, widget=forms.Textarea(attrs={"rows": 3}))


def _with_reason(modeladmin, request, queryset, action, done, title):
    """An action that needs a reason (it is written to the moderation audit): a page asks for it first."""
    form = ReasonForm(request.POST if "apply" in request.POST else None)
    if form.is_valid():
        reason = form.cleaned_data["reason"]
        run_on_each(modeladmin, request, queryset, lambda pk, user: action(pk, user, reason), done)
        return None
    return render(request, "admin/tournaments/reason.html", {
        **modeladmin.admin_site.each_context(request), "title": title, "form": form, "queryset": queryset,
        "action": request.POST.get("action"), "selected": helpers.ACTION_CHECKBOX_NAME,
        "opts": modeladmin.model._meta})


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentAdminForm
    list_display = ["name", "game_kind", "players", "rounds", "status", "organizer", "created_at"]
    list_filter = ["status", ("engine", EngineFilter)]
    list_select_related = ["organizer"]
    search_fields = ["name", "slug"]
    raw_id_fields = ["organizer"]
    exclude = ["engine"]  # shown by its name (game_kind), never changed here
    readonly_fields = ["slug", "game_kind", "options", "players", "organizer", "status", "started_at", "finished_at",
                       "seed"]
    actions = ["start"]

    @admin.display(description=_("game kind"), ordering="engine")
    def game_kind(self, tournament) -> str:
        """The game's name in the reader's language ("Дурак"), not its slug."""
        return engine_name(ENGINES[tournament.engine]) if tournament.engine in ENGINES else tournament.engine

    def has_add_permission(self, request):
        return False  # a tournament is created on the site, through its service (tournaments/new/)

    @admin.action(description=_("Start the tournament"))
    def start(self, request, queryset):
        run_on_each(self, request, queryset, services.start, _("started"))


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "number", "rating", "forfeits", "final_rank", "withdrawn_at"]
    list_filter = ["tournament"]
    list_select_related = ["user", "partner", "tournament"]
    search_fields = ["user__username"]
    readonly_fields = ["tournament", "user", "partner", "number", "rating", "forfeits", "final_rank", "withdrawn_at"]
    actions = ["withdraw"]

    @admin.action(description=_("Withdraw from the tournament (the game in play is forfeited)"))
    def withdraw(self, request, queryset):
        return _with_reason(self, request, queryset, services.withdraw, _("withdrawn"),
                            _("Withdraw from the tournament (the game in play is forfeited)"))

    def has_add_permission(self, request):
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "started_at", "deadline", "finished_at", "restarted_at"]
    list_select_related = ["tournament"]
    readonly_fields = ["tournament", "number", "started_at", "deadline", "finished_at", "warned_at", "restarted_at"]
    actions = ["restart"]

    @admin.action(description=_("Restart the round (its games in play are aborted and it is paired again)"))
    def restart(self, request, queryset):
        def restart_one(round_id, user, reason):
            round_ = Round.objects.get(pk=round_id)
            actions.restart_round(round_.tournament_id, user, round_.number, reason)
        return _with_reason(self, request, queryset, restart_one, _("paired again"),
                            _("Restart the round (its games in play are aborted and it is paired again)"))

    def has_add_permission(self, request):
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "board", "seats", "game", "forfeits"]
    list_select_related = ["round__tournament", "game"]
    readonly_fields = ["round", "board", "seats", "game", "forfeits"]

    def has_add_permission(self, request):
        return False


@admin.register(Bye)
class ByeAdmin(admin.ModelAdmin):
    list_display = ["round", "entry", "kind", "points"]
    list_select_related = ["round__tournament", "entry__user"]
    readonly_fields = ["round", "entry", "kind", "points"]

    def has_add_permission(self, request):
        return False
