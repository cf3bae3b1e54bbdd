from django import forms
from django.utils.translation import gettext_lazy as _

from gameplay import clocks
from gameplay.engine import ENGINES
from gameplay.models import Game


class NewGameForm(forms.Form):
    engine = forms.ChoiceField(label=_("Game"))
    players = forms.IntegerField(label=_("Players"), min_value=2, max_value=6, required=False)
    time_preset = forms.ChoiceField(
        label=_("Time control"),
        choices=[(p.slug, p.label) for p in clocks.PRESETS.values()],
        initial=clocks.DEFAULT_PRESET,
    )
    move_seconds = forms.IntegerField(
        label=_("Time per move, seconds"), min_value=5, max_value=30 * clocks.DAY, required=False,
        help_text=_("Leave empty to use the preset."),
    )
    reserve_seconds = forms.IntegerField(
        label=_("Reserve time, seconds"), min_value=0, max_value=60 * clocks.DAY, required=False,
        help_text=_("Leave empty to use the preset."),
    )
    on_timeout = forms.ChoiceField(label=_("When time runs out"), choices=Game.OnTimeout.choices,
                                   initial=Game.OnTimeout.AUTOPLAY)
    night_pause = forms.BooleanField(
        label=_("Players' night pauses apply"), required=False, initial=True,
        help_text=_("Each player's clock stops during the night window set in his profile (not on Live tables)."),
    )
    is_private = forms.BooleanField(label=_("Private table (invite link only)"), required=False)
    fill_with_bots = forms.BooleanField(label=_("Fill the empty seats with computer players"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["engine"].choices = [(slug, engine.name) for slug, engine in ENGINES.items()]


class AbortForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=1000)
