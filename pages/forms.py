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
    """Deleting the account: its password, and its second factor when it has one: an authenticator
    app's code or a recovery code (typed here), or a passkey (confirmed a moment before through allauth's
    reauthentication: `passkey_confirmed`)."""

    password = forms.CharField(label=_("Your password"), widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))
    code = forms.CharField(label=_("Code of your second factor (authenticator app or recovery code)"), required=False,
                           widget=forms.TextInput(attrs={"autocomplete": "one-time-code"}))
    confirm = forms.BooleanField(label=_("I understand that my account is erased for good."))

    def __init__(self, *args, user, passkey_confirmed: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        types = set(Authenticator.objects.filter(user=user).values_list("type", flat=True))
        self.asks_passkey = Authenticator.Type.WEBAUTHN in types
        self.asks_code = bool(types & {Authenticator.Type.TOTP, Authenticator.Type.RECOVERY_CODES})
        self.passkey_confirmed = self.asks_passkey and passkey_confirmed
        if not self.asks_code or self.passkey_confirmed:
            del self.fields["code"]

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password

    def clean_code(self) -> str:
        code = self.cleaned_data.get("code", "")
        if not code:
            if self.asks_passkey:
                raise forms.ValidationError(_("Confirm with your passkey, or give a code of your second factor."), code="required")
            raise forms.ValidationError(_("Give the code of your second factor."), code="required")
        if not BaseAuthenticateForm(user=self.user, data={"code": code}).is_valid():
            raise forms.ValidationError(_("Incorrect code."), code="incorrect_code")
        return code

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.asks_passkey and not self.asks_code and not self.passkey_confirmed:
            raise forms.ValidationError(_("Confirm with your passkey first."), code="passkey_required")
        return cleaned
