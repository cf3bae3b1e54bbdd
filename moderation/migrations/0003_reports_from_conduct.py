"""Reports and the moderators' players list move here from the `conduct` app
(issue 23: moderation lives in one app). The table was renamed by
conduct/migrations/0003 and keeps its rows, indexes and constraint; here the
models enter this app's state, and their content types (with the
permissions the "moderators" group holds on them) follow them."""

import django.contrib.auth.models
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ["report", "player"]


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        old = ContentType.objects.filter(app_label="conduct", model=model).first()
        if old is None:
            continue
        if ContentType.objects.filter(app_label="moderation", model=model).exists():
            continue  # made already (by a post_migrate between the steps): the old one stays unused
        old.app_label = "moderation"
        old.save(update_fields=["app_label"])


def move_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="moderation", model__in=MOVED).update(app_label="conduct")


class Migration(migrations.Migration):

    dependencies = [
        ("moderation", "0002_moderators_group"),
        ("conduct", "0003_report_table_to_moderation"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("accounts", "0003_moderation_restrictions"),
        ("gameplay", "0005_game_rated"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Player",
                    fields=[],
                    options={
                        "verbose_name": "player (moderation)",
                        "verbose_name_plural": "players (moderation)",
                        "permissions": [("suspend_player", "Can suspend an account and lift its suspension"),
                                        ("mute_player", "Can mute an account in chat and lift its mute")],
                        "proxy": True,
                        "indexes": [],
                        "constraints": [],
                    },
                    bases=("accounts.user",),
                    managers=[("objects", django.contrib.auth.models.UserManager())],
                ),
                migrations.CreateModel(
                    name="Report",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("subject", models.CharField(choices=[("game", "a game"), ("player", "a player"), ("message", "a chat message")], max_length=16, verbose_name="about")),
                        ("subject_key", models.CharField(editable=False, max_length=40, verbose_name="subject key")),
                        ("reason", models.CharField(choices=[("cheating", "cheating or playing in collusion"), ("abuse", "insults or harassment"), ("spam", "spam or advertising"), ("stalling", "stalling or abandoning games"), ("name", "an offensive name"), ("other", "something else")], max_length=16, verbose_name="reason")),
                        ("text", models.TextField(blank=True, max_length=1000, verbose_name="what happened")),
                        ("status", models.CharField(choices=[("open", "waiting for a moderator"), ("resolved", "resolved: action taken"), ("dismissed", "dismissed: no action needed")], default="open", max_length=16, verbose_name="status")),
                        ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="sent at")),
                        ("handled_at", models.DateTimeField(blank=True, null=True, verbose_name="handled at")),
                        ("resolution", models.TextField(blank=True, verbose_name="moderator's reason")),
                        ("chat_message", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="reports", to="gameplay.chatmessage", verbose_name="chat message")),
                        ("game", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="reports", to="gameplay.game", verbose_name="game")),
                        ("handled_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="handled by")),
                        ("reporter", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="reports_made", to=settings.AUTH_USER_MODEL, verbose_name="reported by")),
                        ("target_user", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="reports_against", to=settings.AUTH_USER_MODEL, verbose_name="player reported")),
                    ],
                    options={
                        "verbose_name": "report",
                        "verbose_name_plural": "reports",
                        "ordering": ["-created_at", "-pk"],
                        "indexes": [models.Index(fields=["status", "created_at"], name="report_status_created"),
                                    models.Index(fields=["reporter", "created_at"], name="report_reporter_created")],
                        "constraints": [models.UniqueConstraint(condition=models.Q(("status", "open")), fields=("reporter", "subject_key"), name="one_open_report_per_reporter_and_subject")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
