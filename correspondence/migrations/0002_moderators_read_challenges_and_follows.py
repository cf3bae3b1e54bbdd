"""The "moderators" group (moderation/migrations/0002) may read the
challenges, their invitations and who follows whom in the admin (read-only
pages: correspondence/admin.py). Private notes stay out of it: only their
writer ever reads them."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "moderators"
CODENAMES = ["view_challenge", "view_invitation", "view_follow"]


def grant(apps, schema_editor):
    # Permissions are normally created after all migrations (post_migrate): create them now.
    app_config = apps.get_app_config("correspondence")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(*Permission.objects.filter(content_type__app_label="correspondence",
                                                     codename__in=CODENAMES))


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for group in Group.objects.filter(name=GROUP):
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="correspondence",
                                                            codename__in=CODENAMES))


class Migration(migrations.Migration):

    dependencies = [
        ("correspondence", "0001_friends_challenges_notes"),
        ("moderation", "0002_moderators_group"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
