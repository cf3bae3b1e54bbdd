from django.db import migrations, models


def mark_earlier_withdrawals(apps, schema_editor):
    """Entries that left before this field existed withdrew (a suspension withdrew nobody then)."""
    Entry = apps.get_model("leagues", "Entry")
    Entry.objects.filter(withdrawn_at__isnull=False).update(withdrawn_for="withdrew")


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0007_leagues_allow_bots"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="withdrawn_for",
            field=models.CharField(blank=True, choices=[("withdrew", "withdrew"), ("suspended", "suspended")],
                                   max_length=16, verbose_name="left the season because"),
        ),
        migrations.RunPython(mark_earlier_withdrawals, migrations.RunPython.noop),
    ]
