"""The small forms of the moderator actions (each one asks for a reason) and the players' report form."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from gameplay.computer_levels import DEFAULT_LEVEL, level_choices, level_help
from gameplay.engine import get_engine
from gameplay.models import Game, Seat
from moderation.models import Report

REASON_MAX = 1000
WARNING_MAX = 2000


def reason_field() -> forms.CharField:
    return forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3, "cols": 30}), max_length=REASON_MAX,
                           help_text=_("Recorded in the moderation log; shown to the players where the action is."))


class ReasonForm(forms.Form):
    """A reason alone (hiding chat messages and showing them again, aborting a game, lifting a restriction)."""

    reason = reason_field()


class PlayerReasonForm(forms.Form):
    """A moderator's reason for an action on an account or a report (it goes to the audit)."""

    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=REASON_MAX)


class SuspendForm(PlayerReasonForm):
    until = forms.DateTimeField(label=_("Until"), required=False,
                                widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
                                help_text=_("In your time zone. Leave empty to suspend for good."))


class MuteForm(PlayerReasonForm):
    until = forms.DateTimeField(label=_("Until"),
                                widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
                                help_text=_("In your time zone."))


class WarnForm(PlayerReasonForm):
    text = forms.CharField(label=_("The warning"), widget=forms.Textarea(attrs={"rows": 5}),
                           max_length=WARNING_MAX,
                           help_text=_("The player reads exactly this, at the top of every page until it is "
                                       "acknowledged, and by email. The reason above stays in the audit."))


class ReportForm(forms.Form):
    """A player's report: a reason from the list and some words."""

    reason = forms.ChoiceField(label=_("Reason"), choices=Report.Reason.choices, widget=forms.RadioSelect)
    text = forms.CharField(label=_("What happened (optional)"), required=False, max_length=Report.TEXT_MAX_LENGTH,
                           widget=forms.Textarea(attrs={"rows": 4}),
                           help_text=_("Only moderators read it."))


class AbortForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=REASON_MAX)


class AdjudicateForm(forms.Form):
    """A place and points for every seat, filled in with the standings so far."""

    def __init__(self, game: Game, seats: list[Seat], *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        outcome = get_engine(game.engine).outcome(game.state) if game.state is not None else None
        for seat in seats:
            number, name = seat.position + 1, seat.player_name
            self.fields[f"place_{seat.position}"] = forms.IntegerField(
                label=_("Seat %(n)s (%(name)s): place") % {"n": number, "name": name},
                min_value=1, max_value=len(seats), initial=outcome["places"][seat.position] if outcome else None)
            self.fields[f"points_{seat.position}"] = forms.FloatField(
                label=_("Seat %(n)s (%(name)s): points") % {"n": number, "name": name},
                initial=outcome["scores"][seat.position] if outcome else None)
        self.fields["reason"] = reason_field()

    def result(self) -> dict:
        data = self.cleaned_data
        return {"places": [data[f"place_{s.position}"] for s in self.seats],
                "points": [data[f"points_{s.position}"] for s in self.seats]}


class SubstituteForm(forms.Form):
    position = forms.TypedChoiceField(label=_("Seat"), coerce=int)
    username = forms.CharField(label=_("Give the seat to the player (user name)"), required=False, max_length=150)
    computer = forms.BooleanField(label=_("Give the seat to a computer player"), required=False)
    computer_level = forms.TypedChoiceField(label=_("Level of the computer player"), choices=level_choices, coerce=int,
                                            initial=DEFAULT_LEVEL, required=False, help_text=level_help)
    reason = reason_field()

    def __init__(self, seats: list[Seat], *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["position"].choices = [
            (s.position, _("Seat %(n)s: %(name)s") % {"n": s.position + 1, "name": s.player_name}) for s in seats]

    def clean(self):
        data = super().clean()
        username, computer = (data.get("username") or "").strip(), data.get("computer")
        if bool(username) == bool(computer):
            raise forms.ValidationError(_("Give either a player's user name or a computer player."))
        data["user"] = None
        data["computer_level"] = data.get("computer_level") or DEFAULT_LEVEL
        if username:
            user = get_user_model().objects.filter(username=username).first()
            if user is None:
                self.add_error("username", _("There is no account with this user name."))
            data["user"] = user
        return data
