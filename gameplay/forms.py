from django import forms
from django.utils.translation import gettext_lazy as _

from gameplay import clocks
from gameplay.engine import ENGINES
from gameplay.i18n import engine_name
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
    series_length = forms.IntegerField(label=_("Games in the series"), min_value=1, max_value=20, initial=1, required=False,
                                       help_text=_("The next game starts by itself when one ends."))
    # Durak
    durak_mode = forms.ChoiceField(label=_("Durak variant"), required=False, initial="podkidnoy",
                                   choices=[("podkidnoy", _("podkidnoy (throw-in)")), ("perevodnoy", _("perevodnoy (transfer)"))])
    durak_teams = forms.BooleanField(label=_("Two pairs (2×2), partners opposite"), required=False)
    attacker_seconds = forms.IntegerField(label=_("Attacker's time, seconds"), min_value=5, required=False)
    defender_seconds = forms.IntegerField(label=_("Defender's time, seconds"), min_value=5, required=False)
    throwers_seconds = forms.IntegerField(label=_("Throwers' time, seconds"), min_value=5, required=False)
    # Ipuker
    ipuker_leader_order = forms.ChoiceField(label=_("Order of leaders"), required=False, initial="clockwise",
                                            choices=[("clockwise", _("clockwise")), ("random", _("random"))])
    ipuker_min_stake = forms.TypedChoiceField(label=_("Smallest stake"), required=False, coerce=int, initial=9,
                                              choices=[(9, _("9 (basic)")), (1, _("1 (advanced)"))])
    ipuker_max_stake = forms.IntegerField(label=_("Largest stake"), required=False, min_value=9, max_value=100, initial=30)
    ipuker_overflow = forms.ChoiceField(label=_("When the cards overflow the fields"), required=False, initial="basic",
                                        choices=[("basic", _("basic: players pay")), ("kids", _("kids: nobody wins")),
                                                 ("cards", _("cards: random layout"))])
    is_private = forms.BooleanField(label=_("Private table (invite link only)"), required=False)
    fill_with_bots = forms.BooleanField(label=_("Fill the empty seats with computer players"), required=False)

    COMMON = ["engine", "players", "time_preset", "move_seconds", "reserve_seconds", "on_timeout", "night_pause",
              "series_length", "is_private", "fill_with_bots"]
    PER_GAME = {
        "durak": ["durak_mode", "durak_teams", "attacker_seconds", "defender_seconds", "throwers_seconds"],
        "ipuker": ["ipuker_leader_order", "ipuker_min_stake", "ipuker_max_stake", "ipuker_overflow"],
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["engine"].choices = [(slug, engine_name(engine)) for slug, engine in ENGINES.items()]

    def common_fields(self):
        return [self[name] for name in self.COMMON]

    def game_fieldsets(self):
        """(engine slug, its fields) for the games that have options."""
        return [(slug, [self[name] for name in names]) for slug, names in self.PER_GAME.items() if slug in ENGINES]

    def engine_options(self) -> dict:
        data, engine = self.cleaned_data, self.cleaned_data["engine"]
        if engine == "durak":
            return {"mode": data["durak_mode"] or "podkidnoy", "teams": bool(data["durak_teams"])}
        if engine == "ipuker":
            return {"leader_order": data["ipuker_leader_order"] or "clockwise",
                    "min_stake": data["ipuker_min_stake"] or 9,
                    "max_stake": data["ipuker_max_stake"] or 30,
                    "overflow": data["ipuker_overflow"] or "basic"}
        return {}

    def timer_seconds(self) -> dict:
        if self.cleaned_data["engine"] != "durak":
            return {}
        return {clock: self.cleaned_data[f"{clock}_seconds"] for clock in ("attacker", "defender", "throwers")
                if self.cleaned_data.get(f"{clock}_seconds")}


class AbortForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=1000)
