"""The "moderators" group with exactly the permissions moderation needs:
take the moderator actions (`moderate_games`), read the audit, read games,
seats, moves and chat messages (hiding one is a moderator action). Other moderation models add
their own permissions to this group in their own migrations."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "moderators"
PERMISSIONS = [
    ("moderation", "moderate_games"),
    ("moderation", "view_auditentry"),
    ("gameplay", "view_game"),
    ("gameplay", "view_seat"),
    ("gameplay", "view_move"),
    ("gameplay", "view_chatmessage"),
]


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations (post_migrate): create them now.
    for label in {app for app, _codename in PERMISSIONS}:
        app_config = apps.get_app_config(label)
        app_config.models_module = True  # a migration's app stub has none, and create_permissions skips it then
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    for app, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label=app, codename=codename))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("moderation", "0001_audit_entry"),
        ("gameplay", "0005_game_rated"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
