from django.db import migrations, models
from django.utils import timezone

LEVELS = (1, 2, 3)  # gameplay.bots.LEVELS when this was written


def create_level_accounts(apps, schema_editor):
    """One account per computer level (accounts/computers.py): its rating per game, its name."""
    User = apps.get_model("accounts", "User")
    for level in LEVELS:
        if User.objects.filter(computer_level=level).exists():
            continue
        username, n = f"computer-level-{level}", 1
        while User.objects.filter(username=username).exists():
            n += 1
            username = f"computer-level-{level}-{n}"
        User.objects.create(username=username, computer_level=level, is_bot=True, bot_since=timezone.now(),
                            address_confirmed=True, email="", password="!")


def remove_level_accounts(apps, schema_editor):
    apps.get_model("accounts", "User").objects.filter(computer_level__isnull=False).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0010_time_zone_chosen_by_the_player'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='computer_level',
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True, unique=True,
                                                   verbose_name='computer level'),
        ),
        migrations.RunPython(create_level_accounts, remove_level_accounts),
    ]
