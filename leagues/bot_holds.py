"""The league seasons that hold a player from turning his account into a bot
(accounts.bots.add_switch_hold, registered in LeaguesConfig.ready()): his
entries, not withdrawn, in unfinished seasons of leagues that allow no bot
accounts (a bot could not have entered them)."""

from django.db.models import Q
from django.utils.translation import gettext as _

from leagues.models import Entry, Season


def seasons_holding_the_switch(user) -> list[str]:
    entries = (Entry.objects.filter(Q(user=user) | Q(partner=user), withdrawn_at__isnull=True,
                                    season__league__allow_bots=False)
               .exclude(season__status=Season.Status.FINISHED)
               .select_related("season__league").order_by("season_id"))
    return [_("the league %(league)s, season %(season)s") % {"league": entry.season.league.name,
                                                               "season": entry.season.number}
            for entry in entries]
