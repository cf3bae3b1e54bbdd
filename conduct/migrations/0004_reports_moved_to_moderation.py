"""`Report` and `Player` now belong to the moderation app
(moderation/migrations/0003_reports_from_conduct.py took them, table and
rows): this app forgets them. Nothing changes in the database."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("conduct", "0003_report_table_to_moderation"),
        ("moderation", "0003_reports_from_conduct"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Player"), migrations.DeleteModel(name="Report")],
            database_operations=[],
        ),
    ]
