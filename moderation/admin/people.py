"""Moderators' pages: the queue of reports (each with its game, the chat
around a reported message and the players' history), resolved or dismissed
with a reason; the players' list, where an account is suspended or muted in
chat and its restriction lifted, each with a reason. Every action goes
through moderation.services.people, which records it in the audit.

Only moderators reach any of it: the "moderators" group holds this app's
permissions, and every page also asks `is_moderator` (staff alone is not)."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from accounts.standing import is_muted, is_suspended
from gameplay.services.base import GameError
from moderation import history
from moderation.admin.games import ModeratorAdmin
from moderation.forms import MuteForm, SuspendForm, WarnForm
from moderation.forms import PlayerReasonForm as ReasonForm
from moderation.models import Player, Report
from moderation.permissions import is_moderator
from moderation.services import people as services


class ModeratorsOnly:
    """Every page for moderators only, whatever else a staff member may do."""

    def has_module_permission(self, request):
        return is_moderator(request.user) and super().has_module_permission(request)

    def has_view_permission(self, request, obj=None):
        return is_moderator(request.user) and super().has_view_permission(request, obj)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # read-only pages: every change is an action with its reason

    def has_delete_permission(self, request, obj=None):
        return False

    def action_view(self, request, object_id: int, form_class, run, *, done: str, title: str, intro: str,
                    button: str, permission: str, back: str):
        """A moderator action's page: its form (a reason, maybe a date), then
        `run(obj, cleaned_data)`, the service call; its success is said with
        `done`, or with the text `run` returns."""
        if not (is_moderator(request.user) and request.user.has_perm(permission)):
            raise PermissionDenied
        obj = get_object_or_404(self.model, pk=object_id)
        form = form_class(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                said = run(obj, form.cleaned_data)
            except GameError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, said or done)
                return redirect(back, obj.pk)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "original": obj,
                   "form": form, "title": title, "intro": intro, "button": button,
                   "back_url": reverse(back, args=[obj.pk])}
        return render(request, "admin/moderation/action_form.html", context)


class QueueFilter(admin.SimpleListFilter):
    """The open reports unless another status is asked for."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [(Report.Status.RESOLVED, _("resolved")), (Report.Status.DISMISSED, _("dismissed")), ("all", _("all"))]

    def choices(self, changelist):
        yield {"selected": self.value() is None, "query_string": changelist.get_query_string(remove=[self.parameter_name]),
               "display": _("open")}
        for lookup, title in self.lookup_choices:
            yield {"selected": self.value() == str(lookup),
                   "query_string": changelist.get_query_string({self.parameter_name: lookup}), "display": title}

    def queryset(self, request, queryset):
        value = self.value()
        if value == "all":
            return queryset
        if value in (Report.Status.RESOLVED, Report.Status.DISMISSED):
            return queryset.filter(status=value)
        return queryset.filter(status=Report.Status.OPEN)


@admin.register(Report)
class ReportAdmin(ModeratorsOnly, ModeratorAdmin):
    list_display = ["id", "created_at", "subject", "reason", "reporter", "target_user", "game_link", "status"]
    list_filter = [QueueFilter, "subject", "reason"]
    search_fields = ["reporter__username", "target_user__username", "text", "game__id"]
    list_select_related = ["reporter", "target_user", "game"]
    ordering = ["created_at", "pk"]  # the queue: the oldest first
    fields = ["status", "created_at", "reporter", "subject", "reason", "text", "game_link", "target_user",
              "reported_message", "handled_by", "handled_at", "resolution", "actions_box", "chat_context",
              "players_history"]
    readonly_fields = fields

    def get_queryset(self, request):
        return (super().get_queryset(request).select_related("reporter", "target_user", "game", "chat_message__user",
                                                             "handled_by").defer("game__state", "game__history"))

    @admin.display(description=_("game"))
    def game_link(self, report: Report) -> str:
        if report.game is None:
            return "—"
        return format_html('<a href="{}">#{}</a> (<a href="{}">{}</a>)', report.game.get_absolute_url(), report.game.pk,
                           reverse("admin:gameplay_game_change", args=[report.game.pk]), _("in the admin"))

    @admin.display(description=_("chat message"))
    def reported_message(self, report: Report) -> str:
        message = report.chat_message
        if message is None:
            return "—"
        return format_html("<b>{}</b>: {}", message.user.name, message.text)

    @admin.display(description=_("decision"))
    def actions_box(self, report: Report) -> str:
        if not report.is_open:
            return report.get_status_display()
        return format_html('<a class="button" href="{}">{}</a> <a class="button" href="{}">{}</a>',
                           reverse("admin:moderation_report_resolve", args=[report.pk]), _("Resolve…"),
                           reverse("admin:moderation_report_dismiss", args=[report.pk]), _("Dismiss…"))

    @admin.display(description=_("chat around the message"))
    def chat_context(self, report: Report) -> str:
        if report.chat_message is None:
            return "—"
        return render_to_string("admin/moderation/_chat_around.html", {
            "messages": history.chat_around(report.chat_message), "reported": report.chat_message_id})

    @admin.display(description=_("players' history"))
    def players_history(self, report: Report) -> str:
        people = [report.target_user, report.reporter]
        if report.game is not None:
            seated = [s.user for s in report.game.seats.select_related("user") if s.user_id]
            people += [u for u in seated if u.pk not in {p.pk for p in people if p}]
        return render_to_string("admin/moderation/_players_history.html",
                                {"histories": history.player_histories(people)})

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<int:object_id>/resolve/", view(self.resolve_view), name="moderation_report_resolve"),
            path("<int:object_id>/dismiss/", view(self.dismiss_view), name="moderation_report_dismiss"),
        ] + super().get_urls()

    def resolve_view(self, request, object_id: int):
        def run(report, data):
            services.resolve_report(report.pk, request.user, data["reason"])

        return self.action_view(
            request, object_id, ReasonForm, run, done=_("The report is resolved."),
            title=_("Resolve report #%(id)s") % {"id": object_id}, button=_("Resolve"),
            intro=_("The report was right and something has been done about it. The reporter sees it resolved."),
            permission="moderation.change_report", back="admin:moderation_report_change")

    def dismiss_view(self, request, object_id: int):
        def run(report, data):
            services.dismiss_report(report.pk, request.user, data["reason"])

        return self.action_view(
            request, object_id, ReasonForm, run, done=_("The report is dismissed."),
            title=_("Dismiss report #%(id)s") % {"id": object_id}, button=_("Dismiss"),
            intro=_("Nothing needed doing. The reporter sees it dismissed."),
            permission="moderation.change_report", back="admin:moderation_report_change")


class RestrictionFilter(admin.SimpleListFilter):
    title = _("restriction")
    parameter_name = "restricted"

    def lookups(self, request, model_admin):
        return [("suspended", _("suspended now")), ("muted", _("muted in chat now"))]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "suspended":
            return queryset.filter(Q(suspended_until__isnull=True) | Q(suspended_until__gt=now),
                                   suspended_at__isnull=False)
        if self.value() == "muted":
            return queryset.filter(chat_muted_until__gt=now)
        return queryset


@admin.register(Player)
class PlayerAdmin(ModeratorsOnly, ModeratorAdmin):
    list_display = ["username", "display_name", "suspension", "chat_mute", "open_reports", "date_joined"]
    list_filter = [RestrictionFilter]
    search_fields = ["username", "display_name", "email"]
    ordering = ["username"]
    fields = ["username", "display_name", "date_joined", "last_login", "suspension", "chat_mute", "actions_box",
              "history_box"]
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            open_reports_count=Count("reports_against", filter=Q(reports_against__status=Report.Status.OPEN)))

    @admin.display(description=_("suspended"))
    def suspension(self, user) -> str:
        if not is_suspended(user):
            return "—"
        if user.suspended_until is None:
            return _("for good")
        return _("until %(until)s") % {"until": _local(user.suspended_until)}

    @admin.display(description=_("muted in chat"))
    def chat_mute(self, user) -> str:
        if not is_muted(user):
            return "—"
        return _("until %(until)s") % {"until": _local(user.chat_muted_until)}

    @admin.display(description=_("open reports about the player"), ordering="open_reports_count")
    def open_reports(self, user) -> int:
        return user.open_reports_count

    @admin.display(description=_("actions"))
    def actions_box(self, user) -> str:
        links = [("admin:moderation_player_suspend", _("Suspend…") if not is_suspended(user) else _("Change the suspension…"))]
        if is_suspended(user):
            links.append(("admin:moderation_player_unsuspend", _("Lift the suspension…")))
        links.append(("admin:moderation_player_mute", _("Mute in chat…") if not is_muted(user) else _("Change the mute…")))
        if is_muted(user):
            links.append(("admin:moderation_player_unmute", _("Lift the chat mute…")))
        links.append(("admin:moderation_player_warn", _("Warn…")))
        return format_html_join(" ", '<a class="button" href="{}">{}</a>',
                                ((reverse(name, args=[user.pk]), label) for name, label in links))

    @admin.display(description=_("history"))
    def history_box(self, user) -> str:
        return render_to_string("admin/moderation/_players_history.html",
                                {"histories": history.player_histories([user])})

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<int:object_id>/suspend/", view(self.suspend_view), name="moderation_player_suspend"),
            path("<int:object_id>/unsuspend/", view(self.unsuspend_view), name="moderation_player_unsuspend"),
            path("<int:object_id>/mute/", view(self.mute_view), name="moderation_player_mute"),
            path("<int:object_id>/unmute/", view(self.unmute_view), name="moderation_player_unmute"),
            path("<int:object_id>/warn/", view(self.warn_view), name="moderation_player_warn"),
        ] + super().get_urls()

    def suspend_view(self, request, object_id: int):
        def run(user, data):
            games = services.suspend(user.pk, request.user, data["reason"], data["until"])
            return _("The account is suspended. Games continued by a computer player: %(computer)s; forfeited: "
                     "%(forfeited)s; open tables left: %(left)s.") % {k: len(v) for k, v in games.items()}

        return self.action_view(
            request, object_id, SuspendForm, run, done="", title=_("Suspend an account"), button=_("Suspend"),
            intro=_("The account cannot log in, join a table, move or chat. Its games in play are continued by a "
                    "computer player or forfeited, as each table (or its league) says; it leaves its open tables."),
            permission="moderation.suspend_player", back="admin:moderation_player_change")

    def unsuspend_view(self, request, object_id: int):
        def run(user, data):
            services.unsuspend(user.pk, request.user, data["reason"])

        return self.action_view(
            request, object_id, ReasonForm, run, done=_("The suspension is lifted."),
            title=_("Lift the suspension"), button=_("Lift the suspension"),
            intro=_("The account can log in and play again. Its seats taken over by a computer player stay so."),
            permission="moderation.suspend_player", back="admin:moderation_player_change")

    def mute_view(self, request, object_id: int):
        def run(user, data):
            services.mute(user.pk, request.user, data["reason"], data["until"])

        return self.action_view(
            request, object_id, MuteForm, run, done=_("The account is muted in chat."),
            title=_("Mute in chat"), button=_("Mute"),
            intro=_("The account cannot write in any chat until then; it can still play."),
            permission="moderation.mute_player", back="admin:moderation_player_change")

    def unmute_view(self, request, object_id: int):
        def run(user, data):
            services.unmute(user.pk, request.user, data["reason"])

        return self.action_view(
            request, object_id, ReasonForm, run, done=_("The chat mute is lifted."),
            title=_("Lift the chat mute"), button=_("Lift the chat mute"), intro=_("The account can chat again."),
            permission="moderation.mute_player", back="admin:moderation_player_change")

    def warn_view(self, request, object_id: int):
        def run(user, data):
            services.warn(user.pk, request.user, data["reason"], data["text"])

        return self.action_view(
            request, object_id, WarnForm, run, done=_("The warning is sent."),
            title=_("Warn a player"), button=_("Send the warning"),
            intro=_("The player reads the warning at the top of every page until acknowledging it, and by email "
                    "(or another channel the player chose for a moderator's decisions). Nothing else changes."),
            permission="moderation.warn_player", back="admin:moderation_player_change")


def _local(moment) -> str:
    from django.utils.formats import date_format

    return date_format(timezone.localtime(moment), "DATETIME_FORMAT")
