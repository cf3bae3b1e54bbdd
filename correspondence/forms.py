from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _, ngettext

from correspondence.models import Invitation
from gameplay.computer_levels import DEFAULT_LEVEL, level_choices, level_help
from gameplay.forms import NewGameForm

EXPIRY_HOURS = (1, 12, 24, 72, 168, 336)


def _expiry_label(hours: int) -> str:
    if hours < 24:
        return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
    return ngettext("%(n)s day", "%(n)s days", hours // 24) % {"n": hours // 24}


class ChallengeForm(NewGameForm):
    """The new-table form (every game's options and time control) with the
    players challenged and how long they have to answer."""

    usernames = forms.CharField(
        label=_("Players to challenge"), max_length=500,
        help_text=format_lazy("{} {}", _("Usernames, separated by commas. In pairs, the second one named is your "
                                         "partner."),
                              _("A computer level is challenged by its name: computer-level-1, computer-level-2, "
                                "computer-level-3.")),
        widget=forms.TextInput(attrs={"list": "player-names", "autocomplete": "off"}),
    )
    expires_in = forms.TypedChoiceField(label=_("They have to answer within"), coerce=int, initial=72 * 3600,
                                        choices=())

    computer_level = forms.TypedChoiceField(
        label=_("Level of the computer players"), choices=level_choices, coerce=int, initial=DEFAULT_LEVEL,
        required=False, help_text=level_help,
        error_messages={"invalid_choice": _("There is no computer level %(value)s.")})

    COMMON = ["usernames", *NewGameForm.COMMON, "computer_level", "expires_in"]
    LEVELS: list[str] = []  # one level for the computers of a challenge, not one per seat
    field_order = COMMON

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["expires_in"].choices = [(h * 3600, _expiry_label(h)) for h in EXPIRY_HOURS]
        self.fields["rated"].initial = False
        self.fields["fill_with_bots"].label = _("Fill the seats nobody is named for with computer players")

    def usernames_list(self) -> list[str]:
        return [name.strip() for name in self.cleaned_data["usernames"].split(",") if name.strip()]

    def time_control(self) -> dict:
        data = self.cleaned_data
        return {"time_preset": data["time_preset"], "move_seconds": data["move_seconds"],
                "reserve_seconds": data["reserve_seconds"], "on_timeout": data["on_timeout"],
                "night_pause": data["night_pause"], "timer_seconds": self.timer_seconds() or None,
                "is_private": data["is_private"], "series_length": data["series_length"] or 1}


class AnswerForm(forms.Form):
    accept = forms.TypedChoiceField(choices=[("1", _("Accept")), ("0", _("Decline"))], coerce=lambda v: v == "1")
    reason = forms.CharField(label=_("Reason (optional)"), required=False, max_length=Invitation.REASON_LENGTH)


class UsernameForm(forms.Form):
    username = forms.CharField(max_length=150)
