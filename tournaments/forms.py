from django import forms
from django.utils.translation import gettext_lazy as _

from gameplay.bots import LEVELS
from gameplay.computer_levels import level_help
from gameplay.engine import ENGINES, get_engine
from gameplay.i18n import engine_name
from tournaments.models import Tournament


def _games() -> list[tuple[str, str]]:
    return [(slug, engine_name(get_engine(slug))) for slug in ENGINES]


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=80)
    engine = forms.ChoiceField(label=_("game"), choices=_games)
    players = forms.IntegerField(label=_("players at a table"), min_value=2, max_value=6, initial=2)
    format = forms.ChoiceField(label=_("format"), choices=Tournament.Format.choices)
    advance = forms.IntegerField(label=_("places that go on from a table"), min_value=1, max_value=5, initial=1,
                                 help_text=_("A knockout cup at tables of 3 to 6."))
    games_per_match = forms.IntegerField(label=_("games per match"), min_value=1, max_value=9, initial=1,
                                         required=False, help_text=_("A knockout cup at two-player tables."))
    group_size = forms.IntegerField(label=_("players in a group"), min_value=0, max_value=16, initial=0,
                                    required=False, help_text=_("0: no groups before the cup."))
    group_advance = forms.IntegerField(label=_("players that go on from a group"), min_value=1, max_value=15,
                                       initial=1, required=False)
    rounds = forms.IntegerField(label=_("rounds"), min_value=0, max_value=30, initial=0,
                                help_text=_("0: suggested from the entrants at the start."))
    round_days = forms.IntegerField(label=_("days for a round"), min_value=1, max_value=60, initial=7)
    next_round = forms.ChoiceField(label=_("the next round starts"), choices=Tournament.NextRound.choices)
    start_window_hours = forms.IntegerField(label=_("hours to begin a round's game"), min_value=0, max_value=336,
                                            initial=0, required=False, help_text=_("0: no start window."))
    max_entries = forms.IntegerField(label=_("most players"), min_value=2, required=False)
    forfeits_to_withdraw = forms.IntegerField(label=_("forfeits that withdraw a player"), min_value=0,
                                              max_value=10, initial=2, help_text=_("0: never."))
    rated = forms.BooleanField(label=_("rated games"), required=False, initial=True)
    substitute_level = forms.TypedChoiceField(
        label=_("a player who leaves"), coerce=int, initial=0, required=False,
        choices=lambda: [(0, _("forfeits the game in play"))] + [
            (level, _("a computer of level %(level)s finishes the games") % {"level": level}) for level in LEVELS],
        help_text=level_help)
    description = forms.CharField(label=_("description"), widget=forms.Textarea, required=False)

    def tournament_settings(self) -> dict:
        data = dict(self.cleaned_data)
        data["start_window_hours"] = data.get("start_window_hours") or 0
        data["games_per_match"] = data.get("games_per_match") or 1
        data["group_size"] = data.get("group_size") or 0
        data["group_advance"] = data.get("group_advance") or 1
        data["substitute_level"] = data.get("substitute_level") or 0
        return data
