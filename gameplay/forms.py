from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from gameplay import clocks
from gameplay.engine import ENGINES
from gameplay.i18n import engine_name
from gameplay.models import Game
from gameplay.services.tables import MAX_MOVE_SECONDS, MAX_RESERVE_SECONDS, MIN_MOVE_SECONDS


def _at_most(seconds: int) -> str:
    return ngettext("At most %(days)s day (%(seconds)s seconds).", "At most %(days)s days (%(seconds)s seconds).",
                    seconds // clocks.DAY) % {"days": seconds // clocks.DAY, "seconds": seconds}


def seconds_field(label, low: int, high: int, **kwargs) -> forms.IntegerField:
    """A time field in seconds, bounded both ways, whose error says the bound in days too."""
    return forms.IntegerField(label=label, min_value=low, max_value=high, required=False,
                              error_messages={"max_value": lazy(_at_most, str)(high)}, **kwargs)


def _count_error(low: int, high: int) -> str:
    return gettext("Enter a whole number of deals from %(low)s to %(high)s.") % {"low": low, "high": high}


def count_field(label, low: int, high: int, initial: int) -> forms.IntegerField:
    """A number of deals, bounded both ways; every refusal says the bounds."""
    message = lazy(_count_error, str)(low, high)
    return forms.IntegerField(label=label, min_value=low, max_value=high, initial=initial, required=False,
                              error_messages={"invalid": message, "min_value": message, "max_value": message})


DOMINO_FIELDS = {"sevens": "domino_sevens", "blind_deals": "domino_blind_deals", "grab_deals": "domino_grab_deals",
                 "misere_deals": "domino_misere_deals", "final_stage": "domino_final_stage"}


def domino_options(data: dict) -> dict:
    """Domino Poker's engine options from the form's cleaned data (an empty count: the field's default)."""
    options = {}
    for option, name in DOMINO_FIELDS.items():
        value = data.get(name)
        if option == "final_stage":
            options[option] = bool(value)
        else:
            options[option] = NewGameForm.base_fields[name].initial if value is None else value
    return options


class NewGameForm(forms.Form):
    engine = forms.ChoiceField(label=_("Game"))
    players = forms.IntegerField(label=_("Players"), min_value=2, max_value=6, required=False)
    time_preset = forms.ChoiceField(
        label=_("Time control"),
        choices=[(p.slug, p.label) for p in clocks.PRESETS.values()],
        initial=clocks.DEFAULT_PRESET,
    )
    move_seconds = seconds_field(_("Time per move, seconds"), MIN_MOVE_SECONDS, MAX_MOVE_SECONDS,
                                 help_text=_("Leave empty to use the preset."))
    reserve_seconds = seconds_field(_("Reserve time, seconds"), 0, MAX_RESERVE_SECONDS,
                                    help_text=_("Leave empty to use the preset."))
    on_timeout = forms.ChoiceField(label=_("When time runs out"), choices=Game.OnTimeout.choices,
                                   initial=Game.OnTimeout.AUTOPLAY)
    night_pause = forms.BooleanField(
        label=_("Players' night pauses apply"), required=False, initial=True,
        help_text=_("Each player's clock stops during the night window set in their profile (not on Live tables)."),
    )
    series_length = forms.IntegerField(label=_("Games in the series"), min_value=1, max_value=20, initial=1, required=False,
                                       help_text=_("The next game starts by itself when one ends."))
    # Durak
    durak_mode = forms.ChoiceField(label=_("Durak variant"), required=False, initial="podkidnoy",
                                   choices=[("podkidnoy", _("podkidnoy (throw-in)")), ("perevodnoy", _("perevodnoy (transfer)"))])
    durak_teams = forms.BooleanField(label=_("Two pairs (2×2), partners opposite"), required=False)
    attacker_seconds = seconds_field(_("Attacker's time, seconds"), MIN_MOVE_SECONDS, MAX_MOVE_SECONDS)
    defender_seconds = seconds_field(_("Defender's time, seconds"), MIN_MOVE_SECONDS, MAX_MOVE_SECONDS)
    throwers_seconds = seconds_field(_("Throwers' time, seconds"), MIN_MOVE_SECONDS, MAX_MOVE_SECONDS)
    # Ipuker
    ipuker_leader_order = forms.ChoiceField(label=_("Order of leaders"), required=False, initial="clockwise",
                                            choices=[("clockwise", _("clockwise")), ("random", _("random"))])
    ipuker_min_stake = forms.TypedChoiceField(label=_("Smallest stake"), required=False, coerce=int, initial=9,
                                              choices=[(9, _("9 (basic)")), (1, _("1 (advanced)"))])
    ipuker_max_stake = forms.IntegerField(label=_("Largest stake"), required=False, min_value=9, max_value=100, initial=30)
    ipuker_overflow = forms.ChoiceField(label=_("When the cards overflow the fields"), required=False, initial="basic",
                                        choices=[("basic", _("basic: players pay")), ("kids", _("kids: nobody wins")),
                                                 ("cards", _("cards: random layout"))])
    # Domino Poker: the number of deals of each stage (rules/domino-poker.md "Stages")
    domino_sevens = count_field(_("Deals of 7 tiles in stage 1"), 0, 10, 4)
    domino_blind_deals = count_field(_("Blind deals (stage 2)"), 0, 4, 1)
    domino_grab_deals = count_field(_("Grab deals (stage 3)"), 0, 4, 1)
    domino_misere_deals = count_field(_("Misère deals (stage 4)"), 0, 4, 1)
    domino_final_stage = forms.BooleanField(label=_("Final stage: one tile each, show or hide (stage 5)"),
                                            required=False)
    is_private = forms.BooleanField(label=_("Private table (invite link only)"), required=False)
    rated = forms.BooleanField(
        label=_("Rated game"), required=False, initial=True,
        help_text=_("The result changes the players' ratings. A game with a computer player is never rated."),
    )
    fill_with_bots = forms.BooleanField(label=_("Fill the empty seats with computer players"), required=False)

    COMMON = ["engine", "players", "time_preset", "move_seconds", "reserve_seconds", "on_timeout", "night_pause",
              "series_length", "is_private", "rated", "fill_with_bots"]
    PER_GAME = {
        "durak": ["durak_mode", "durak_teams", "attacker_seconds", "defender_seconds", "throwers_seconds"],
        "ipuker": ["ipuker_leader_order", "ipuker_min_stake", "ipuker_max_stake", "ipuker_overflow"],
        "domino_poker": ["domino_sevens", "domino_blind_deals", "domino_grab_deals", "domino_misere_deals",
                         "domino_final_stage"],
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["engine"].choices = [(slug, engine_name(engine)) for slug, engine in ENGINES.items()]

    def clean(self):
        """The options of the games not chosen are hidden on the page: their errors must not block the form."""
        cleaned = super().clean()
        for slug, names in self.PER_GAME.items():
            if slug != cleaned.get("engine"):
                for name in names:
                    self._errors.pop(name, None)
        return cleaned

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
        if engine == "domino_poker":
            return domino_options(data)
        return {}

    def domino_schedule(self) -> list[str]:
        """Domino Poker's deal schedule in words for the options as filled in (the defaults until they are valid)."""
        from gameplay.domino import schedule_lines

        data = {name: self[name].value() for name in DOMINO_FIELDS.values()}
        fields = {name: self.fields[name] for name in DOMINO_FIELDS.values()}
        try:
            cleaned = {name: fields[name].clean(value) for name, value in data.items()}
        except forms.ValidationError:
            cleaned = {}
        try:
            return schedule_lines(domino_options(cleaned))
        except ValueError:
            return schedule_lines({})

    def timer_seconds(self) -> dict:
        if self.cleaned_data["engine"] != "durak":
            return {}
        return {clock: self.cleaned_data[f"{clock}_seconds"] for clock in ("attacker", "defender", "throwers")
                if self.cleaned_data.get(f"{clock}_seconds")}


class JoinForm(forms.Form):
    """The seat a player asks for at an open table (none: the first free one)."""

    def __init__(self, *args, seats: int, **kwargs):
        super().__init__(*args, **kwargs)
        no_such_seat = _("There is no such seat.")
        self.fields["position"] = forms.IntegerField(
            required=False, min_value=0, max_value=seats - 1,
            error_messages={"invalid": no_such_seat, "min_value": no_such_seat, "max_value": no_such_seat},
        )


class AbortForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=1000)
