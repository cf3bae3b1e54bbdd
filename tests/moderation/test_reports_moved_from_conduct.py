"""Issue 23: reports and the moderators' players list moved from the old
`conduct` app to `moderation`. A database made by the old code keeps every
row: reports, the account restrictions, the audit, the moderators' rights."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("conduct", "0002_moderators_permissions"), ("moderation", "0002_moderators_group")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_a_database_of_the_old_code_keeps_its_reports_restrictions_audit_and_rights():
    old = migrate(BEFORE)
    User = get_user_model()  # accounts stays as it is: only the two apps go back
    Report = old.get_model("conduct", "Report")
    AuditEntry = old.get_model("moderation", "AuditEntry")
    Group = old.get_model("auth", "Group")
    ContentType = old.get_model("contenttypes", "ContentType")
    Permission = old.get_model("auth", "Permission")
    moderator = User.objects.create(username="mod", is_staff=True)
    reporter = User.objects.create(username="rep")
    until = timezone.now() + timedelta(days=3)
    rude = User.objects.create(username="rude", suspended_at=timezone.now(), suspended_until=until,
                               chat_muted_until=until)
    report = Report.objects.create(reporter_id=reporter.pk, subject="player", subject_key=f"player:{rude.pk}",
                                   target_user_id=rude.pk, reason="abuse", text="rude words")
    handled = Report.objects.create(reporter_id=reporter.pk, subject="player", subject_key=f"player:{moderator.pk}",
                                    target_user_id=moderator.pk, reason="name", status="dismissed",
                                    handled_by_id=moderator.pk, handled_at=timezone.now(), resolution="a fine name")
    AuditEntry.objects.create(moderator_id=moderator.pk, action="suspend", reason="insults", target_user_id=rude.pk,
                              after={"suspended_until": until.isoformat()})
    report_type = ContentType.objects.get_or_create(app_label="conduct", model="report")[0]
    player_type = ContentType.objects.get_or_create(app_label="conduct", model="player")[0]
    suspend = Permission.objects.get_or_create(content_type=player_type, codename="suspend_player",
                                               defaults={"name": "Can suspend"})[0]
    change_report = Permission.objects.get_or_create(content_type=report_type, codename="change_report",
                                                     defaults={"name": "Can change report"})[0]
    group = Group.objects.get_or_create(name="moderators")[0]
    group.permissions.add(suspend, change_report)

    new = migrate(latest())
    Report = new.get_model("moderation", "Report")
    assert list(Report.objects.order_by("pk").values_list("pk", "reason", "text", "status", "resolution")) == [
        (report.pk, "abuse", "rude words", "open", ""), (handled.pk, "name", "", "dismissed", "a fine name")]
    assert Report.objects.get(pk=report.pk).target_user_id == rude.pk
    rude_now = User.objects.get(pk=rude.pk)
    assert (rude_now.suspended_until, rude_now.chat_muted_until) == (until, until)
    assert new.get_model("moderation", "AuditEntry").objects.get().target_user_id == rude.pk
    rights = set(new.get_model("auth", "Group").objects.get(name="moderators").permissions
                 .values_list("content_type__app_label", "codename"))
    assert {("moderation", "suspend_player"), ("moderation", "change_report")} <= rights
    # One open report per reporter and subject: the constraint came along with the table.
    with pytest.raises(Exception):
        Report.objects.create(reporter_id=reporter.pk, subject="player", subject_key=f"player:{rude.pk}",
                              target_user_id=rude.pk, reason="spam")
