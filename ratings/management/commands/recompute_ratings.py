from django.core.management.base import BaseCommand

from ratings import services


class Command(BaseCommand):
    help = "Rebuild every rating and its history from the finished rated games, in the order they finished."

    def handle(self, *args, **options):
        rated = services.recompute()
        self.stdout.write(f"Ratings rebuilt from {rated} rated game(s).")
