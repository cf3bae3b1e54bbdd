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
