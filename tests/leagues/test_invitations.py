"""Nobody is entered in a league season without his consent (issue 24): the
organizer invites, the player accepts or declines; in pairs both partners
consent. Until then the organizer sees the invitation as waiting."""

import pytest

from gameplay.services.base import GameError
from leagues import services
from leagues.models import Entry, Invitation
from tests.gameplay.conftest import client_for
from tests.leagues.test_league_services import league_of, people, season_of  # noqa: F401

pytestmark = pytest.mark.django_db


def test_an_invited_player_is_not_entered_until_he_accepts(people):
    season = season_of(league_of(people[0]))
    [invitation] = services.invite(season.pk, people[1], by=people[0])
    assert not Entry.objects.filter(season=season).exists()
    entry = services.accept_invitation(invitation.pk, people[1])
    assert entry.user == people[1] and Invitation.objects.get().status == Invitation.Status.ACCEPTED


def test_a_player_who_declines_is_never_entered_and_cannot_change_his_answer_later(people):
    season = season_of(league_of(people[0]))
    [invitation] = services.invite(season.pk, people[1], by=people[0])
    services.decline_invitation(invitation.pk, people[1])
    with pytest.raises(GameError, match="already been answered"):
        services.accept_invitation(invitation.pk, people[1])
    assert not Entry.objects.exists()


def test_only_the_invited_player_answers_his_invitation(people):
    season = season_of(league_of(people[0]))
    [invitation] = services.invite(season.pk, people[1], by=people[0])
    for other in (people[0], people[2]):
        with pytest.raises(GameError, match="no such invitation"):
            services.accept_invitation(invitation.pk, other)
    assert client_for(people[2]).post(f"/leagues/invitations/{invitation.pk}/accept/").status_code == 404
    assert not Entry.objects.exists()


def test_a_pair_is_entered_once_both_partners_accept(people):
    season = season_of(league_of(people[0], players=4, options={"teams": True}))
    first, second = services.invite(season.pk, people[1], people[2], by=people[0])
    assert services.accept_invitation(first.pk, people[1]) is None
    assert not Entry.objects.exists()
    entry = services.accept_invitation(second.pk, people[2])
    assert {entry.user, entry.partner} == {people[1], people[2]}


def test_a_player_registering_in_pairs_names_a_partner_who_must_accept_too(people):
    season = season_of(league_of(people[0], players=4, options={"teams": True}))
    invitation = services.register(season.pk, people[1], people[2])
    assert invitation.user == people[2] and not Entry.objects.exists()
    services.decline_invitation(invitation.pk, people[2])
    assert not Entry.objects.exists()


def test_the_invited_player_answers_on_the_site_and_the_organizer_sees_who_has_not(people):
    season = season_of(league_of(people[0]))
    services.invite(season.pk, people[1], by=people[0])
    services.invite(season.pk, people[2], by=people[0])
    player = client_for(people[1])
    page = player.get("/leagues/").content.decode()
    assert "Invitations for you" in page and "Kitchen league" in page
    invitation = Invitation.objects.get(user=people[1])
    player.post(f"/leagues/invitations/{invitation.pk}/accept/")
    declined = Invitation.objects.get(user=people[2])
    client_for(people[2]).post(f"/leagues/invitations/{declined.pk}/decline/")
    organizer_page = client_for(people[0]).get(season.get_absolute_url()).content.decode()
    assert "declined" in organizer_page
    assert [e.user for e in Entry.objects.all()] == [people[1]]


def test_the_organizer_adds_nobody_directly_any_more(people):
    """The season page's form invites: the account is not in the season after the post."""
    season = season_of(league_of(people[0]))
    client_for(people[0]).post(f"{season.get_absolute_url()}add/", {"player": people[1].username})
    assert not Entry.objects.exists() and Invitation.objects.get().user == people[1]


def test_an_invite_only_league_is_visible_to_the_players_it_invites(people):
    league = league_of(people[0], is_private=True)
    assert client_for(people[1]).get(league.get_absolute_url()).status_code == 404
    services.invite(season_of(league).pk, people[1], by=people[0])
    assert client_for(people[1]).get(league.get_absolute_url()).status_code == 200
