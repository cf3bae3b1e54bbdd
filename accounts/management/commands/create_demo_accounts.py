"""Create the demo admin and players for `make run`.

Idempotent: a new account's random password is printed once, when it is
created; later runs leave existing accounts (and their passwords) alone.
Their addresses (name@example.com) are recorded as verified, so the demo
players play rated games, leagues and challenges at once; the admin still
sets up a second factor before the admin site opens (README "Accounts").
"""

import secrets

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

ADMIN = "admin"
PLAYERS = {"anna": "Анна", "boris": "Борис", "vera": "Вера"}


class Command(BaseCommand):
    help = "Create a demo superuser 'admin' and demo players anna, boris and vera (random passwords)."

    def handle(self, *args, **options) -> None:
        self.ensure(ADMIN, "", superuser=True)
        for username, display_name in PLAYERS.items():
            self.ensure(username, display_name)

    def ensure(self, username: str, display_name: str, superuser: bool = False) -> None:
        users = get_user_model().objects
        if users.filter(username=username).exists():
            self.stdout.write(f"{username}: already exists, password unchanged")
            return
        password = secrets.token_urlsafe(12)
        create = users.create_superuser if superuser else users.create_user
        user = create(username, f"{username}@example.com", password, display_name=display_name)
        EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
        self.stdout.write(self.style.SUCCESS(f"{username}: created, password: {password}"))
