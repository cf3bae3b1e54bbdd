from django import forms
from django.utils.translation import gettext_lazy as _

from gameplay import clocks
from gameplay.computer_levels import DEFAULT_LEVEL, level_choices, level_help
from gameplay.engine import ENGINES
from gameplay.forms import GameOptionsForm
from gameplay.i18n import engine_name
from gameplay.models import Game
from leagues.models import DEFAULT_TIEBREAKS, League

TIEBREAK_CHOICES = [
    ("", _("—")),
    ("wins", _("number of wins (first places)")),
    ("sonneborn_berger", _("Sonneborn–Berger")),
    ("direct", _("direct encounters among the tied players")),
    ("game_score", _("total game score")),
    ("last_seat_results", _("points from the last seat to move")),
    ("rating", _("rating at the start of the season")),
    ("lot", _("a lot drawn from the season's seed")),
]
TIEBREAK_FIELDS = 5
HEAD_FIELDS = ["name", "description", "engine", "players"]


class LeagueForm(GameOptionsForm):
    """A new league: its game with the game's options (the new-table form's own
    fields and option building, `GameOptionsForm`; `services.create_league`
    has the engine validate them), its tables' time and its rules."""

    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
    engine = forms.ChoiceField(label=_("Game"))
    players = forms.IntegerField(label=_("Players at a table"), min_value=2, max_value=6)
    time_preset = forms.ChoiceField(label=_("Time control"), initial=clocks.DEFAULT_PRESET,
                                    choices=[(p.slug, p.label) for p in clocks.PRESETS.values()])
    on_timeout = forms.ChoiceField(label=_("When time runs out"), choices=Game.OnTimeout.choices,
                                   initial=Game.OnTimeout.AUTOPLAY)
    is_private = forms.BooleanField(label=_("Invite-only league"), required=False)
    allow_bots = forms.BooleanField(label=_("Bot accounts may enter"), required=False, initial=False)
    registration_closes_at = forms.DateTimeField(
        label=_("Registration closes"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("Leave empty to close it by hand (or by starting the season)."))
    games_per_player = forms.IntegerField(label=_("Games per player in a season"), min_value=1, max_value=100,
                                          required=False, help_text=_("Leave empty for everyone meets everyone."))
    meetings = forms.IntegerField(label=_("Times each pair meets (two-player games)"), min_value=1, max_value=4,
                                  initial=1)
    division_size = forms.IntegerField(label=_("Players in a division"), min_value=2, max_value=100, initial=8)
    start = forms.ChoiceField(label=_("The games start"), choices=League.Start.choices, initial=League.Start.ALL)
    points_per_place = forms.CharField(
        label=_("League points per place"), required=False,
        help_text=_("Numbers from the first place to the last, such as 3, 1, 0, 0. Empty: 1 for the best, "
                    "0 for the last, shared places share the points."))
    promotion = forms.IntegerField(label=_("Promoted from a division"), min_value=0, max_value=10, initial=1)
    relegation = forms.IntegerField(label=_("Relegated from a division"), min_value=0, max_value=10, initial=1)
    on_withdrawal = forms.ChoiceField(label=_("When a player withdraws"), choices=League.OnWithdrawal.choices,
                                      initial=League.OnWithdrawal.LOSSES, required=False)
    computer_substitutes = forms.BooleanField(
        label=_("Computer players may take over the seat of a player who left"), required=False, initial=True,
        help_text=_("Never at the start of a game: only as a substitute. Needed for a computer to finish the "
                    "games of a player who withdraws."))
    computer_level = forms.TypedChoiceField(
        label=_("Level of the computer substitutes"), choices=level_choices, coerce=int, initial=DEFAULT_LEVEL,
        required=False, help_text=level_help)
    substitute_results = forms.ChoiceField(
        label=_("The results of a seat given to a substitute"), choices=League.SubstituteResults.choices,
        initial=League.SubstituteResults.ENTRY, required=False)
    annul_below_half = forms.BooleanField(
        label=_("Annul the results of a player who withdraws before playing half of the games"), required=False,
        initial=True)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["engine"].choices = [(slug, engine_name(engine)) for slug, engine in ENGINES.items()]
        for i in range(1, TIEBREAK_FIELDS + 1):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": i}, choices=TIEBREAK_CHOICES, required=False,
                initial=DEFAULT_TIEBREAKS[i - 1] if i <= len(DEFAULT_TIEBREAKS) else "")

    def clean_points_per_place(self) -> list[float]:
        text = self.cleaned_data["points_per_place"].replace(";", ",").strip()
        if not text:
            return []
        try:
            return [float(part) for part in text.split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(_("Write numbers separated by commas, such as 3, 1, 0, 0.")) from None

    def game_fields(self):
        """The fields choosing the game, before its options."""
        return [self[name] for name in HEAD_FIELDS]

    def league_fields(self):
        """The league's own fields, after the game's options (the tie-breaks apart)."""
        options = {name for names in self.OPTIONS.values() for name in names}
        return [self[name] for name in self.fields
                if name not in options and name not in HEAD_FIELDS and not name.startswith("tiebreak_")]

    def tiebreak_fields(self):
        return [self[f"tiebreak_{i}"] for i in range(1, TIEBREAK_FIELDS + 1)]

    def league_settings(self) -> dict:
        """The keyword arguments of `leagues.services.create_league`."""
        data = self.cleaned_data
        options = self.engine_options()
        preset = clocks.PRESETS[data["time_preset"]]
        return {
            "name": data["name"], "description": data["description"], "engine": data["engine"],
            "players": data["players"], "options": options, "time_preset": preset.slug,
            "on_timeout": data["on_timeout"], "is_private": data["is_private"],
            "allow_bots": data["allow_bots"], "registration_closes_at": data["registration_closes_at"],
            "games_per_player": data["games_per_player"], "meetings": data["meetings"] or 1,
            "division_size": data["division_size"], "start": data["start"],
            "points_per_place": data["points_per_place"], "promotion": data["promotion"],
            "relegation": data["relegation"], "annul_below_half": data["annul_below_half"],
            "on_withdrawal": data["on_withdrawal"] or League.OnWithdrawal.LOSSES,
            "computer_substitutes": data["computer_substitutes"],
            "computer_level": data["computer_level"] or DEFAULT_LEVEL,
            "substitute_results": data["substitute_results"] or League.SubstituteResults.ENTRY,
            "tiebreaks": [data[f"tiebreak_{i}"] for i in range(1, TIEBREAK_FIELDS + 1) if data[f"tiebreak_{i}"]],
        }


class RegisterForm(forms.Form):
    partner = forms.CharField(label=_("Partner (username)"), max_length=150, required=False)


class AddEntryForm(RegisterForm):
    """The organizer adds a player (and, in pairs, the partner)."""

    player = forms.CharField(label=_("Player (username)"), max_length=150)

    field_order = ["player", "partner"]
