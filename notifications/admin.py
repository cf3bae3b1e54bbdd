"""What was sent to whom, for the people who run the site: read-only."""

from django.contrib import admin

from notifications.models import Delivery


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
