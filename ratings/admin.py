from django.contrib import admin

from ratings.models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["user", "engine", "value", "games", "updated_at"]
    list_filter = ["engine"]
    list_select_related = ["user"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
    readonly_fields = ["mu", "sigma", "games", "updated_at"]

    def has_add_permission(self, request):
        return False  # ratings come from games (and `manage.py recompute_ratings`)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["game", "user", "engine", "value_before", "value", "at"]
    list_filter = ["engine"]
    list_select_related = ["user", "game"]
    search_fields = ["user__username"]
    raw_id_fields = ["user", "game"]
    readonly_fields = ["mu_before", "sigma_before", "mu", "sigma", "games", "at"]

    def has_add_permission(self, request):
        return False
