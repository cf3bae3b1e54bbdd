from django.contrib import admin
from django.utils.translation import gettext_lazy, ngettext

from api import tokens
from api.models import ApiToken, TokenEvent
from gameplay.services import GameError
from moderation.permissions import is_moderator


class ReadOnly(admin.ModelAdmin):
    """Tokens change through their owners' page (api.tokens): the admin only reads them and their audit."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnly):
    list_display = ("user", "name", "prefix", "scopes", "created_at", "expires_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("user__username", "name", "prefix")
    exclude = ("key_hash",)
    actions = ["revoke"]

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not is_moderator(request.user):  # staff who are not moderators only read
            actions.pop("revoke", None)
        return actions

    @admin.action(description=gettext_lazy("Revoke the selected tokens"))
    def revoke(self, request, queryset):
        revoked = 0
        for token in queryset.filter(revoked_at__isnull=True):
            try:
                tokens.revoke_token(token.pk, request.user, address=request.META.get("REMOTE_ADDR") or None)
                revoked += 1
            except GameError:
                pass
        self.message_user(request, ngettext("%(n)s token revoked.", "%(n)s tokens revoked.", revoked) % {"n": revoked})


@admin.register(TokenEvent)
class TokenEventAdmin(ReadOnly):
    list_display = ("at", "token", "action", "by", "address")
    list_filter = ("action",)
    search_fields = ("token__user__username", "token__name")
