"""Set-ups for the installable app's browser tests (test_pwa.py), run against
the live server's database like tests/browser/scenario.py:

    python -m tests.browser.pwa_scenario NAME [ARGS...]

- ``push_devices USERNAME LABEL...``: push devices of the player with those
  names (their subscriptions point at a push service that is never asked).
Prints one JSON line.
"""

import json
import os
import sys


def push_devices(username: str, *labels: str) -> dict:
    import secrets

    from django.contrib.auth import get_user_model

    from notifications.push.models import PushSubscription

    user = get_user_model().objects.get(username=username)
    rows = [PushSubscription.objects.create(user=user, endpoint=f"https://push.example.net/{secrets.token_hex(8)}",
                                            p256dh="B" + "A" * 86, auth="A" * 22, label=label) for label in labels]
    return {"devices": [row.pk for row in rows]}


SCENARIOS = {"push_devices": push_devices}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    name, *args = argv
    print(json.dumps(SCENARIOS[name](*args)))


if __name__ == "__main__":
    main(sys.argv[1:])
