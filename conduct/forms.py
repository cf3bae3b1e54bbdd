from django import forms
from django.utils.translation import gettext_lazy as _

from conduct.models import Report
from gameplay.services.moderation import MAX_REASON


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=_("Reason"), choices=Report.Reason.choices, widget=forms.RadioSelect)
    text = forms.CharField(label=_("What happened (optional)"), required=False, max_length=Report.TEXT_MAX_LENGTH,
                           widget=forms.Textarea(attrs={"rows": 4}),
                           help_text=_("Only moderators read it."))


class ReasonForm(forms.Form):
    """A moderator's reason, required for every action (it goes to the audit)."""

    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=MAX_REASON)


class SuspendForm(ReasonForm):
    until = forms.DateTimeField(label=_("Until"), required=False,
                                widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
                                help_text=_("In your time zone. Leave empty to suspend for good."))


class MuteForm(ReasonForm):
    until = forms.DateTimeField(label=_("Until"),
                                widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
                                help_text=_("In your time zone."))
