"""Accounts made before sign-up confirmed addresses (issue 40) keep playing
as before: each account's address becomes its primary, verified address in
django-allauth's table. Where several accounts share an address (letters
differing only in case count as one), only the oldest account gets it
verified; the others have it recorded unverified and confirm it (or another)
from the profile (README "Accounts")."""

from django.db import migrations


def verify_existing_addresses(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    claimed = {address.lower() for address in EmailAddress.objects.filter(verified=True).values_list("email", flat=True)}
    rows = []
    for user_id, email in User.objects.exclude(email="").order_by("pk").values_list("pk", "email").iterator():
        if EmailAddress.objects.filter(user_id=user_id).exists():
            continue
        address = email.strip().lower()
        rows.append(EmailAddress(user_id=user_id, email=address, primary=True, verified=address not in claimed))
        claimed.add(address)
    EmailAddress.objects.bulk_create(rows, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_bot_accounts"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(verify_existing_addresses, migrations.RunPython.noop)]
