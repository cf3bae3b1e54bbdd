from allauth.mfa.models import Authenticator
from allauth.usersessions.models import UserSession
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from axes.admin import AccessAttemptAdmin
from axes.conf import settings as axes_settings
from axes.models import AccessAttempt
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.bots import BotRefused, make_bot
from accounts.models import User, Vacation

PREFERENCES = ("display_name", "language", "time_zone", "email_notifications", "turn_emails",
               "night_pause_start", "night_pause_end")


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = BaseUserAdmin.fieldsets + ((_("Player preferences"), {"fields": PREFERENCES}),)
    add_fieldsets = BaseUserAdmin.add_fieldsets + ((_("Player"), {"fields": ("display_name", "email")}),)
    list_display = ("username", "display_name", "email", "language", "is_bot", "is_staff", "is_active", "last_login")
    list_filter = ("is_staff", "is_superuser", "is_active", "is_bot", "language", "email_notifications", "turn_emails")
    search_fields = ("username", "email", "display_name")
    readonly_fields = ("is_bot", "bot_since")
    actions = ["mark_bot"]

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        return fieldsets if obj is None else fieldsets + ((_("Bot account"), {"fields": ("is_bot", "bot_since")}),)

    @admin.action(description=_("Mark as bot accounts (irreversible)"), permissions=["change"])
    def mark_bot(self, request, queryset):
        marked = 0
        for user in queryset:
            try:
                make_bot(user, by=request.user)
                marked += 1
            except BotRefused:
                pass
        self.message_user(request, ngettext("%(n)s account marked as a bot.", "%(n)s accounts marked as bots.",
                                            marked) % {"n": marked})

    def has_delete_permission(self, request, obj=None):
        # An account that has sat at a table is kept (its seats are part of games' records, which are
        # append-only): no "Delete" that could only end in "cannot delete"; it is deactivated instead.
        if obj is not None and obj.seats.exists():
            return False
        return super().has_delete_permission(request, obj)


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    list_display = ("user", "starts_at", "ends_at", "created_at")
    list_filter = ("starts_at",)
    search_fields = ("user__username", "user__display_name")
    raw_id_fields = ("user",)
    date_hierarchy = "starts_at"

    # Vacations move deadlines: players take and end them through the site (services).
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class TranslatedAccessAttemptAdmin(AccessAttemptAdmin):
    """Axes' list of login attempts with column titles in the reader's language
    (axes titles them after its methods' names, which gettext never sees)."""

    @admin.display(description=_("status"))
    def status(self, obj: AccessAttempt) -> str:
        left = axes_settings.AXES_FAILURE_LIMIT - obj.failures_since_start
        if left <= 0:
            return _("Locked Out")
        return ngettext("%(n)s attempt left", "%(n)s attempts left", left) % {"n": left}

    @admin.display(description=_("expires at"))
    def expiration(self, obj: AccessAttempt):
        return super().expiration(obj)


admin.site.unregister(AccessAttempt)
admin.site.register(AccessAttempt, TranslatedAccessAttemptAdmin)


# allauth's second factors and sessions are the players' own business, managed from the profile; their
# admin pages would show the secrets' data and names allauth does not translate.
admin.site.unregister(Authenticator)
admin.site.unregister(UserSession)
