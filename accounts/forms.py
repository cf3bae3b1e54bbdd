from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

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
        fields = ["display_name", "language", "time_zone", "email_notifications"]
        help_texts = {
            "email_notifications": _("Send me an email when it is my move or a game ends."),
        }
