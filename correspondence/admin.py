"""Moderators read the challenges (each challenged player's answer and
reason with it) and who follows whom, in the moderators' admin
(moderation/admin/): the same lists as the games', for moderators only.

Read-only: a challenge is sent, answered, withdrawn and expired through
correspondence.services, which lock it, start its table and tell its
players; a follow is made and ended by its follower. Private notes have no
page here: only their writer ever reads them.

Every list runs the same few queries however many rows it shows: the
challenger and the game (without its state) in the list's query, the
challenged players in one prefetch."""

from django.contrib import admin
from django.db.models import Prefetch
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from correspondence.models import Challenge, Follow, Invitation
from gameplay.engine import ENGINES
from gameplay.i18n import engine_name
from moderation.admin.games import EngineFilter, ModeratorAdmin
from moderation.admin.people import ModeratorsOnly


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    fields = ["position", "user", "answer", "reason", "answered_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")


@admin.register(Challenge)
class ChallengeAdmin(ModeratorsOnly, ModeratorAdmin):
    list_display = ["__str__", "created_by", "game_kind", "challenged", "status", "rated", "created_at",
                    "expires_at", "game"]
    list_filter = ["status", ("engine", EngineFilter), "rated", "fill_with_bots"]
    search_fields = ["created_by__username", "created_by__display_name", "invitations__user__username"]
    ordering = ["-id"]  # the newest first, along the primary key
    raw_id_fields = ["created_by", "game"]
    fields = ["created_by", "engine", "seats_count", "options", "table", "rated", "fill_with_bots", "status",
              "created_at", "expires_at", "closed_at", "game"]
    readonly_fields = fields
    inlines = [InvitationInline]

    def get_queryset(self, request):
        invitations = Invitation.objects.select_related("user").order_by("position")
        return (super().get_queryset(request).select_related("created_by", "game").defer("game__state")
                .prefetch_related(Prefetch("invitations", queryset=invitations)))

    @admin.display(description=_("game"), ordering="engine")
    def game_kind(self, challenge: Challenge) -> str:
        engine = ENGINES.get(challenge.engine)
        return engine_name(engine) if engine else challenge.engine

    @admin.display(description=_("challenged players"))
    def challenged(self, challenge: Challenge) -> str:
        return format_html_join(", ", "{} ({})", ((i.user, i.get_answer_display())
                                                 for i in challenge.invitations.all()))


@admin.register(Follow)
class FollowAdmin(ModeratorsOnly, ModeratorAdmin):
    list_display = ["follower", "followed", "created_at"]
    search_fields = ["follower__username", "follower__display_name", "followed__username",
                     "followed__display_name"]
    list_select_related = ["follower", "followed"]
    ordering = ["-id"]
    fields = ["follower", "followed", "created_at"]
    readonly_fields = fields
