from allauth.mfa.base.forms import BaseAuthenticateForm
from allauth.mfa.models import Authenticator
from django import forms
from django.utils.translation import gettext_lazy as _

from gameplay.engine import ENGINES
from gameplay.i18n import engine_name


class FinishedGamesFilter(forms.Form):
    """The filters of a player page's finished games (all optional; GET)."""

    RESULTS = [("", _("any result")), ("won", _("won (first place)")), ("not_won", _("not won"))]

    game = forms.ChoiceField(label=_("Game"), required=False)
    opponent = forms.CharField(label=_("Against (username)"), required=False, max_length=150)
    result = forms.ChoiceField(label=_("Result"), required=False, choices=RESULTS)
    league = forms.ChoiceField(label=_("League"), required=False)

    def __init__(self, *args, leagues=(), **kwargs) -> None:
        """`leagues`: (slug, name) of the leagues the player has played in."""
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("all games"))] + [(s, engine_name(e)) for s, e in ENGINES.items()]
        self.fields["league"].choices = [("", _("with or without a league"))] + list(leagues)


class DeleteAccountForm(forms.Form):
    """Deleting the account: its password, and its second factor's code when it has one (a TOTP app's
    code or a recovery code)."""

    password = forms.CharField(label=_("Your password"), widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))
    code = forms.CharField(label=_("Code of your second factor (authenticator app or recovery code)"), required=False,
                           widget=forms.TextInput(attrs={"autocomplete": "one-time-code"}))
    confirm = forms.BooleanField(label=_("I understand that my account is erased for good."))

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.asks_code = Authenticator.objects.filter(user=user).exclude(type=Authenticator.Type.WEBAUTHN).exists()
        if not self.asks_code:
            del self.fields["code"]

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password

    def clean_code(self) -> str:
        code = self.cleaned_data.get("code", "")
        if not code:
            raise forms.ValidationError(_("Give the code of your second factor."), code="required")
        if not BaseAuthenticateForm(user=self.user, data={"code": code}).is_valid():
            raise forms.ValidationError(_("Incorrect code."), code="incorrect_code")
        return code
