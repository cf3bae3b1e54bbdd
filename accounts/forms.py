from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.contrib.auth import get_user_model
from django.utils.html import format_html, format_html_join
from django.utils.text import capfirst
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.standing import suspension_message
from accounts.timezones import canonical_zone, zone_labels

User = get_user_model()


class ZoneInput(forms.TextInput):
    """A text box searching the current time zones (<input list> and its
    <datalist>, labelled with the city and country in the page's language).
    site.js fills in the browser's zone when the box is empty, or holds the
    default zone of an account that never chose one (data-browser-zone)."""

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__({"autocomplete": "off", "spellcheck": "false", **(attrs or {})})

    # Whether the browser's zone may be put in the box: a form that knows sets it; by default only into an
    # empty box. A zone the player chose is never replaced (ProfileForm).
    fill_from_browser: bool | None = None

    def render(self, name, value, attrs=None, renderer=None) -> str:
        list_id = f"{(attrs or {}).get('id') or 'id_' + name}-zones"
        attrs = {**(attrs or {}), "list": list_id}
        if self.fill_from_browser if self.fill_from_browser is not None else not value:
            attrs["data-browser-zone"] = "fill"
        options = format_html_join("", '<option value="{}">{}</option>', zone_labels(get_language() or "en"))
        return format_html('{}<datalist id="{}">{}</datalist>', super().render(name, value, attrs, renderer),
                           list_id, options)


class ZoneField(forms.CharField):
    """A current time zone; a legacy alias, or a city or country typed in Russian or English, is
    taken as the zone it stands for (`accounts.timezones.canonical_zone`)."""

    widget = ZoneInput

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("label", _("Time zone"))
        kwargs.setdefault("help_text", _("Type your city, in Russian or English (e.g. Moscow or Tbilisi), and pick it "
                                         "from the list; a larger city nearby will do."))
        super().__init__(max_length=64, **kwargs)

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return value
        zone = canonical_zone(value)
        if zone is None:
            raise forms.ValidationError(
                _("We do not know the place “%(zone)s”: type a larger city in your time zone (such as Moscow or "
                  "Tbilisi) and pick it from the list."),
                code="unknown_zone", params={"zone": value},
            )
        return zone


DEFAULT_ZONE = User._meta.get_field("time_zone").default


class SignupForm(AllauthSignupForm):
    """allauth's sign-up (username, address, the password twice) with an
    optional display name and the time zone the browser fills in. The address
    gets a confirmation link (accounts/verification.py)."""

    display_name = forms.CharField(
        label=capfirst(User._meta.get_field("display_name").verbose_name), max_length=40, required=False,
        help_text=_("How other players see you. Leave empty to use your username."),
    )
    # Not the model's field: an empty box (no script to fill it) keeps the model's default.
    time_zone = ZoneField(required=False)

    field_order = ["username", "display_name", "email", "password1", "password2", "time_zone"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].help_text = _("We send a link to confirm it. Only used to reset a forgotten password "
                                           "and for notifications.")
        self.order_fields(self.field_order)

    def save(self, request):
        user = super().save(request)
        if user is not None:
            user.display_name = self.cleaned_data.get("display_name", "")
            user.time_zone = self.cleaned_data.get("time_zone") or DEFAULT_ZONE
            user.time_zone_chosen = bool(self.cleaned_data.get("time_zone"))
            user.save(update_fields=["display_name", "time_zone", "time_zone_chosen"])
        return user


class ProfileForm(forms.ModelForm):
    time_zone = ZoneField()

    class Meta:
        model = User
        fields = ["display_name", "language", "time_zone", "email_notifications", "turn_emails",
                  "night_pause_start", "night_pause_end", "challenges_from_friends_only", "next_game_after_move"]
        help_texts = {
            "email_notifications": _("Send me an email when a game ends or my time is running out."),
            "turn_emails": _("An email when it is my move and I am not on the game page."),
        }
        widgets = {
            "night_pause_start": forms.TimeInput(attrs={"type": "time"}),
            "night_pause_end": forms.TimeInput(attrs={"type": "time"}),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Only an account still on the site's default zone, never chosen, has the browser's zone proposed.
        self.fields["time_zone"].widget.fill_from_browser = (not self.instance.time_zone_chosen
                                                             and self.instance.time_zone == DEFAULT_ZONE)

    def save(self, commit: bool = True):
        user = super().save(commit=False)
        user.time_zone_chosen = True  # the zone was in the form the player saved: his from now on
        if commit:
            user.save()
        return user

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


class LoginForm(AllauthLoginForm):
    """allauth's login by username or address, its box named "username" as
    before; a suspended account (refused by
    accounts.standing.SuspendedAccountBackend) is told so, and until when."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields.pop("login")
        field.label = _("Username or email")
        field.widget.attrs.update({"autocomplete": "username", "autofocus": True})
        field.widget.attrs.pop("placeholder", None)
        self.fields = {"username": field, **self.fields}

    def clean_username(self) -> str:
        return self.cleaned_data["username"].strip()

    def clean(self):
        if "username" in self.cleaned_data:
            self.cleaned_data["login"] = self.cleaned_data["username"]
        try:
            return super().clean()
        except forms.ValidationError:
            suspended = getattr(self.request, "suspended_user", None)
            if suspended is not None:
                raise forms.ValidationError(suspension_message(suspended), code="suspended")
            raise
