from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from gameplay.competition_actions import run_on_each
from gameplay.engine import ENGINES
from gameplay.forms import TimeControlFields
from gameplay.i18n import engine_name
from moderation.admin.games import EngineFilter
from leagues import services
from leagues.models import Division, Entry, Fixture, League, Season


class LeagueAdminForm(TimeControlFields, forms.ModelForm):
    """A league's tables' time in days, hours and minutes (the rows keep seconds)."""

    class Meta:
        model = League
        fields = "__all__"


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    form = LeagueAdminForm
    list_display = ["name", "game_kind", "players", "organizer", "is_private", "created_at"]
    list_filter = [("engine", EngineFilter), "is_private", "allow_bots"]
    list_select_related = ["organizer"]
    search_fields = ["name", "slug"]
    raw_id_fields = ["organizer"]
    exclude = ["engine"]  # shown by its name (game_kind), never changed here
    readonly_fields = ["slug", "game_kind", "options", "players", "organizer"]

    @admin.display(description=_("game kind"), ordering="engine")
    def game_kind(self, league) -> str:
        """The game's name in the reader's language ("Дурак"), not its slug."""
        return engine_name(ENGINES[league.engine]) if league.engine in ENGINES else league.engine

    def has_add_permission(self, request):
        return False  # a league is created on the site, through its service (leagues/new/)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["league", "number", "status", "registration_closes_at", "started_at", "finished_at"]
    list_filter = ["status"]
    list_select_related = ["league"]
    readonly_fields = ["league", "number", "status", "seed", "started_at", "finished_at"]
    actions = ["close_registration", "start_season", "end_season"]

    def has_add_permission(self, request):
        return False  # the first season comes with its league, the next one when a season ends

    @admin.action(description=_("Close the registration"))
    def close_registration(self, request, queryset):
        run_on_each(self, request, queryset, services.close_registration, _("registration closed"))

    @admin.action(description=_("Start the season"))
    def start_season(self, request, queryset):
        run_on_each(self, request, queryset, services.start_season, _("started"))

    @admin.action(description=_("End the season"))
    def end_season(self, request, queryset):
        run_on_each(self, request, queryset, services.end_season, _("ended"))


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ["season", "number"]
    list_select_related = ["season__league"]
    readonly_fields = ["season", "number"]

    def has_add_permission(self, request):
        return False


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["__str__", "season", "division", "rating_at_start", "final_rank", "withdrawn_at"]
    list_filter = ["season__league"]
    list_select_related = ["user", "partner", "season__league", "division__season__league"]
    search_fields = ["user__username"]
    raw_id_fields = ["user", "partner"]
    readonly_fields = ["season", "division", "rating_at_start", "final_rank", "withdrawn_at"]
    actions = ["withdraw"]

    @admin.action(description=_("Withdraw from the season (unfinished games lost or finished by a computer)"))
    def withdraw(self, request, queryset):
        run_on_each(self, request, queryset, services.withdraw, pgettext_lazy("league season", "withdrawn"))

    def has_add_permission(self, request):
        return False  # players register on the league's page


@admin.register(Fixture)
class FixtureAdmin(admin.ModelAdmin):
    list_display = ["division", "round", "seats", "game"]
    list_select_related = ["division__season__league", "game"]
    raw_id_fields = ["game"]
    readonly_fields = ["division", "round", "seats", "game"]

    def has_add_permission(self, request):
        return False
