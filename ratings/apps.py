from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from gameplay import events, lookups
        from ratings import services

        # In the transaction that records the result: the ratings commit with it or not at all.
        events.subscribe(events.GAME_FINISHED, services.rate_finished_game, after_commit=False)
        lookups.answer_player_ratings(services.ratings_in_games)
