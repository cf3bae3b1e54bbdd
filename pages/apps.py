from django.apps import AppConfig


class PagesConfig(AppConfig):
    """The pages that gather many apps (the profile, the player page): the
    top layer, above every app whose lists they show."""

    name = "pages"
