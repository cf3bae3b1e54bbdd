"""The reports' table takes the moderation app's name before the model moves
there (moderation/migrations/0003_reports_from_conduct.py): the rows stay."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("conduct", "0002_moderators_permissions"),
    ]

    operations = [
        migrations.AlterModelTable(name="report", table="moderation_report"),
    ]
