from django.contrib import admin

from api.models import ApiToken, TokenEvent


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


@admin.register(TokenEvent)
class TokenEventAdmin(ReadOnly):
    list_display = ("at", "token", "action", "by", "address")
    list_filter = ("action",)
    search_fields = ("token__user__username", "token__name")
