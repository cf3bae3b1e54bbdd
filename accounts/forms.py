from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _, ngettext

User = get_user_model()


class SignupForm(UserCreationForm):
    """Username, an optional display name, email (for password reset) and the password twice."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ["username", "display_name", "email"]
        help_texts = {"display_name": _("How other players see you. Leave empty to use your username.")}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].help_text = _("Only used to reset a forgotten password and for notifications.")


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "language", "time_zone", "email_notifications", "turn_emails",
                  "night_pause_start", "night_pause_end"]
        help_texts = {
            "email_notifications": _("Send me an email when a game ends or my time is running out."),
            "turn_emails": _("An email when it is my move and I am not on the game page."),
        }
        widgets = {
            "night_pause_start": forms.TimeInput(attrs={"type": "time"}),
            "night_pause_end": forms.TimeInput(attrs={"type": "time"}),
        }

    def clean(self):
        data = super().clean()
        start, end = data.get("night_pause_start"), data.get("night_pause_end")
        if (start is None) != (end is None):
            raise forms.ValidationError(_("Give both ends of the night pause, or neither."))
        if start is not None and start == end:
            raise forms.ValidationError(_("The night pause must not start and end at the same time."))
        if start is not None:
            minutes = (end.hour * 60 + end.minute - start.hour * 60 - start.minute) % (24 * 60)
            if minutes > MAX_NIGHT_PAUSE_HOURS * 60:
                raise forms.ValidationError(
                    ngettext("The night pause may last at most %(hours)s hour.", "The night pause may last at most %(hours)s hours.",
                             MAX_NIGHT_PAUSE_HOURS) % {"hours": MAX_NIGHT_PAUSE_HOURS}
                )
        return data


MAX_NIGHT_PAUSE_HOURS = 12


class VacationForm(forms.Form):
    days = forms.IntegerField(label=_("Days of vacation, starting now"), min_value=1, max_value=366)


class FinishedGamesFilter(forms.Form):
    """The filters of a player page's finished games (all optional; GET)."""

    RESULTS = [("", _("any result")), ("won", _("won (first place)")), ("not_won", _("not won"))]

    game = forms.ChoiceField(label=_("Game"), required=False)
    opponent = forms.CharField(label=_("Against (username)"), required=False, max_length=150)
    result = forms.ChoiceField(label=_("Result"), required=False, choices=RESULTS)

    def __init__(self, *args, **kwargs) -> None:
        from gameplay.engine import ENGINES
        from gameplay.i18n import engine_name

        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("all games"))] + [(s, engine_name(e)) for s, e in ENGINES.items()]
