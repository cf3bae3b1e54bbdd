from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from gameplay import clocks, labels
from gameplay.computer_levels import DEFAULT_LEVEL, descriptions as level_descriptions, level_choices
from gameplay.durations import DurationField
from gameplay.engine import ENGINES
from gameplay.i18n import engine_name
from gameplay.models import Game
from gameplay.schedules import domino_poker as domino_schedule
from gameplay.schedules import odessa as odessa_schedule
from gameplay.services.tables import MAX_MOVE_SECONDS, MAX_RESERVE_SECONDS, MIN_MOVE_SECONDS


def _at_most(seconds: int) -> str:
    return ngettext("At most %(days)s day (%(seconds)s seconds).", "At most %(days)s days (%(seconds)s seconds).",
                    seconds // clocks.DAY) % {"days": seconds // clocks.DAY, "seconds": seconds}


def seconds_field(label, low: int, high: int, **kwargs) -> DurationField:
    """A time field entered in days, hours and minutes (its value: seconds), bounded both ways,
    whose error says the bound in days too."""
    return DurationField(label=label, min_value=low, max_value=high, required=False,
                              error_messages={"max_value": lazy(_at_most, str)(high)}, **kwargs)


class TimeControlFields(forms.Form):
    """The time per move and the reserve in days, hours and minutes, for a model form whose rows keep them
    in seconds (a league's or a tournament's tables, in the admin): `class F(TimeControlFields, ModelForm)`.
    The preset is chosen from the presets, not typed."""

    time_preset = forms.ChoiceField(label=_("Time control"), required=False,
                                    choices=lambda: [("", "—"), *((p.slug, p.label) for p in clocks.PRESETS.values())])
    move_seconds = seconds_field(_("Time per move"), MIN_MOVE_SECONDS, MAX_MOVE_SECONDS,
                                 help_text=_("Leave empty to use the preset."))
    reserve_seconds = seconds_field(_("Reserve time"), 0, MAX_RESERVE_SECONDS,
                                    help_text=_("Leave empty to use the preset."))


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
            options[option] = GameOptionsForm.base_fields[name].initial if value is None else value
    return options


# Odessa's special deals, as the form and the lobby name them.
ODESSA_SPECIAL_CHOICES = [("", pgettext_lazy("odessa special", "none")), *labels.ODESSA_SPECIALS.items()]
ODESSA_DEFAULT_PLAYERS = 4
ODESSA_SPECIAL_FIELDS = ["odessa_special_1", "odessa_special_2", "odessa_special_3", "odessa_special_4"]


class GameOptionsForm(forms.Form):
    """Every game's options as whoever sets up its tables chooses them: the one
    place that decides a game's option fields (`OPTIONS`) and turns them into
    the engine's options (`engine_options`; the engine then validates them).
    The new-table form and the league form (leagues/forms.py) are built on it,
    so a game's options added here appear on both. A subclass has an `engine`
    choice field; its page shows `game_fieldsets()` (gameplay/_game_options.html)."""

    # Durak
    durak_mode = forms.ChoiceField(label=_("Durak variant"), required=False, initial="podkidnoy",
                                   choices=labels.DURAK_MODES)
    durak_teams = forms.BooleanField(label=_("Two pairs (2×2), partners opposite"), required=False)
    # Ipuker
    ipuker_leader_order = forms.ChoiceField(label=_("Order of leaders"), required=False, initial="clockwise",
                                            choices=labels.IPUKER_LEADER_ORDERS)
    ipuker_min_stake = forms.TypedChoiceField(label=_("Smallest stake"), required=False, coerce=int, initial=9,
                                              choices=[(9, _("9 (basic)")), (1, _("1 (advanced)"))])
    ipuker_max_stake = forms.IntegerField(label=_("Largest stake"), required=False, min_value=9, max_value=100, initial=30)
    ipuker_overflow = forms.ChoiceField(label=_("When the cards overflow the fields"), required=False, initial="basic",
                                        choices=labels.IPUKER_OVERFLOWS)
    # Domino Poker: the number of deals of each stage (rules/domino-poker.md "Stages")
    domino_sevens = count_field(_("Deals of 7 tiles in stage 1"), 0, 10, 4)
    domino_blind_deals = count_field(_("Blind deals (stage 2)"), 0, 4, 1)
    domino_grab_deals = count_field(_("Grab deals (stage 3)"), 0, 4, 1)
    domino_misere_deals = count_field(_("Misère deals (stage 4)"), 0, 4, 1)
    domino_final_stage = forms.BooleanField(label=_("Final stage: one tile each, show or hide (stage 5)"),
                                            required=False)
    # Odessa poker
    odessa_deck = forms.TypedChoiceField(
        label=_("Deck"), required=False, initial=36, coerce=int,
        choices=[(36, _("36 cards (6 to ace), 7♠ is the joker")), (52, _("52 cards (2 to ace), 7♠ is the joker")),
                 (53, _("53 cards: 52 and a real joker"))],
        help_text=_("The joker plays high, low, or, leading, demands the highest card of a suit."))
    odessa_max_hand = forms.IntegerField(
        label=_("Most cards in a hand"), required=False, min_value=2, max_value=12,
        help_text=_("Empty: as many as the deck allows (at most 12)."))
    odessa_trump = forms.ChoiceField(
        label=_("Trump"), required=False, initial="turned",
        choices=[("turned", _("the card turned after the deal")), ("S", _("spades ♠ for the whole game")),
                 ("C", _("clubs ♣ for the whole game")), ("D", _("diamonds ♦ for the whole game")),
                 ("H", _("hearts ♥ for the whole game"))],
        help_text=_("A turned joker, or no card left to turn, makes the deal no-trump."))
    odessa_dealer_rule = forms.ChoiceField(
        label=_("The dealer's bid"), required=False, initial="not_equal",
        choices=labels.ODESSA_DEALER_RULES,
        help_text=_("The dealer bids last."))
    odessa_joker_demand = forms.ChoiceField(
        label=_("The joker's demand"), required=False, initial="any_trick",
        choices=labels.ODESSA_JOKER_DEMANDS,
        help_text=_("Leading the joker, a player may demand everyone's highest card of a suit."))
    odessa_special_1 = forms.ChoiceField(
        label=_("1st special deal"), required=False, initial="blind", choices=ODESSA_SPECIAL_CHOICES,
        help_text=_("After the last 1-card deal, in this order. Blind: bids before seeing the cards; golden: no bids, "
                    "+10 a trick; miser: no bids, −10 a trick; no trump: no trump."))
    odessa_special_2 = forms.ChoiceField(label=_("2nd special deal"), required=False, initial="golden",
                                         choices=ODESSA_SPECIAL_CHOICES)
    odessa_special_3 = forms.ChoiceField(label=_("3rd special deal"), required=False, initial="miser",
                                         choices=ODESSA_SPECIAL_CHOICES)
    odessa_special_4 = forms.ChoiceField(label=_("4th special deal"), required=False, initial="no_trump",
                                         choices=ODESSA_SPECIAL_CHOICES)
    odessa_specials_mode = forms.ChoiceField(
        label=_("Each special is dealt"), required=False, initial="round",
        choices=[("round", _("once by every player")), ("once", _("once"))],
        help_text=_("Once by every player: as many deals of each special as there are players."))
    odessa_special_multiplier = forms.TypedChoiceField(
        label=_("Points in the specials"), required=False, coerce=int, initial=2,
        choices=[(2, _("doubled")), (3, _("tripled"))],
        help_text=_("Golden and miser count 10 a trick times this; blind and no trump multiply the usual points."))

    OPTIONS = {
        "durak": ["durak_mode", "durak_teams"],
        "ipuker": ["ipuker_leader_order", "ipuker_min_stake", "ipuker_max_stake", "ipuker_overflow"],
        "domino_poker": ["domino_sevens", "domino_blind_deals", "domino_grab_deals", "domino_misere_deals",
                         "domino_final_stage"],
        "odessa": ["odessa_deck", "odessa_max_hand", "odessa_trump", "odessa_dealer_rule", "odessa_joker_demand",
                   *ODESSA_SPECIAL_FIELDS, "odessa_specials_mode", "odessa_special_multiplier"],
    }
    PER_GAME = OPTIONS  # the fields shown for each game (a subclass may add its own)

    def clean(self):
        data = super().clean()
        # The options of the games not chosen are hidden on the page: their errors must not block the form.
        for slug, names in self.PER_GAME.items():
            if slug != data.get("engine"):
                for name in names:
                    self._errors.pop(name, None)
        if data.get("engine") == "odessa":
            chosen = [data.get(name) for name in ODESSA_SPECIAL_FIELDS if data.get(name)]
            if len(set(chosen)) < len(chosen):
                self.add_error(None, _("Each special deal may be chosen only once."))
        return data

    def game_fieldsets(self):
        """(engine slug, its fields) for the games that have options."""
        return [(slug, [self[name] for name in names]) for slug, names in self.PER_GAME.items() if slug in ENGINES]

    def engine_options(self) -> dict:
        """The chosen game's options for its engine, from the cleaned data."""
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
        if engine == "odessa":
            return odessa_options(data, specials_posted=any(name in self.data for name in ODESSA_SPECIAL_FIELDS))
        return {}

    def domino_schedule(self) -> list[str]:
        """Domino Poker's deal schedule in words for the options as filled in (the defaults until they are valid)."""
        data = {name: self[name].value() for name in DOMINO_FIELDS.values()}
        fields = {name: self.fields[name] for name in DOMINO_FIELDS.values()}
        try:
            cleaned = {name: fields[name].clean(value) for name, value in data.items()}
        except forms.ValidationError:
            cleaned = {}
        try:
            return domino_schedule.schedule_lines(domino_options(cleaned))
        except ValueError:
            return domino_schedule.schedule_lines({})

    def odessa_schedule(self) -> str:
        """The Odessa deal schedule of the options shown, in words (the defaults on an empty form;
        "" where the options do not fit together): the form's preview before its script runs."""
        if not self.is_bound:
            return odessa_schedule.schedule_text(ODESSA_DEFAULT_PLAYERS, {})
        if self.is_valid() and self.cleaned_data.get("engine") == "odessa":
            return odessa_schedule.schedule_text(self.cleaned_data["players"], self.engine_options())
        return ""


LEVEL_SEATS = range(2, 7)  # the seats after the creator's, at the largest table (6)


class NewGameForm(GameOptionsForm):
    engine = forms.ChoiceField(label=_("Game"))
    players = forms.IntegerField(label=_("Number of players"), min_value=2, max_value=6, required=False)
    time_preset = forms.ChoiceField(
        label=_("Time control"),
        choices=[(p.slug, p.label) for p in clocks.PRESETS.values()],
        initial=clocks.DEFAULT_PRESET,
    )
    move_seconds = seconds_field(_("Time per move"), MIN_MOVE_SECONDS, MAX_MOVE_SECONDS,
                                 help_text=_("Leave empty to use the preset."))
    reserve_seconds = seconds_field(_("Reserve time"), 0, MAX_RESERVE_SECONDS,
                                    help_text=_("Leave empty to use the preset."))
    on_timeout = forms.ChoiceField(label=_("When time runs out"), choices=Game.OnTimeout.choices,
                                   initial=Game.OnTimeout.AUTOPLAY)
    night_pause = forms.BooleanField(
        label=_("Players' night pauses apply"), required=False, initial=True,
        help_text=_("Each player's clock stops during the night window set in their profile (not on Live tables)."),
    )
    series_length = forms.IntegerField(label=_("Games in the series"), min_value=1, max_value=20, initial=1, required=False,
                                       help_text=_("The next game starts by itself when one ends."))
    # Durak's clocks (a table's time control, not the engine's options)
    attacker_seconds = seconds_field(_("Attacker's time"), MIN_MOVE_SECONDS, MAX_MOVE_SECONDS)
    defender_seconds = seconds_field(_("Defender's time"), MIN_MOVE_SECONDS, MAX_MOVE_SECONDS)
    throwers_seconds = seconds_field(_("Throwers' time"), MIN_MOVE_SECONDS, MAX_MOVE_SECONDS)
    is_private = forms.BooleanField(label=_("Private table (invite link only)"), required=False)
    rated = forms.BooleanField(
        label=_("Rated game"), required=False, initial=True,
        help_text=_("The result changes the players' ratings. A game with a computer player is never rated."),
    )
    fill_with_bots = forms.BooleanField(label=_("Fill the empty seats with computer players"), required=False)
    allow_bots = forms.BooleanField(
        label=_("Bot accounts may join"), required=False, initial=False,
        help_text=_("Programs playing through the API, labelled BOT. Their games are rated in the bots' own pool."),
    )

    LEVELS = [f"computer_level_{seat}" for seat in LEVEL_SEATS]
    COMMON = ["engine", "players", "time_preset", "move_seconds", "reserve_seconds", "on_timeout", "night_pause",
              "series_length", "is_private", "rated", "fill_with_bots", "allow_bots"]
    TIMERS = {"durak": ["attacker_seconds", "defender_seconds", "throwers_seconds"]}  # the table's clocks
    PER_GAME = {**GameOptionsForm.OPTIONS, "durak": [*GameOptionsForm.OPTIONS["durak"], *TIMERS["durak"]]}
    field_order = COMMON

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["engine"].choices = [(slug, engine_name(engine)) for slug, engine in ENGINES.items()]
        for seat, name in zip(LEVEL_SEATS, self.LEVELS):
            self.fields[name] = forms.TypedChoiceField(
                label=_("Seat %(n)s") % {"n": seat}, choices=level_choices, coerce=int, initial=DEFAULT_LEVEL,
                required=False, widget=forms.Select(attrs={"data-seat": seat}),
                error_messages={"invalid_choice": _("There is no computer level %(value)s.")})

    def clean(self):
        data = super().clean()
        if data.get("engine") == "odessa":
            data["players"] = data.get("players") or ODESSA_DEFAULT_PLAYERS
        return data

    def common_fields(self):
        return [self[name] for name in self.COMMON]

    def level_fields(self):
        """The level of the computer in each seat after the creator's (seat 2 on; those past the
        table's size are unused)."""
        return [self[name] for name in self.LEVELS]

    def computer_levels(self) -> list[int]:
        """The levels chosen for the empty seats, in seat order."""
        return [self.cleaned_data.get(name) or DEFAULT_LEVEL for name in self.LEVELS]

    @staticmethod
    def level_descriptions():
        return level_descriptions()

    def timer_seconds(self) -> dict:
        if self.cleaned_data["engine"] != "durak":
            return {}
        return {clock: self.cleaned_data[f"{clock}_seconds"] for clock in ("attacker", "defender", "throwers")
                if self.cleaned_data.get(f"{clock}_seconds")}


def odessa_options(data: dict, specials_posted: bool = True) -> dict:
    """The Odessa engine's options from the form's cleaned data (the engine checks them). With
    no special deal field posted at all (a client sending only some fields), the default specials."""
    options = {"deck": data["odessa_deck"] or 36,
               "trump": data["odessa_trump"] or "turned",
               "dealer_rule": data["odessa_dealer_rule"] or "not_equal",
               "joker_demand": data["odessa_joker_demand"] or "any_trick",
               "specials_mode": data["odessa_specials_mode"] or "round",
               "special_multiplier": data["odessa_special_multiplier"] or 2}
    if specials_posted:
        options["specials"] = [data[name] for name in ODESSA_SPECIAL_FIELDS if data.get(name)]
    if data.get("odessa_max_hand"):
        options["max_hand"] = data["odessa_max_hand"]
    return options


class JoinForm(forms.Form):
    """The seat a player asks for at an open table (none: the first free one)."""

    def __init__(self, *args, seats: int, **kwargs):
        super().__init__(*args, **kwargs)
        no_such_seat = _("There is no such seat.")
        self.fields["position"] = forms.IntegerField(
            required=False, min_value=0, max_value=seats - 1,
            error_messages={"invalid": no_such_seat, "min_value": no_such_seat, "max_value": no_such_seat},
        )
