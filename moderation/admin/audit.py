"""The moderation audit in the admin: read-only, filterable, never deleted."""

from django.contrib import admin

from moderation.admin.games import ModeratorAdmin
from moderation.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(ModeratorAdmin):
    list_display = ["at", "action", "moderator", "game", "target_user", "reason"]
    list_filter = ["action", "at"]
    search_fields = ["reason", "moderator__username", "target_user__username", "game__id"]
    list_select_related = ["moderator", "target_user", "game"]
    readonly_fields = ["at", "action", "moderator", "reason", "game", "target_user", "chat_message", "before", "after"]
    fields = readonly_fields
    date_hierarchy = "at"
    ordering = ["-at", "-pk"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*self.list_select_related).defer("game__state", "game__history")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
