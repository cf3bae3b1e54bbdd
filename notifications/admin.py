"""What was sent to whom, for the people who run the site: read-only."""

from django.contrib import admin

from notifications.models import Delivery, PushSubscription, TelegramLink


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "kind", "destination", "state", "attempts", "sent_at", "note")
    list_filter = ("state", "kind")
    search_fields = ("user__username", "key")
    raw_id_fields = ("user",)
    date_hierarchy = "created_at"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """The players' web push devices: seen and removable (a removed device simply gets nothing more)."""

    list_display = ("label", "user", "created", "last_success")
    search_fields = ("user__username", "label")
    raw_id_fields = ("user",)
    readonly_fields = ("user", "endpoint", "p256dh", "auth", "label", "created", "last_success")

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(TelegramLink)
class TelegramLinkAdmin(admin.ModelAdmin):
    """Who linked Telegram: read-only (a player unlinks on his profile; deleting a row here unlinks him too)."""

    list_display = ("user", "chat_id", "linked_at", "muted_until", "stopped")
    list_filter = ("stopped",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
