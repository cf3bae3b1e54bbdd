"""The challenges that hold a player from turning his account into a bot
(accounts.bots.add_switch_hold, registered in CorrespondenceConfig.ready()):
those still waiting for answers that he sent or was sent. Their players
answered a person; a table started from them would allow bots and rate the
game in the bots' pool."""

from django.db.models import Q
from django.utils.translation import gettext as _

from correspondence.models import Challenge, Invitation


def challenges_holding_the_switch(user) -> list[str]:
    mine = Q(created_by=user) | Q(pk__in=Invitation.objects.filter(user=user).values("challenge_id"))
    found = Challenge.objects.filter(mine, status=Challenge.Status.PENDING).order_by("pk").values_list("pk", flat=True)
    return [_("challenge #%(id)s") % {"id": pk} for pk in found]
