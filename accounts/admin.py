from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User

PREFERENCES = ("display_name", "language", "time_zone", "email_notifications")


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = BaseUserAdmin.fieldsets + ((_("Player preferences"), {"fields": PREFERENCES}),)
    add_fieldsets = BaseUserAdmin.add_fieldsets + ((_("Player"), {"fields": ("display_name", "email")}),)
    list_display = ("username", "display_name", "email", "language", "is_staff", "is_active", "last_login")
    list_filter = ("is_staff", "is_superuser", "is_active", "language", "email_notifications")
    search_fields = ("username", "email", "display_name")
