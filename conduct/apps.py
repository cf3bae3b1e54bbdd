from django.apps import AppConfig


class ConductConfig(AppConfig):
    """Kept for its migrations only: they made the reports' table, which
    moved with its rows to the moderation app (conduct/migrations/0003 and
    0004, moderation/migrations/0003). It has no models, views or code; a
    database made before the move needs these steps to reach the new one.
    Once every database has moved, they can be squashed away."""

    name = "conduct"
    label = "conduct"
    default_auto_field = "django.db.models.BigAutoField"
