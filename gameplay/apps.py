from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameplayConfig(AppConfig):
    name = "gameplay"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The tasks register the work the services hand over after a commit
        # (services/after_commit.py): the services never import them.
        from accounts import bots
        from gameplay import bot_holds, tasks  # noqa: F401

        # What holds a player from turning his account into a bot mid-game (accounts.bots).
        bots.add_switch_hold(bot_holds.games_holding_the_switch)
