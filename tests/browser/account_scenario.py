"""Set-ups for the browser tests of accounts (issue 40), run against the
live server's database like tests/browser/scenario.py:

    python -m tests.browser.account_scenario NAME [ARGS...]

- ``player USERNAME PASSWORD [staff]``: an English-speaking account with a
  verified address (staff: a superuser, without a second factor).
- ``confirmation_link USERNAME``: the path of the link that confirms the
  account's address, as the sign-up email gives it.
- ``public_table FIRST SECOND``: a Durak game in play of the two, at a public table.
"""

import json
import os
import sys


def player(username: str, password: str, staff: str = "") -> dict:
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en", time_zone="UTC",
        is_staff=bool(staff), is_superuser=bool(staff))
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    return {"id": user.pk}


def confirmation_link(username: str) -> dict:
    from allauth.account.models import EmailAddress, EmailConfirmationHMAC
    from django.urls import reverse

    address = EmailAddress.objects.get(user__username=username)
    return {"path": reverse("account_confirm_email", args=[EmailConfirmationHMAC(address).key])}


def public_table(first: str, second: str) -> dict:
    from django.contrib.auth import get_user_model

    from gameplay import services

    users = get_user_model().objects
    game = services.create_seated_game([users.get(username=first), users.get(username=second)], "durak")
    return {"game": game.pk, "url": game.get_absolute_url()}


SCENARIOS = {"player": player, "confirmation_link": confirmation_link, "public_table": public_table}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    name, *args = argv
    print(json.dumps(SCENARIOS[name](*args)))


if __name__ == "__main__":
    main(sys.argv[1:])
