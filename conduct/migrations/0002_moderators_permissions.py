"""The "moderators" group (moderation/migrations/0002) gets this app's
permissions: read and handle reports, read the players' list, suspend and
mute accounts."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "moderators"
CODENAMES = ["view_report", "change_report", "view_player", "suspend_player", "mute_player"]


def grant(apps, schema_editor):
    # Permissions are normally created after all migrations (post_migrate): create them now.
    app_config = apps.get_app_config("conduct")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(*Permission.objects.filter(content_type__app_label="conduct", codename__in=CODENAMES))


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for group in Group.objects.filter(name=GROUP):
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="conduct", codename__in=CODENAMES))


class Migration(migrations.Migration):

    dependencies = [
        ("conduct", "0001_reports_and_players"),
        ("moderation", "0002_moderators_group"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
