"""The preferences grid as a form: one field per (destination, kind) cell."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from notifications import preferences
from notifications.models import Mode

SEPARATOR = "|"


def field_name(destination_key: str, kind: str) -> str:
    return f"cell{SEPARATOR}{destination_key}{SEPARATOR}{kind}"


class PreferencesForm(forms.Form):
    """A select where a cell offers the digest (email's "your move"), else a check box (at once / off)."""

    def __init__(self, user, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.columns, self.kinds, values = preferences.grid(user)
        for destination in self.columns:
            for kind, label in self.kinds:
                name = field_name(destination.key, kind)
                modes = preferences.allowed_modes(destination.key, kind)
                current = values[(destination.key, kind)]
                if Mode.DIGEST in modes:  # email's "your move": at once only as the fallback
                    choices = [(Mode.NOW, _("at once, when nothing else tells me")),
                               (Mode.DIGEST, Mode.DIGEST.label), (Mode.OFF, Mode.OFF.label)]
                    self.fields[name] = forms.ChoiceField(label=label, choices=choices, initial=current)
                else:
                    self.fields[name] = forms.BooleanField(label=label, required=False,
                                                           initial=current == Mode.NOW)

    def rows(self) -> list[tuple[str, list[tuple[object, forms.BoundField]]]]:
        """Per kind: its label and, per column, (destination, the cell's field)."""
        return [(label, [(d, self[field_name(d.key, kind)]) for d in self.columns]) for kind, label in self.kinds]

    def cells(self) -> preferences.Cells:
        chosen: preferences.Cells = {}
        for name, value in self.cleaned_data.items():
            _, destination, kind = name.split(SEPARATOR)
            chosen[(destination, kind)] = value if isinstance(value, str) else (Mode.NOW if value else Mode.OFF)
        return chosen
